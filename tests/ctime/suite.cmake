# Constant-time checks under valgrind memcheck (tests/ctime), once per compiled backend:
# ctime.<backend>. Secret inputs are marked undefined; memcheck fails the run on any branch or
# address that depends on them. SOFTCHAT_BUILD_CTIME_TESTS: AUTO (when valgrind and its
# headers are found), ON (require them), OFF (e.g. sanitizer builds, where valgrind cannot run).
set(SOFTCHAT_BUILD_CTIME_TESTS AUTO CACHE STRING
    "Build the constant-time checks (valgrind): AUTO, ON or OFF")
set_property(CACHE SOFTCHAT_BUILD_CTIME_TESTS PROPERTY STRINGS AUTO ON OFF)

if(NOT SOFTCHAT_BUILD_CTIME_TESTS STREQUAL "OFF")
  find_program(SOFTCHAT_VALGRIND valgrind)
  find_path(SOFTCHAT_VALGRIND_INCLUDE valgrind/memcheck.h)
  if(SOFTCHAT_VALGRIND AND SOFTCHAT_VALGRIND_INCLUDE)
    softchat_add_test_executable(test_ctime test_ctime.c)
    target_include_directories(test_ctime PRIVATE "${SOFTCHAT_VALGRIND_INCLUDE}")
    foreach(b IN LISTS SOFTCHAT_BACKEND_LIST)
      add_test(NAME "ctime.${b}"
               COMMAND "${SOFTCHAT_VALGRIND}" -q --error-exitcode=42
                       "--suppressions=${CMAKE_CURRENT_LIST_DIR}/ctime.supp"
                       $<TARGET_FILE:test_ctime> --backend "${b}" --require-valgrind)
      set_tests_properties("ctime.${b}" PROPERTIES TIMEOUT 600 LABELS "ctime")
    endforeach()
  elseif(SOFTCHAT_BUILD_CTIME_TESTS STREQUAL "ON")
    message(FATAL_ERROR "softchat: SOFTCHAT_BUILD_CTIME_TESTS=ON needs valgrind and "
                        "valgrind/memcheck.h (Debian package: valgrind)")
  else()
    message(STATUS "softchat: constant-time checks not built: no valgrind (Debian package: valgrind)")
  endif()
endif()
