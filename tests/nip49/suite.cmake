# NIP-49 (ncryptsec): the NIP's own vector, the ncryptsec strings nostr-tools' libraries made
# (vectors/nostr-tools.nip49.json) and the argument checks, once per compiled backend
# (nip49.<backend>); backends without scrypt and XChaCha20-Poly1305 (mbedtls, psa) must refuse
# every call that needs them with SC_ERR_UNSUPPORTED and still inspect. nip49.no-upstream runs
# the default backend without the upstream folder.
softchat_add_test_executable(test_nip49
  test_nip49.c
  test_nip49_vectors.c
  test_nip49_args.c)

# test_nip49_args.c passes NULL on purpose to parameters declared non-NULL (the SC_ERR_ARG
# paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_nip49_args.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "nip49.${b}"
           COMMAND test_nip49 --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("nip49.${b}" PROPERTIES TIMEOUT 600 LABELS "nip49")
endforeach()

add_test(NAME nip49.no-upstream
         COMMAND test_nip49 --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                            --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                            --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(nip49.no-upstream PROPERTIES TIMEOUT 600 LABELS "nip49")
