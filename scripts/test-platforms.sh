#!/usr/bin/env bash
# The cross targets of the test command (scripts/test.sh runs this after the x86-64 passes):
#   1. aarch64: the dependencies from source (scripts/deps.sh), the library, the CLI, the JNI
#      glue and the whole ctest suite built with Debian's cross compiler and run under
#      qemu-aarch64-static, for the mobile backends (mbedtls, psa, sodium, sodium+mbedtls):
#      the vector suites, the CLI suites, the nostr-tools interop, the install test, 16 KiB
#      alignment, exports, the AAR assembled with the arm64 library standing in for Android's,
#      and the NEON base64 kernel against the portable one;
#   2. wasm32 (Emscripten): the dependencies from source, the library and every cmocka suite,
#      run under node.
# The x86-64 build (scripts/test.sh) runs the module map and iOS header checks.
# Each stage prints its time. Dependencies are built once per prefix (build/deps/<preset>)
# and reused while their pins and options are unchanged.
# Under qemu the randomized robustness suites run 20,000 mutations per backend instead of
# 100,000 (SOFTCHAT_ROBUST_ITERATIONS in CMakePresets.json), and softchat-bench (a host
# tool) and the valgrind checks are not built; the JVM test of the JNI glue runs on x86-64
# only (no arm64 JVM here). Everything else runs as on x86-64.
# Usage: scripts/test-platforms.sh [aarch64|wasm32]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(aarch64 wasm32)
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
last=$start
stage() {
  local now
  now=$(date +%s)
  printf '\n==== [%ss, previous stage %ss] %s\n' "$((now - start))" "$((now - last))" "$*"
  last=$now
}

for t in "${targets[@]}"; do
  case $t in
    aarch64)
      p=aarch64-linux-gnu
      stage "$p: dependencies from source (scripts/deps.sh)"
      scripts/deps.sh cmake/toolchains/$p.cmake build/deps/$p
      stage "$p: build (cmake --preset $p)"
      cmake --preset $p >/dev/null
      cmake --build --preset $p
      ls -l build/$p/dist/ build/$p/dist/unstripped/
      stage "$p: ctest under qemu-aarch64-static (the whole suite)"
      (cd build/$p && ctest --output-on-failure -j "$jobs" --timeout 900)
      ;;
    wasm32)
      p=wasm32-emscripten
      stage "$p: dependencies from source (scripts/deps.sh)"
      scripts/deps.sh cmake/toolchains/$p.cmake build/deps/$p
      stage "$p: build (cmake --preset $p)"
      cmake --preset $p >/dev/null
      cmake --build --preset $p
      stage "$p: ctest under node"
      (cd build/$p && ctest --output-on-failure -j "$jobs" --timeout 900)
      ;;
    *) echo "test-platforms: unknown target $t (aarch64, wasm32)" >&2; exit 2 ;;
  esac
done
stage "cross targets passed: ${targets[*]}"
