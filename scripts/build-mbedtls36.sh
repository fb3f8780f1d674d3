#!/usr/bin/env bash
# Builds mbed TLS 3.6 LTS from source and installs it into PREFIX, to build and test
# libsoftchat's mbedtls and psa backends against 3.6 on a machine that has Debian's 2.28.
# Usage: scripts/build-mbedtls36.sh PREFIX
#   then: cmake -S . -B BUILD -DSOFTCHAT_BACKENDS=mbedtls -DCMAKE_PREFIX_PATH=PREFIX ...
# The version and its SHA-256 are pinned in scripts/deps.pins; scripts/deps.sh does the work,
# with the configuration every target ships (see there): libraries only, static and
# position-independent (linkable into libsoftchat.so), with upstream's CMake package
# (PREFIX/lib/cmake/MbedTLS), the modules libsoftchat does not call left out, and, for the psa
# backend (the mbedtls backends use no PSA code and are unaffected):
#   MBEDTLS_PSA_STATIC_KEY_SLOTS (and no MBEDTLS_PSA_KEY_STORE_DYNAMIC): key material lives in
#     preallocated slots (64 bytes each: the largest key the backend imports), so
#     psa_import_key does not allocate;
#   MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS: PSA calls use the caller's buffers directly instead
#     of heap copies (the copies guard buffers shared with an untrusted party across a trust
#     boundary; libsoftchat's buffers are its caller's own memory);
#   MBEDTLS_THREADING_C + MBEDTLS_THREADING_PTHREAD: the PSA key store and random generator
#     are process-wide, so contexts used from different threads need its locks.
# Idempotent: does nothing when PREFIX already holds that build (delete PREFIX to rebuild).
# Work files go to $SOFTCHAT_MBEDTLS36_WORK (default: scripts/deps.sh's work directory).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -n "${SOFTCHAT_MBEDTLS36_WORK:-}" ]; then
  export SOFTCHAT_DEPS_WORK=$SOFTCHAT_MBEDTLS36_WORK
fi
exec "$here/deps.sh" --only mbedtls host "$1"
