#!/usr/bin/env bash
# Every test against every backend, from a fresh Debian machine: installs what is missing,
# builds with -Wall -Wextra -Werror, runs the whole ctest suite, then runs it again under
# ASan+UBSan. Usage: scripts/test.sh [--quick]   (--quick skips the sanitizer pass)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
backends="openssl;mbedtls;sodium;sodium+mbedtls"
jobs=$(nproc 2>/dev/null || echo 2)

stage() { printf '\n==== %s\n' "$*"; }

stage "setup"
scripts/setup.sh --with-tools

stage "build (-Werror)"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$backends" >/dev/null
cmake --build build/test

stage "ctest: every backend"
(cd build/test && ctest --output-on-failure -j "$jobs")

if [ "${1:-}" != "--quick" ]; then
  stage "build under ASan+UBSan"
  cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSOFTCHAT_WERROR=ON \
        -DSOFTCHAT_BACKENDS="$backends" \
        -DCMAKE_C_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
        >/dev/null
  cmake --build build/asan
  stage "ctest under ASan+UBSan"
  (cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j "$jobs" -E '^install\.')
fi

stage "all tests passed ($root)"
