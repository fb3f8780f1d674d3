#!/bin/sh
# Builds the Rust Negentropy peer (the `negentropy` crate from crates.io, Cargo.lock pinned)
# into TARGET: cargo build --release --locked. Usage: setup.sh CARGO SRC TARGET
set -eu
cargo=$1
src=$2
target=$3
CARGO_TARGET_DIR=$target "$cargo" build --release --locked --quiet --manifest-path "$src/Cargo.toml"
echo "negentropy-rs: $target/release/softchat-neg-peer"
