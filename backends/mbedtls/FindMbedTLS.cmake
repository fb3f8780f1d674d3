# Finds mbed TLS's crypto library and defines MbedTLS::mbedcrypto.
# mbed TLS 3.x installs a CMake package (MbedTLSConfig.cmake), tried first; Debian's 2.28
# ships none, so fall back to the header and library. Sets MbedTLS_FOUND, MbedTLS_VERSION.
if(TARGET MbedTLS::mbedcrypto)
  set(MbedTLS_FOUND TRUE)
  return()
endif()

find_package(MbedTLS CONFIG QUIET NO_CMAKE_PACKAGE_REGISTRY)
if(MbedTLS_FOUND AND TARGET MbedTLS::mbedcrypto)
  return()
endif()

find_path(MbedTLS_INCLUDE_DIR NAMES mbedtls/version.h)
find_library(MbedTLS_CRYPTO_LIBRARY NAMES mbedcrypto)
if(MbedTLS_INCLUDE_DIR)
  foreach(hdr mbedtls/build_info.h mbedtls/version.h)
    if(EXISTS "${MbedTLS_INCLUDE_DIR}/${hdr}")
      file(STRINGS "${MbedTLS_INCLUDE_DIR}/${hdr}" _line
           REGEX "^#define[ \t]+MBEDTLS_VERSION_STRING[ \t]+\"[0-9.]+\"")
      if(_line)
        string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" MbedTLS_VERSION "${_line}")
        break()
      endif()
    endif()
  endforeach()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MbedTLS REQUIRED_VARS MbedTLS_CRYPTO_LIBRARY MbedTLS_INCLUDE_DIR
                                  VERSION_VAR MbedTLS_VERSION)
if(MbedTLS_FOUND AND NOT TARGET MbedTLS::mbedcrypto)
  add_library(MbedTLS::mbedcrypto UNKNOWN IMPORTED)
  set_target_properties(MbedTLS::mbedcrypto PROPERTIES
    IMPORTED_LOCATION "${MbedTLS_CRYPTO_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${MbedTLS_INCLUDE_DIR}")
endif()
mark_as_advanced(MbedTLS_INCLUDE_DIR MbedTLS_CRYPTO_LIBRARY)
