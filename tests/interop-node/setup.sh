#!/bin/sh
# Prepares the interop-node test folder DEST from this folder: copies package.json,
# package-lock.json and interop.mjs, and installs the pinned packages with `npm ci` (the npm
# registry must be reachable). The install is skipped when DEST already holds the same lock
# file and its packages. Usage: setup.sh SRC DEST NPM
set -eu
src=$1
dest=$2
npm=$3
mkdir -p "$dest"
if [ -f "$dest/node_modules/.package-lock.json" ] && [ -d "$dest/node_modules/nostr-tools" ] &&
   cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  echo "interop-node: packages of $src/package-lock.json already installed in $dest"
else
  rm -rf "$dest/node_modules"
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  (cd "$dest" && "$npm" ci --no-audit --no-fund)
fi
cp "$src/package.json" "$src/interop.mjs" "$dest/"
echo "interop-node: ready in $dest"
