#!/usr/bin/env bash
# Installs the Debian packages libsoftchat needs to build and test, skipping what is present,
# then fetches the libsecp256k1 release the default build compiles (scripts/deps.pins: the
# Debian archive's tarball, checked against its pinned SHA-256, unpacked once into
# build/deps/src; cmake/SoftchatSecp256k1.cmake).
# Usage: scripts/setup.sh [--with-tools]   (--with-tools adds what the test command needs)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# libsecp256k1-dev: the installed library of -DSOFTCHAT_SECP256K1=system (the packagers' build,
# a stage of scripts/test.sh); curl, xz-utils and ca-certificates fetch the pinned release
pkgs=(build-essential cmake ninja-build pkg-config libsecp256k1-dev libcjson-dev libcmocka-dev
      curl xz-utils ca-certificates)
# the CLI's WebSocket client (softchat relay): libwebsockets, with its TLS for wss://
pkgs+=(libwebsockets-dev)
# dm listen's state store (seen wrap ids, the subscription's cursor): SQLite
pkgs+=(libsqlite3-dev)
# the CLI's NFKC normalisation of NIP-49 passwords (softchat nip49): libunistring
pkgs+=(libunistring-dev)
# Each backend's libraries, from the `DEBIAN <package>` lines of backends/*/backend.cmake.
mapfile -t backend_pkgs < <(sed -n 's/^[[:space:]]*DEBIAN[[:space:]]\{1,\}\([a-z0-9][a-z0-9.+-]*\).*/\1/p' \
                              "$here"/../backends/*/backend.cmake | sort -u)
if [ ${#backend_pkgs[@]} -eq 0 ]; then
  echo "setup: no DEBIAN lines found in backends/*/backend.cmake" >&2
  exit 2
fi
pkgs+=("${backend_pkgs[@]}")
if [ "${1:-}" = "--with-tools" ]; then
  # valgrind for the memcheck pass
  # python3 drives the CLI tests and the audit (scripts/audit), whose charts python3-matplotlib
  # draws; node and npm run the nostr-tools interop checks and the independent AES-GCM
  # reference (Debian's nodejs is used only when no node is installed)
  pkgs+=(valgrind python3 python3-matplotlib)
  # abidiff (abigail-tools) checks the ABI against abi/libsoftchat.abi (ctest abi.check)
  pkgs+=(abigail-tools)
  # clang with libFuzzer and the sanitizer runtimes (scripts/fuzz.sh, the fuzz smoke), and
  # llvm-symbolizer for readable sanitizer reports
  pkgs+=(clang libclang-rt-dev llvm)
  # clang-format checks the C style (.clang-format) in the lint stage
  pkgs+=(clang-format)
  # the relay integration tests, the Negentropy cross checks and the NIP-46 interop with
  # rust-nostr's nostr-connect (cli.bunker.rust) build Rust peers with cargo
  # (crates.io) and install nostr-relay (PyPI) into a virtual environment: python3-venv
  pkgs+=(python3-venv)
  # a JDK builds and tests the Kotlin facade and its JNI glue (bindings/kotlin)
  command -v javac >/dev/null 2>&1 || pkgs+=(default-jdk-headless)
  # the cross targets (scripts/test-platforms.sh): Debian's aarch64 cross compiler and its
  # C library, qemu to run the arm64 suite, Emscripten for wasm32, clang for the module map
  # and iOS header checks, bzip2 to unpack mbed TLS's tarball
  pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static emscripten clang bzip2)
  # headless Chromium for the web package's browser tests (bindings/js/test.sh, driven by
  # playwright-core from npm)
  pkgs+=(chromium)
  # debootstrap makes the Debian trixie root the Swift package is built and tested in
  # (scripts/swift-root.sh: Debian 12 has no Swift, and trixie's needs trixie's C library)
  pkgs+=(debootstrap)
  command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
  command -v npm >/dev/null 2>&1 || pkgs+=(npm)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
    sudo_cmd=(sudo)
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The pinned libsecp256k1 (downloaded once; nothing to do when build/deps/src has it).
"$here/deps.sh" --fetch secp256k1 "$(cd "$here/.." && pwd)/build/deps/src" >/dev/null
