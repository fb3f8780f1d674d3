#!/usr/bin/env bash
# Counts the instructions one base64 call executes on aarch64, per kernel, under qemu-user
# (-singlestep: one instruction per translation block; -d nochain,exec logs each one), for
# docs/platforms.md. A count, not a time: it says how much work each kernel does, independent
# of how fast qemu or a CPU runs it.
# Usage: scripts/count-insns.sh BUILD_DIR [BYTES]   (BUILD_DIR: the aarch64-linux-gnu build;
#        BYTES: default 65535, the largest NIP-44 payload, 87,380 characters)
set -euo pipefail
build=$1
n=${2:-65535}
prog="$build/test_base64_kernels"
[ -x "$prog" ] || { echo "count-insns: no $prog (build the aarch64-linux-gnu preset)" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
count() { # kernel op bytes
  rm -f "$log"
  qemu-aarch64-static -L /usr/aarch64-linux-gnu -singlestep -d nochain,exec -D "$log" \
    "$prog" --once "$1" "$2" "$3" >/dev/null
  grep -c 'Trace' "$log"
}
chars=$(( (n + 2) / 3 * 4 ))
printf '%-9s %-7s %12s %14s\n' kernel call instructions "per 64 chars"
for k in portable neon; do
  e=$(( $(count "$k" encode "$n") - $(count "$k" encode 0) ))
  d=$(( $(count "$k" decode "$n") - $(count "$k" prepare "$n") ))
  awk -v k="$k" -v e="$e" -v d="$d" -v c="$chars" 'BEGIN {
    printf "%-9s %-7s %12d %14.1f\n", k, "encode", e, e * 64 / c
    printf "%-9s %-7s %12d %14.1f\n", k, "decode", d, d * 64 / c }' 
done
echo "($n bytes, $chars characters per call)"
