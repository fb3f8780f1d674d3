#!/bin/sh
# ctest cli.clean: the softchat CLI as built and as installed is clean (check_clean.sh: no
# allocator defined, no program started, no source path), softchat-bench is not installed by
# default, and the checker itself still finds what it must (a deliberately bad binary, and
# softchat-bench, which is unclean by design).
# Usage: clean.sh SOURCE_DIR BUILD_DIR SOFTCHAT BAD_BINARY
#                 [--install INSTALL_BENCH] [--bench SOFTCHAT_BENCH COUNTS_ALLOCS] [--sanitized]
# --sanitized: a sanitizer build, whose instrumentation names each source file by its absolute
# path (not a binary users install): the CLI's source-path check is skipped, visibly.
set -u
src=$1
build=$2
cli=$3
bad=$4
shift 4
install=""
bench=""
counts=""
sanitized=""
while [ $# -gt 0 ]; do
  case $1 in
    --install) install=$2; shift 2 ;;
    --bench) bench=$2; counts=$3; shift 3 ;;
    --sanitized) sanitized=1; shift ;;
    *) echo "clean.sh: bad argument $1" >&2; exit 2 ;;
  esac
done
check="$src/tests/cli/check_clean.sh"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

clean() { # label binary
  if [ -n "$sanitized" ]; then
    out=$(sh "$check" "$src" "$2" --no-path-check \
          "sanitizer build: its instrumentation names the sources")
  else
    out=$(sh "$check" "$src" "$2")
  fi
  if [ $? -eq 0 ]; then
    echo "ok   $1 is clean"
    [ -z "$out" ] || printf 'note %s\n' "$out"
  else
    echo "FAIL $1 is not clean:"
    printf '%s\n' "$out"
    fail=1
  fi
}

# dirty label binary what... : the checker must fail and report every finding named
dirty() {
  label=$1
  binary=$2
  shift 2
  out=$(sh "$check" "$src" "$binary")
  rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "FAIL self-check: the checker passed $label (exit $rc)"
    printf '%s\n' "$out"
    fail=1
    return
  fi
  for what in "$@"; do
    if printf '%s\n' "$out" | grep -q ": $what"; then
      echo "ok   self-check: $label: found '$what'"
    else
      echo "FAIL self-check: $label: '$what' not reported"
      printf '%s\n' "$out"
      fail=1
    fi
  done
}

clean "softchat (build tree)" "$cli"

if [ -n "$install" ]; then
  if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
    clean "softchat (installed)" "$tmp/prefix/bin/softchat"
    if [ "$install" = ON ] || [ ! -e "$tmp/prefix/bin/softchat-bench" ]; then
      echo "ok   softchat-bench installed only when asked (SOFTCHAT_INSTALL_BENCH=$install)"
    else
      echo "FAIL softchat-bench was installed with SOFTCHAT_INSTALL_BENCH=OFF"
      fail=1
    fi
  else
    echo "FAIL cmake --install failed:"
    cat "$tmp/install.log"
    fail=1
  fi
fi

dirty "the deliberately bad binary" "$bad" "defines malloc" "defines free" "imports system" \
      "imports popen" "imports fork" "imports execv" "holds the source path"
if [ -n "$bench" ]; then
  if [ "$counts" = ON ]; then
    dirty "softchat-bench" "$bench" "defines malloc" "defines free" "imports popen" \
          "imports posix_spawnp" "holds the source path"
  else # a sanitizer build: the harness does not count allocations there
    dirty "softchat-bench" "$bench" "imports popen" "imports posix_spawnp" "holds the source path"
  fi
fi
exit $fail
