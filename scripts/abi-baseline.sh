#!/usr/bin/env bash
# Writes the stored description of the library's ABI (abi/libsoftchat.abi) from a build, at a
# release that may change the ABI (a major version). Every other release is checked against it
# by the ctest abi.check (tests/abi/check.sh).
# Usage: scripts/abi-baseline.sh BUILD_DIR   (a RelWithDebInfo build: the ABI is read from
# its debug information)
set -euo pipefail
cd "$(dirname "$0")/.."
lib=$(readlink -f "$1/core/libsoftchat.so")
abidw --headers-dir api/softchat --no-corpus-path --out-file abi/libsoftchat.abi "$lib"
echo "abi: wrote abi/libsoftchat.abi from $lib" >&2
