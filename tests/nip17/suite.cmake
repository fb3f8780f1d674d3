# NIP-17 private messages: the spec example (nip17.spec-example.json) and the kind 15 examples
# (nip17.kind15-aesgcm.json), read at run time from SOFTCHAT_VECTORS_DIR; kind 14 tags, the
# room, the sending flow, kind 15 and kind 10050, once per compiled backend (nip17.<backend>);
# nip17.no-upstream runs the default backend without the upstream folder, where the vector
# files must be reported skipped, never passed.
softchat_add_test_executable(test_nip17
  test_nip17.c
  "${PROJECT_SOURCE_DIR}/tests/lib/test_nip59_util.c"
  test_nip17_spec.c
  test_nip17_chat.c
  test_nip17_file.c
  test_nip17_args.c)

# test_nip17_args.c and test_nip17_chat.c pass NULL on purpose to parameters declared non-NULL
# (the SC_ERR_ARG paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_nip17_args.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_nip17_chat.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "nip17.${b}"
           COMMAND test_nip17 --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("nip17.${b}" PROPERTIES TIMEOUT 600 LABELS "nip17")
endforeach()

add_test(NAME nip17.no-upstream
         COMMAND test_nip17 --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                            --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                            --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(nip17.no-upstream PROPERTIES TIMEOUT 600 LABELS "nip17")
