# Each compiled backend's own tests, declared in its backends/<dir>/backend.cmake (TESTS):
# one cmocka program per file, linked with the backend's libraries, registered as
# backend.<name>.<file stem> (e.g. backend.psa.internals).
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  get_property(_sc_btests GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_TESTS)
  get_property(_sc_btargets GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_TARGETS)
  string(REPLACE "+" "_" _sc_bsym "${b}")
  foreach(_sc_bt IN LISTS _sc_btests)
    get_filename_component(_sc_stem "${_sc_bt}" NAME_WE)
    softchat_add_test_executable(test_backend_${_sc_bsym}_${_sc_stem} "${_sc_bt}")
    target_link_libraries(test_backend_${_sc_bsym}_${_sc_stem} PRIVATE ${_sc_btargets})
    add_test(NAME "backend.${b}.${_sc_stem}" COMMAND test_backend_${_sc_bsym}_${_sc_stem})
    set_tests_properties("backend.${b}.${_sc_stem}" PROPERTIES TIMEOUT 300 LABELS "backend")
  endforeach()
endforeach()

# backends/os, the kernel's generator that more than one backend's rng group draws from: its
# test runs once, as backend.os.kernel_rng, when a compiled backend builds backends/os/random.c.
get_filename_component(_sc_os_random "${PROJECT_SOURCE_DIR}/backends/os/random.c" REALPATH)
if(_sc_os_random IN_LIST SOFTCHAT_BACKEND_SOURCES)
  softchat_add_test_executable(test_backend_os_kernel_rng
                               "${PROJECT_SOURCE_DIR}/backends/os/kernel_rng.c")
  add_test(NAME "backend.os.kernel_rng" COMMAND test_backend_os_kernel_rng)
  set_tests_properties("backend.os.kernel_rng" PROPERTIES TIMEOUT 300 LABELS "backend")
endif()
