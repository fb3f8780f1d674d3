# The signer seam (signer.h) and the operations over it (event.h, nip44.h, nip59.h, nip17.h),
# once per compiled backend (signer.<backend>): the same results over a local identity and
# over an external signer holding the same key (byte for byte where the randomness is the
# same), every lie of a lying signer caught, deadlines, refusals, operations cleared midway,
# misuse and the checks of each _start function. External signers are a double in the test
# (test_signer.c: sg_answer).
softchat_add_test_executable(test_signer
  test_signer.c
  "${PROJECT_SOURCE_DIR}/tests/lib/test_nip59_util.c"
  test_signer_lies.c
  test_signer_frame.c)

# test_signer_frame.c passes NULL on purpose to parameters declared non-NULL (the SC_ERR_ARG
# paths); UBSan's nonnull-attribute check would report the calls themselves.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_signer_frame.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_signer.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "signer.${b}"
           COMMAND test_signer --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                               --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("signer.${b}" PROPERTIES TIMEOUT 600 LABELS "signer")
endforeach()
