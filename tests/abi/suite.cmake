# The ABI check (abi.check): the built libsoftchat.so against abi/libsoftchat.abi, the stored
# ABI of the 1.x series (scripts/abi-baseline.sh wrote it at 1.0.0). An incompatible change to
# an exported function or a public type fails; additions pass. Skipped, and said so, in
# builds whose code generation differs from a release (sanitizers, no debug information),
# since the ABI is read from the debug information.
set(_sc_abi_base "${PROJECT_SOURCE_DIR}/abi/libsoftchat.abi")
if(CMAKE_C_FLAGS MATCHES "-fsanitize" OR NOT CMAKE_BUILD_TYPE MATCHES "RelWithDebInfo|Debug")
  message(STATUS "softchat: abi.check not registered (needs a RelWithDebInfo or Debug build "
                 "without sanitizers)")
else()
  add_test(NAME abi.check
           COMMAND "${CMAKE_CURRENT_LIST_DIR}/check.sh" "${_sc_abi_base}"
                   "$<TARGET_FILE:softchat>" "${PROJECT_SOURCE_DIR}/api/softchat")
  set_tests_properties(abi.check PROPERTIES LABELS "abi")
endif()
