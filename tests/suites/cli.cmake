# The command-line tool, end to end, one ctest entry per compiled backend:
#   cli.<backend>      tests/cli/test_cli.py: key, event, nip44, nip19 (every command and exit
#                      status, against the upstream vectors where the CLI can use them)
#   cli.msg.<backend>  tests/cli/test_cli_msg.py: nip59 wrap/unwrap, nip17 send/receive, file
#                      encrypt/decrypt (forged layers, atomic output, signals, the spec examples)
# Python 3 (standard library only) is a test dependency. Both drivers run the CLI as a child
# process, so ctest's memcheck stage (which would check the interpreter) leaves "cli." out;
# run a driver with --wrap "valgrind ..." to check the CLI itself.
if(NOT TARGET softchat_cli)
  return()  # SOFTCHAT_BUILD_CLI=OFF: nothing to test
endif()

find_package(Python3 3.8 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(WARNING "softchat: python3 not found: the CLI tests (cli.<backend>) cannot run and "
                  "are registered as failing. Install python3 (scripts/setup.sh --with-tools).")
  add_test(NAME cli.python3-missing
           COMMAND "${CMAKE_COMMAND}" -E echo "python3 is missing: the CLI tests did not run")
  set_tests_properties(cli.python3-missing PROPERTIES WILL_FAIL OFF
                       FAIL_REGULAR_EXPRESSION "python3 is missing" LABELS "cli")
  return()
endif()

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "cli.${b}"
           COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/cli/test_cli.py"
                   --cli "$<TARGET_FILE:softchat_cli>" --backend "${b}"
                   --vectors "${SOFTCHAT_VECTORS_DIR}")
  set_tests_properties("cli.${b}" PROPERTIES TIMEOUT 600 LABELS "cli")
  add_test(NAME "cli.msg.${b}"
           COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/cli/test_cli_msg.py"
                   --cli "$<TARGET_FILE:softchat_cli>" --backend "${b}"
                   --vectors "${SOFTCHAT_VECTORS_DIR}")
  set_tests_properties("cli.msg.${b}" PROPERTIES TIMEOUT 600 LABELS "cli")
endforeach()

# The own-only mode, asked for by pointing at a folder that does not exist: the vector cases
# are reported skipped (never passed) and everything else still runs. With the folder present,
# a vector file missing from it fails the driver.
add_test(NAME cli.no-upstream
         COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/cli/test_cli.py"
                 --cli "$<TARGET_FILE:softchat_cli>" --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                 --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors")
set_tests_properties(cli.no-upstream PROPERTIES TIMEOUT 600 LABELS "cli")
add_test(NAME cli.msg.no-upstream
         COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/cli/test_cli_msg.py"
                 --cli "$<TARGET_FILE:softchat_cli>" --backend "${SOFTCHAT_DEFAULT_BACKEND}"
                 --vectors "${CMAKE_CURRENT_BINARY_DIR}/no-upstream-vectors")
set_tests_properties(cli.msg.no-upstream PROPERTIES TIMEOUT 600 LABELS "cli")
