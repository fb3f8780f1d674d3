# install.consumer: install to a temporary prefix, build a consumer with find_package(softchat)
# and with pkg-config, and check that only sc_ symbols are exported.
if(SOFTCHAT_INSTALL)
  set(_sc_consumer_env "CONSUMER_CFLAGS=${CMAKE_C_FLAGS}")
  if(CMAKE_CROSSCOMPILING)
    # the consumer is built with the same toolchain and dependencies, and run by the emulator
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _sc_emu)
    set(_sc_deps "")
    if(CMAKE_PREFIX_PATH)
      list(GET CMAKE_PREFIX_PATH 0 _sc_deps)
    endif()
    get_filename_component(_sc_tc "${CMAKE_TOOLCHAIN_FILE}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
    list(APPEND _sc_consumer_env "CONSUMER_TOOLCHAIN=${_sc_tc}"
                                 "CONSUMER_CC=${CMAKE_C_COMPILER}" "CONSUMER_DEPS=${_sc_deps}"
                                 "CONSUMER_RUN=${_sc_emu}")
  endif()
  add_test(NAME install.consumer
           COMMAND "${CMAKE_CURRENT_LIST_DIR}/run.sh" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}")
  set_tests_properties(install.consumer PROPERTIES TIMEOUT 300
                       ENVIRONMENT "${_sc_consumer_env}"
                       RESOURCE_LOCK softchat_install) # cli.clean installs the same tree
endif()
