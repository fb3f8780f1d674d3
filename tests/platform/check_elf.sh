#!/bin/sh
# Checks a shared library the way an app store and a dynamic loader see it (readelf only, so
# it reads a library built for any CPU):
#   check_elf.sh [--align BYTES] [--exports REGEX] [--needed REGEX] [--machine NAME] LIB...
#   --align BYTES   every LOAD segment aligned to BYTES: p_align a multiple of BYTES and
#                   p_offset = p_vaddr modulo BYTES (Android 15+ on arm64: 16384)
#   --exports REGEX every defined dynamic symbol (functions and objects the library exports)
#                   matches REGEX (extended, anchored by the caller), e.g. '^sc_'
#   --needed REGEX  every DT_NEEDED entry matches REGEX: a self-contained library needs only
#                   the C library and the loader
#   --machine NAME  the ELF machine readelf names (e.g. AArch64, X86-64)
# Prints one line per library and check; exits 1 when any check fails.
set -u
align=""
exports=""
needed=""
machine=""
while [ $# -gt 0 ]; do
  case $1 in
    --align) align=$2; shift 2 ;;
    --exports) exports=$2; shift 2 ;;
    --needed) needed=$2; shift 2 ;;
    --machine) machine=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "check_elf: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: check_elf.sh [options] LIB..." >&2; exit 2; }
command -v readelf >/dev/null 2>&1 || { echo "check_elf: needs readelf (binutils)" >&2; exit 2; }
fail=0

for lib in "$@"; do
  if ! readelf -hW "$lib" >/dev/null 2>&1; then
    echo "FAIL $lib: not an ELF file"
    fail=1
    continue
  fi
  if [ -n "$machine" ]; then
    m=$(readelf -hW "$lib" | sed -n 's/^ *Machine: *//p')
    if [ "$m" = "$machine" ]; then echo "ok   $lib: machine $m"
    else echo "FAIL $lib: machine '$m', expected '$machine'"; fail=1; fi
  fi
  if [ -n "$align" ]; then
    # LOAD  Offset VirtAddr PhysAddr FileSiz MemSiz Flg Align (Flg may be "R E": 2 fields)
    bad=$(readelf -lW "$lib" | awk '$1 == "LOAD" { print $2, $3, $NF }' | {
      n=0; out=""
      while read -r off va al; do
        n=$((n + 1))
        off=$((off)); va=$((va)); al=$((al))
        if [ $((al % align)) -ne 0 ] || [ $((off % align)) -ne $((va % align)) ]; then
          out="${out}segment $n: offset $off vaddr $va align $al; "
        fi
      done
      [ "$n" -gt 0 ] || out="no LOAD segment"
      printf '%s' "$out"
    })
    if [ -z "$bad" ]; then
      echo "ok   $lib: every LOAD segment aligned to $align ($(readelf -lW "$lib" | awk '$1 == "LOAD" { printf "%s ", $NF }'))"
    else
      echo "FAIL $lib: not aligned to $align: $bad"
      fail=1
    fi
  fi
  if [ -n "$exports" ]; then
    # readelf --dyn-syms -W: Num Value Size Type Bind Vis Ndx Name
    syms=$(readelf --dyn-syms -W "$lib" | awk '
      $1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") &&
      ($4 == "FUNC" || $4 == "OBJECT" || $4 == "NOTYPE" || $4 == "TLS" || $4 == "IFUNC") &&
      $8 != "" { n = $8; sub(/@.*/, "", n); print n }' | sort -u)
    count=$(printf '%s\n' "$syms" | grep -c . || true)
    others=$(printf '%s\n' "$syms" | grep -Ev "$exports" | grep . || true)
    if [ "$count" -eq 0 ]; then
      echo "FAIL $lib: exports nothing"
      fail=1
    elif [ -z "$others" ]; then
      echo "ok   $lib: $count exported symbols, all matching $exports"
    else
      echo "FAIL $lib: exports symbols not matching $exports:" $others
      fail=1
    fi
  fi
  if [ -n "$needed" ]; then
    libs=$(readelf -dW "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    others=$(printf '%s\n' "$libs" | grep -Ev "$needed" | grep . || true)
    if [ -z "$others" ]; then
      echo "ok   $lib: needs only" $libs
    else
      echo "FAIL $lib: needs libraries outside $needed:" $others
      fail=1
    fi
  fi
done
exit $fail
