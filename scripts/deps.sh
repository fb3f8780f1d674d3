#!/usr/bin/env bash
# Builds libsoftchat's dependencies from source for one CMake toolchain and installs them,
# static and position-independent, into PREFIX; then libsoftchat links them in statically:
#   cmake -S . -B BUILD -DCMAKE_TOOLCHAIN_FILE=TOOLCHAIN -DCMAKE_PREFIX_PATH=PREFIX \
#         -DCMAKE_FIND_ROOT_PATH=PREFIX ...
#
# Usage: scripts/deps.sh [--only NAME,...] TOOLCHAIN PREFIX [-- CMAKE_ARG...]
#        scripts/deps.sh --fetch NAME,... DIR
#        scripts/deps.sh --check-pins
#   TOOLCHAIN  a CMake toolchain file (cmake/toolchains/*.cmake, the Android NDK's
#              build/cmake/android.toolchain.cmake, ...), or `host` for the build machine
#   PREFIX     where to install (created)
#   --only     a subset of: secp256k1 mbedtls sodium cmocka cjson (default: all; cmocka and
#              cjson are needed only for the test suites and softchat-bench)
#   CMAKE_ARG  passed to every configure step, e.g. -DANDROID_ABI=arm64-v8a -DANDROID_PLATFORM=24
#   --fetch    only fetches, checks and unpacks the pinned tarballs, each into DIR/NAME-VERSION
#              (with .softchat-sha256, the tarball's checksum); scripts/setup.sh fetches
#              secp256k1 into build/deps/src, where the host build compiles it
#              (cmake/SoftchatSecp256k1.cmake)
#   --check-pins  prints, for each pin, the newest version in its suite (and in sid)
#
# Versions and SHA-256 sums come from scripts/deps.pins, the one pin file; each tarball is
# fetched from the Debian archive's pool, checked, and unpacked once. Configuration:
#   secp256k1  schnorrsig, extrakeys and ecdh (required by libsoftchat), no recovery or
#              ellswift; SECP256K1_ECMULT_WINDOW_SIZE / _GEN_KB from the environment
#              (SOFTCHAT_SECP_WINDOW, default 12; SOFTCHAT_SECP_GEN_KB, default 22): the
#              verification table is 2^(w-1) * 64 bytes, 128 KiB at 12 against 1 MiB at
#              upstream's 15 (docs/platforms.md has the measured cost)
#   mbedtls    3.6 LTS with the psa backend's options and only the modules libsoftchat calls
#              (below); the x86-64 mbed TLS 3.6 stages of scripts/test.sh build it with
#              `scripts/deps.sh --only mbedtls host build/deps/mbedtls36`
#   sodium     its autotools build, with the compiler and flags the toolchain file gives (a
#              probe project reads them), no assembly where the target has none
#   cmocka, cjson  their CMake builds, static
# Every library is built with -ffunction-sections -fdata-sections, so libsoftchat.so keeps
# only what it calls (it links with --gc-sections).
#
# The libraries build side by side, up to $SOFTCHAT_DEPS_JOBS at once (default: the CPU count).
# Idempotent: a library whose stamp (PREFIX/share/softchat-deps/NAME.stamp: pin, options,
# toolchain file's SHA-256, arguments) matches is not rebuilt. Work files go to
# $SOFTCHAT_DEPS_WORK (default ${TMPDIR:-/tmp}/softchat-deps): downloads and sources are
# shared by every toolchain, build trees are per PREFIX. Mirror: $DEBIAN_MIRROR.
# Needs bash, curl, xz, bzip2, sha256sum, tar, cmake, ninja, make and the toolchain.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pins="$here/deps.pins"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=${SOFTCHAT_DEPS_WORK:-${TMPDIR:-/tmp}/softchat-deps}
all_names="secp256k1 mbedtls sodium cmocka cjson"
secp_window=${SOFTCHAT_SECP_WINDOW:-12}
secp_gen_kb=${SOFTCHAT_SECP_GEN_KB:-22}
jobs=$(nproc 2>/dev/null || echo 2)

log() { echo "deps: $*" >&2; }
die() { echo "deps: $*" >&2; exit 1; }

pin() { # NAME -> "version suite path sha256"
  local line
  line=$(awk -v n="$1" '$1 == n { print $2, $3, $4, $5 }' "$pins")
  [ -n "$line" ] || die "no pin for $1 in $pins"
  echo "$line"
}

if [ "${1:-}" = "--check-pins" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  declare -A debname=([secp256k1]=libsecp256k1 [mbedtls]=mbedtls [sodium]=libsodium
                      [cmocka]=cmocka [cjson]=cjson)
  for n in $all_names; do
    read -r v suite _ _ <<<"$(pin "$n")"
    for s in "$suite" sid; do
      [ -f "$tmp/$s.xz" ] || curl -fsSL --retry 3 -o "$tmp/$s.xz" "$mirror/dists/$s/main/source/Sources.xz"
      newest=$(xz -dc "$tmp/$s.xz" | awk -v p="${debname[$n]}" '/^Package:/ { n = $2 } /^Version:/ && n == p { print $2 }' | sort -V | tail -n1)
      printf '%-10s pinned %-8s %-7s has %s\n' "$n" "$v" "$s" "${newest:-nothing}"
    done
  done
  exit 0
fi

# Downloads NAME's pinned tarball (once: kept in $work/dl), checks it and unpacks it into
# DIR/NAME-VERSION unless that tree already came from the same tarball; prints the tree.
source_tree() {
  local name=$1 dir=${2:-$work/src} version suite path sha file tree
  read -r version suite path sha <<<"$(pin "$name")"
  file="$work/dl/${path##*/}"
  tree="$dir/$name-$version"
  if [ -f "$tree/.softchat-sha256" ] && [ "$(cat "$tree/.softchat-sha256")" = "$sha" ]; then
    echo "$tree"
    return
  fi
  mkdir -p "$work/dl" "$dir"
  if ! { [ -f "$file" ] && echo "$sha  $file" | sha256sum -c --quiet - >/dev/null 2>&1; }; then
    log "downloading $name $version ($suite): $path"
    curl -fsSL --retry 3 -o "$file.part" "$mirror/$path" ||
      die "cannot download $mirror/$path (is the pin in $pins still in the archive?)"
    echo "$sha  $file.part" | sha256sum -c --quiet - >/dev/null 2>&1 || {
      rm -f "$file.part"; die "SHA-256 mismatch for $path (pinned $sha)"; }
    mv -f "$file.part" "$file"
  fi
  rm -rf "$tree.part"
  mkdir -p "$tree.part"
  tar -xf "$file" -C "$tree.part" --strip-components=1 --no-same-owner
  echo "$sha" >"$tree.part/.softchat-sha256"
  rm -rf "$tree"
  mv "$tree.part" "$tree"
  echo "$tree"
}

if [ "${1:-}" = "--fetch" ]; then
  [ $# -eq 3 ] || die "usage: $0 --fetch NAME,... DIR"
  for tool in curl xz sha256sum tar; do
    command -v "$tool" >/dev/null 2>&1 || die "needs $tool"
  done
  for n in ${2//,/ }; do
    case " $all_names " in *" $n "*) ;; *) die "unknown dependency '$n' (known: $all_names)" ;; esac
    source_tree "$n" "$3"
  done
  exit 0
fi

only=$all_names
if [ "${1:-}" = "--only" ]; then
  [ $# -ge 2 ] || die "--only needs a list"
  only=${2//,/ }
  shift 2
fi
if [ $# -lt 2 ]; then
  sed -n '7,20p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
toolchain=$1
mkdir -p "$2"
prefix=$(cd "$2" && pwd)
shift 2
extra=()
if [ "${1:-}" = "--" ]; then
  shift
  extra=("$@")
elif [ $# -gt 0 ]; then
  die "unexpected argument $1 (CMake arguments go after --)"
fi
for n in $only; do
  case " $all_names " in *" $n "*) ;; *) die "unknown dependency '$n' (known: $all_names)" ;; esac
done
for tool in curl xz sha256sum tar cmake ninja; do
  command -v "$tool" >/dev/null 2>&1 || die "needs $tool"
done

tc_args=()
tc_sum=host
if [ "$toolchain" != host ]; then
  [ -f "$toolchain" ] || die "no toolchain file $toolchain"
  toolchain=$(cd "$(dirname "$toolchain")" && pwd)/$(basename "$toolchain")
  tc_args=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
  tc_sum=$(sha256sum "$toolchain" | cut -d' ' -f1)
fi
# emcc -O2 runs its JS optimizer, which needs Debian's acorn on node's module path.
if [ -d /usr/share/nodejs/acorn ]; then
  export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
fi
builds="$work/build/$(echo "$prefix" | sha256sum | cut -c1-12)"
stamps="$prefix/share/softchat-deps"
mkdir -p "$work/dl" "$work/src" "$builds" "$stamps"
flags="-O2 -DNDEBUG -ffunction-sections -fdata-sections"

# The stamp of NAME: what its installed copy was built from.
stamp_text() {
  printf 'pin %s\ntoolchain %s\nargs %s\noptions %s\n' "$(pin "$1")" "$tc_sum" "${extra[*]:-}" "$2"
}
up_to_date() { [ -f "$stamps/$1.stamp" ] && [ "$(cat "$stamps/$1.stamp")" = "$(stamp_text "$1" "$2")" ]; }
mark_built() { stamp_text "$1" "$2" >"$stamps/$1.stamp"; }

cmake_dep() { # NAME SRC OPTIONS... : configure, build and install a CMake project
  local name=$1 src=$2
  shift 2
  local b="$builds/$name"
  rm -rf "$b"
  cmake -S "$src" -B "$b" -G Ninja "${tc_args[@]}" "${extra[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$flags" \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_SHARED_LIBS=OFF "$@" >"$b.log" 2>&1 ||
    { tail -n 30 "$b.log" >&2; die "$name: configure failed (log: $b.log)"; }
  cmake --build "$b" >>"$b.log" 2>&1 || { tail -n 30 "$b.log" >&2; die "$name: build failed (log: $b.log)"; }
  cmake --install "$b" >>"$b.log" 2>&1 || die "$name: install failed (log: $b.log)"
}

# ---- the libraries ----------------------------------------------------------------------
build_secp256k1() {
  local opts="window=$secp_window gen_kb=$secp_gen_kb modules=ecdh,extrakeys,schnorrsig"
  up_to_date secp256k1 "$opts" && { log "secp256k1: up to date in $prefix"; return; }
  local src
  src=$(source_tree secp256k1)
  log "secp256k1: building ($opts)"
  cmake_dep secp256k1 "$src" -DSECP256K1_DISABLE_SHARED=ON -DSECP256K1_INSTALL=ON \
    -DSECP256K1_ENABLE_MODULE_ECDH=ON -DSECP256K1_ENABLE_MODULE_EXTRAKEYS=ON \
    -DSECP256K1_ENABLE_MODULE_SCHNORRSIG=ON -DSECP256K1_ENABLE_MODULE_RECOVERY=OFF \
    -DSECP256K1_ENABLE_MODULE_ELLSWIFT=OFF -DSECP256K1_ECMULT_WINDOW_SIZE="$secp_window" \
    -DSECP256K1_ECMULT_GEN_KB="$secp_gen_kb" -DSECP256K1_BUILD_TESTS=OFF \
    -DSECP256K1_BUILD_EXHAUSTIVE_TESTS=OFF -DSECP256K1_BUILD_BENCHMARK=OFF \
    -DSECP256K1_BUILD_CTIME_TESTS=OFF -DSECP256K1_BUILD_EXAMPLES=OFF -DSECP256K1_VALGRIND=OFF
  mark_built secp256k1 "$opts"
}

# mbed TLS's configuration: upstream's default, then
#  - the psa backend's options (the mbedtls backends use no PSA code and are unaffected):
#      MBEDTLS_PSA_STATIC_KEY_SLOTS (and no MBEDTLS_PSA_KEY_STORE_DYNAMIC): key material lives
#        in preallocated slots (64 bytes each: the largest key the backend imports), so
#        psa_import_key does not allocate;
#      MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS: PSA calls use the caller's buffers directly
#        instead of heap copies (the copies guard buffers shared with an untrusted party
#        across a trust boundary; libsoftchat's buffers are its caller's own memory);
#      MBEDTLS_THREADING_C + MBEDTLS_THREADING_PTHREAD: the PSA key store and random
#        generator are process-wide, so contexts used from different threads need its locks;
#  - the ARMv8 crypto extensions, where the CPU has them (found at run time: getauxval on
#    Linux and Android, always present on Apple's arm64; the portable C code otherwise):
#      MBEDTLS_SHA256_USE_ARMV8_A_CRYPTO_IF_PRESENT (named ..._A64_CRYPTO_IF_PRESENT before
#        3.6): SHA-256 with the SHA2 instructions (upstream leaves it off);
#      MBEDTLS_AESCE_C: AES with the AES instructions and GCM's GHASH with PMULL (upstream's
#        default, kept explicitly); on other targets both are ignored;
#  - config.py's `crypto` preset (no TLS, no X.509) and every module libsoftchat does not
#    call unset: public-key crypto, bignums, the other ciphers, modes and hashes, ASN.1, PEM,
#    key storage, self-tests. The PSA core references every algorithm the configuration
#    enables, so each one left on would be linked into libsoftchat.so (on arm64: 740 KB
#    stripped with the default configuration, docs/platforms.md). What stays: SHA-256, HMAC
#    (md), ChaCha20, AES with GCM, CTR_DRBG over the entropy collector, the PSA core.
mbedtls_slot_size=64
mbedtls_set="MBEDTLS_PSA_STATIC_KEY_SLOTS MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS MBEDTLS_THREADING_C MBEDTLS_THREADING_PTHREAD
  MBEDTLS_SHA256_USE_ARMV8_A_CRYPTO_IF_PRESENT MBEDTLS_AESCE_C"
mbedtls_unset="MBEDTLS_PSA_KEY_STORE_DYNAMIC MBEDTLS_SELF_TEST
  MBEDTLS_PK_C MBEDTLS_PK_PARSE_C MBEDTLS_PK_WRITE_C MBEDTLS_PK_PARSE_EC_EXTENDED MBEDTLS_PK_PARSE_EC_COMPRESSED
  MBEDTLS_ECDSA_DETERMINISTIC MBEDTLS_RSA_C MBEDTLS_PKCS1_V15 MBEDTLS_PKCS1_V21 MBEDTLS_GENPRIME MBEDTLS_DHM_C MBEDTLS_BIGNUM_C
  MBEDTLS_ECP_C MBEDTLS_ECDH_C MBEDTLS_ECDSA_C MBEDTLS_ECJPAKE_C MBEDTLS_ECP_NIST_OPTIM
  MBEDTLS_ECP_DP_SECP192R1_ENABLED MBEDTLS_ECP_DP_SECP224R1_ENABLED MBEDTLS_ECP_DP_SECP256R1_ENABLED
  MBEDTLS_ECP_DP_SECP384R1_ENABLED MBEDTLS_ECP_DP_SECP521R1_ENABLED MBEDTLS_ECP_DP_SECP192K1_ENABLED
  MBEDTLS_ECP_DP_SECP224K1_ENABLED MBEDTLS_ECP_DP_SECP256K1_ENABLED MBEDTLS_ECP_DP_BP256R1_ENABLED
  MBEDTLS_ECP_DP_BP384R1_ENABLED MBEDTLS_ECP_DP_BP512R1_ENABLED MBEDTLS_ECP_DP_CURVE25519_ENABLED
  MBEDTLS_ECP_DP_CURVE448_ENABLED
  MBEDTLS_ARIA_C MBEDTLS_CAMELLIA_C MBEDTLS_DES_C MBEDTLS_CCM_C MBEDTLS_CHACHAPOLY_C MBEDTLS_POLY1305_C
  MBEDTLS_CMAC_C MBEDTLS_NIST_KW_C MBEDTLS_CIPHER_MODE_CBC MBEDTLS_CIPHER_MODE_CFB MBEDTLS_CIPHER_MODE_CTR
  MBEDTLS_CIPHER_MODE_OFB MBEDTLS_CIPHER_MODE_XTS MBEDTLS_CIPHER_PADDING_PKCS7
  MBEDTLS_CIPHER_PADDING_ONE_AND_ZEROS MBEDTLS_CIPHER_PADDING_ZEROS_AND_LEN MBEDTLS_CIPHER_PADDING_ZEROS
  MBEDTLS_MD5_C MBEDTLS_RIPEMD160_C MBEDTLS_SHA1_C MBEDTLS_SHA224_C MBEDTLS_SHA384_C MBEDTLS_SHA512_C
  MBEDTLS_SHA3_C MBEDTLS_HKDF_C MBEDTLS_HMAC_DRBG_C MBEDTLS_PKCS5_C MBEDTLS_PKCS12_C MBEDTLS_LMS_C
  MBEDTLS_OID_C MBEDTLS_ASN1_PARSE_C MBEDTLS_ASN1_WRITE_C MBEDTLS_PEM_PARSE_C MBEDTLS_PEM_WRITE_C
  MBEDTLS_BASE64_C MBEDTLS_PSA_CRYPTO_STORAGE_C MBEDTLS_PSA_ITS_FILE_C MBEDTLS_ERROR_C
  MBEDTLS_VERSION_FEATURES MBEDTLS_TIMING_C"
mbedtls_configured() {
  local cfg=$1 o
  [ -f "$cfg" ] || return 1
  for o in $mbedtls_set; do grep -q "^#define $o\b" "$cfg" || return 1; done
  for o in $mbedtls_unset; do ! grep -q "^#define $o\b" "$cfg" || return 1; done
  grep -Eq "^#define MBEDTLS_PSA_STATIC_KEY_SLOT_BUFFER_SIZE[[:space:]]+$mbedtls_slot_size\b" "$cfg"
}
build_mbedtls() {
  local opts
  opts="crypto slot=$mbedtls_slot_size set=$(echo $mbedtls_set) unset=$(echo $mbedtls_unset)"
  up_to_date mbedtls "$opts" && mbedtls_configured "$prefix/include/mbedtls/mbedtls_config.h" &&
    { log "mbedtls: up to date in $prefix"; return; }
  local src o
  command -v python3 >/dev/null 2>&1 || die "mbedtls: needs python3 (its config.py)"
  # a private copy: the configuration is written into its headers (they are installed)
  rm -rf "$builds/mbedtls-src"
  cp -a "$(source_tree mbedtls)" "$builds/mbedtls-src"
  src="$builds/mbedtls-src"
  python3 "$src/scripts/config.py" -f "$src/include/mbedtls/mbedtls_config.h" crypto
  for o in $mbedtls_set; do python3 "$src/scripts/config.py" -f "$src/include/mbedtls/mbedtls_config.h" set "$o"; done
  # The static key slots are sized for the largest key the configuration has (AES-256 and
  # ChaCha20: 32 bytes, once public keys are off); the psa backend imports HMAC keys of up
  # to one SHA-256 block (longer ones are hashed first).
  python3 "$src/scripts/config.py" -f "$src/include/mbedtls/mbedtls_config.h" \
    set MBEDTLS_PSA_STATIC_KEY_SLOT_BUFFER_SIZE "$mbedtls_slot_size"
  for o in $mbedtls_unset; do python3 "$src/scripts/config.py" -f "$src/include/mbedtls/mbedtls_config.h" unset "$o"; done
  mbedtls_configured "$src/include/mbedtls/mbedtls_config.h" || die "mbedtls: could not configure $src"
  log "mbedtls: building (libraries only)"
  # Upstream's CMake package also exports libmbedtls and libmbedx509, so those are built too
  # (a package without them would not load); libsoftchat links libmbedcrypto only.
  cmake_dep mbedtls "$src" -DUSE_STATIC_MBEDTLS_LIBRARY=ON -DUSE_SHARED_MBEDTLS_LIBRARY=OFF \
    -DENABLE_PROGRAMS=OFF -DENABLE_TESTING=OFF -DGEN_FILES=OFF -DMBEDTLS_FATAL_WARNINGS=OFF
  mark_built mbedtls "$opts"
}

# The C compiler, flags, archiver and target triplet a toolchain file gives, as shell
# assignments (autotools projects build with them).
probe_toolchain() {
  local p="$builds/probe"
  rm -rf "$p"
  mkdir -p "$p/src"
  cat >"$p/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(softchat_deps_probe C)
set(f "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_RELEASE}")
if(CMAKE_C_COMPILER_TARGET AND CMAKE_C_COMPILE_OPTIONS_TARGET)
  string(PREPEND f "${CMAKE_C_COMPILE_OPTIONS_TARGET}${CMAKE_C_COMPILER_TARGET} ")
endif()
if(CMAKE_SYSROOT AND CMAKE_C_COMPILE_OPTIONS_SYSROOT)
  string(PREPEND f "${CMAKE_C_COMPILE_OPTIONS_SYSROOT}${CMAKE_SYSROOT} ")
endif()
if(CMAKE_C_COMPILER_EXTERNAL_TOOLCHAIN AND CMAKE_C_COMPILE_OPTIONS_EXTERNAL_TOOLCHAIN)
  string(PREPEND f "${CMAKE_C_COMPILE_OPTIONS_EXTERNAL_TOOLCHAIN}${CMAKE_C_COMPILER_EXTERNAL_TOOLCHAIN} ")
endif()
file(WRITE "${CMAKE_BINARY_DIR}/toolchain.sh"
  "tc_cc='${CMAKE_C_COMPILER}'\ntc_cflags='${f}'\ntc_ldflags='${CMAKE_EXE_LINKER_FLAGS}'\n"
  "tc_ar='${CMAKE_AR}'\ntc_ranlib='${CMAKE_RANLIB}'\ntc_system='${CMAKE_SYSTEM_NAME}'\n"
  "tc_cross='${CMAKE_CROSSCOMPILING}'\n")
EOF
  cmake -S "$p/src" -B "$p" "${tc_args[@]}" "${extra[@]}" -DCMAKE_BUILD_TYPE=Release \
    >"$p.log" 2>&1 || { tail -n 30 "$p.log" >&2; die "cannot configure a project with $toolchain (log: $p.log)"; }
  # shellcheck disable=SC1091
  . "$p/toolchain.sh"
}

build_sodium() {
  local opts="autotools --disable-shared --with-pic"
  up_to_date sodium "$opts" && { log "sodium: up to date in $prefix"; return; }
  local src b cflags ldflags conf=() host
  command -v make >/dev/null 2>&1 || die "sodium: needs make"
  src=$(source_tree sodium)
  probe_toolchain
  # shellcheck disable=SC2154  # tc_* come from the probe
  cflags="$tc_cflags $flags"
  ldflags="$tc_ldflags"
  # shellcheck disable=SC2086
  if [ "$tc_cross" = TRUE ] || [ "$tc_cross" = ON ] || [ "$tc_cross" = 1 ]; then
    host=$("$tc_cc" $cflags -dumpmachine 2>/dev/null) || die "sodium: $tc_cc -dumpmachine failed"
    # clang's Android triplets (aarch64-none-linux-android24) in the form config.sub knows
    host=$(echo "$host" | sed -e 's/-none-/-/' -e 's/\(androideabi\|android\)[0-9]*$/\1/' \
                              -e 's/^i686-unknown-linux-android$/i686-linux-android/')
    conf+=(--host="$host")
  fi
  case "$tc_system" in
    Emscripten)
      # no threads, stack protector, assembly or PIE in a wasm module (libsodium's own
      # emscripten build does the same)
      conf+=(--without-pthreads --disable-ssp --disable-asm --disable-pie) ;;
    *) conf+=(--with-pic) ;;
  esac
  b="$builds/sodium"
  rm -rf "$b"
  mkdir -p "$b"
  log "sodium: building (${conf[*]})"
  (cd "$b" && "$src/configure" --prefix="$prefix" --libdir="$prefix/lib" --disable-shared \
      --enable-static --disable-dependency-tracking "${conf[@]}" CC="$tc_cc" \
      AR="$tc_ar" RANLIB="$tc_ranlib" CFLAGS="$cflags" LDFLAGS="$ldflags") >"$b.log" 2>&1 ||
    { tail -n 30 "$b.log" >&2; die "sodium: configure failed (log: $b.log)"; }
  make -C "$b" -j"$jobs" install >>"$b.log" 2>&1 || { tail -n 30 "$b.log" >&2; die "sodium: build failed (log: $b.log)"; }
  mark_built sodium "$opts"
}

build_cmocka() {
  local opts="static"
  up_to_date cmocka "$opts" && { log "cmocka: up to date in $prefix"; return; }
  local src
  src=$(source_tree cmocka)
  log "cmocka: building"
  cmake_dep cmocka "$src" -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF \
    -DPICKY_DEVELOPER=OFF
  mark_built cmocka "$opts"
}

build_cjson() {
  local opts="static"
  up_to_date cjson "$opts" && { log "cjson: up to date in $prefix"; return; }
  local src
  src=$(source_tree cjson)
  log "cjson: building"
  cmake_dep cjson "$src" -DBUILD_SHARED_AND_STATIC_LIBS=OFF -DENABLE_CJSON_TEST=OFF \
    -DENABLE_CJSON_UTILS=OFF -DENABLE_CUSTOM_COMPILER_FLAGS=OFF -DENABLE_LOCALES=OFF \
    -DCJSON_OVERRIDE_BUILD_SHARED_LIBS=ON -DCJSON_BUILD_SHARED_LIBS=OFF
  mark_built cjson "$opts"
}

# The libraries are independent: up to $SOFTCHAT_DEPS_JOBS (default: the CPU count) build at
# once, each printing its messages when it ends. Configure steps run one check at a time, and
# a check costs a compile and a link (about a second with emcc, whose configure steps run
# hundreds), so builds side by side keep every core busy.
par=${SOFTCHAT_DEPS_JOBS:-$jobs}
[ "$par" -ge 1 ] 2>/dev/null || die "SOFTCHAT_DEPS_JOBS must be a positive number"
declare -A pids=()
failed=""
reap() { # waits for one build to end; prints its messages, records a failure
  local pid n st
  wait -n -p pid "${!pids[@]}" && st=0 || st=$?
  n=${pids[$pid]}
  unset "pids[$pid]"
  cat "$builds/$n.out" >&2
  [ "$st" -eq 0 ] || failed="$failed $n"
}
# longest first (with emcc, libsodium's and cmocka's configure steps take minutes)
for n in sodium cmocka secp256k1 mbedtls cjson; do
  case " $only " in *" $n "*) ;; *) continue ;; esac
  while [ ${#pids[@]} -ge "$par" ]; do reap; done
  ("build_$n") >"$builds/$n.out" 2>&1 &
  pids[$!]=$n
done
while [ ${#pids[@]} -gt 0 ]; do reap; done
[ -z "$failed" ] || die "failed:$failed"
log "done: $prefix ($toolchain)"
