# softchat-bench: the gate on fixed result files, and a short smoke of run + compare on real
# result files (not a measurement: the full audit is scripts/run.sh).
if(TARGET softchat_bench)
  add_test(NAME bench.gate
           COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/bench/gate.sh" "$<TARGET_FILE:softchat_bench>")
  add_test(NAME bench.smoke
           COMMAND sh -c "\"$1\" run --quick --only import_identity,nip44_encrypt_held,attachment_encrypt --json \"$2/smoke-a.json\" && \"$1\" run --quick --only import_identity,nip44_encrypt_held,attachment_encrypt --json \"$2/smoke-b.json\" && { \"$1\" compare \"$2/smoke-a.json\" \"$2/smoke-b.json\" --no-retry; test $? -le 1; }"
                   sh "$<TARGET_FILE:softchat_bench>" "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties(bench.gate bench.smoke PROPERTIES LABELS "bench" TIMEOUT 600)
endif()
