#!/usr/bin/env bash
# Builds mbed TLS 3.6 LTS from Debian trixie's upstream source and installs it into PREFIX, to
# build and test libsoftchat's mbedtls backend against 3.6 on a machine that has Debian's 2.28.
# Usage: scripts/build-mbedtls36.sh PREFIX
#   then: cmake -S . -B BUILD -DSOFTCHAT_BACKENDS=mbedtls -DCMAKE_PREFIX_PATH=PREFIX ...
# Libraries only (no programs, tests or docs), static and position-independent so they can be
# linked into libsoftchat.so, with upstream's CMake package (PREFIX/lib/cmake/MbedTLS).
# Upstream's package exports libmbedtls and libmbedx509 next to libmbedcrypto, so those are
# built too (a few seconds): a package without them would not load.
# Configuration (upstream's default plus these, for the psa backend; the mbedtls backends use
# no PSA code and are unaffected):
#   MBEDTLS_PSA_STATIC_KEY_SLOTS (and no MBEDTLS_PSA_KEY_STORE_DYNAMIC): key material lives in
#     preallocated slots, so psa_import_key does not allocate;
#   MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS: PSA calls use the caller's buffers directly instead
#     of heap copies (the copies guard buffers shared with an untrusted party across a trust
#     boundary; libsoftchat's buffers are its caller's own memory);
#   MBEDTLS_THREADING_C + MBEDTLS_THREADING_PTHREAD: the PSA key store and random generator
#     are process-wide, so contexts used from different threads need its locks.
# Idempotent: does nothing when PREFIX already holds mbed TLS 3.6 built with that
# configuration (delete PREFIX to rebuild).
# Work files go to $SOFTCHAT_MBEDTLS36_WORK (default ${TMPDIR:-/tmp}/softchat-mbedtls36).
# Needs bash, curl, xz, sha256sum, tar, python3, cmake, ninja and a C compiler.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
for tool in cmake ninja python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-mbedtls36: needs $tool" >&2; exit 2; }
done
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${SOFTCHAT_MBEDTLS36_WORK:-${TMPDIR:-/tmp}/softchat-mbedtls36}
suite=trixie

installed=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' \
  "$prefix/lib/cmake/MbedTLS/MbedTLSConfigVersion.cmake" 2>/dev/null || true)
set_options="MBEDTLS_PSA_STATIC_KEY_SLOTS MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS MBEDTLS_THREADING_C MBEDTLS_THREADING_PTHREAD"
unset_options="MBEDTLS_PSA_KEY_STORE_DYNAMIC"
configured() { # the installed (or source) config has every option of ours
  local cfg=$1 o
  [ -f "$cfg" ] || return 1
  for o in $set_options; do grep -q "^#define $o\b" "$cfg" || return 1; done
  for o in $unset_options; do ! grep -q "^#define $o\b" "$cfg" || return 1; done
}
case "$installed" in
  3.6.*)
    if [ -f "$prefix/lib/libmbedcrypto.a" ] && [ -f "$prefix/include/mbedtls/build_info.h" ] &&
       configured "$prefix/include/mbedtls/mbedtls_config.h"; then
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

# Our options go into the unpacked tree's mbedtls_config.h (the installed header is that
# file, so consumers see the configuration the library was built with). Idempotent.
for o in $set_options; do python3 "$src/scripts/config.py" -f "$src/include/mbedtls/mbedtls_config.h" set "$o"; done
for o in $unset_options; do python3 "$src/scripts/config.py" -f "$src/include/mbedtls/mbedtls_config.h" unset "$o"; done
configured "$src/include/mbedtls/mbedtls_config.h" || {
  echo "build-mbedtls36: could not configure $src/include/mbedtls/mbedtls_config.h" >&2; exit 1; }

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
