# relay.live.<relay>: the softchat CLI over a real WebSocket against two independent relay
# implementations started on loopback by the test itself (tests/relay/live/live.py):
#   rust    rust-nostr's relay builder (crates.io, tests/relay/live/rust-relay): NIP-17 through
#           the relay, AUTH required (NIP-42), an event refused (the OK reason), a restart in
#           the middle of a subscription, and a Negentropy sync (NIP-77) of 10,000 gift wraps
#           of which bob holds 9,000, with and without a frame limit
#   python  nostr-relay (PyPI) over SQLite: NIP-17 through the relay, the restart (it keeps
#           its events: the resumed REQ sends some again and the CLI drops them), its
#           refusals (an OK with an empty id) and a sync without NIP-77 (listed by REQ)
# Both also carry NIP-17 through a TLS front with a test CA (tests/relay/live/tls_front.py,
# made at run time with the openssl command, a test dependency like python3).
# The fixtures relay.live.setup.* build / install the relays (network: crates.io, PyPI).
# cargo and python3 are test dependencies: without them the entries fail, never skip.
option(SOFTCHAT_RELAY_LIVE "Run the CLI against real relays (builds and installs them)" ON)
if(NOT TARGET softchat_cli)
  return()
endif()
if(SOFTCHAT_RELAY_LIVE AND NOT SOFTCHAT_CLI_RELAY)
  message(FATAL_ERROR "softchat: relay.live.* runs the CLI's relay commands over WebSocket, "
                      "which SOFTCHAT_CLI_RELAY=OFF leaves out: set SOFTCHAT_RELAY_LIVE=OFF too")
endif()
if(NOT SOFTCHAT_CLI_RELAY)
  return()
endif()
find_package(Python3 COMPONENTS Interpreter)

# relay.live.hostile: the CLI against relays scripted frame by frame on loopback
# (tests/relay/live/hostile.py over tests/relay/live/hostile_relay.py, Python's standard
# library only): what a hostile relay can send (floods, huge or malformed messages, text
# meant for the terminal, redirects) and the deviations of real relays, each a check of a
# bound or behaviour the CLI keeps. It needs no relay built, only SOFTCHAT_CLI_RELAY.
set(_sc_hostile_args "")
if(CMAKE_C_FLAGS MATCHES "-fsanitize")
  set(_sc_hostile_args --sanitized) # shadow memory and quarantine: peak RSS is not judged
endif()
add_test(NAME relay.live.hostile
         COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/hostile.py"
                 --cli "$<TARGET_FILE:softchat_cli>" ${_sc_hostile_args})
set_tests_properties(relay.live.hostile PROPERTIES TIMEOUT 600 LABELS "relay-live")

if(NOT SOFTCHAT_RELAY_LIVE)
  return()
endif()
add_executable(softchat_make_wraps "${CMAKE_CURRENT_LIST_DIR}/make_wraps.c")
target_link_libraries(softchat_make_wraps PRIVATE softchat_static softchat_warnings)

find_program(SOFTCHAT_CARGO_EXECUTABLE NAMES cargo DOC "cargo, to build the Rust test peers")
set(_sc_rl_dir "${SOFTCHAT_TEST_TOOLS_DIR}/relays")
set(_sc_rl_cargo "${SOFTCHAT_CARGO_EXECUTABLE}")
if(NOT _sc_rl_cargo)
  set(_sc_rl_cargo "cargo-not-found")
endif()
add_test(NAME relay.live.setup.rust
         COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/setup.sh" rust "${_sc_rl_cargo}"
                 "${CMAKE_CURRENT_LIST_DIR}" "${_sc_rl_dir}")
add_test(NAME relay.live.setup.python
         COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/setup.sh" python "${Python3_EXECUTABLE}"
                 "${CMAKE_CURRENT_LIST_DIR}" "${_sc_rl_dir}")
set_tests_properties(relay.live.setup.rust PROPERTIES FIXTURES_SETUP softchat_relay_rust
                     TIMEOUT 1200 LABELS "relay-live")
set_tests_properties(relay.live.setup.python PROPERTIES FIXTURES_SETUP softchat_relay_python
                     TIMEOUT 900 LABELS "relay-live")
add_test(NAME relay.live.rust
         COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/live.py"
                 --cli "$<TARGET_FILE:softchat_cli>"
                 --make-wraps "$<TARGET_FILE:softchat_make_wraps>" --relay rust
                 --rust-relay "${_sc_rl_dir}/release/softchat-test-relay")
add_test(NAME relay.live.python
         COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/live.py"
                 --cli "$<TARGET_FILE:softchat_cli>"
                 --make-wraps "$<TARGET_FILE:softchat_make_wraps>" --relay python
                 --python-relay "${_sc_rl_dir}/venv/bin/nostr-relay")
set_tests_properties(relay.live.rust PROPERTIES FIXTURES_REQUIRED softchat_relay_rust
                     TIMEOUT 900 LABELS "relay-live" RUN_SERIAL ON)
set_tests_properties(relay.live.python PROPERTIES FIXTURES_REQUIRED softchat_relay_python
                     TIMEOUT 600 LABELS "relay-live" RUN_SERIAL ON)
