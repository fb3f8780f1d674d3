#!/bin/sh
# Builds the Rust NIP-46 peer (rust-nostr's nostr-connect crate from crates.io, Cargo.lock
# pinned) with cargo build --release --locked. TARGET is the Rust relay's target folder
# (tests/relay/live/setup.sh): the two locks pin the same versions of the crates they share
# (nostr, tokio, secp256k1, ...), so those are compiled once for both (cargo locks the folder
# while it builds: the two setups may run at the same time).
# Usage: setup.sh CARGO SRC TARGET
set -eu
cargo=$1
src=$2
target=$3
start=$(date +%s)
mkdir -p "$target"
CARGO_TARGET_DIR=$target "$cargo" build --release --locked --quiet --manifest-path "$src/Cargo.toml"
echo "nip46 peer: built in $(( $(date +%s) - start )) s: $target/release/softchat-nip46-peer"
