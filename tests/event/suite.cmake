# NIP-01 events: serialization, id, signing, verification, parsing and the builder, with
# nip01.events.json read at run time from SOFTCHAT_VECTORS_DIR. One entry per backend:
# event.<backend>.
softchat_add_test_executable(test_event
  test_event.c
  test_event_vectors.c
  test_event_write.c
  test_event_sign.c
  test_event_parse.c)

# These files pass NULL on purpose to non-NULL parameters (the SC_ERR_ARG paths).
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/test_event_write.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_event_sign.c"
                              "${CMAKE_CURRENT_LIST_DIR}/test_event_parse.c"
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=nonnull-attribute")
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "event.${b}"
           COMMAND test_event --backend "${b}" --vectors "${SOFTCHAT_VECTORS_DIR}"
                              --own "${SOFTCHAT_OWN_VECTORS_DIR}")
  set_tests_properties("event.${b}" PROPERTIES TIMEOUT 300 LABELS "event")
endforeach()
