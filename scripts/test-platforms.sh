#!/usr/bin/env bash
# The cross targets of the test command (scripts/test.sh runs this after the x86-64 passes):
#   1. aarch64: the dependencies from source (scripts/deps.sh), the library, the CLI, the JNI
#      glue and the ctest suite built with Debian's cross compiler and run under
#      qemu-aarch64-static, for the mobile backends (mbedtls, psa, sodium, sodium+mbedtls):
#      every in-process suite on each backend, the CLI suites, the nostr-tools interop and the
#      Negentropy peers on sodium+mbedtls, the install test, 16 KiB alignment, exports, the AAR
#      assembled from the Kotlin facade's jar with the arm64 library standing in for Android's,
#      and the NEON base64 kernel against the portable one;
#   2. wasm32 (Emscripten): the dependencies from source, the library and every cmocka suite
#      under node, on the same backends (the Negentropy peers on sodium+mbedtls); then the
#      web package (bindings/js/test.sh): softchat.wasm and the TypeScript API built and
#      packed, tested in Node, in headless Chromium (a page, a Worker, interop with
#      nostr-tools, two pages through a relay) and installed by a consumer.
# The x86-64 build (scripts/test.sh) runs the module map and iOS header checks.
# What the cross builds leave out, and why, is in CMakePresets.json and in the suite files
# (configure prints it): under emulation the suites that drive a program from a script run on
# sodium+mbedtls only (SOFTCHAT_DRIVER_BACKENDS, tests/CMakeLists.txt) and the robustness
# suites run 20,000 mutations per backend instead of 100,000; softchat-bench and the valgrind
# checks are host tools; the CLI has no relay transport (SOFTCHAT_CLI_RELAY=OFF: no
# libwebsockets for the target), so relay.live.* runs on x86-64 only; wasm32 has no CLI, JVM,
# /proc (residue.*) or threads (threads.*).
# Each stage prints its wall and CPU time and the load average (the machine may be shared). Dependencies
# are built once per prefix (build/deps/<preset>) and reused while their pins and options are
# unchanged; a clean run removes build/deps/<preset> and build/<preset> first.
# Usage: scripts/test-platforms.sh [aarch64|wasm32]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(aarch64 wasm32)
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
last=$start
last_cpu=0
# CPU seconds used so far by the programs this script ran and waited for (user + system of its
# children, /proc/PID/stat): on a shared machine the wall time depends on the load, this less.
ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu_s() {
  awk -v t="$ticks" '{ printf "%d", ($16 + $17) / t }' "/proc/$$/stat" 2>/dev/null || echo 0
}
stage() {
  local now cpu
  now=$(date +%s)
  cpu=$(cpu_s)
  printf '\n==== [%ss, previous stage %ss wall, %ss CPU, load %s] %s\n' "$((now - start))" \
    "$((now - last))" "$((cpu - last_cpu))" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" "$*"
  last=$now
  last_cpu=$cpu
}

# Configures a preset, showing what the build leaves out and why (configure's softchat: lines).
configure() {
  local log=build/$1.configure.log
  mkdir -p build
  cmake --preset "$1" >"$log" 2>&1 || { cat "$log"; exit 1; }
  grep '^-- softchat:' "$log" || true
}

# The Kotlin facade's jar, for platform.aar: the x86-64 pass of scripts/test.sh has built it
# (mvn verify); otherwise, or when a source is newer, Maven packages it (no tests).
facade_jar() {
  local version jar
  version=$(sed -n 's/^project(softchat VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  jar=bindings/kotlin/softchat/target/softchat-kotlin-$version.jar
  if [ -f "$jar" ] && [ -z "$(find bindings/kotlin/pom.xml bindings/kotlin/softchat/pom.xml \
                               bindings/kotlin/softchat/src/main -newer "$jar" -print -quit)" ]; then
    echo "test-platforms: $jar is up to date"
    return
  fi
  bindings/kotlin/mvn.sh -q -pl softchat -am package -DskipTests
  [ -f "$jar" ] || { echo "test-platforms: Maven did not produce $jar" >&2; exit 1; }
}

for t in "${targets[@]}"; do
  case $t in
    aarch64)
      p=aarch64-linux-gnu
      stage "$p: dependencies from source (scripts/deps.sh)"
      scripts/deps.sh cmake/toolchains/$p.cmake build/deps/$p
      stage "$p: build (cmake --preset $p)"
      configure $p
      cmake --build --preset $p
      ls -l build/$p/dist/ build/$p/dist/unstripped/
      stage "$p: the Kotlin facade's jar for the AAR"
      facade_jar
      stage "$p: ctest under qemu-aarch64-static"
      (cd build/$p && ctest --output-on-failure -j "$jobs" --timeout 900)
      ;;
    wasm32)
      p=wasm32-emscripten
      stage "$p: dependencies from source (scripts/deps.sh)"
      scripts/deps.sh cmake/toolchains/$p.cmake build/deps/$p
      stage "$p: build (cmake --preset $p)"
      configure $p
      cmake --build --preset $p
      stage "$p: ctest under node"
      (cd build/$p && ctest --output-on-failure -j "$jobs" --timeout 900)
      stage "wasm32-web: the npm package (bindings/js/test.sh)"
      bindings/js/test.sh
      ;;
    *) echo "test-platforms: unknown target $t (aarch64, wasm32)" >&2; exit 2 ;;
  esac
done
stage "cross targets passed: ${targets[*]}"
