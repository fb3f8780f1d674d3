#!/usr/bin/env bash
# The JVM benchmarks: JMH over the Kotlin facade with the peers in the same run, then the
# per-call object counts. Writes into OUT_DIR:
#   jmh.json    JMH's JSON (-rf json), with -prof gc (gc.alloc.rate.norm: bytes per call)
#   alloc.json  objects and bytes per call (AllocCount: Epsilon GC, class histograms)
#   peers.json  which peers ran, and why the others did not
#   jmh.log     JMH's console output
# Usage: bindings/kotlin/jmh/run.sh OUT_DIR [--quick] [--jni LIB]
#   --quick  a smoke profile for CI: 1 fork, 1 short warm-up and 2 short iterations, NIP-44 at
#            1024 bytes only (numbers from it are not measurements)
#   --jni    the JNI library (default: SOFTCHAT_JNI, else build/release/bindings/kotlin/jni/
#            libsoftchat_jni.so)
# The full profile is the benchmarks' own: 3 forks, 3 x 1 s warm-up, 5 x 1 s measurement,
# average time per call, G1 with a fixed 1 GiB heap (-Xms1g -Xmx1g), on JDK 17.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR [--quick] [--jni LIB]" >&2; exit 2; }
out=$1
shift
quick=0
jni=${SOFTCHAT_JNI:-$root/build/release/bindings/kotlin/jni/libsoftchat_jni.so}
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --jni) jni=$2; shift ;;
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
if [ ! -f "$jar" ] || [ -n "$(find "$here/src" "$root/bindings/kotlin/softchat/src/main" -newer "$jar" -type f | head -1)" ]; then
  echo "jvm: building the benchmarks (bindings/kotlin/mvn.sh)" >&2
  SOFTCHAT_JNI=$jni "$root/bindings/kotlin/mvn.sh" -q -DskipTests package >&2 || {
    echo "jvm: could not build the benchmarks (see above)" >&2; exit 3; }
fi
props=(-Dsoftchat.jni.path="$jni" -Dsoftchat.vectors.dir="$root/vectors")

# The peers. rust-nostr's JVM binding (UniFFI over JNA) is published as
# org.rust-nostr:nostr-sdk-jvm; on this project's registry it resolves to nothing.
cat >"$out/peers.json" <<JSON
{"schema":"softchat-jvm-peers/1","peers":[
 {"name":"bouncycastle","status":"measured","what":"NIP-44 v2 from Bouncy Castle primitives (bcprov-jdk18on 1.87: secp256k1 custom curve, HMAC-SHA256, HKDF, ChaCha20 RFC 8439); the construction after the spec","vectors":"official NIP-44 v2 vectors passed in each benchmark's setup"},
 {"name":"bc-acinq","status":"measured","what":"events: ACINQ secp256k1-kmp-jni-jvm 0.18.0 (libsecp256k1 over JNI) for keys and BIP-340, Bouncy Castle SHA-256, Gson 2.13.2 for JSON"},
 {"name":"rust-nostr-jvm","status":"not installable","what":"org.rust-nostr:nostr-sdk-jvm 0.44.2 (UniFFI/JNA), also tried org.rust-nostr:nostr-jvm and nostr-sdk-kmp-jvm: not found on Maven Central as this project reaches it (no POM, no version metadata)"}
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
