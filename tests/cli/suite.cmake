# The command-line tool, end to end, one ctest entry per backend of SOFTCHAT_DRIVER_BACKENDS
# (every compiled one unless a cross preset narrows it: tests/CMakeLists.txt says why):
#   cli.<backend>      tests/cli/test_cli.py: key, event, nip44, nip19 (every command and exit
#                      status, against the upstream vectors where the CLI can use them)
#   cli.msg.<backend>  tests/cli/test_cli_msg.py: nip59 wrap/unwrap, nip17 send/receive, file
#                      encrypt/decrypt (forged layers, atomic output, signals, the spec examples)
#   cli.auth.<backend> tests/cli/test_cli_auth.py: nip49 encrypt/decrypt/inspect (the NIP's
#                      example, nostr-tools' strings opened with passwords as typed: NFKC) and
#                      nip98 sign/verify (each check's token, the NIP's examples)
# Python 3 (standard library only) is a test dependency. Both drivers run the CLI as a child
# process, so ctest's memcheck stage (which would check the interpreter) leaves "cli." out;
# run a driver with --wrap "valgrind ..." to check the CLI itself.
if(NOT TARGET softchat_cli)
  return()  # SOFTCHAT_BUILD_CLI=OFF: nothing to test
endif()

# cli.clean: the softchat binary, as built and as installed, defines no allocator, imports no
# function that starts a program and holds no source path (tests/cli/check_clean.sh, nm and
# strings); softchat-bench is installed only with SOFTCHAT_INSTALL_BENCH. Self-check: the
# checker must flag a deliberately bad binary (tests/cli/clean_bad.c, never run) and
# softchat-bench. The install shares the build tree with install.consumer: one at a time.
add_executable(softchat_clean_bad "${CMAKE_CURRENT_LIST_DIR}/clean_bad.c")
target_compile_definitions(softchat_clean_bad PRIVATE
  "SOFTCHAT_SOURCE_DIR=\"${PROJECT_SOURCE_DIR}\"")
set_target_properties(softchat_clean_bad PROPERTIES ENABLE_EXPORTS ON) # exports its malloc
set(_sc_clean_args "${PROJECT_SOURCE_DIR}" "${PROJECT_BINARY_DIR}" "$<TARGET_FILE:softchat_cli>"
                   "$<TARGET_FILE:softchat_clean_bad>")
if(SOFTCHAT_INSTALL)
  list(APPEND _sc_clean_args --install "$<IF:$<BOOL:${SOFTCHAT_INSTALL_BENCH}>,ON,OFF>")
endif()
if(TARGET softchat_bench)
  list(APPEND _sc_clean_args --bench "$<TARGET_FILE:softchat_bench>"
                             "$<IF:$<BOOL:${SOFTCHAT_BENCH_COUNTS_ALLOCS}>,ON,OFF>")
endif()
if(CMAKE_C_FLAGS MATCHES "-fsanitize")
  list(APPEND _sc_clean_args --sanitized)
endif()
add_test(NAME cli.clean COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/clean.sh" ${_sc_clean_args})
set_tests_properties(cli.clean PROPERTIES LABELS "cli" TIMEOUT 300 RESOURCE_LOCK softchat_install)

find_package(Python3 3.8 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(WARNING "softchat: python3 not found: the CLI tests (cli.<backend>) cannot run and "
                  "are registered as failing. Install python3 (scripts/setup.sh --with-tools).")
  add_test(NAME cli.python3-missing
           COMMAND "${CMAKE_COMMAND}" -E echo "python3 is missing: the CLI tests did not run")
  set_tests_properties(cli.python3-missing PROPERTIES WILL_FAIL OFF
                       FAIL_REGULAR_EXPRESSION "python3 is missing" LABELS "cli")
  return()
endif()

# A cross build runs the CLI under its emulator (qemu-aarch64-static): the drivers' --wrap.
set(_sc_cli_wrap "")
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _sc_emu)
  set(_sc_cli_wrap --wrap "${_sc_emu}")
endif()

# seal_blob: AES-256-GCM under any IV through the library's one-shot call, for the legacy-IV
# blobs of early clients that `softchat file encrypt` never writes (test_cli_msg.py --seal).
add_executable(softchat_seal_blob "${CMAKE_CURRENT_LIST_DIR}/seal_blob.c")
target_link_libraries(softchat_seal_blob PRIVATE softchat_static softchat_warnings)

foreach(b IN LISTS SOFTCHAT_DRIVER_BACKEND_LIST)
  add_test(NAME "cli.${b}"
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli.py"
                   --cli "$<TARGET_FILE:softchat_cli>" --backend "${b}"
                   --vectors "${SOFTCHAT_VECTORS_DIR}" ${_sc_cli_wrap})
  set_tests_properties("cli.${b}" PROPERTIES TIMEOUT 600 LABELS "cli")
  add_test(NAME "cli.msg.${b}"
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_msg.py"
                   --cli "$<TARGET_FILE:softchat_cli>" --backend "${b}"
                   --seal "$<TARGET_FILE:softchat_seal_blob>"
                   --vectors "${SOFTCHAT_VECTORS_DIR}" ${_sc_cli_wrap})
  set_tests_properties("cli.msg.${b}" PROPERTIES TIMEOUT 600 LABELS "cli")
  add_test(NAME "cli.auth.${b}"
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_auth.py"
                   --cli "$<TARGET_FILE:softchat_cli>" --backend "${b}"
                   --vectors "${SOFTCHAT_VECTORS_DIR}" ${_sc_cli_wrap})
  set_tests_properties("cli.auth.${b}" PROPERTIES TIMEOUT 600 LABELS "cli")
endforeach()

# The own-only mode, asked for by pointing at a folder that does not exist: the vector cases
# are reported skipped (never passed) and everything else still runs. With the folder present,
# a vector file missing from it fails the driver.
add_test(NAME cli.no-upstream
         COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli.py"
                 --cli "$<TARGET_FILE:softchat_cli>" --backend "${SOFTCHAT_DRIVER_DEFAULT}"
                 --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors" ${_sc_cli_wrap})
set_tests_properties(cli.no-upstream PROPERTIES TIMEOUT 600 LABELS "cli")
add_test(NAME cli.msg.no-upstream
         COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_msg.py"
                 --cli "$<TARGET_FILE:softchat_cli>" --backend "${SOFTCHAT_DRIVER_DEFAULT}"
                 --seal "$<TARGET_FILE:softchat_seal_blob>"
                 --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors" ${_sc_cli_wrap})
set_tests_properties(cli.msg.no-upstream PROPERTIES TIMEOUT 600 LABELS "cli")

# cli.dm: the dm commands (inbox lists, send, listen) end to end against two nostr-relay
# processes on loopback (tests/cli/test_cli_dm.py), the relay relay.live.setup.python installs
# (PyPI), and rust-nostr's relay builder (relay.live.setup.rust, crates.io; with AUTH required,
# and behind a TLS front in the mesh scenario, which runs five kinds of relay at once):
# hence the same switch as relay.live.* (declared there too: the suites are read in name
# order), and a relay-live label.
option(SOFTCHAT_RELAY_LIVE "Run the CLI against real relays (builds and installs them)" ON)
if(SOFTCHAT_CLI_RELAY AND SOFTCHAT_RELAY_LIVE)
  add_test(NAME cli.dm
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_dm.py"
                   --cli "$<TARGET_FILE:softchat_cli>"
                   --python-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/venv/bin/nostr-relay"
                   --rust-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/release/softchat-test-relay")
  set_tests_properties(cli.dm PROPERTIES
                       FIXTURES_REQUIRED "softchat_relay_python;softchat_relay_rust" TIMEOUT 600
                       LABELS "cli;relay-live" RUN_SERIAL ON)
endif()

# cli.bunker: softchat bunker (a NIP-46 remote signer) end to end against a nostr-relay process
# on loopback (tests/cli/test_cli_bunker.py), used by nostr-tools' own BunkerSigner (node,
# the copy the interop-node.setup fixture installs: tests/interop-node/suite.cmake) through
# tests/cli/bunker_client.mjs, and by the dm commands, event sign --signer and nip98 sign
# --signer, with AUTH signed in the bunker for rust-nostr's relay (relay.live.setup.rust)
# requiring it. node is a test dependency: without it the entry fails.
if(SOFTCHAT_CLI_RELAY AND SOFTCHAT_RELAY_LIVE)
  find_program(SOFTCHAT_NODE_EXECUTABLE NAMES node nodejs)
  set(_sc_bk_node "${SOFTCHAT_NODE_EXECUTABLE}")
  if(NOT SOFTCHAT_NODE_EXECUTABLE)
    set(_sc_bk_node "node-not-found")
  endif()
  add_test(NAME cli.bunker
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_bunker.py"
                   --cli "$<TARGET_FILE:softchat_cli>"
                   --python-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/venv/bin/nostr-relay"
                   --rust-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/release/softchat-test-relay"
                   --node "${_sc_bk_node}" --modules "${CMAKE_CURRENT_BINARY_DIR}/interop-node")
  set_tests_properties(cli.bunker PROPERTIES
                       FIXTURES_REQUIRED
                         "softchat_relay_python;softchat_relay_rust;softchat_interop_node"
                       TIMEOUT 420 LABELS "cli;relay-live;interop-node" RUN_SERIAL ON)
endif()

# cli.signer: the low-level commands with --signer (nip44 encrypt|decrypt, nip59 wrap|unwrap,
# nip17 send|receive, relay publish|fetch|sync with AUTH signed in the bunker for rust-nostr's
# relay requiring it), the user's key only in softchat bunker, over a nostr-relay process on
# loopback (tests/cli/test_cli_signer.py).
if(SOFTCHAT_CLI_RELAY AND SOFTCHAT_RELAY_LIVE)
  add_test(NAME cli.signer
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_signer.py"
                   --cli "$<TARGET_FILE:softchat_cli>"
                   --python-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/venv/bin/nostr-relay"
                   --rust-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/release/softchat-test-relay")
  set_tests_properties(cli.signer PROPERTIES
                       FIXTURES_REQUIRED "softchat_relay_python;softchat_relay_rust"
                       TIMEOUT 300 LABELS "cli;relay-live" RUN_SERIAL ON)
endif()

# cli.bunker.rust: NIP-46 against rust-nostr's nostr-connect crate (crates.io, 0.44.0), both
# ways, over the Rust relay (relay.live.setup.rust) on loopback (tests/cli/test_cli_bunker_rust.py):
# its remote signer serves dm send --signer and dm listen --signer; its client uses
# softchat bunker (connect, get_public_key, sign_event, nip44 both ways, refusals); its
# nostrconnect mode serves cli.nostrconnect below. The
# Rust peer (tests/nip46/rust-peer) is built by the fixture cli.bunker.rust.setup (cargo, the
# pinned Cargo.lock; network: crates.io) into the Rust relay's target folder, whose crates it
# shares. cargo is a test dependency: without it the entries fail, never skip.
if(SOFTCHAT_CLI_RELAY AND SOFTCHAT_RELAY_LIVE)
  find_program(SOFTCHAT_CARGO_EXECUTABLE NAMES cargo DOC "cargo, to build the Rust test peers")
  set(_sc_bkr_cargo "${SOFTCHAT_CARGO_EXECUTABLE}")
  if(NOT _sc_bkr_cargo)
    set(_sc_bkr_cargo "cargo-not-found")
  endif()
  set(_sc_bkr_dir "${SOFTCHAT_TEST_TOOLS_DIR}/relays")
  add_test(NAME cli.bunker.rust.setup
           COMMAND sh "${PROJECT_SOURCE_DIR}/tests/nip46/setup.sh" "${_sc_bkr_cargo}"
                   "${PROJECT_SOURCE_DIR}/tests/nip46/rust-peer" "${_sc_bkr_dir}")
  set_tests_properties(cli.bunker.rust.setup PROPERTIES FIXTURES_SETUP softchat_nip46_rs
                       TIMEOUT 1200 LABELS "cli;relay-live")
  add_test(NAME cli.bunker.rust
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_bunker_rust.py"
                   --cli "$<TARGET_FILE:softchat_cli>"
                   --rust-relay "${_sc_bkr_dir}/release/softchat-test-relay"
                   --peer "${_sc_bkr_dir}/release/softchat-nip46-peer")
  set_tests_properties(cli.bunker.rust PROPERTIES
                       FIXTURES_REQUIRED "softchat_relay_rust;softchat_nip46_rs" TIMEOUT 300
                       LABELS "cli;relay-live" RUN_SERIAL ON)
  # cli.nostrconnect: softchat signer connect (the client's side of nostrconnect://) paired
  # with softchat bunker --connect and with rust-nostr's NostrConnectRemoteSigner::from_uri
  # (the peer's mode nostrconnect), then event sign --signer --signer-key through each; a
  # wrong secret refused, the client key file made once (0600) and reused, over a nostr-relay
  # process on loopback (tests/cli/test_cli_nostrconnect.py).
  add_test(NAME cli.nostrconnect
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_cli_nostrconnect.py"
                   --cli "$<TARGET_FILE:softchat_cli>"
                   --python-relay "${SOFTCHAT_TEST_TOOLS_DIR}/relays/venv/bin/nostr-relay"
                   --peer "${_sc_bkr_dir}/release/softchat-nip46-peer")
  set_tests_properties(cli.nostrconnect PROPERTIES
                       FIXTURES_REQUIRED "softchat_relay_python;softchat_nip46_rs" TIMEOUT 300
                       LABELS "cli;relay-live" RUN_SERIAL ON)
endif()
