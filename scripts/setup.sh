#!/usr/bin/env bash
# Installs the Debian packages libsoftchat needs to build and test, skipping what is present.
# Usage: scripts/setup.sh [--with-tools]   (--with-tools adds what the test command needs)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

pkgs=(build-essential cmake ninja-build pkg-config libsecp256k1-dev libcjson-dev libcmocka-dev)
# the CLI's WebSocket client (softchat relay): libwebsockets, with its TLS for wss://
pkgs+=(libwebsockets-dev)
# Each backend's libraries, from the `DEBIAN <package>` lines of backends/*/backend.cmake.
mapfile -t backend_pkgs < <(sed -n 's/^[[:space:]]*DEBIAN[[:space:]]\{1,\}\([a-z0-9][a-z0-9.+-]*\).*/\1/p' \
                              "$here"/../backends/*/backend.cmake | sort -u)
if [ ${#backend_pkgs[@]} -eq 0 ]; then
  echo "setup: no DEBIAN lines found in backends/*/backend.cmake" >&2
  exit 2
fi
pkgs+=("${backend_pkgs[@]}")
if [ "${1:-}" = "--with-tools" ]; then
  # valgrind for the memcheck pass; curl, xz-utils and ca-certificates to fetch Debian
  # source packages (mbed TLS 3.6) for the compatibility build
  # python3 drives the CLI tests and the audit (scripts/audit), whose charts python3-matplotlib
  # draws; node and npm run the nostr-tools interop checks and the independent AES-GCM
  # reference (Debian's nodejs is used only when no node is installed)
  pkgs+=(valgrind curl xz-utils ca-certificates python3 python3-matplotlib)
  # abidiff (abigail-tools) checks the ABI against abi/libsoftchat.abi (ctest abi.check)
  pkgs+=(abigail-tools)
  # clang with libFuzzer and the sanitizer runtimes (scripts/fuzz.sh, the fuzz smoke), and
  # llvm-symbolizer for readable sanitizer reports
  pkgs+=(clang libclang-rt-dev llvm)
  # the relay integration tests and the Negentropy cross checks build Rust peers with cargo
  # (crates.io) and install nostr-relay (PyPI) into a virtual environment: python3-venv
  pkgs+=(python3-venv)
  # a JDK builds and tests the Kotlin facade and its JNI glue (bindings/kotlin)
  command -v javac >/dev/null 2>&1 || pkgs+=(default-jdk-headless)
  # the cross targets (scripts/test-platforms.sh): Debian's aarch64 cross compiler and its
  # C library, qemu to run the arm64 suite, Emscripten for wasm32, clang for the module map
  # and iOS header checks, bzip2 to unpack mbed TLS's tarball
  pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static emscripten clang bzip2)
  command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
  command -v npm >/dev/null 2>&1 || pkgs+=(npm)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
  sudo_cmd=(sudo)
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
