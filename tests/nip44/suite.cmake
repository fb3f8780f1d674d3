# NIP-44 v2: the official vectors, the extended-prefix vectors and the suite's own cases, once
# per compiled backend (nip44.<backend>); nip44.no-upstream runs the default backend without
# the upstream folder, where every vector file must be reported skipped, never passed.
softchat_add_test_executable(test_nip44
  test_nip44.c
  test_nip44_vectors.c
  test_nip44_ext.c
  test_nip44_own.c
  test_nip44_identity.c
  test_nip44_inplace.c
  test_nip44_args.c)

# test_nip44_args.c and test_nip44_identity.c pass NULL on purpose to parameters declared non-NULL
# (the SC_ERR_ARG paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_nip44_args.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_nip44_identity.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "nip44.${b}"
           COMMAND test_nip44 --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("nip44.${b}" PROPERTIES TIMEOUT 600 LABELS "nip44")
endforeach()

add_test(NAME nip44.no-upstream
         COMMAND test_nip44 --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                            --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                            --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(nip44.no-upstream PROPERTIES TIMEOUT 600 LABELS "nip44")
