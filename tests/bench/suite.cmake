# softchat-bench: the gate on fixed result files, a short smoke of run + compare on real
# result files (not a measurement: the full audit is scripts/run.sh) and the audit's report
# written from one of them, and the audit's (scripts/audit) reading of the conformance
# suites' output and its verdicts.
if(TARGET softchat_bench)
  find_package(Python3 COMPONENTS Interpreter)
  set(_sc_smoke_ops "import_identity,nip44_encrypt_held,attachment_encrypt")
  set(_sc_smoke "\"$1\" run --quick --only ${_sc_smoke_ops} --json \"$2/smoke-a.json\" && \"$1\" run --quick --only ${_sc_smoke_ops} --json \"$2/smoke-b.json\" && { \"$1\" compare \"$2/smoke-a.json\" \"$2/smoke-b.json\" --no-retry; test $? -le 1; }")
  if(Python3_Interpreter_FOUND)
    # the report of an audit that measured our rows alone, from the second record
    string(APPEND _sc_smoke " && rm -rf \"$2/smoke-report\" && mkdir \"$2/smoke-report\" && cp \"$2/smoke-b.json\" \"$2/smoke-report/bench.json\" && \"$3\" \"$4\" \"$2/smoke-report\" --report-only && grep -q '^| nip44_encrypt_held 32 B under 3 µs | ' \"$2/smoke-report/report.md\"")
  endif()
  add_test(NAME bench.gate
           COMMAND "${CMAKE_CURRENT_LIST_DIR}/gate.sh" "$<TARGET_FILE:softchat_bench>")
  add_test(NAME bench.smoke
           COMMAND sh -c "${_sc_smoke}" sh "$<TARGET_FILE:softchat_bench>"
                   "${CMAKE_CURRENT_BINARY_DIR}" "${Python3_EXECUTABLE}"
                   "${PROJECT_SOURCE_DIR}/scripts/audit")
  set_tests_properties(bench.gate bench.smoke PROPERTIES LABELS "bench" TIMEOUT 600)

  if(Python3_Interpreter_FOUND)
    # The audit's conformance section, on canned ctest output: upstream folder present, absent.
    add_test(NAME bench.conformance
             COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_conformance.py")
    # The verdicts of the comparison with rust-nostr.
    add_test(NAME bench.verdict
             COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/test_verdict.py")
    set_tests_properties(bench.conformance bench.verdict PROPERTIES LABELS "bench" TIMEOUT 60)
  endif()
endif()
