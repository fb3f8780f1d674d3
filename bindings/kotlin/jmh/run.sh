#!/usr/bin/env bash
# The JVM measurement driver: JMH over the Kotlin facade with the peers in the same run, the
# per-call object counts, then the verdicts. Writes into OUT_DIR:
#   jmh.json     JMH's JSON (-rf json), with -prof gc (gc.alloc.rate.norm: bytes per call)
#   alloc.json   objects and bytes per call (AllocCount: Epsilon GC, class histograms)
#   peers.json   which peers ran, and why the others did not
#   summary.json every row with every side, the facade against each peer (ratio, verdict,
#                margin) and the JVM targets with their status (summary.py); beside it
#                OUT_DIR/summary.md, the same as Markdown tables
#   jmh.log      JMH's console output
# Usage: bindings/kotlin/jmh/run.sh OUT_DIR [--quick] [--jni LIB] [--label TEXT]
#   --quick  a smoke profile for CI: 1 fork, 1 short warm-up and 2 short iterations, NIP-44 at
#            1024 bytes only (numbers from it are not measurements)
#   --jni    the JNI library (default: SOFTCHAT_JNI, else build/release/bindings/kotlin/jni/
#            libsoftchat_jni.so)
#   --label  said with the numbers (summary.json "label", the Markdown's heading), e.g.
#            "under load: a shared machine" for a run that is not a quiet measurement
# The audit runs it as `run.sh AUDIT/jvm [--quick] --jni BUILD/bindings/kotlin/jni/
# libsoftchat_jni.so` and reads the files above; its exit status is 0 when every step ran.
# The full profile is the benchmarks' own: 3 forks, 3 x 1 s warm-up, 5 x 1 s measurement,
# average time per call, G1 with a fixed 1 GiB heap (-Xms1g -Xmx1g), on JDK 17.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR [--quick] [--jni LIB] [--label TEXT]" >&2; exit 2; }
out=$1
shift
quick=0
label=""
jni=${SOFTCHAT_JNI:-$root/build/release/bindings/kotlin/jni/libsoftchat_jni.so}
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --jni) jni=$2; shift ;;
    --label) label=$2; shift ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
case $jni in /*) ;; *) jni=$PWD/$jni ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ ! -f "$jni" ]; then
  echo "jvm: the JNI library $jni is missing (build the softchat_jni target)" >&2
  exit 3
fi
jar=$here/target/benchmarks.jar
if [ ! -f "$jar" ] || [ -n "$(find "$here/src" "$here/pom.xml" "$root/bindings/kotlin/softchat/src/main" -newer "$jar" -type f | head -1)" ]; then
  echo "jvm: building the benchmarks (bindings/kotlin/mvn.sh)" >&2
  SOFTCHAT_JNI=$jni "$root/bindings/kotlin/mvn.sh" -q -DskipTests package >&2 || {
    echo "jvm: could not build the benchmarks (see above)" >&2; exit 3; }
fi
props=(-Dsoftchat.jni.path="$jni" -Dsoftchat.vectors.dir="$root/vectors")

# The peers, all in the same run on the same inputs (jmh/pom.xml pins their versions).
cat >"$out/peers.json" <<JSON
{"schema":"softchat-jvm-peers/1","peers":[
 {"name":"bouncycastle","status":"measured","what":"NIP-44 v2 from Bouncy Castle primitives (bcprov-jdk18on 1.87: secp256k1 custom curve, HMAC-SHA256, HKDF, ChaCha20 RFC 8439); the construction after the spec","vectors":"official NIP-44 v2 vectors passed in each benchmark's setup"},
 {"name":"bc-acinq","status":"measured","what":"events: ACINQ secp256k1-kmp-jni-jvm 0.18.0 (libsecp256k1 over JNI) for keys and BIP-340, Bouncy Castle SHA-256, Gson 2.13.2 for JSON"},
 {"name":"rust-nostr","status":"measured","what":"rust-nostr's own JVM binding, org.rust-nostr:nostr-sdk-kmp-jvm 0.44.3 (UniFFI over JNA 5.15, the Rust nostr crate inside), driven from Kotlin (RustNostr.kt): keys, NIP-44 v2 with keys (the binding has no held conversation, so the held rows are not shared), events signed to JSON, parse + verify, NIP-17 and gift wraps to JSON (its async calls under runBlocking), unwrap from JSON; its objects closed after use","vectors":"the official NIP-44 v2 encrypt_decrypt vectors decrypted both ways and round-tripped in each setup (the invalid-payload vectors need a conversation key, which the binding does not take); payloads, events and wraps read both ways with the facade"}
]}
JSON

jmh_args=(-prof gc -rf json -rff "$out/jmh.json")
alloc_args=()
if [ $quick = 1 ]; then
  jmh_args+=(-f 1 -wi 1 -i 2 -w 200ms -r 200ms -p bytes=1024)
  alloc_args=(--quick)
fi
echo "jvm: JMH ($([ $quick = 1 ] && echo quick || echo full) profile) -> $out/jmh.json" >&2
java "${props[@]}" -jar "$jar" "${jmh_args[@]}" >"$out/jmh.log" 2>&1 || {
  tail -20 "$out/jmh.log" >&2; echo "jvm: JMH failed (log: $out/jmh.log)" >&2; exit 1; }
echo "jvm: objects per call -> $out/alloc.json" >&2
java "${props[@]}" -cp "$jar" org.softchat.jmh.AllocCount "$out/alloc.json" "${alloc_args[@]}"
echo "jvm: verdicts and targets -> $out/summary.json and .md" >&2
SOFTCHAT_JVM_LABEL="${label:-$([ $quick = 1 ] && echo "smoke profile: not a measurement")}" \
  python3 "$here/summary.py" "$out"
