# robust.<backend>: seeded mutations of valid (and some invalid) event JSON texts and NIP-44
# payloads from vectors/nostr-tools.*.json, fed to sc_event_parse / sc_event_verify and
# sc_nip44_decrypt on each compiled backend (verify and decrypt run on the backend's
# primitives). Each entry prints its seed; rerun a failure with
#   test_robust --backend B --own vectors --seed S --iterations N
softchat_add_test_executable(test_robust test_robust.c test_robust_events.c test_robust_nip44.c)

set(SOFTCHAT_ROBUST_ITERATIONS 100000 CACHE STRING
    "Mutations each robust.<backend> entry runs (half events, half NIP-44 payloads)")
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "robust.${b}"
           COMMAND test_robust --backend "${b}" --own "${SOFTCHAT_OWN_VECTORS_DIR}"
                               --vectors "${SOFTCHAT_VECTORS_DIR}"
                               --iterations "${SOFTCHAT_ROBUST_ITERATIONS}")
  set_tests_properties("robust.${b}" PROPERTIES TIMEOUT 600 LABELS "robust")
endforeach()
