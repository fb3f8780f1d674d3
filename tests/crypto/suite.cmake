# The primitives every backend provides, against vectors and against each other:
#   vectors.<backend>  conformance vectors (upstream + the project's own) for each compiled backend
#   vectors.own-only   the default backend with the upstream folder absent (own vectors only)
#   vectors.upstream-sha256           vectors/upstream against its manifest, SHA256SUMS
#   vectors.upstream-sha256.selftest  that check catches a changed, deleted or unlisted file
#   vectors.cross      cross-backend agreement on random inputs
softchat_add_test_executable(test_vectors
  test_vectors.c
  test_vectors_caps.c
  test_vectors_hash.c
  test_vectors_mac.c
  test_vectors_hkdf.c
  test_vectors_chacha.c
  test_vectors_aead.c
  test_vectors_xchacha.c
  test_vectors_scrypt.c
  test_vectors_ecdh.c
  test_vectors_bip340.c
  test_vectors_misc.c)
# The capabilities every compiled backend declares (backends/<dir>/backend.cmake), as a table
# for test_vectors_caps.c: a missing required one fails, an undeclared backend fails.
configure_file("${CMAKE_CURRENT_LIST_DIR}/backend_caps.h.in"
               "${CMAKE_CURRENT_BINARY_DIR}/generated/backend_caps.h" @ONLY)
target_include_directories(test_vectors PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/generated")

softchat_add_test_executable(test_cross
  test_cross.c
  test_cross_sym.c
  test_cross_curve.c)

# test_vectors_misc.c and test_vectors_scrypt.c pass NULL on purpose to parameters the public headers declare non-NULL,
# to check the documented SC_ERR_ARG path; UBSan's nonnull-attribute check would report the
# calls themselves, so it is off for it only.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_vectors_misc.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_vectors_scrypt.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "vectors.${b}"
           COMMAND test_vectors --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                                --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("vectors.${b}" PROPERTIES TIMEOUT 300 LABELS "vectors")
endforeach()

# The own-only mode, asked for by pointing at a folder that does not exist: the own vectors
# still run and every upstream file is reported skipped (never passed).
add_test(NAME vectors.own-only
         COMMAND test_vectors --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                              --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(vectors.own-only PROPERTIES TIMEOUT 300 LABELS "vectors")

# The in-tree copies are byte-identical to upstream: every file matches its recorded sha256 and
# no unlisted file is there (tests/crypto/check_upstream_sha256.cmake).
add_test(NAME vectors.upstream-sha256
         COMMAND "${CMAKE_COMMAND}" "-DDIR=${PROJECT_SOURCE_DIR}/vectors/upstream"
                 -P "${CMAKE_CURRENT_LIST_DIR}/check_upstream_sha256.cmake")
add_test(NAME vectors.upstream-sha256.selftest
         COMMAND "${CMAKE_COMMAND}" "-DDIR=${PROJECT_SOURCE_DIR}/vectors/upstream"
                 "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/upstream-sha256-selftest" -DSELFTEST=ON
                 -P "${CMAKE_CURRENT_LIST_DIR}/check_upstream_sha256.cmake")
set_tests_properties(vectors.upstream-sha256 vectors.upstream-sha256.selftest
                     PROPERTIES TIMEOUT 120 LABELS "vectors")

add_test(NAME vectors.cross COMMAND test_cross)
set_tests_properties(vectors.cross PROPERTIES TIMEOUT 300 LABELS "vectors")
