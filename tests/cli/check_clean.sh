#!/bin/sh
# Whether an executable is fit to hand to users as the softchat CLI: it defines no allocator
# in its dynamic symbol table (a definition there interposes malloc and free for the whole
# process and every library in it), imports no function that starts another program, and
# holds no absolute path of the source tree (debug information, compiled-in paths, a build
# RUNPATH).
# Usage: check_clean.sh SOURCE_DIR BINARY [--no-path-check REASON]
# Prints one line per finding ("BINARY: defines malloc", "BINARY: imports system",
# "BINARY: holds the source path: ..."); exit 0 clean, 1 findings, 2 cannot check.
# --no-path-check leaves the path out, saying why (sanitizer builds: their instrumentation
# names every source file by its absolute path).
set -u
src=$1
bin=$2
no_path=""
if [ "${3:-}" = --no-path-check ]; then
  no_path=${4:-"no reason given"}
fi
for tool in nm strings awk; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check_clean: needs $tool (binutils)" >&2; exit 2; }
done
[ -f "$bin" ] || { echo "check_clean: no such file: $bin" >&2; exit 2; }
found=0

# nm -D prints "ADDRESS TYPE NAME[@VERSION]" (defined) or "U NAME[@VERSION]" (undefined).
names() { # nm-flag
  nm -D "$1" "$bin" 2>/dev/null | awk '{ n = $NF; sub(/@.*/, "", n); print n }'
}
allocators='^(malloc|free|calloc|realloc|reallocarray|aligned_alloc|posix_memalign|memalign|valloc|pvalloc|malloc_usable_size)$'
spawners='^(system|popen|fork|vfork|_Fork|clone|execv|execve|execvp|execvpe|execl|execle|execlp|fexecve|posix_spawn|posix_spawnp)$'

if ! nm -D "$bin" >/dev/null 2>&1; then
  echo "check_clean: nm cannot read the dynamic symbols of $bin" >&2
  exit 2
fi
for n in $(names --defined-only | grep -E "$allocators"); do
  echo "$bin: defines $n"
  found=1
done
for n in $(names --undefined-only | grep -E "$spawners"); do
  echo "$bin: imports $n"
  found=1
done

if [ -n "$no_path" ]; then
  echo "$bin: source path not checked: $no_path"
  exit $found
fi

# The source directory as a whole path component, as given and with symlinks resolved.
real=$(cd "$src" 2>/dev/null && pwd -P) || real=$src
for dir in "$src" "$real"; do
  case $dir in
    / | "") continue ;;
  esac
  hits=$(strings -a "$bin" | awk -v s="$dir" '
    {
      rest = $0; off = 0
      while ((i = index(rest, s)) > 0) {
        pos = off + i
        before = pos > 1 ? substr($0, pos - 1, 1) : ""
        after = substr($0, pos + length(s), 1)
        if (before !~ /[A-Za-z0-9._-]/ && after !~ /[A-Za-z0-9._-]/) { print; break }
        off = pos; rest = substr($0, off + 1)
      }
    }' | head -n 5)
  if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | while IFS= read -r h; do echo "$bin: holds the source path: $h"; done
    found=1
    break
  fi
done
exit $found
