#!/usr/bin/env bash
# Maven for the Kotlin facade, online once and offline afterwards.
#   bindings/kotlin/mvn.sh [MAVEN ARGS...]      (default: verify)
# Environment:
#   SOFTCHAT_JNI  the JNI library to test against (default: build/test/bindings/kotlin/jni/
#                 libsoftchat_jni.so, the CMake target softchat_jni of scripts/test.sh)
#   SOFTCHAT_M2   the local Maven repository (default: build/m2 in the source tree)
# The first full run (no arguments: verify of every module, which also packages the JMH
# benchmarks) resolves every plugin and dependency from Maven Central into SOFTCHAT_M2 and
# leaves a stamp; every later run passes -o (offline) and needs no network.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
m2=${SOFTCHAT_M2:-$root/build/m2}
jni=${SOFTCHAT_JNI:-$root/build/test/bindings/kotlin/jni/libsoftchat_jni.so}
case $jni in /*) ;; *) jni=$PWD/$jni ;; esac
mkdir -p "$m2"
stamp=$m2/.softchat-online-done
offline=()
[ -f "$stamp" ] && offline=(-o)
[ $# -gt 0 ] || set -- verify
if ! command -v mvn >/dev/null 2>&1; then # Debian's maven (a fresh machine may lack it)
  echo "mvn.sh: installing maven (apt-get)" >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y -q maven >&2; else sudo apt-get install -y -q maven >&2; fi
fi
if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
  export JAVA_HOME
fi
mvn -B -ntp -f "$here/pom.xml" -Dmaven.repo.local="$m2" "${offline[@]}" \
    -Dsoftchat.jni.path="$jni" -Dsoftchat.vectors.dir="$root/vectors" "$@"
if [ ${#offline[@]} -eq 0 ] && [ "$*" = verify ]; then touch "$stamp"; fi
