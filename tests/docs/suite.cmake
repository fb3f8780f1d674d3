# docs/cli.md is generated from the CLI's help: fail when it is stale.
if(TARGET softchat_cli)
  softchat_runnable(_sc_cli_run softchat_cli)
  add_test(NAME docs.cli
           COMMAND sh -c "\"$1\" \"$2\" \"$3/cli.md\" && diff -u \"$4\" \"$3/cli.md\""
                   sh "${PROJECT_SOURCE_DIR}/scripts/gen-cli-doc.sh" "${_sc_cli_run}"
                   "${CMAKE_CURRENT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}/docs/cli.md")
  set_tests_properties(docs.cli PROPERTIES LABELS "docs")
endif()

# The header contract: every exported function documented as common.h rule 13 asks, listed in
# docs/api.md, and exactly the functions the shared library exports. wasm32 has no shared
# library (Emscripten builds `softchat` as an archive, whose internal functions are global
# too): there the exports are not compared; every other build compares them.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(_sc_doc_lib "$<TARGET_FILE:softchat>")
  if(EMSCRIPTEN)
    set(_sc_doc_lib "")
  endif()
  add_test(NAME docs.headers
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/check_headers.py"
                   "${PROJECT_SOURCE_DIR}/api" "${PROJECT_SOURCE_DIR}/docs/api.md"
                   ${_sc_doc_lib})
  add_test(NAME docs.examples
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/check_examples.py"
                   "${PROJECT_SOURCE_DIR}/docs/api.md" "${PROJECT_SOURCE_DIR}/docs/examples")
  set_tests_properties(docs.headers docs.examples PROPERTIES LABELS "docs")
endif()

# The worked examples of docs/api.md, built as a user would (the public headers only, the
# static library) and run on every backend. An example exits 77 when the backend lacks a
# capability it needs; that skip is allowed only where the backend's backend.cmake declares
# the capability OPTIONAL (file_sink: aes256gcm-stream; nip49: scrypt), and fails everywhere
# else.
file(GLOB _sc_examples CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/examples/*.c")
foreach(src IN LISTS _sc_examples)
  get_filename_component(ex "${src}" NAME_WE)
  add_executable(example_${ex} "${src}")
  target_link_libraries(example_${ex} PRIVATE softchat_static softchat_warnings)
  foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
    add_test(NAME docs.example.${ex}.${b} COMMAND example_${ex} "${b}")
    set_tests_properties(docs.example.${ex}.${b} PROPERTIES LABELS "docs")
    get_property(_sc_opt GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_OPTIONAL)
    if((ex STREQUAL "file_sink" AND "aes256gcm-stream" IN_LIST _sc_opt) OR
       (ex STREQUAL "nip49" AND "scrypt" IN_LIST _sc_opt))
      set_tests_properties(docs.example.${ex}.${b} PROPERTIES SKIP_RETURN_CODE 77)
    endif()
  endforeach()
endforeach()

# docs/benchmarks.md quotes softchat-bench --help: fail when the quote is stale.
if(TARGET softchat_bench)
  add_test(NAME docs.bench
           COMMAND "${PROJECT_SOURCE_DIR}/tests/bench/doc.sh" "$<TARGET_FILE:softchat_bench>"
                   "${PROJECT_SOURCE_DIR}/docs/benchmarks.md")
  set_tests_properties(docs.bench PROPERTIES LABELS "docs")
endif()
