# cJSON for the tools (tests read vectors with it; the bench reads result files): the
# interface target softchat_cjson. CMake package config first, then pkg-config. The library
# itself never uses cJSON.
if(TARGET softchat_cjson)
  return()
endif()
add_library(softchat_cjson INTERFACE)
find_package(cJSON CONFIG QUIET)
if(TARGET cjson)
  target_link_libraries(softchat_cjson INTERFACE cjson)
  set(SOFTCHAT_CJSON_DESC "cjson (CMake config)")
elseif(cJSON_FOUND AND CJSON_LIBRARIES)
  target_include_directories(softchat_cjson INTERFACE ${CJSON_INCLUDE_DIRS})
  target_link_libraries(softchat_cjson INTERFACE ${CJSON_LIBRARIES})
  set(SOFTCHAT_CJSON_DESC "${CJSON_LIBRARIES} (CMake config)")
else()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(SC_CJSON QUIET IMPORTED_TARGET libcjson)
  endif()
  if(NOT SC_CJSON_FOUND)
    message(FATAL_ERROR "softchat: cJSON not found; the tests and the bench tool need it."
                        " On Debian/Ubuntu install it with:\n  sudo apt-get install libcjson-dev\n"
                        "(or run scripts/setup.sh), or configure with -DSOFTCHAT_BUILD_TESTS=OFF "
                        "-DSOFTCHAT_BUILD_BENCH=OFF.")
  endif()
  target_link_libraries(softchat_cjson INTERFACE PkgConfig::SC_CJSON)
  set(SOFTCHAT_CJSON_DESC "cJSON ${SC_CJSON_VERSION} (pkg-config)")
endif()
