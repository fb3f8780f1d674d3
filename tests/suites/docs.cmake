# docs/cli.md is generated from the CLI's help: fail when it is stale.
if(TARGET softchat_cli AND TARGET softchat_bench) # the page documents the full CLI
  add_test(NAME docs.cli
           COMMAND sh -c "\"$1\" \"$2\" \"$3/cli.md\" && diff -u \"$4\" \"$3/cli.md\""
                   sh "${PROJECT_SOURCE_DIR}/scripts/gen-cli-doc.sh" "$<TARGET_FILE:softchat_cli>"
                   "${CMAKE_CURRENT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}/docs/cli.md")
  set_tests_properties(docs.cli PROPERTIES LABELS "docs")
endif()
