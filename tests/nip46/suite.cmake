# NIP-46 remote signing (nip46.h), once per compiled backend (nip46.<backend>): bunker:// and
# nostrconnect:// URIs accepted and refused; request and response events built and opened,
# every check's status (kind, sender, p tag, signature, JSON-RPC shape, id, auth_url, error);
# the bunker's policy; and a NIP-17 message sent over an external signer whose requests
# travel as NIP-46 events to an in-process bunker holding the key, received by the peer.
softchat_add_test_executable(test_nip46
  test_nip46.c
  "${PROJECT_SOURCE_DIR}/tests/lib/test_nip59_util.c"
  test_nip46_uri.c
  test_nip46_msg.c
  test_nip46_e2e.c)

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "nip46.${b}"
           COMMAND test_nip46 --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("nip46.${b}" PROPERTIES TIMEOUT 300 LABELS "nip46")
endforeach()

# nip46.interop-node: nostr-tools (installed by the interop-node.setup fixture,
# tests/interop-node/suite.cmake) against nip46_peer, libsoftchat's bunker and URI code as a
# program (tests/nip46/interop.mjs). node is a test dependency: without it the entry fails.
softchat_add_test_executable(nip46_peer nip46_peer.c)
softchat_runnable(_sc_n46_peer nip46_peer)
find_program(SOFTCHAT_NODE_EXECUTABLE NAMES node nodejs)
set(_sc_n46_node "${SOFTCHAT_NODE_EXECUTABLE}")
if(NOT SOFTCHAT_NODE_EXECUTABLE)
  set(_sc_n46_node "node-not-found")
endif()
add_test(NAME nip46.interop-node
         COMMAND sh -c "\"$0\" \"$@\"" "${_sc_n46_node}" "${CMAKE_CURRENT_LIST_DIR}/interop.mjs"
                 --peer "${_sc_n46_peer}" --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                 --modules "${CMAKE_CURRENT_BINARY_DIR}/interop-node")
set_tests_properties(nip46.interop-node PROPERTIES FIXTURES_REQUIRED softchat_interop_node
                                                   TIMEOUT 120 LABELS "nip46;interop-node")
