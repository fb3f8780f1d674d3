#!/usr/bin/env bash
# Footprint of each build profile: libsoftchat.so, libsoftchat.a and the softchat CLI, each
# unstripped and stripped, each raw and `gzip -n -9` compressed. One TSV line per number:
#   PROFILE  ARTIFACT  VARIANT  BYTES
# VARIANT is unstripped, stripped, unstripped.gz or stripped.gz.
# Usage: bench/footprint.sh NAME=BUILD_DIR [NAME=BUILD_DIR ...]
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

measure() { # profile artifact file strip-mode
  local profile=$1 artifact=$2 file=$3 mode=$4
  [ -f "$file" ] || { echo "footprint: missing $file" >&2; return 0; }
  cp "$file" "$tmp/a"
  cp "$file" "$tmp/s"
  strip "$mode" "$tmp/s"
  printf '%s\t%s\tunstripped\t%s\n' "$profile" "$artifact" "$(stat -c %s "$tmp/a")"
  printf '%s\t%s\tstripped\t%s\n' "$profile" "$artifact" "$(stat -c %s "$tmp/s")"
  printf '%s\t%s\tunstripped.gz\t%s\n' "$profile" "$artifact" "$(gzip -n -9 -c "$tmp/a" | wc -c)"
  printf '%s\t%s\tstripped.gz\t%s\n' "$profile" "$artifact" "$(gzip -n -9 -c "$tmp/s" | wc -c)"
}

for arg in "$@"; do
  name=${arg%%=*}
  dir=${arg#*=}
  so=$(readlink -f "$dir/core/libsoftchat.so")
  measure "$name" libsoftchat.so "$so" --strip-unneeded
  measure "$name" libsoftchat.a "$dir/core/libsoftchat.a" --strip-debug
  measure "$name" softchat "$dir/cli/softchat" --strip-unneeded
done
