#!/usr/bin/env bash
# The cross targets of the test command (scripts/test.sh runs this after the x86-64 passes):
#   1. aarch64: the dependencies from source (scripts/deps.sh), the library, the CLI, the JNI
#      glue and the ctest suite built with Debian's cross compiler and run under
#      qemu-aarch64-static, for the mobile backends (mbedtls, psa, sodium, sodium+mbedtls):
#      every in-process suite on each backend, the CLI suites, the nostr-tools interop and the
#      Negentropy peers on sodium+mbedtls, the install test, 16 KiB alignment, exports, the AAR
#      assembled from the Kotlin facade's jar with the arm64 library standing in for Android's,
#      and the NEON base64 kernel against the portable one;
#   2. wasm32 (Emscripten): the dependencies from source, the library and every cmocka suite
#      under node, on the same backends (the Negentropy peers on sodium+mbedtls);
#   3. swift: SoftchatKit (bindings/swift) built with -strict-concurrency=complete and
#      -warnings-as-errors, and its XCTest suite, with Debian trixie's Swift 6.0.3 in a root
#      made by scripts/swift-root.sh (cached in build/swift-root), against libsoftchat built
#      by CMake on the host and installed into build/swift/prefix (found through softchat.pc).
# The x86-64 build (scripts/test.sh) runs the module map and iOS header checks.
# What the cross builds leave out, and why, is in CMakePresets.json and in the suite files
# (configure prints it): under emulation the suites that drive a program from a script run on
# sodium+mbedtls only (SOFTCHAT_DRIVER_BACKENDS, tests/CMakeLists.txt) and the robustness
# suites run 20,000 mutations per backend instead of 100,000; softchat-bench and the valgrind
# checks are host tools; the CLI has no relay transport (SOFTCHAT_CLI_RELAY=OFF: no
# libwebsockets for the target), so relay.live.* runs on x86-64 only; wasm32 has no CLI, JVM,
# /proc (residue.*) or threads (threads.*).
# Each stage prints its wall and CPU time and the load average (the machine may be shared). Dependencies
# are built once per prefix (build/deps/<preset>) and reused while their pins and options are
# unchanged; a clean run removes build/deps/<preset> and build/<preset> first.
# Usage: scripts/test-platforms.sh [aarch64|wasm32|swift]...   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(aarch64 wasm32 swift)
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
last=$start
last_cpu=0
# CPU seconds used so far by the programs this script ran and waited for (user + system of its
# children, /proc/PID/stat): on a shared machine the wall time depends on the load, this less.
ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu_s() {
  awk -v t="$ticks" '{ printf "%d", ($16 + $17) / t }' "/proc/$$/stat" 2>/dev/null || echo 0
}
stage() {
  local now cpu
  now=$(date +%s)
  cpu=$(cpu_s)
  printf '\n==== [%ss, previous stage %ss wall, %ss CPU, load %s] %s\n' "$((now - start))" \
    "$((now - last))" "$((cpu - last_cpu))" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" "$*"
  last=$now
  last_cpu=$cpu
}

# Configures a preset, showing what the build leaves out and why (configure's softchat: lines).
configure() {
  local log=build/$1.configure.log
  mkdir -p build
  cmake --preset "$1" >"$log" 2>&1 || { cat "$log"; exit 1; }
  grep '^-- softchat:' "$log" || true
}

# The Kotlin facade's jar, for platform.aar: the x86-64 pass of scripts/test.sh has built it
# (mvn verify); otherwise, or when a source is newer, Maven packages it (no tests).
facade_jar() {
  local version jar
  version=$(sed -n 's/^project(softchat VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  jar=bindings/kotlin/softchat/target/softchat-kotlin-$version.jar
  if [ -f "$jar" ] && [ -z "$(find bindings/kotlin/pom.xml bindings/kotlin/softchat/pom.xml \
                               bindings/kotlin/softchat/src/main -newer "$jar" -print -quit)" ]; then
    echo "test-platforms: $jar is up to date"
    return
  fi
  bindings/kotlin/mvn.sh -q -pl softchat -am package -DskipTests
  [ -f "$jar" ] || { echo "test-platforms: Maven did not produce $jar" >&2; exit 1; }
}

# nostr-relay from PyPI (the relay of the live tests: tests/relay/live/setup.sh installs it into
# build/test-tools/relays, once) on a free loopback port, in a process group of its own that
# stop_relay (and the EXIT trap) ends. The Swift tests reach it from the trixie root, which
# shares this machine's network.
relay_pid=
start_relay() {
  local dir=$PWD/build/swift/relay port
  tests/relay/live/setup.sh python python3 tests/relay/live build/test-tools/relays
  rm -rf "$dir" && mkdir -p "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf '%s\n' "DEBUG: false" "relay_name: softchat swift test relay" "storage:" \
    "  sqlalchemy.url: sqlite+aiosqlite:///$dir/relay.sqlite3" "  num_concurrent_reqs: 10" \
    "  num_concurrent_adds: 2" "  validators:" "    - nostr_relay.validators.is_not_too_large" \
    "    - nostr_relay.validators.is_signed" "gunicorn:" "  bind: 127.0.0.1:$port" "  workers: 1" \
    "  loglevel: warning" "  reload: false" "authentication:" "  enabled: false" >"$dir/relay.yaml"
  setsid build/test-tools/relays/venv/bin/nostr-relay -c "$dir/relay.yaml" serve >"$dir/relay.log" 2>&1 &
  relay_pid=$!
  trap stop_relay EXIT
  for _ in $(seq 1 60); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.5)" 2>/dev/null && break
    sleep 0.5
  done
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.5)" ||
    { cat "$dir/relay.log"; echo "test-platforms: nostr-relay did not listen on $port" >&2; exit 1; }
  relay_url=ws://127.0.0.1:$port
  echo "nostr-relay on $relay_url (process group $relay_pid)"
}
stop_relay() {
  [ -n "$relay_pid" ] || return 0
  kill -TERM -- "-$relay_pid" 2>/dev/null || true
  wait "$relay_pid" 2>/dev/null || true
  relay_pid=
}

for t in "${targets[@]}"; do
  case $t in
    aarch64)
      p=aarch64-linux-gnu
      stage "$p: dependencies from source (scripts/deps.sh)"
      scripts/deps.sh cmake/toolchains/$p.cmake build/deps/$p
      stage "$p: build (cmake --preset $p)"
      configure $p
      cmake --build --preset $p
      ls -l build/$p/dist/ build/$p/dist/unstripped/
      stage "$p: the Kotlin facade's jar for the AAR"
      facade_jar
      stage "$p: ctest under qemu-aarch64-static"
      (cd build/$p && ctest --output-on-failure -j "$jobs" --timeout 900)
      ;;
    wasm32)
      p=wasm32-emscripten
      stage "$p: dependencies from source (scripts/deps.sh)"
      scripts/deps.sh cmake/toolchains/$p.cmake build/deps/$p
      stage "$p: build (cmake --preset $p)"
      configure $p
      cmake --build --preset $p
      stage "$p: ctest under node"
      (cd build/$p && ctest --output-on-failure -j "$jobs" --timeout 900)
      ;;
    swift)
      # libsoftchat has one build, CMake's: the package finds the installed library through
      # softchat.pc (bindings/swift/Package.swift); the root sees this tree at the same path.
      prefix=$PWD/build/swift/prefix
      spm=(--scratch-path "$PWD/build/swift/spm")
      export PKG_CONFIG_PATH=$prefix/lib/pkgconfig LD_LIBRARY_PATH=$prefix/lib
      export SOFTCHAT_ROOT_ENV="PKG_CONFIG_PATH LD_LIBRARY_PATH"
      stage "swift: the Debian trixie root with swiftlang (scripts/swift-root.sh)"
      scripts/swift-root.sh make
      stage "swift: libsoftchat for the package (CMake, installed into build/swift/prefix)"
      cmake -S . -B build/swift/lib -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTCHAT_BACKENDS=openssl \
        -DSOFTCHAT_BUILD_TESTS=OFF -DSOFTCHAT_BUILD_CLI=OFF -DSOFTCHAT_BUILD_BENCH=OFF \
        -DSOFTCHAT_BUILD_JNI=OFF -DSOFTCHAT_WERROR=ON -DCMAKE_INSTALL_PREFIX="$prefix" >build/swift-lib.configure.log
      cmake --build build/swift/lib -j "$jobs"
      cmake --install build/swift/lib >/dev/null
      stage "swift: swift build -strict-concurrency=complete -warnings-as-errors (in the root)"
      (cd bindings/swift && ../../scripts/swift-root.sh run swift build --build-tests "${spm[@]}" \
         -Xswiftc -strict-concurrency=complete -Xswiftc -warnings-as-errors)
      stage "swift: nostr-relay (PyPI) on loopback for the relay client's test"
      start_relay
      export SOFTCHAT_TEST_RELAY=$relay_url SOFTCHAT_TEST_RELAY_REQUIRED=1
      SOFTCHAT_ROOT_ENV+=" SOFTCHAT_TEST_RELAY SOFTCHAT_TEST_RELAY_REQUIRED"
      stage "swift: swift test (XCTest, in the root)"
      (cd bindings/swift && ../../scripts/swift-root.sh run swift test --skip-build "${spm[@]}")
      stop_relay
      ;;
    *) echo "test-platforms: unknown target $t (aarch64, wasm32, swift)" >&2; exit 2 ;;
  esac
done
stage "cross targets passed: ${targets[*]}"
