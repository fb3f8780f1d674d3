# docs/cli.md is generated from the CLI's help: fail when it is stale.
if(TARGET softchat_cli)
  add_test(NAME docs.cli
           COMMAND sh -c "\"$1\" \"$2\" \"$3/cli.md\" && diff -u \"$4\" \"$3/cli.md\""
                   sh "${PROJECT_SOURCE_DIR}/scripts/gen-cli-doc.sh" "$<TARGET_FILE:softchat_cli>"
                   "${CMAKE_CURRENT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}/docs/cli.md")
  set_tests_properties(docs.cli PROPERTIES LABELS "docs")
endif()
# docs/benchmarks.md quotes softchat-bench --help: fail when the quote is stale.
if(TARGET softchat_bench)
  add_test(NAME docs.bench
           COMMAND "${PROJECT_SOURCE_DIR}/tests/bench/doc.sh" "$<TARGET_FILE:softchat_bench>"
                   "${PROJECT_SOURCE_DIR}/docs/benchmarks.md")
  set_tests_properties(docs.bench PROPERTIES LABELS "docs")
endif()
