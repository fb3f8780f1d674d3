#!/usr/bin/env bash
# Footprint of each build profile: libsoftchat.so, libsoftchat.a and the softchat CLI, each
# unstripped and stripped, each raw and `gzip -n -9` compressed; for a cross build (a mobile
# target), its shipped libraries as BUILD/dist holds them (libsoftchat.so, libsoftchat_jni.so:
# dependencies linked in, stripped by the target's strip). One TSV line per number:
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

measure_dist() { # profile artifact unstripped stripped: a build's own stripped copy (BUILD/dist,
  # stripped by its toolchain's strip: the way to measure a cross build's libraries)
  local profile=$1 artifact=$2
  [ -f "$3" ] && [ -f "$4" ] || { echo "footprint: missing $3 or $4" >&2; return 0; }
  printf '%s\t%s\tunstripped\t%s\n' "$profile" "$artifact" "$(stat -c %s "$3")"
  printf '%s\t%s\tstripped\t%s\n' "$profile" "$artifact" "$(stat -c %s "$4")"
  printf '%s\t%s\tunstripped.gz\t%s\n' "$profile" "$artifact" "$(gzip -n -9 -c "$3" | wc -c)"
  printf '%s\t%s\tstripped.gz\t%s\n' "$profile" "$artifact" "$(gzip -n -9 -c "$4" | wc -c)"
}

for arg in "$@"; do
  name=${arg%%=*}
  dir=${arg#*=}
  if [ -f "$dir/CMakeCache.txt" ] && grep -q '^CMAKE_CROSSCOMPILING:INTERNAL=TRUE' "$dir/CMakeCache.txt" 2>/dev/null ||
     grep -q '^CMAKE_TOOLCHAIN_FILE:' "$dir/CMakeCache.txt" 2>/dev/null; then
    # a cross build (cmake/SoftchatPlatform.cmake made BUILD/dist): the shipped libraries
    for f in "$dir"/dist/unstripped/*.so*; do
      [ -e "$f" ] || continue
      b=$(basename "$f")
      measure_dist "$name" "${b%%.so*}.so" "$f" "$dir/dist/$b"
    done
    continue
  fi
  so=$(readlink -f "$dir/core/libsoftchat.so")
  measure "$name" libsoftchat.so "$so" --strip-unneeded
  measure "$name" libsoftchat.a "$dir/core/libsoftchat.a" --strip-debug
  measure "$name" softchat "$dir/cli/softchat" --strip-unneeded
done
