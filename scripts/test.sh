#!/usr/bin/env bash
# Every test against every backend, from a fresh Debian machine: installs what is missing,
# checks that every path a comment or a document names exists, that the folders of core/
# do not depend on each other in a loop and that no function in core/, cli/ or bindings/ runs
# over 80 lines without saying why (tests/lint/), and that every C file keeps .clang-format,
# builds with -Wall -Wextra -Werror and runs the whole ctest suite, the Kotlin facade's Maven
# tests and the JVM benchmarks' smoke profile; then the curve suites against the system's
# libsecp256k1 (the packagers' build); then the same suite under
# ASan+UBSan, under valgrind memcheck, and the mbedtls backends and psa against mbed TLS 3.6
# LTS (plain, under ASan+UBSan, and psa under memcheck); then the thread test under
# ThreadSanitizer, a short run of every fuzz target, and last the cross targets
# (scripts/test-platforms.sh): the suite on aarch64 under qemu and on wasm32 under node,
# against dependencies built from source, and the Swift package's tests with Debian trixie's
# Swift in a root of its own (scripts/swift-root.sh).
# Usage: scripts/test.sh [--quick]   (--quick runs only the first build and suite)
set -euo pipefail
cd "$(dirname "$0")/.."
backends="openssl;mbedtls;sodium;sodium+mbedtls"
# the Rust peers and relay and the nostr-relay venv are built once, for every build tree
tools="$PWD/build/test-tools"
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)

stage() { printf '\n==== [%ss] %s\n' "$(( $(date +%s) - start ))" "$*"; }

# The sanitizer builds' flags, and how their suites and the memcheck passes run: one
# definition each.
asan_flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
# pool.sim.* run 2,000 scenarios per backend under ASan+UBSan and 100 under memcheck (10,000
# in the first pass, where each costs a few milliseconds).
ctest_asan() { # build dir
  (cd "$1" && SOFTCHAT_POOL_SIM_SCENARIOS=2000 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j "$jobs")
}
# robust.* run 10,000 mutations per backend under memcheck (100,000 in the other passes):
# there each costs some fifty times more. nip49.* pay scrypt costs up to log_n 10 there (NIP-49's
# own vector, log_n 16, runs in the other passes: under memcheck each call of it takes seconds).
ctest_memcheck() { # build dir, ctest selection...
  local dir=$1
  shift
  (cd "$dir" && SOFTCHAT_ROBUST_ITERATIONS=10000 SOFTCHAT_NIP49_LOG_N_MAX=10 SOFTCHAT_POOL_SIM_SCENARIOS=100 \
     ctest --output-on-failure -j "$jobs" -T memcheck "$@" \
     --overwrite MemoryCheckCommand="$(command -v valgrind)" \
     --overwrite MemoryCheckCommandOptions="--error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect --track-origins=yes")
}

stage "setup"
scripts/setup.sh --with-tools

stage "lint: paths named exist; no loop between the folders of core/; short functions; C style"
# Each checker's self-test first (a known-bad input must be reported), then the tree.
python3 tests/lint/check_paths.py --self-test
python3 tests/lint/check_paths.py
python3 tests/lint/check_module_graph.py
python3 tests/lint/check_function_length.py --self-test
python3 tests/lint/check_function_length.py
# The C style (.clang-format): every C file of the tree, as clang-format 14 (Debian) writes it.
git ls-files -z '*.c' '*.h' | xargs -0 clang-format --dry-run --Werror

stage "build (-Werror), every backend"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$backends" -DSOFTCHAT_BUILD_JNI=ON -DSOFTCHAT_BUILD_CTIME_TESTS=ON \
      -DSOFTCHAT_TEST_TOOLS_DIR="$tools" >/dev/null
cmake --build build/test

stage "ctest: every backend"
(cd build/test && ctest --output-on-failure -j "$jobs")

stage "Kotlin facade: mvn verify (JUnit through the facade against the JNI glue)"
# Maven resolves from Maven Central into build/m2 on the first run, offline afterwards; the
# JMH module is packaged too. Then the JVM benchmarks' smoke profile and its report section.
SOFTCHAT_JNI=build/test/bindings/kotlin/jni/libsoftchat_jni.so bindings/kotlin/mvn.sh
stage "JVM benchmarks: JMH smoke profile, object counts, report (build/test/jvm-audit)"
python3 scripts/audit build/test/jvm-audit --jvm-only --jvm quick --build-dir build/test
grep -q '^| nip44_encrypt | 1024 |' build/test/jvm-audit/report.md

if [ "${1:-}" = "--quick" ]; then
  stage "quick run passed"
  exit 0
fi

stage "libsecp256k1 from the system package (-DSOFTCHAT_SECP256K1=system)"
# The default build compiles the pinned libsecp256k1 with the host options; a distribution
# links its own package instead (Debian 12: libsecp256k1-dev 0.2.0, the oldest release the
# curve adapter supports). The library against it, every backend, and the suites that run the
# curve (vectors, events, NIP-44, NIP-59) plus the installed package, which then depends on
# the system library (find_package and pkg-config).
cmake -S . -B build/secp-system -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$backends" -DSOFTCHAT_SECP256K1=system -DSOFTCHAT_BUILD_JNI=OFF \
      -DSOFTCHAT_BUILD_CTIME_TESTS=OFF -DSOFTCHAT_BUILD_BENCH=OFF -DSOFTCHAT_TEST_TOOLS_DIR="$tools" \
      -DSOFTCHAT_NEG_CROSS_FULL=OFF -DSOFTCHAT_RELAY_LIVE=OFF >/dev/null
cmake --build build/secp-system
build/secp-system/cli/softchat --version | grep -F '(system)'
(cd build/secp-system && ctest --output-on-failure -j "$jobs" -R '^(vectors|event|nip44|nip59)\.|^install\.consumer$')

stage "build under ASan+UBSan"
# Left out here: the JNI binding (a JVM cannot load an ASan-instrumented library without
# preloading the sanitizer runtime into java itself; its test runs in the first pass with
# -Xcheck:jni) and the constant-time checks (valgrind cannot run ASan binaries).
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$backends" -DSOFTCHAT_BUILD_JNI=OFF -DSOFTCHAT_BUILD_CTIME_TESTS=OFF \
      -DSOFTCHAT_TEST_TOOLS_DIR="$tools" -DSOFTCHAT_NEG_CROSS_FULL=OFF \
      -DCMAKE_C_FLAGS="$asan_flags" \
      >/dev/null
cmake --build build/asan
stage "ctest under ASan+UBSan"
ctest_asan build/asan

stage "ctest under valgrind memcheck"
# cli.* and interop-node.* drive the CLI from Python and node, bindings.* from java, and
# relay.live.* and negentropy.cross.* from Python (valgrind would check the interpreter or
# the JVM); the CLI is covered by the ASan+UBSan pass instead. ctime.* already run under
# valgrind. negentropy.<backend> and relay.<backend> run here. bench.* and docs.bench run
# softchat-bench, which replaces malloc for its own process (allocation counting), which
# valgrind cannot take over; the library code it runs is covered by the suites above. fuzz.*
# replay the seeds with a Python fixture (the plain and ASan+UBSan passes run them).
# residue.* reads freed and foreign memory on purpose (memcheck would report every read of its
# scan) and runs in the other two passes.
ctest_memcheck build/test \
  -E '^(install|cli|interop-node|bindings|ctime|residue|bench|fuzz|relay\.live|negentropy\.(cross|setup))\.?|^docs\.bench$'

stage "mbedtls backends against mbed TLS 3.6 LTS"
# mbedtls and sodium+mbedtls again, and psa, which needs 3.6 (Debian 12 has 2.28). mbed TLS
# 3.6 is built by scripts/deps.sh, pinned in scripts/deps.pins, with the configuration every
# target ships: the psa backend's (static key slots, no buffer copies, threading) and only
# the modules libsoftchat calls.
m36_backends="mbedtls;sodium+mbedtls;psa"
m36_prefix="$PWD/build/deps/mbedtls36"
scripts/deps.sh --only mbedtls host "$m36_prefix"
cmake -S . -B build/mbedtls36 -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$m36_backends" -DSOFTCHAT_INSTALL=OFF \
      -DSOFTCHAT_TEST_TOOLS_DIR="$tools" -DSOFTCHAT_NEG_CROSS_FULL=OFF -DSOFTCHAT_RELAY_LIVE=OFF \
      -DCMAKE_PREFIX_PATH="$m36_prefix" >/dev/null
cmake --build build/mbedtls36
build/mbedtls36/cli/softchat backends | grep -E '^(mbedtls|sodium\+mbedtls|psa)|library|  - '
(cd build/mbedtls36 && ctest --output-on-failure -j "$jobs")

stage "mbed TLS 3.6 backends under ASan+UBSan"
cmake -S . -B build/mbedtls36-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$m36_backends" -DSOFTCHAT_INSTALL=OFF -DSOFTCHAT_BUILD_JNI=OFF \
      -DSOFTCHAT_BUILD_CTIME_TESTS=OFF -DSOFTCHAT_TEST_TOOLS_DIR="$tools" \
      -DSOFTCHAT_NEG_CROSS_FULL=OFF -DSOFTCHAT_RELAY_LIVE=OFF -DCMAKE_PREFIX_PATH="$m36_prefix" \
      -DCMAKE_C_FLAGS="$asan_flags" \
      >/dev/null
cmake --build build/mbedtls36-asan
ctest_asan build/mbedtls36-asan

stage "psa backend under valgrind memcheck"
# The mbedtls backends' code ran under memcheck in the main pass (against 2.28); here the psa
# entries and the cross-backend pairs, which include psa.
ctest_memcheck build/mbedtls36 -R '(\.psa$|^vectors\.cross$|^backend\.psa\.)' \
  -E '^(install|cli|interop-node|bindings|ctime|residue|relay\.live|negentropy\.(cross|setup))\.?'
stage "threads under ThreadSanitizer"
# tests/threads/test_threads.c (ctest threads.<backend> in the other passes) under -fsanitize=thread:
# 8 threads per backend, a context each, sharing what ctx.h says may be shared. No
# suppressions. The negative control (one context shared by all threads, which ctx.h says is
# not supported) must be reported, so a TSan that sees nothing fails the stage.
cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTCHAT_WERROR=ON \
      -DSOFTCHAT_BACKENDS="$backends" -DSOFTCHAT_BUILD_CLI=OFF -DSOFTCHAT_BUILD_BENCH=OFF \
      -DSOFTCHAT_INSTALL=OFF -DSOFTCHAT_BUILD_JNI=OFF -DSOFTCHAT_BUILD_CTIME_TESTS=OFF \
      -DCMAKE_C_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" >/dev/null
cmake --build build/tsan --target test_threads
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build/tsan/tests/test_threads
if TSAN_OPTIONS=halt_on_error=1 build/tsan/tests/test_threads --iterations 2 --share-context \
     >build/tsan/negative-control.log 2>&1 ||
   ! grep -q "ThreadSanitizer: data race" build/tsan/negative-control.log; then
  echo "threads: the negative control (one shared context) was not reported by TSan" >&2
  exit 1
fi
echo "threads: negative control reported by TSan, as it must be"

stage "fuzz smoke: every libFuzzer target for 25 s"
# The seeds plus 25 s of coverage-guided mutation per target (scripts/fuzz.sh, clang,
# ASan+UBSan); a crash or a broken invariant fails the run. Long runs: docs/fuzzing.md.
FUZZ_BUILD=build/fuzz-smoke FUZZ_FRESH=1 scripts/fuzz.sh 25

stage "cross targets: aarch64 under qemu, wasm32 under node, Swift in a trixie root (scripts/test-platforms.sh)"
# The dependencies from source, then each target's build and ctest suite, then the Swift
# package; each of its stages prints its own time. The Kotlin facade's jar for the AAR check
# is the one mvn verify built.
scripts/test-platforms.sh

stage "all tests passed"
