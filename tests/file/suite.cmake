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
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_file_args.c"
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
set(_sc_file_ref "${CMAKE_CURRENT_LIST_DIR}/gcm_ref.mjs")
set(_sc_file_ref_args --node "${_sc_file_node}" --gcm-ref "${_sc_file_ref}")
if(EMSCRIPTEN)
  # A wasm program cannot start node (no posix_spawn): the fixture file.gcm-ref runs the
  # reference first, with a fresh seed, and the entries read what it wrote.
  set(_sc_file_ref_dir "${CMAKE_CURRENT_BINARY_DIR}/file-gcm-ref")
  add_test(NAME file.gcm-ref
           COMMAND sh -c "rm -rf \"$3\" && mkdir -p \"$3\" && exec \"$1\" \"$2\" \"$3\" \"$(date +%s%N | cut -c4-15)\""
                   sh "${_sc_file_node}" "${_sc_file_ref}" "${_sc_file_ref_dir}")
  set_tests_properties(file.gcm-ref PROPERTIES FIXTURES_SETUP softchat_file_gcm_ref
                                               LABELS "file" TIMEOUT 300)
  list(APPEND _sc_file_ref_args --gcm-ref-dir "${_sc_file_ref_dir}")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "file.${b}"
           COMMAND test_file --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                             --own "${SOFTCHAT_OWN_VECTORS_DIR}"
                             ${_sc_file_ref_args})
  set_tests_properties("file.${b}" PROPERTIES TIMEOUT 600 LABELS "file")
  if(EMSCRIPTEN)
    set_tests_properties("file.${b}" PROPERTIES FIXTURES_REQUIRED softchat_file_gcm_ref)
  endif()
endforeach()

add_test(NAME file.no-upstream
         COMMAND test_file --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                           --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                           --own "${SOFTCHAT_OWN_VECTORS_DIR}"
                           ${_sc_file_ref_args})
set_tests_properties(file.no-upstream PROPERTIES TIMEOUT 600 LABELS "file")
if(EMSCRIPTEN)
  set_tests_properties(file.no-upstream PROPERTIES FIXTURES_REQUIRED softchat_file_gcm_ref)
endif()
