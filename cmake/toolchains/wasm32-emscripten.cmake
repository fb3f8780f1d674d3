# wasm32 with Emscripten (Debian's emscripten package), run by node: proves the 32-bit paths
# (size_t is 4 bytes) and is the base of the WebAssembly package.
#   scripts/deps.sh cmake/toolchains/wasm32-emscripten.cmake build/deps/wasm32-emscripten
#   cmake --preset wasm32-emscripten
# Wraps Emscripten's own toolchain file and fixes what it gets wrong for node 20 here:
#   - its emulator is "node --experimental-wasm-threads", which node 20 rejects: plain node;
#   - its JS glue fetches the .wasm with fetch(), which node 20's fetch refuses for a file
#     path: -sWASM_ASYNC_COMPILATION=0 instantiates synchronously;
#   - emcc -O2 runs its JS optimizer, which needs Debian's acorn on node's module path: the
#     link goes through `env NODE_PATH=...` (CMAKE_C_LINKER_LAUNCHER).
# Programs get the host file system (NODERAWFS: the tests read the vector files by path) and
# a growable heap; exit codes pass through to node's.
if(NOT DEFINED SOFTCHAT_EMSCRIPTEN_ROOT)
  find_program(_sc_emcc emcc)
  if(NOT _sc_emcc)
    message(FATAL_ERROR "wasm32-emscripten: emcc not found (Debian package: emscripten)")
  endif()
  get_filename_component(_sc_emcc "${_sc_emcc}" REALPATH)
  get_filename_component(SOFTCHAT_EMSCRIPTEN_ROOT "${_sc_emcc}" DIRECTORY)
endif()
find_program(SOFTCHAT_NODE NAMES node nodejs)
set(CMAKE_CROSSCOMPILING_EMULATOR "${SOFTCHAT_NODE}" CACHE FILEPATH "node runs the wasm programs")
include("${SOFTCHAT_EMSCRIPTEN_ROOT}/cmake/Modules/Platform/Emscripten.cmake")

set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sWASM_ASYNC_COMPILATION=0 -sEXIT_RUNTIME=1")
# The programs linked here are the test suites: their code is compiled at -O3 like the
# library's, and -O1 at the link (it comes after the compile flags) leaves out binaryen's -O3
# pass over each whole module, which makes modules smaller, not the library's code different,
# and took 6 s per suite against 0.9 s.
set(CMAKE_EXE_LINKER_FLAGS_RELEASE_INIT "-O1")
if(EXISTS /usr/share/nodejs/acorn)
  set(CMAKE_C_LINKER_LAUNCHER env "NODE_PATH=/usr/share/nodejs")
endif()
# cmocka.h declares uintptr_t itself unless _UINTPTR_T is defined, and on Emscripten's musl
# its guess (unsigned long) clashes with <stdint.h>'s: tell it the C library has one.
set(CMAKE_C_FLAGS_INIT "-D_UINTPTR_T -D_UINTPTR_T_DEFINED")
