# core: backend-independent units (encoding, statuses, argument and state checks), one entry.
softchat_add_test_executable(test_core
  test_core.c
  test_core_encoding.c)

# These files pass NULL on purpose to parameters the public headers declare non-NULL, to check
# the documented SC_ERR_ARG path; UBSan's nonnull-attribute check would report the calls
# themselves, so it is off for them only.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_core.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_core_encoding.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

add_test(NAME core COMMAND test_core)
set_tests_properties(core PROPERTIES TIMEOUT 300)
