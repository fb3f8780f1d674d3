#!/usr/bin/env bash
# Reconstructs the upstream libsecp256k1 source tree that rust-nostr runs on, and the options
# the crate compiles it with, so libsoftchat can be built against the same release built the
# same way (-DSOFTCHAT_SECP256K1_SOURCE_DIR, -C DEST.cmake) and the two are compared like with
# like.
#
# The nostr crate reaches libsecp256k1 through secp256k1-sys, which vendors an upstream release
# with every symbol renamed (rustsecp256k1_vX_Y_Z_ prefix) and a few files patched (the
# *.patch files beside the tree, made with `diff upstream vendored`). This script copies that
# tree, renames the symbols back and reverse-applies the patches, which gives the upstream
# release named in the tree's CMakeLists.txt (its git revision is recorded in
# secp256k1-HEAD-revision.txt). Debian has no source package of that release.
#
# The crate does not use the release's build system: its build.rs compiles the sources with
# the cc crate. DEST.cmake (a CMake initial cache) carries what that build chooses, read from
# build.rs and the cargo profile: the ecmult window and the generator precision bits it
# defines, no assembly (build.rs never defines USE_ASM_X86_64, so the portable C field code
# is used, where the release's CMake picks x86_64 assembly), and the optimisation level cc
# passes for cargo's release profile (-O3 at opt-level 3; the release's CMake Release type
# uses -O2), and no VALGRIND define (the release's CMake adds it when valgrind's headers are
# installed).
#
# Usage: bench/peers/rust-nostr/secp256k1-tree.sh DEST
#   Needs the crate fetched first (cargo fetch --locked). Prints the version and the options.
set -euo pipefail
dest=$1
here=$(cd "$(dirname "$0")" && pwd)
registry=${CARGO_HOME:-$HOME/.cargo}/registry/src

ver=$(awk '/^name = "secp256k1-sys"/ {getline; gsub(/[^0-9.]/, ""); print}' "$here/Cargo.lock")
[ -n "$ver" ] || { echo "secp256k1-tree: secp256k1-sys not in Cargo.lock" >&2; exit 2; }
crate=$(ls -d "$registry"/*/secp256k1-sys-"$ver" 2>/dev/null | head -n 1)
[ -n "$crate" ] || { echo "secp256k1-tree: secp256k1-sys $ver not fetched (run: cargo fetch)" >&2; exit 2; }
vendored=$crate/depend
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

# The crate's build options, from build.rs (the branch without the lowmemory feature, which
# the nostr crate does not enable: see Cargo.lock's features).
build_rs=$crate/build.rs
define() { # NAME: the value build.rs defines outside its lowmemory branch
  awk -v name="$1" '
    /cfg!\(feature = "lowmemory"\)/ { low = 1 }
    low && /\} else \{/ { low = 0; other = 1; next }
    other && /^[[:space:]]*\}/ { other = 0 }
    !low && index($0, "\"" name "\"") {
      if (match($0, /Some\("[^"]*"\)/)) { v = substr($0, RSTART + 6, RLENGTH - 8); print v; exit }
    }' "$build_rs"
}
window=$(define ECMULT_WINDOW_SIZE)
gen_bits=$(define ECMULT_GEN_PREC_BITS)
[ -n "$window" ] && [ -n "$gen_bits" ] ||
  { echo "secp256k1-tree: cannot read the ecmult options from $build_rs" >&2; exit 2; }
if grep -q 'USE_ASM_X86_64\|USE_EXTERNAL_ASM' "$build_rs"; then
  echo "secp256k1-tree: $build_rs enables assembly: update this script" >&2
  exit 2
fi
# cargo's release profile: opt-level 3 unless Cargo.toml says otherwise; cc maps it to -O<n>
opt=$(awk '/^\[profile.release\]/ { p = 1; next } /^\[/ { p = 0 }
           p && /^opt-level/ { gsub(/[^0-9sz]/, "", $3); print $3 }' "$here/Cargo.toml")
opt=${opt:-3}
cat > "$dest.cmake" <<CACHE
# libsecp256k1 $version built as secp256k1-sys $ver builds it (from $build_rs):
set(SECP256K1_ASM OFF CACHE STRING "" FORCE)
set(SECP256K1_VALGRIND OFF CACHE STRING "" FORCE)
set(SECP256K1_ECMULT_WINDOW_SIZE $window CACHE STRING "" FORCE)
set(SECP256K1_ECMULT_GEN_PREC_BITS $gen_bits CACHE STRING "" FORCE)
set(SOFTCHAT_SECP256K1_C_FLAGS "-O$opt" CACHE STRING "" FORCE)
CACHE
echo "libsecp256k1 $version (revision $(grep -v '^#' "$vendored/secp256k1-HEAD-revision.txt" | head -n 1), from secp256k1-sys $ver)"
echo "options as the crate builds it: assembly off, -O$opt, ECMULT_WINDOW_SIZE $window, ECMULT_GEN_PREC_BITS $gen_bits ($dest.cmake)"
