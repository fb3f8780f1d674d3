# Each compiled backend's own tests, declared by name in its backends/<dir>/backend.cmake
# (TESTS): test <t> is the cmocka program tests/backends/<dir>/test_<t>.c, linked with the
# backend's libraries and registered as backend.<name>.<t> (e.g. backend.psa.internals,
# tests/backends/psa/test_internals.c).
foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
  get_property(_sc_btests GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_TESTS)
  get_property(_sc_btargets GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_TARGETS)
  get_property(_sc_bdir GLOBAL PROPERTY SOFTCHAT_BACKEND_${b}_DIR)
  get_filename_component(_sc_bdir "${_sc_bdir}" NAME)
  string(REPLACE "+" "_" _sc_bsym "${b}")
  foreach(_sc_stem IN LISTS _sc_btests)
    set(_sc_bt "${CMAKE_CURRENT_LIST_DIR}/${_sc_bdir}/test_${_sc_stem}.c")
    if(NOT EXISTS "${_sc_bt}")
      message(FATAL_ERROR "softchat: backends/${_sc_bdir}/backend.cmake declares the test "
                          "'${_sc_stem}' of backend '${b}', but ${_sc_bt} does not exist")
    endif()
    softchat_add_test_executable(test_backend_${_sc_bsym}_${_sc_stem} "${_sc_bt}")
    target_link_libraries(test_backend_${_sc_bsym}_${_sc_stem} PRIVATE ${_sc_btargets})
    add_test(NAME "backend.${b}.${_sc_stem}" COMMAND test_backend_${_sc_bsym}_${_sc_stem})
    set_tests_properties("backend.${b}.${_sc_stem}" PROPERTIES TIMEOUT 300 LABELS "backend")
  endforeach()
endforeach()

# backends/os, the kernel's generator that more than one backend's rng group draws from: its
# test (os/test_kernel_rng.c) runs once, as backend.os.kernel_rng, when a compiled backend
# builds backends/os/random.c.
get_filename_component(_sc_os_random "${PROJECT_SOURCE_DIR}/backends/os/random.c" REALPATH)
if(_sc_os_random IN_LIST SOFTCHAT_BACKEND_SOURCES)
  softchat_add_test_executable(test_backend_os_kernel_rng os/test_kernel_rng.c)
  target_include_directories(test_backend_os_kernel_rng PRIVATE
                             "${PROJECT_SOURCE_DIR}/backends/os")
  add_test(NAME "backend.os.kernel_rng" COMMAND test_backend_os_kernel_rng)
  set_tests_properties("backend.os.kernel_rng" PROPERTIES TIMEOUT 300 LABELS "backend")
endif()
