#!/bin/sh
# The ABI check: the built libsoftchat.so against the stored description of the released ABI.
#   check.sh BASELINE.abi LIBRARY HEADERS_DIR
# abidiff's exit status is a bit mask: 1 error, 2 usage error, 4 an ABI change, 8 an
# incompatible change. abidiff calls a struct whose layout changed behind a pointer only "a
# change" (4), so the summary decides: any removed or changed function or variable fails and
# prints the report; additions (new functions, new symbols) pass.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 BASELINE.abi LIBRARY HEADERS_DIR" >&2
  exit 2
fi
command -v abidiff >/dev/null 2>&1 || {
  echo "abi: abidiff not found (Debian: abigail-tools; scripts/setup.sh --with-tools)" >&2
  exit 1
}
report=$(abidiff --headers-dir2 "$3" --no-added-syms "$1" "$2" 2>&1)
rc=$?
if [ $((rc & 3)) -ne 0 ]; then
  printf '%s\n' "$report"
  echo "abi: abidiff failed (status $rc)" >&2
  exit 1
fi
# "Functions changes summary: R Removed, C Changed, A Added function" (and the same for
# variables and for ELF symbols): anything but additions is incompatible.
bad=$(printf '%s\n' "$report" | sed -n 's/.*changes summary: \([0-9]*\) Removed[^,]*, \([0-9]*\) Changed.*/\1 \2/p' |
      awk '$1 != 0 || $2 != 0' | wc -l)
# The baseline was taken on x86-64. A build for another CPU (the aarch64 cross build) is
# compared with it too: the same functions, variables and type layouts; abidiff then also
# reports the architecture itself as an incompatible change, which is no change of ours.
# Changes abidiff filters out as harmless ("0 Changed (67 filtered out)") are not changes.
other_arch=0
if printf '%s\n' "$report" | grep -q "^architecture changed from" &&
   [ "$(printf '%s\n' "$report" | grep -c '^ELF architecture changed$')" -eq 1 ] &&
   ! printf '%s\n' "$report" | grep -qE "^(  \[|[0-9]+ (Removed|Changed|Added))|[1-9][0-9]* (Removed|Changed)"; then
  other_arch=1
fi
if [ "$other_arch" -eq 1 ] && [ "$bad" -eq 0 ]; then
  printf '%s\n' "$report"
  echo "abi: same functions, variables and types as $(basename "$1") (taken on another CPU)"
  exit 0
fi
if [ $((rc & 8)) -ne 0 ] || [ "$bad" -ne 0 ]; then
  printf '%s\n' "$report"
  echo "abi: INCOMPATIBLE change against $1: a released function, variable or type changed" >&2
  exit 1
fi
if [ $((rc & 4)) -ne 0 ]; then
  printf '%s\n' "$report"
  echo "abi: compatible changes only (additions): a minor release"
fi
echo "abi: compatible with $(basename "$1")"
exit 0
