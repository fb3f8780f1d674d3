# NIP-98 HTTP auth: the NIP's examples (vectors/upstream/nip98.spec-example.json: its stale id,
# its unpadded header), headers signed here and checked both ways, every check's status with
# events made to fail exactly it, the header forms accepted and refused, the arguments, and
# the header of an event signed over a local or an external signer (sc_nip98_template,
# sc_nip98_header); once per compiled backend (nip98.<backend>). nip98.no-upstream runs the
# default backend without the upstream folder.
softchat_add_test_executable(test_nip98
  test_nip98.c
  test_nip98_checks.c
  test_nip98_args.c
  test_nip98_signer.c)

# test_nip98_args.c and test_nip98_signer.c pass NULL on purpose to parameters declared
# non-NULL (the SC_ERR_ARG paths); UBSan's nonnull-attribute check would report the calls
# themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_nip98_args.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_nip98_signer.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "nip98.${b}"
           COMMAND test_nip98 --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("nip98.${b}" PROPERTIES TIMEOUT 300 LABELS "nip98")
endforeach()

add_test(NAME nip98.no-upstream
         COMMAND test_nip98 --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                            --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                            --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(nip98.no-upstream PROPERTIES TIMEOUT 300 LABELS "nip98")
