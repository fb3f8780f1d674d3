# Coverage-guided fuzz targets, one executable each, fuzz_<name>: the source of each is in the
# folder of the area it fuzzes, tests/<area>/fuzz_<name>.c (the area of the same name, but
# base64 in core and diff, every backend against the others, in crypto); what they share is
# here: fuzz_common.c, the replay main, the seeds and the crash reproducers.
#
# SOFTCHAT_FUZZ=ON (clang; scripts/fuzz.sh configures it, with the whole build under
# -fsanitize=fuzzer-no-link,address,undefined) links them with libFuzzer. Otherwise they link
# fuzz_replay.c, a main() that runs each input file once, and ctest replays with them, on
# every build (plain, ASan+UBSan, valgrind):
#   fuzz.seeds          seeds.py writes the seed corpora from the vectors into the
#                       build tree (a fixture of the entries below)
#   fuzz.<name>         the seeds of fuzz_<name>, then its committed crash reproducers
#                       (tests/fuzz/regressions/<name>/), each an input that once broke an
#                       invariant or crashed: they must now pass
option(SOFTCHAT_FUZZ "Link the fuzz targets with libFuzzer (clang)" OFF)

set(SOFTCHAT_FUZZ_TARGETS event nip44 nip59 nip19 file base64 diff relay negentropy nip17 nip49
                          nip98 nip46)
set(_sc_fuzz_dir "${CMAKE_CURRENT_LIST_DIR}")
# Each target's source, tests/<area>/fuzz_<name>.c, and the list of harness sources.
set(_sc_fuzz_area_base64 core)
set(_sc_fuzz_area_diff crypto)
set(_sc_fuzz_sources "${_sc_fuzz_dir}/fuzz_common.c")
foreach(t IN LISTS SOFTCHAT_FUZZ_TARGETS)
  if(NOT DEFINED _sc_fuzz_area_${t})
    set(_sc_fuzz_area_${t} "${t}")
  endif()
  set(_sc_fuzz_src_${t} "${PROJECT_SOURCE_DIR}/tests/${_sc_fuzz_area_${t}}/fuzz_${t}.c")
  list(APPEND _sc_fuzz_sources "${_sc_fuzz_src_${t}}")
endforeach()

if(SOFTCHAT_FUZZ AND NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "softchat: SOFTCHAT_FUZZ=ON needs clang (libFuzzer); got "
                      "${CMAKE_C_COMPILER_ID}. Use scripts/fuzz.sh.")
endif()

add_library(softchat_fuzz_common STATIC "${_sc_fuzz_dir}/fuzz_common.c")
target_link_libraries(softchat_fuzz_common PUBLIC softchat_static PRIVATE softchat_warnings)
target_include_directories(softchat_fuzz_common PUBLIC "${_sc_fuzz_dir}"
                                                       "${PROJECT_SOURCE_DIR}/core")
if(NOT SOFTCHAT_FUZZ)
  add_library(softchat_fuzz_replay STATIC "${_sc_fuzz_dir}/fuzz_replay.c")
  target_link_libraries(softchat_fuzz_replay PUBLIC softchat_fuzz_common
                                             PRIVATE softchat_warnings)
endif()

# The harness itself is not what is being fuzzed: without coverage (and its comparison
# tracing) there, libFuzzer steers by the library's edges only, and runs faster.
if(SOFTCHAT_FUZZ)
  set_source_files_properties(${_sc_fuzz_sources} PROPERTIES
                              COMPILE_OPTIONS "-fno-sanitize=fuzzer-no-link")
endif()

add_custom_target(fuzz_targets)
foreach(t IN LISTS SOFTCHAT_FUZZ_TARGETS)
  add_executable(fuzz_${t} "${_sc_fuzz_src_${t}}")
  target_link_libraries(fuzz_${t} PRIVATE softchat_fuzz_common softchat_warnings)
  if(SOFTCHAT_FUZZ)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
  else()
    target_link_libraries(fuzz_${t} PRIVATE softchat_fuzz_replay)
  endif()
  add_dependencies(fuzz_targets fuzz_${t})
endforeach()

if(SOFTCHAT_FUZZ)
  return() # scripts/fuzz.sh runs them
endif()

find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(WARNING "softchat: python3 not found: the fuzz seed replays (fuzz.*) cannot run.")
  return()
endif()

set(_sc_seeds "${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds")
add_test(NAME fuzz.seeds
         COMMAND "${Python3_EXECUTABLE}" "${_sc_fuzz_dir}/seeds.py" --out "${_sc_seeds}"
                 --vectors "${SOFTCHAT_VECTORS_DIR}" --own "${SOFTCHAT_OWN_VECTORS_DIR}")
set_tests_properties(fuzz.seeds PROPERTIES FIXTURES_SETUP softchat_fuzz_seeds LABELS "fuzz"
                                           TIMEOUT 120)
foreach(t IN LISTS SOFTCHAT_FUZZ_TARGETS)
  set(_sc_inputs "${_sc_seeds}/${t}")
  if(IS_DIRECTORY "${_sc_fuzz_dir}/regressions/${t}")
    list(APPEND _sc_inputs "${_sc_fuzz_dir}/regressions/${t}")
  endif()
  add_test(NAME fuzz.${t} COMMAND fuzz_${t} -runs=0 ${_sc_inputs})
  set_tests_properties(fuzz.${t} PROPERTIES FIXTURES_REQUIRED softchat_fuzz_seeds
                                            LABELS "fuzz" TIMEOUT 600)
endforeach()
