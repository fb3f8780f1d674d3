#!/usr/bin/env bash
# The web package's stage of the test command (scripts/test-platforms.sh wasm32 runs it):
#   1. build: softchat.wasm, the TypeScript, the sizes, and the npm pack tarball (build.sh);
#   2. Node (node:test): the vectors, the repo's corpora, hostile input and the nostr-tools
#      interop through the built package;
#   3. headless Chromium (Debian's chromium, playwright-core): the same in a page and in a
#      module Worker, the interop in the page, and a NIP-17 message between two pages
#      through nostr-relay (PyPI) on loopback, all against the package unpacked from the
#      tarball;
#   4. the consumer test: the tarball installed into an empty folder, an ESM, a CommonJS and
#      a tsc --strict example.
# The relay: build/test-tools/relays/venv/bin/nostr-relay (or build/test/test-tools/...,
# where the x86-64 ctest's relay.live fixture installed it), else installed there by
# tests/relay/live/setup.sh; SOFTCHAT_NOSTR_RELAY names another.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
relay=${SOFTCHAT_NOSTR_RELAY:-}
if [ -z "$relay" ]; then
  for d in build/test-tools build/test/test-tools; do
    [ -x "$d/relays/venv/bin/nostr-relay" ] && { relay=$d/relays/venv/bin/nostr-relay; break; }
  done
fi
if [ -z "$relay" ]; then
  tests/relay/live/setup.sh python python3 tests/relay/live build/test-tools/relays
  relay=build/test-tools/relays/venv/bin/nostr-relay
fi
[ -x /usr/bin/chromium ] || [ -n "${SOFTCHAT_CHROMIUM:-}" ] ||
  { echo "js: no /usr/bin/chromium (scripts/setup.sh --with-tools installs it)" >&2; exit 1; }

echo "== js: build and pack"
bindings/js/build.sh --pack
tarball=$(ls -t build/js/softchat-*.tgz | head -n1)
unpacked=build/js/unpacked
rm -rf "$unpacked" && mkdir -p "$unpacked" && tar xzf "$tarball" -C "$unpacked"

cd "$here"
echo "== js: Node (node:test)"
node --test test/node.test.mjs
echo "== js: headless Chromium: page, Worker, interop, end-to-end through a relay"
node test/browser/run.mjs --pkg "$root/$unpacked/package/dist" --relay "$root/$relay"
echo "== js: consumer install of $tarball"
test/consumer/run.sh "$root/$tarball"
