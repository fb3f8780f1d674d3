# Key material left behind (tests/residue): after each call of each primitive group and of the
# identity, NIP-44, NIP-59, file and NIP-49 operations, the process's writable memory (heap, anonymous
# mappings, the data of every library; not the stack) must hold no copy of the call's secrets
# or of what a backend could keep of them; once per compiled backend (residue.<backend>).
# The scan reads freed and poisoned memory on purpose: it runs outside AddressSanitizer's
# checks, and not under valgrind memcheck (scripts/test.sh leaves residue.* out of that pass).
if(EMSCRIPTEN)
  # Left out of wasm32: the scan finds the process's memory in /proc/self/maps, which a wasm
  # module has no equivalent of (its one linear memory is not described to it); the native and
  # aarch64 builds run it.
  message(STATUS "softchat: residue.* not built for wasm32 (no /proc/self/maps to scan)")
  return()
endif()
softchat_add_test_executable(test_residue
  test_residue.c
  residue_proto.c
  residue_nip49.c
  scan.c)

foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  add_test(NAME "residue.${b}" COMMAND test_residue --backend "${b}")
  set_tests_properties("residue.${b}" PROPERTIES TIMEOUT 300 LABELS "residue")
endforeach()

# The scan reads hundreds of MiB under AddressSanitizer (its heap and quarantine): optimise it
# even in Debug builds.
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/scan.c"
                              PROPERTIES COMPILE_OPTIONS "-O2")
endif()
