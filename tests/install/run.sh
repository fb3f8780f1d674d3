#!/usr/bin/env bash
# Installs the build in BUILD_DIR to a temporary prefix, then builds and runs a consumer
# with find_package(softchat) (shared and static) and with pkg-config (shared and static),
# and runs the installed softchat CLI from that prefix, and from another it is moved to,
# without LD_LIBRARY_PATH (its RUNPATH, $ORIGIN/../<libdir>, finds libsoftchat).
# CONSUMER_CFLAGS: compiler flags of the build under test (e.g. sanitizers), for the consumer.
# A cross build (tests/install/suite.cmake sets these) builds the consumer the same way:
#   CONSUMER_TOOLCHAIN  its CMake toolchain file     CONSUMER_CC   its C compiler
#   CONSUMER_DEPS       the prefix of its dependencies (scripts/deps.sh)
#   CONSUMER_RUN        the emulator that runs the consumer (e.g. qemu-aarch64-static -L ...)
set -euo pipefail
build_dir=$1
src_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CONSUMER_CC:-cc}
read -r -a run <<<"${CONSUMER_RUN:-}"
cross=()
if [ -n "${CONSUMER_TOOLCHAIN:-}" ]; then
  roots="$tmp/prefix${CONSUMER_DEPS:+;$CONSUMER_DEPS}"
  cross=(-DCMAKE_TOOLCHAIN_FILE="$CONSUMER_TOOLCHAIN" -DCMAKE_FIND_ROOT_PATH="$roots")
fi

cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null

echo "== find_package(softchat)"
cmake -S "$src_dir/tests/install/consumer" -B "$tmp/consumer" -G Ninja "${cross[@]}" \
      -DCMAKE_PREFIX_PATH="$tmp/prefix${CONSUMER_DEPS:+;$CONSUMER_DEPS}" \
      -DCMAKE_C_FLAGS="${CONSUMER_CFLAGS:-}" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib64:${LD_LIBRARY_PATH:-}" "${run[@]}" "$tmp/consumer/consumer_shared"
"${run[@]}" "$tmp/consumer/consumer_static"

echo "== pkg-config softchat"
pcdir=$(dirname "$(find "$tmp/prefix" -name softchat.pc | head -n 1)")
export PKG_CONFIG_PATH="$pcdir${CONSUMER_DEPS:+:$CONSUMER_DEPS/lib/pkgconfig}"
if [ -n "${CONSUMER_TOOLCHAIN:-}" ]; then
  export PKG_CONFIG_LIBDIR="$tmp/no-pkg-config-dir" # never the build machine's .pc files
fi
"$cc" ${CONSUMER_CFLAGS:-} "$src_dir/tests/install/consumer/consumer.c" -o "$tmp/pc_shared" \
   $(pkg-config --cflags --libs softchat)
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib64:${LD_LIBRARY_PATH:-}" "${run[@]}" "$tmp/pc_shared"
"$cc" ${CONSUMER_CFLAGS:-} "$src_dir/tests/install/consumer/consumer.c" -o "$tmp/pc_static" \
   $(pkg-config --cflags softchat) "$(pkg-config --variable=libdir softchat)/libsoftchat.a" \
   $(pkg-config --static --libs-only-l --libs-only-L softchat | sed 's/-lsoftchat//')
"${run[@]}" "$tmp/pc_static"

echo "== the installed CLI, from its prefix"
cli="$tmp/prefix/bin/softchat"
if [ ! -e "$cli" ]; then
  echo "SKIP: no bin/softchat installed (SOFTCHAT_BUILD_CLI=OFF): nothing to run"
else
  runpath=$(readelf -d "$cli" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  case $runpath in
    '$ORIGIN/'*) echo "RUNPATH $runpath" ;;
    *)
      echo "bin/softchat has RUNPATH '$runpath', expected \$ORIGIN/../<libdir>" >&2
      exit 1
      ;;
  esac
  # a prefix of its own and then another (the tree moved): found through $ORIGIN only
  for prefix in "$tmp/prefix" "$tmp/moved/elsewhere"; do
    if [ "$prefix" != "$tmp/prefix" ]; then
      mkdir -p "$(dirname "$prefix")"
      mv "$tmp/prefix" "$prefix"
    fi
    env -u LD_LIBRARY_PATH "${run[@]}" "$prefix/bin/softchat" --version
    env -u LD_LIBRARY_PATH "${run[@]}" "$prefix/bin/softchat" selftest >/dev/null
  done
  mv "$tmp/moved/elsewhere" "$tmp/prefix"
fi

echo "== exported symbols"
so=$(find "$tmp/prefix" -name 'libsoftchat.so' | head -n 1)
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
major=$(sed -n 's/^#define SC_VERSION_MAJOR \([0-9]*\)/\1/p' "$src_dir/api/softchat/version.h")
if [ "$soname" != "libsoftchat.so.$major" ]; then
  echo "SONAME is '$soname', expected libsoftchat.so.$major" >&2
  exit 1
fi
echo "SONAME $soname"
bad=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDRB]$/ {print $3}' | grep -v '^sc_' || true)
if [ -n "$bad" ]; then
  echo "symbols exported without the sc_ prefix:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "all $(nm -D --defined-only "$so" | awk '$2 ~ /^[TDRB]$/' | wc -l) exported symbols carry the sc_ prefix"
