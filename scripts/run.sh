#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install what is missing, build, and run the
# performance audit (softchat-bench audit), which writes audit/report.md.
#   - build/release: every backend, Release, with the test suites (the audit runs the
#     conformance suites from here) and softchat-bench (build/release/bench/softchat-bench);
#   - build/fp-<backend>: one-backend Release builds of the library and the CLI, for the
#     footprint;
#   - build/fp-arm64-<backends>: the mobile artifact for arm64 (libsoftchat.so and
#     libsoftchat_jni.so, dependencies from source linked in, stripped), for the footprint;
#   - build/secp-rust: the same library against the libsecp256k1 release that rust-nostr
#     bundles (reconstructed from its crate) and built with the crate's options (no assembly,
#     -O3, its ecmult settings: build/deps/secp256k1-rust.cmake), for a like-for-like
#     comparison. Skipped, and reported, when cargo is not available.
# Usage: scripts/run.sh [OUT_DIR]   (default: audit)
#   SOFTCHAT_AUDIT_CLOCK=cpu: time samples with each thread's CPU time (a shared machine;
#   docs/benchmarks.md, "The measurement contract"); default wall.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-audit}
backends="openssl;mbedtls;sodium;sodium+mbedtls"

scripts/setup.sh --with-tools

build() { # dir, extra cmake args...
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" >/dev/null
}

echo "== build: every backend (build/release)" >&2
build build/release -DSOFTCHAT_BACKENDS="$backends"
"build/release/cli/softchat" backends >&2
"build/release/cli/softchat" selftest >&2

profiles="all=build/release"
for b in openssl mbedtls sodium; do
  echo "== build: footprint profile $b (build/fp-$b)" >&2
  build "build/fp-$b" -DSOFTCHAT_BACKENDS="$b" -DSOFTCHAT_BUILD_TESTS=OFF -DSOFTCHAT_INSTALL=OFF \
        -DSOFTCHAT_BUILD_BENCH=OFF
  profiles="$profiles,$b=build/fp-$b"
done

# The mobile artifact per ABI: arm64 (the aarch64-linux-gnu build standing in for Android's
# arm64-v8a; the NDK is not installable here), dependencies from source linked in, stripped.
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
  echo "== dependencies from source for arm64 (build/deps/aarch64-linux-gnu)" >&2
  scripts/deps.sh --only secp256k1,mbedtls,sodium cmake/toolchains/aarch64-linux-gnu.cmake \
    build/deps/aarch64-linux-gnu >&2
  for b in psa mbedtls "mbedtls;psa" sodium; do
    n="arm64-${b//;/+}"
    echo "== build: footprint profile $n (build/fp-$n)" >&2
    build "build/fp-$n" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/aarch64-linux-gnu.cmake" \
          -DCMAKE_PREFIX_PATH="$PWD/build/deps/aarch64-linux-gnu" \
          -DCMAKE_FIND_ROOT_PATH="$PWD/build/deps/aarch64-linux-gnu" -DSOFTCHAT_SELF_CONTAINED=ON \
          -DSOFTCHAT_BACKENDS="$b" -DSOFTCHAT_BUILD_TESTS=OFF -DSOFTCHAT_BUILD_CLI=OFF \
          -DSOFTCHAT_BUILD_BENCH=OFF -DSOFTCHAT_INSTALL=OFF -DSOFTCHAT_BUILD_JNI=ON
    profiles="$profiles,$n=build/fp-$n"
  done
else
  echo "== arm64 footprint profiles skipped: no aarch64-linux-gnu-gcc (scripts/setup.sh --with-tools)" >&2
fi

secp_args=()
if command -v cargo >/dev/null 2>&1 &&
   (cd bench/peers/rust-nostr && cargo fetch --locked >/dev/null 2>&1); then
  echo "== build: against rust-nostr's libsecp256k1 (build/secp-rust)" >&2
  bench/peers/rust-nostr/secp256k1-tree.sh build/deps/secp256k1-rust >&2
  build build/secp-rust -C build/deps/secp256k1-rust.cmake \
        -DSOFTCHAT_BACKENDS=openssl -DSOFTCHAT_BUILD_TESTS=OFF \
        -DSOFTCHAT_INSTALL=OFF -DSOFTCHAT_SECP256K1_SOURCE_DIR="$PWD/build/deps/secp256k1-rust"
  secp_args=(--secp-build build/secp-rust)
else
  echo "== like-for-like build skipped: cargo (rustup) is not available to fetch rust-nostr" >&2
fi

exec build/release/bench/softchat-bench audit --out "$out" --build-dir build/release \
     --profiles "$profiles" --clock "${SOFTCHAT_AUDIT_CLOCK:-wall}" "${secp_args[@]}"
