# NIP-77 Negentropy:
#   negentropy.<backend>        test_negentropy*.c: the wire format, fingerprints against
#                               independently computed values, both roles, frame limits,
#                               malformed messages, sizes and argument checks, per backend
#   negentropy.cross.<backend>  (SOFTCHAT_DRIVER_BACKENDS) cross.py: libsoftchat against the
#                               `negentropy` crate (crates.io) in both directions and against
#                               nostr-tools' nip77 (npm) as initiator, 10 / 1,000 / 100,000
#                               records, 0 / 1 / 50 / 100 % differences, with and without a
#                               frame limit (the full matrix on the default backend, the
#                               10 and 1,000 record sets on the others)
# The Rust peer is built by the fixture negentropy.setup (cargo, the pinned Cargo.lock;
# network: crates.io); nostr-tools comes from the interop-node fixture. cargo, node and
# python3 are test dependencies: without them the entries are registered and fail.
softchat_add_test_executable(test_negentropy
  test_negentropy.c
  test_negentropy_wire.c
  test_negentropy_round.c)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_negentropy.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "negentropy.${b}" COMMAND test_negentropy --backend "${b}")
  set_tests_properties("negentropy.${b}" PROPERTIES TIMEOUT 600 LABELS "negentropy")
endforeach()

# The peer programs: built as a user would (public headers, the static library).
add_executable(softchat_neg_peer "${CMAKE_CURRENT_LIST_DIR}/neg_peer.c")
target_link_libraries(softchat_neg_peer PRIVATE softchat_static softchat_warnings)

find_program(SOFTCHAT_CARGO_EXECUTABLE NAMES cargo DOC "cargo, to build the Rust test peers")
set(_sc_cargo "${SOFTCHAT_CARGO_EXECUTABLE}")
if(NOT SOFTCHAT_CARGO_EXECUTABLE)
  message(WARNING "softchat: cargo not found: negentropy.cross.* and relay.* will FAIL (they "
                  "build Rust peers from crates.io). Install Rust (rustup) and reconfigure.")
  set(_sc_cargo "cargo-not-found")
endif()
find_package(Python3 COMPONENTS Interpreter)
set(_sc_neg_dir "${SOFTCHAT_TEST_TOOLS_DIR}/negentropy-rs")
add_test(NAME negentropy.setup
         COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/setup.sh" "${_sc_cargo}"
                 "${CMAKE_CURRENT_LIST_DIR}/rust-peer" "${_sc_neg_dir}")
set_tests_properties(negentropy.setup PROPERTIES FIXTURES_SETUP softchat_neg_rs
                                                 TIMEOUT 900 LABELS "negentropy")
option(SOFTCHAT_NEG_CROSS_FULL
       "Run the full Negentropy cross matrix (100,000 records) on the default backend" ON)
# A cross build runs the C peer under its emulator (qemu-aarch64-static): the driver's --wrap.
set(_sc_neg_wrap "")
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _sc_emu)
  set(_sc_neg_wrap --wrap "${_sc_emu}")
endif()
foreach(b IN LISTS SOFTCHAT_DRIVER_BACKEND_LIST)
  set(_sc_quick "--quick")
  if(b STREQUAL SOFTCHAT_DEFAULT_BACKEND AND SOFTCHAT_NEG_CROSS_FULL)
    set(_sc_quick "")
  endif()
  add_test(NAME "negentropy.cross.${b}"
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/cross.py"
                   --c-peer "$<TARGET_FILE:softchat_neg_peer>" --backend "${b}"
                   --rust-peer "${_sc_neg_dir}/release/softchat-neg-peer"
                   --js-peer "${CMAKE_CURRENT_LIST_DIR}/js-peer.mjs"
                   --node-modules "${CMAKE_CURRENT_BINARY_DIR}/interop-node/node_modules"
                   ${_sc_quick} ${_sc_neg_wrap})
  set_tests_properties("negentropy.cross.${b}" PROPERTIES
                       FIXTURES_REQUIRED "softchat_neg_rs;softchat_interop_node"
                       TIMEOUT 1200 LABELS "negentropy")
endforeach()
