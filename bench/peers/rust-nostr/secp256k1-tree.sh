#!/usr/bin/env bash
# Reconstructs the upstream libsecp256k1 source tree that rust-nostr runs on, so libsoftchat
# can be built against the same release (-DSOFTCHAT_SECP256K1_SOURCE_DIR) and the two are
# compared like with like.
#
# The nostr crate reaches libsecp256k1 through secp256k1-sys, which vendors an upstream release
# with every symbol renamed (rustsecp256k1_vX_Y_Z_ prefix) and a few files patched (the
# *.patch files beside the tree, made with `diff upstream vendored`). This script copies that
# tree, renames the symbols back and reverse-applies the patches, which gives the upstream
# release named in the tree's CMakeLists.txt (its git revision is recorded in
# secp256k1-HEAD-revision.txt). Debian has no source package of that release.
#
# Usage: bench/peers/rust-nostr/secp256k1-tree.sh DEST
#   Needs the crate fetched first (run.sh does: cargo fetch --locked). Prints the version.
set -euo pipefail
dest=$1
here=$(cd "$(dirname "$0")" && pwd)
registry=${CARGO_HOME:-$HOME/.cargo}/registry/src

ver=$(awk '/^name = "secp256k1-sys"/ {getline; gsub(/[^0-9.]/, ""); print}' "$here/Cargo.lock")
[ -n "$ver" ] || { echo "secp256k1-tree: secp256k1-sys not in Cargo.lock" >&2; exit 2; }
vendored=$(ls -d "$registry"/*/secp256k1-sys-"$ver"/depend 2>/dev/null | head -n 1)
[ -n "$vendored" ] || { echo "secp256k1-tree: secp256k1-sys $ver not fetched (run: cargo fetch)" >&2; exit 2; }
prefix=$(grep -rhoE 'rustsecp256k1_v[0-9]+_[0-9]+_[0-9]+_' "$vendored/secp256k1/include/secp256k1.h" | head -n 1)

rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
cp -r "$vendored/secp256k1" "$dest"
grep -rl "$prefix" "$dest" | xargs sed -i "s/$prefix/secp256k1_/g"
for p in "$vendored"/*.patch; do
  f=$(basename "$p" .patch)
  t=$(find "$dest" -name "$f" | head -n 1)
  patch -s -R "$t" < "$p"
done
version=$(sed -n 's/^[[:space:]]*VERSION[[:space:]]\+\([0-9.]*\).*/\1/p' "$dest/CMakeLists.txt" | head -n 1)
echo "libsecp256k1 $version (revision $(grep -v '^#' "$vendored/secp256k1-HEAD-revision.txt" | head -n 1), from secp256k1-sys $ver)"
