# NIP-19 bech32 entities: backend-independent, so one ctest entry. The upstream
# nip19.vectors.json is read at run time from SOFTCHAT_VECTORS_DIR.
softchat_add_test_executable(test_nip19
  test_nip19.c
  test_nip19_ref.c
  test_nip19_util.c
  test_nip19_units.c
  test_nip19_reject.c)

# These pass NULL on purpose to non-NULL parameters (the SC_ERR_ARG paths).
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_nip19_units.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_nip19_reject.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

add_test(NAME nip19 COMMAND test_nip19 --vectors "${SOFTCHAT_VECTORS_DIR}")
set_tests_properties(nip19 PROPERTIES TIMEOUT 300 LABELS "vectors")
