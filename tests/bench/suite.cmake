# softchat-bench: the gate on fixed result files, a short smoke of run + compare on real
# result files (not a measurement: the full audit is scripts/run.sh), and the audit's reading
# of the conformance suites' output.
if(TARGET softchat_bench)
  add_test(NAME bench.gate
           COMMAND "${CMAKE_CURRENT_LIST_DIR}/gate.sh" "$<TARGET_FILE:softchat_bench>")
  add_test(NAME bench.smoke
           COMMAND sh -c "\"$1\" run --quick --only import_identity,nip44_encrypt_held,attachment_encrypt --json \"$2/smoke-a.json\" && \"$1\" run --quick --only import_identity,nip44_encrypt_held,attachment_encrypt --json \"$2/smoke-b.json\" && { \"$1\" compare \"$2/smoke-a.json\" \"$2/smoke-b.json\" --no-retry; test $? -le 1; }"
                   sh "$<TARGET_FILE:softchat_bench>" "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties(bench.gate bench.smoke PROPERTIES LABELS "bench" TIMEOUT 600)

  # The audit's conformance section, on canned ctest output: upstream folder present, absent.
  softchat_add_test_executable(test_bench_conformance
    test_conformance.c
    "${PROJECT_SOURCE_DIR}/bench/conformance.c")
  target_include_directories(test_bench_conformance PRIVATE "${PROJECT_SOURCE_DIR}/bench")
  add_test(NAME bench.conformance COMMAND test_bench_conformance)
  set_tests_properties(bench.conformance PROPERTIES LABELS "bench" TIMEOUT 60)

  # The verdicts of the comparison with rust-nostr: margin, retry, settling.
  softchat_add_test_executable(test_bench_verdict
    test_verdict.c
    "${PROJECT_SOURCE_DIR}/bench/verdict.c")
  target_include_directories(test_bench_verdict PRIVATE "${PROJECT_SOURCE_DIR}/bench")
  target_link_libraries(test_bench_verdict PRIVATE m)
  add_test(NAME bench.verdict COMMAND test_bench_verdict)
  set_tests_properties(bench.verdict PROPERTIES LABELS "bench" TIMEOUT 60)
endif()
