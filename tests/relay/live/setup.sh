#!/bin/sh
# Builds or installs the relays of the integration tests into DEST:
#   rust    tests/relay/live/rust-relay with cargo (crates.io; Cargo.lock pinned, --locked)
#   python  nostr-relay from PyPI into a virtual environment (requirements.txt pinned)
# Usage: setup.sh rust CARGO SRC DEST | setup.sh python PYTHON3 SRC DEST
set -eu
kind=$1
tool=$2
src=$3
dest=$4
mkdir -p "$dest"
case $kind in
  rust)
    start=$(date +%s)
    CARGO_TARGET_DIR=$dest "$tool" build --release --locked --quiet --manifest-path "$src/rust-relay/Cargo.toml"
    echo "relays: rust relay built in $(( $(date +%s) - start )) s: $dest/release/softchat-test-relay"
    ;;
  python)
    start=$(date +%s)
    if [ ! -x "$dest/venv/bin/nostr-relay" ] || ! cmp -s "$src/requirements.txt" "$dest/requirements.txt"; then
      rm -rf "$dest/venv"
      "$tool" -m venv "$dest/venv"
      # wheels only (nothing compiled here), no byte-compiling at install time
      "$dest/venv/bin/pip" install --quiet --disable-pip-version-check --no-input \
        --only-binary=:all: --no-compile \
        -r "$src/requirements.txt"
      cp "$src/requirements.txt" "$dest/requirements.txt"
    fi
    echo "relays: nostr-relay ready in $(( $(date +%s) - start )) s: $dest/venv/bin/nostr-relay"
    ;;
  *)
    echo "setup.sh: unknown relay kind $kind" >&2
    exit 2
    ;;
esac
