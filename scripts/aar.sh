#!/usr/bin/env bash
# Assembles the Android library archive (AAR) of the Kotlin facade, and its POM:
#   scripts/aar.sh --jar softchat-kotlin.jar --out softchat.aar [--pom softchat.pom]
#                  ABI=LIBRARY [ABI=LIBRARY ...]
#   --jar    the facade's jar, as Maven builds it (bindings/kotlin/mvn.sh package:
#            bindings/kotlin/softchat/target/softchat-kotlin-VERSION.jar)
#   --pom    also write the POM to publish the AAR with: org.softchat:softchat-android, the
#            jar's version, packaging aar, the jar's own dependencies (kotlin-stdlib), so a
#            Gradle build resolves implementation("org.softchat:softchat-android:VERSION")
#   ABI      arm64-v8a, armeabi-v7a, x86_64 or x86
#   LIBRARY  that ABI's libsoftchat_jni.so (the stripped copy, BUILD/dist/libsoftchat_jni.so)
# Layout (the AAR format of the Android Gradle plugin):
#   AndroidManifest.xml        bindings/android/AndroidManifest.xml (minSdk 24)
#   classes.jar                the facade's jar less the desktop libraries it carries
#                              (org/softchat/native/: an app loads jni/<ABI>/ from its APK)
#   jni/<ABI>/libsoftchat_jni.so
#   proguard.txt               the consumer R8 rules: the jar's META-INF/proguard/softchat.pro
#   R.txt                      empty (no resources)
# The facade's runtime dependency (kotlin-stdlib) is not in the archive: an app's build
# resolves it from the POM (--pom). The archive is deterministic (sorted entries, fixed
# timestamps). Needs python3.
# tests/platform/check_aar.py checks the result (ctest platform.aar).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
android="$here/../bindings/android"
jar=""
out=""
pom=""
libs=()
while [ $# -gt 0 ]; do
  case $1 in
    --jar) jar=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --pom) pom=$2; shift 2 ;;
    *=*) libs+=("$1"); shift ;;
    *) echo "aar: bad argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$jar" ] || [ -z "$out" ] || [ ${#libs[@]} -eq 0 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
[ -f "$jar" ] || { echo "aar: no jar $jar" >&2; exit 2; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$android/AndroidManifest.xml" "$stage/AndroidManifest.xml"
python3 - "$jar" "$stage/proguard.txt" "$stage/classes.jar" <<'PY' || { echo "aar: $jar has no META-INF/proguard/softchat.pro" >&2; exit 2; }
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("META-INF/proguard/softchat.pro"))
    # classes.jar: every entry but the desktop libraries, in the jar's order and dates
    with zipfile.ZipFile(sys.argv[3], "w", zipfile.ZIP_DEFLATED) as cj:
        for info in z.infolist():
            if not info.filename.startswith("org/softchat/native/"):
                cj.writestr(info, z.read(info.filename))
PY
if [ -n "$pom" ]; then
  python3 - "$jar" "$pom" <<'PY' || { echo "aar: $jar has no Maven POM to derive the AAR's from" >&2; exit 2; }
import re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    src = z.read("META-INF/maven/org.softchat/softchat-kotlin/pom.xml").decode()
    props = dict(l.split("=", 1) for l in
                 z.read("META-INF/maven/org.softchat/softchat-kotlin/pom.properties").decode().splitlines()
                 if "=" in l and not l.startswith("#"))
version = props["version"].strip()
block = re.search(r"<properties>(.*?)</properties>", src, re.S).group(1)
props_pom = dict(re.findall(r"<([\w.-]+)>([^<]*)</\1>", block))
deps = [d for d in re.findall(r"<dependency>(.*?)</dependency>", src, re.S) if "<scope>" not in d]
deps = [re.sub(r"<!--.*?-->", "", d, flags=re.S) for d in deps]
deps = [re.sub(r"\$\{([\w.-]+)\}", lambda m: props_pom[m.group(1)], d) for d in deps]
body = "".join("    <dependency>%s</dependency>\n" % d for d in deps)
with open(sys.argv[2], "w") as f:
    f.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.softchat</groupId>
  <artifactId>softchat-android</artifactId>
  <version>{version}</version>
  <packaging>aar</packaging>
  <name>Softchat Android</name>
  <description>The Kotlin facade of libsoftchat with its JNI library per Android ABI</description>
  <licenses><license><name>MIT License</name><distribution>repo</distribution></license></licenses>
  <dependencies>
{body}  </dependencies>
</project>
""")
PY
fi
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
