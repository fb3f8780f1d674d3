#!/usr/bin/env bash
# Builds mbed TLS 3.6 LTS from Debian trixie's upstream source and installs it into PREFIX, to
# build and test libsoftchat's mbedtls backend against 3.6 on a machine that has Debian's 2.28.
# Usage: scripts/build-mbedtls36.sh PREFIX
#   then: cmake -S . -B BUILD -DSOFTCHAT_BACKENDS=mbedtls -DCMAKE_PREFIX_PATH=PREFIX ...
# Libraries only (no programs, tests or docs), static and position-independent so they can be
# linked into libsoftchat.so, with upstream's CMake package (PREFIX/lib/cmake/MbedTLS).
# Upstream's package exports libmbedtls and libmbedx509 next to libmbedcrypto, so those are
# built too (a few seconds): a package without them would not load.
# Idempotent: does nothing when PREFIX already holds mbed TLS 3.6 (delete PREFIX to rebuild).
# Work files go to $SOFTCHAT_MBEDTLS36_WORK (default ${TMPDIR:-/tmp}/softchat-mbedtls36).
# Needs bash, curl, xz, sha256sum, tar, cmake, ninja and a C compiler.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
for tool in cmake ninja; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-mbedtls36: needs $tool" >&2; exit 2; }
done
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${SOFTCHAT_MBEDTLS36_WORK:-${TMPDIR:-/tmp}/softchat-mbedtls36}
suite=trixie

installed=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' \
  "$prefix/lib/cmake/MbedTLS/MbedTLSConfigVersion.cmake" 2>/dev/null || true)
case "$installed" in
  3.6.*)
    if [ -f "$prefix/lib/libmbedcrypto.a" ] && [ -f "$prefix/include/mbedtls/build_info.h" ]; then
      echo "build-mbedtls36: $prefix already has mbed TLS $installed" >&2
      exit 0
    fi
    ;;
esac

src=$("$here/fetch-debian-source.sh" mbedtls "$suite" "$work/src")
case "${src##*/}" in
  mbedtls-3.6.*) ;;
  *) echo "build-mbedtls36: $suite has ${src##*/}, not mbed TLS 3.6" >&2; exit 1 ;;
esac
build="$work/build-${src##*/}"

cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DUSE_STATIC_MBEDTLS_LIBRARY=ON \
  -DUSE_SHARED_MBEDTLS_LIBRARY=OFF \
  -DENABLE_PROGRAMS=OFF \
  -DENABLE_TESTING=OFF \
  -DGEN_FILES=OFF \
  -DMBEDTLS_FATAL_WARNINGS=OFF >&2
cmake --build "$build" --target lib >&2
cmake --install "$build" >&2
echo "build-mbedtls36: installed mbed TLS ${src##*/mbedtls-} into $prefix" >&2
