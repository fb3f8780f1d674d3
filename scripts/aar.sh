#!/usr/bin/env bash
# Assembles the Android library archive (AAR) of the Kotlin facade:
#   scripts/aar.sh --jar softchat-kotlin.jar --out softchat.aar ABI=LIBRARY [ABI=LIBRARY ...]
#   --jar    the facade's jar, as Maven builds it (bindings/kotlin/mvn.sh package:
#            bindings/kotlin/softchat/target/softchat-kotlin-VERSION.jar)
#   ABI      arm64-v8a, armeabi-v7a, x86_64 or x86
#   LIBRARY  that ABI's libsoftchat_jni.so (the stripped copy, BUILD/dist/libsoftchat_jni.so)
# Layout (the AAR format of the Android Gradle plugin):
#   AndroidManifest.xml        bindings/android/AndroidManifest.xml (minSdk 24)
#   classes.jar                the facade's jar, as built
#   jni/<ABI>/libsoftchat_jni.so
#   proguard.txt               the consumer R8 rules: the jar's META-INF/proguard/softchat.pro
#   R.txt                      empty (no resources)
# The facade's runtime dependency (kotlin-stdlib) is not in the archive: an app's build
# resolves it from the POM a published AAR carries. The archive is deterministic (sorted
# entries, fixed timestamps). Needs python3.
# tests/platform/check_aar.py checks the result (ctest platform.aar).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
android="$here/../bindings/android"
jar=""
out=""
libs=()
while [ $# -gt 0 ]; do
  case $1 in
    --jar) jar=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *=*) libs+=("$1"); shift ;;
    *) echo "aar: bad argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$jar" ] || [ -z "$out" ] || [ ${#libs[@]} -eq 0 ]; then
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
[ -f "$jar" ] || { echo "aar: no jar $jar" >&2; exit 2; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$android/AndroidManifest.xml" "$stage/AndroidManifest.xml"
cp "$jar" "$stage/classes.jar"
python3 - "$jar" "$stage/proguard.txt" <<'PY' || { echo "aar: $jar has no META-INF/proguard/softchat.pro" >&2; exit 2; }
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("META-INF/proguard/softchat.pro"))
PY
: >"$stage/R.txt"
for l in "${libs[@]}"; do
  abi=${l%%=*}
  so=${l#*=}
  case $abi in
    arm64-v8a | armeabi-v7a | x86_64 | x86) ;;
    *) echo "aar: unknown ABI '$abi' (arm64-v8a, armeabi-v7a, x86_64, x86)" >&2; exit 2 ;;
  esac
  [ -f "$so" ] || { echo "aar: no library $so for $abi" >&2; exit 2; }
  [ ! -e "$stage/jni/$abi" ] || { echo "aar: $abi given twice" >&2; exit 2; }
  mkdir -p "$stage/jni/$abi"
  cp "$so" "$stage/jni/$abi/libsoftchat_jni.so"
done
mkdir -p "$(dirname "$out")"
python3 - "$stage" "$out" <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
names = []
for d, _, files in os.walk(stage):
    for f in files:
        names.append(os.path.relpath(os.path.join(d, f), stage))
with zipfile.ZipFile(out + ".part", "w", zipfile.ZIP_DEFLATED) as z:
    for n in sorted(names):
        info = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(os.path.join(stage, n), "rb") as f:
            z.writestr(info, f.read())
os.replace(out + ".part", out)
PY
echo "aar: $out (${libs[*]%%=*})" >&2
