# interop-node.<backend> (SOFTCHAT_DRIVER_BACKENDS, tests/CMakeLists.txt): the CLI against
# nostr-tools, the other way round from the static vectors of interop.<backend>: gift wraps and NIP-17 messages exchanged in both directions,
# forged layers refused with their token, kind 15 blobs exchanged with node's built-in
# AES-256-GCM, NIP-98 auth headers and NIP-49 ncryptsec strings in both directions
# (tests/interop-node/interop.mjs). The fixture interop-node.setup copies the
# folder into the build tree and installs the pinned nostr-tools there with `npm ci` (network:
# the npm registry). node and npm are test dependencies: without them the entries are
# registered anyway and fail, loudly, never skip.
#
# The commands run through sh, which forks node: ctest's memcheck stage then checks sh, never
# the node interpreter (the CLI is covered by the ASan+UBSan pass and by test_cli*.py --wrap).
# The fixture also serves negentropy.cross.* (nostr-tools' nip77), so it is registered in a
# build without the CLI (wasm32) too; the entries need the CLI.
find_program(SOFTCHAT_NODE_EXECUTABLE NAMES node nodejs
             DOC "Node.js, for the independent AES-GCM reference of the file tests")
find_program(SOFTCHAT_NPM_EXECUTABLE NAMES npm DOC "npm, to install nostr-tools for interop-node")
set(_sc_in_node "${SOFTCHAT_NODE_EXECUTABLE}")
set(_sc_in_npm "${SOFTCHAT_NPM_EXECUTABLE}")
if(NOT SOFTCHAT_NODE_EXECUTABLE OR NOT SOFTCHAT_NPM_EXECUTABLE)
  message(WARNING "softchat: node or npm not found: the interop-node.<backend> tests will FAIL "
                  "(they run nostr-tools). Install Node.js and npm (scripts/setup.sh "
                  "--with-tools) and reconfigure.")
  if(NOT SOFTCHAT_NODE_EXECUTABLE)
    set(_sc_in_node "node-not-found")
  endif()
  if(NOT SOFTCHAT_NPM_EXECUTABLE)
    set(_sc_in_npm "npm-not-found")
  endif()
endif()

set(_sc_in_src "${CMAKE_CURRENT_LIST_DIR}")
set(_sc_in_dir "${CMAKE_CURRENT_BINARY_DIR}/interop-node")

add_test(NAME interop-node.setup
         COMMAND sh "${_sc_in_src}/setup.sh" "${_sc_in_src}" "${_sc_in_dir}" "${_sc_in_npm}")
set_tests_properties(interop-node.setup PROPERTIES FIXTURES_SETUP softchat_interop_node
                                                   TIMEOUT 600 LABELS "interop-node")

if(NOT TARGET softchat_cli)
  return()  # SOFTCHAT_BUILD_CLI=OFF: no entries
endif()
foreach(b IN LISTS SOFTCHAT_DRIVER_BACKEND_LIST)
  add_test(NAME "interop-node.${b}"
           COMMAND sh -c "\"$0\" \"$@\"" "${_sc_in_node}" "${_sc_in_dir}/interop.mjs"
                   --cli "$<TARGET_FILE:softchat_cli>" --backend "${b}" ${_sc_cli_wrap})
  set_tests_properties("interop-node.${b}" PROPERTIES FIXTURES_REQUIRED softchat_interop_node
                                                      TIMEOUT 300 LABELS "interop-node")
endforeach()
