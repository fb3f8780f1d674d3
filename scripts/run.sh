#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install what is missing, build, and run it.
# Usage: scripts/run.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

scripts/setup.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DSOFTCHAT_BACKENDS="openssl;mbedtls;sodium;sodium+mbedtls" >/dev/null
cmake --build "$build"

"$build/cli/softchat" backends
"$build/cli/softchat" selftest
