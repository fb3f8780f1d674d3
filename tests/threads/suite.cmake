# threads.<backend>: test_threads.c, 8 threads with a context each sharing identities, a held
# conversation, a parsed event and a gift wrap read-only (ctx.h's threading rules), on each
# compiled backend. scripts/test.sh also builds and runs it under -fsanitize=thread in
# build/tsan, where a data race fails it.
if(EMSCRIPTEN)
  # Left out of wasm32: the build is single-threaded (threads need -pthread, SharedArrayBuffer
  # and a worker per thread, which the WebAssembly package does not use), so pthread_create
  # fails; the native and aarch64 builds run it.
  message(STATUS "softchat: threads.* not built for wasm32 (built without threads)")
  return()
endif()
find_package(Threads REQUIRED)
add_executable(test_threads "${CMAKE_CURRENT_LIST_DIR}/test_threads.c")
target_link_libraries(test_threads PRIVATE softchat_static softchat_warnings Threads::Threads)
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "threads.${b}" COMMAND test_threads --backend "${b}")
  set_tests_properties("threads.${b}" PROPERTIES LABELS "threads" TIMEOUT 600)
endforeach()
