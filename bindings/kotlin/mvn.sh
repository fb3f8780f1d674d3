#!/usr/bin/env bash
# Maven for the Kotlin facade, online once and offline afterwards.
#   bindings/kotlin/mvn.sh [MAVEN ARGS...]
# Without arguments: mvn verify of every module (the facade's JUnit tests, which also
# packages the JMH benchmarks), then the consumer test (bindings/kotlin/consumer/run.sh: the
# jar and the AAR installed into an empty local repository, a separate project built and run
# against them).
# Environment:
#   SOFTCHAT_JNI   the JNI library the tests load (default: build/test/bindings/kotlin/jni/
#                  libsoftchat_jni.so, the CMake target softchat_jni of scripts/test.sh)
#   SOFTCHAT_JNI_PACKAGE  the libraries the jar carries, space-separated (default: the
#                  stripped copy beside SOFTCHAT_JNI's build, BUILD/dist/libsoftchat_jni.so,
#                  unless older than SOFTCHAT_JNI, else SOFTCHAT_JNI itself; and build/aarch64-linux-gnu/dist/libsoftchat_jni.so
#                  when the aarch64 preset built it). Each goes to org/softchat/native/
#                  linux-<cpu>/ by its ELF machine (x86-64 or aarch64), with its SHA-256.
#   SOFTCHAT_M2    the local Maven repository (default: build/m2 in the source tree)
#   SOFTCHAT_TEST_TOOLS  the relays RelayPoolTest starts (default: build/test-tools, where the
#                  ctest fixtures relay.live.setup.* build and install them)
# The first run (and the first after a POM changes) resolves every plugin and dependency
# from Maven Central into SOFTCHAT_M2 and records the POMs' digest; every later run passes -o
# (offline) and needs no network.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
m2=${SOFTCHAT_M2:-$root/build/m2}
jni=${SOFTCHAT_JNI:-$root/build/test/bindings/kotlin/jni/libsoftchat_jni.so}
case $jni in /*) ;; *) jni=$PWD/$jni ;; esac
mkdir -p "$m2"
default_run=0
[ $# -gt 0 ] || { set -- verify; default_run=1; }
if ! command -v mvn >/dev/null 2>&1; then # Debian's maven (a fresh machine may lack it)
  echo "mvn.sh: installing maven (apt-get)" >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y -q maven >&2; else sudo apt-get install -y -q maven >&2; fi
fi
if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
  export JAVA_HOME
fi

# Online once per set of POMs: the stamp holds their digest.
stamp=$m2/.softchat-online-done
poms=$(cat "$here/pom.xml" "$here/softchat/pom.xml" "$here/jmh/pom.xml" \
           "$here/consumer/maven/pom.xml" "$here/consumer/android/pom.xml" | sha256sum | cut -c1-64)
offline=()
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$poms" ] && offline=(-o)

# The native libraries the jar carries, staged with their digests.
native=$root/build/kotlin-native
rm -rf "$native"
if [ -z "${SOFTCHAT_JNI_PACKAGE+x}" ]; then # what exists of the defaults
  SOFTCHAT_JNI_PACKAGE=""
  dist=$(dirname "$jni")/../../../dist/libsoftchat_jni.so
  [ -f "$dist" ] && [ ! "$jni" -nt "$dist" ] || dist=$jni # a stale stripped copy is skipped
  [ -f "$dist" ] && SOFTCHAT_JNI_PACKAGE=$dist
  arm=$root/build/aarch64-linux-gnu/dist/libsoftchat_jni.so
  [ -f "$arm" ] && SOFTCHAT_JNI_PACKAGE="$SOFTCHAT_JNI_PACKAGE $arm"
  [ -n "$SOFTCHAT_JNI_PACKAGE" ] || echo "mvn.sh: no JNI library built: the jar carries none" >&2
fi
for lib in $SOFTCHAT_JNI_PACKAGE; do
  [ -f "$lib" ] || { echo "mvn.sh: no JNI library $lib to package" >&2; exit 2; }
  machine=$(od -An -tx1 -j18 -N2 "$lib" | tr -d ' \n')
  case $machine in
    3e00) platform=linux-x86_64 ;;
    b700) platform=linux-aarch64 ;;
    *) echo "mvn.sh: $lib: an ELF machine ($machine) no jar carries" >&2; exit 2 ;;
  esac
  d=$native/org/softchat/native/$platform
  mkdir -p "$d"
  cp "$lib" "$d/libsoftchat_jni.so"
  (cd "$d" && sha256sum libsoftchat_jni.so >libsoftchat_jni.so.sha256)
done

mvn -B -ntp -f "$here/pom.xml" -Dmaven.repo.local="$m2" "${offline[@]}" \
    -Dsoftchat.jni.path="$jni" -Dsoftchat.vectors.dir="$root/vectors" \
    -Dsoftchat.native.dir="$native" -Dsoftchat.test.tools="${SOFTCHAT_TEST_TOOLS:-$root/build/test-tools}" "$@"
if [ $default_run = 1 ]; then
  if [ ${#offline[@]} -eq 0 ]; then SOFTCHAT_M2=$m2 "$here/consumer/run.sh" --prefetch; else SOFTCHAT_M2=$m2 "$here/consumer/run.sh"; fi
  echo "$poms" >"$stamp"
fi
