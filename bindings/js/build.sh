#!/usr/bin/env bash
# Builds the npm package in bindings/js/dist: the dependencies for the web toolchain
# (libsecp256k1 and mbed TLS from the pinned sources, scripts/deps.sh, once), softchat.wasm
# (preset wasm32-web), the TypeScript (ESM + .d.ts, and a CommonJS bundle), and the sizes
# (dist/sizes.json).
# npm ci installs the pinned dev dependencies (package-lock.json) when node_modules is absent.
#   bindings/js/build.sh [--pack]   (--pack: also npm pack into build/js/)
# libsecp256k1's tables: window 10 (a 32 KiB verification table) and the 22 KiB signing
# table, for a module under the 250 KB gzip budget; and its 32-bit field arithmetic
# (SECP256K1_TEST_OVERRIDE_WIDE_MULTIPLY=int64, what it uses on every 32-bit target):
# clang gives wasm32 an __int128 that libsecp256k1 would pick, emulated by library calls,
# which made verification 2.6 times and signing 1.9 times slower and the module 126 KB
# larger. docs/bindings.md has the measurements.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export SOFTCHAT_SECP_WINDOW=${SOFTCHAT_SECP_WINDOW:-10} SOFTCHAT_SECP_GEN_KB=${SOFTCHAT_SECP_GEN_KB:-22}
scripts/deps.sh --only secp256k1,mbedtls cmake/toolchains/wasm32-web.cmake build/deps/wasm32-web \
  -- -DSECP256K1_TEST_OVERRIDE_WIDE_MULTIPLY=int64
cmake --preset wasm32-web >build/wasm32-web.configure.log 2>&1 ||
  { cat build/wasm32-web.configure.log; exit 1; }
cmake --build --preset wasm32-web
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund
rm -rf dist
npx tsc -p tsconfig.json
# CommonJS for require() users: one bundle of the ESM build, import.meta.url replaced by the
# file's URL (bindings/js/scripts/cjs-shim.js)
npx esbuild dist/index.js --bundle --format=cjs --platform=node --outfile=dist/index.cjs \
  --define:import.meta.url=softchatModuleUrl --inject:scripts/cjs-shim.js --log-level=warning
cp "$root/build/wasm32-web/bindings/js/wasm/softchat.wasm" dist/softchat.wasm
cp "$root/LICENSE" LICENSE
node scripts/sizes.mjs dist >dist/sizes.json
cat dist/sizes.json
if [ "${1:-}" = "--pack" ]; then
  mkdir -p "$root/build/js"
  npm pack --silent --pack-destination "$root/build/js" >/dev/null
  ls -l "$root"/build/js/softchat-*.tgz
fi
