# NIP-59 gift wrap: the spec example (nip59.spec-example.json, read at run time from
# SOFTCHAT_VECTORS_DIR), forged layers, round trips, sizes and arena bounds, once per compiled
# backend (nip59.<backend>); nip59.no-upstream runs the default backend without the upstream
# folder, where the vector file must be reported skipped, never passed.
softchat_add_test_executable(test_nip59
  test_nip59.c
  "${PROJECT_SOURCE_DIR}/tests/lib/test_nip59_util.c"
  test_nip59_spec.c
  test_nip59_forge.c
  test_nip59_round.c
  test_nip59_sizes.c
  test_nip59_args.c)

# test_nip59_args.c passes NULL on purpose to parameters declared non-NULL (the SC_ERR_ARG
# paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_nip59_args.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "nip59.${b}"
           COMMAND test_nip59 --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("nip59.${b}" PROPERTIES TIMEOUT 600 LABELS "nip59")
endforeach()

add_test(NAME nip59.no-upstream
         COMMAND test_nip59 --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                            --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                            --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(nip59.no-upstream PROPERTIES TIMEOUT 600 LABELS "nip59")
