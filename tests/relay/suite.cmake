# The relay protocol (relay.h) and NIP-40 (nip40.h, sc_nip59_unwrap_at, sc_nip17_receive_at),
# once per compiled backend (relay.<backend>): client messages written, relay messages parsed
# and their events verified, filters matched and parsed, NIP-42 events signed and checked, and
# the session through subscriptions, publishes, AUTH and reconnects. The integration tests
# against real relays over WebSocket are relay.live.* (live/suite.cmake, included last).
softchat_add_test_executable(test_relay
  test_relay.c
  test_relay_msgs.c
  test_relay_filter.c
  test_relay_session.c
  test_relay_nip40.c)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_relay_session.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_relay_nip40.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "relay.${b}" COMMAND test_relay --backend "${b}")
  set_tests_properties("relay.${b}" PROPERTIES TIMEOUT 300 LABELS "relay")
endforeach()

# relay.live.*: the CLI against real relays (live/, with the relays it builds and installs).
include("${CMAKE_CURRENT_LIST_DIR}/live/suite.cmake")
