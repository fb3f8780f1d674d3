#!/bin/sh
# Peer benchmark: the rust-nostr `nostr` crate.
#   bench/peers/rust-nostr/run.sh OUT.json [--runs N] [--only OP[,OP...]] [--quick]
#   bench/peers/rust-nostr/run.sh --prepare META.json
# Builds the pinned crate graph (cargo build --release --locked, from Cargo.lock) and writes
# OUT.json in the softchat-bench/1 schema. Progress goes to stderr. Exits 3 with one line on
# stderr if the peer cannot be installed, 1 if a measurement failed. --prepare builds, writes
# the record without results to META.json and prints the peer's lane (its label and worker
# command, tab-separated) for softchat-bench, which then measures it interleaved with its
# own processes (bench/runner.c).
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT.json [--runs N] [--only OP[,OP...]] [--quick]" >&2
    exit 2
fi
prepare=0
if [ "$1" = --prepare ] && [ $# -eq 2 ]; then
    prepare=1
    shift
fi
out=$1
shift
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

if ! command -v cargo >/dev/null 2>&1; then
    echo "rust-nostr: could not be installed: cargo not found (install Rust with rustup)" >&2
    exit 3
fi

echo "rust-nostr: building (cargo build --release --locked; the first build takes a few minutes)..." >&2
log=$(mktemp)
if ! cargo build --release --locked --manifest-path "$here/Cargo.toml" >"$log" 2>&1; then
    echo "rust-nostr: could not be installed: cargo build --release --locked failed in $here (log: $log)" >&2
    exit 3
fi
rm -f "$log"

if [ "$prepare" = 1 ]; then
    exec "$here/target/release/peer-bench" --describe "$out"
fi
echo "rust-nostr: measuring ($(rustc --version 2>/dev/null))..." >&2
exec "$here/target/release/peer-bench" "$out" "$@"
