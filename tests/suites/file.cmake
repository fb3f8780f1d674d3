# Kind 15 attachments (api/softchat/file.h): streaming AES-256-GCM with a commit-after-tag
# sink, once per compiled backend (file.<backend>). Each entry also runs the independent AES-GCM
# reference tests/file/gcm_ref.mjs with node's built-in crypto (no npm packages): node is a
# test dependency, and a build without it registers entries that fail, never skip.
# file.no-upstream runs the default backend without the upstream folder, where the vector file
# must be reported skipped, never passed.
softchat_add_test_executable(test_file
  test_file.c
  test_file_vectors.c
  test_file_ref.c
  test_file_stream.c
  test_file_args.c)

# test_file_args.c passes NULL on purpose to parameters declared non-NULL (the SC_ERR_ARG
# paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties(test_file_args.c
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

find_program(SOFTCHAT_NODE_EXECUTABLE NAMES node nodejs
             DOC "Node.js, for the independent AES-GCM reference of the file tests")
if(SOFTCHAT_NODE_EXECUTABLE)
  set(_sc_file_node "${SOFTCHAT_NODE_EXECUTABLE}")
else()
  message(WARNING "softchat: node (Node.js) not found: the file.<backend> tests will FAIL "
                  "(the independent AES-GCM reference needs it). Install Node.js and reconfigure.")
  set(_sc_file_node "node-not-found")
endif()
set(_sc_file_ref "${PROJECT_SOURCE_DIR}/tests/file/gcm_ref.mjs")

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "file.${b}"
           COMMAND test_file --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                             --own "${SOFTCHAT_OWN_VECTORS_DIR}"
                             --node "${_sc_file_node}" --gcm-ref "${_sc_file_ref}")
  set_tests_properties("file.${b}" PROPERTIES TIMEOUT 600 LABELS "file")
endforeach()

add_test(NAME file.no-upstream
         COMMAND test_file --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                           --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                           --own "${SOFTCHAT_OWN_VECTORS_DIR}"
                           --node "${_sc_file_node}" --gcm-ref "${_sc_file_ref}")
set_tests_properties(file.no-upstream PROPERTIES TIMEOUT 600 LABELS "file")
