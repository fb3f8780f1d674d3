# Identity through the public API: import range, BIP-340 public keys, signatures and
# verification, generation, erasure and argument checks, once per compiled backend
# (identity.<backend>).
softchat_add_test_executable(test_identity test_identity.c)

# test_identity.c passes NULL on purpose to parameters declared non-NULL (the SC_ERR_ARG
# paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_identity.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "identity.${b}"
           COMMAND test_identity --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                                 --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("identity.${b}" PROPERTIES TIMEOUT 300 LABELS "identity")
endforeach()
