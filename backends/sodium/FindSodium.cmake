# Finds libsodium (pkg-config first, then header and library) and defines sodium::sodium.
# Sets Sodium_FOUND and Sodium_VERSION.
if(TARGET sodium::sodium)
  set(Sodium_FOUND TRUE)
  return()
endif()

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_Sodium QUIET libsodium)
endif()
find_path(Sodium_INCLUDE_DIR NAMES sodium.h HINTS ${PC_Sodium_INCLUDE_DIRS})
find_library(Sodium_LIBRARY NAMES sodium libsodium HINTS ${PC_Sodium_LIBRARY_DIRS})
set(Sodium_VERSION "${PC_Sodium_VERSION}")
if(NOT Sodium_VERSION AND Sodium_INCLUDE_DIR AND EXISTS "${Sodium_INCLUDE_DIR}/sodium/version.h")
  file(STRINGS "${Sodium_INCLUDE_DIR}/sodium/version.h" _line
       REGEX "^#define[ \t]+SODIUM_VERSION_STRING[ \t]+\"[0-9.]+\"")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" Sodium_VERSION "${_line}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Sodium REQUIRED_VARS Sodium_LIBRARY Sodium_INCLUDE_DIR
                                  VERSION_VAR Sodium_VERSION)
if(Sodium_FOUND AND NOT TARGET sodium::sodium)
  add_library(sodium::sodium UNKNOWN IMPORTED)
  set_target_properties(sodium::sodium PROPERTIES
    IMPORTED_LOCATION "${Sodium_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Sodium_INCLUDE_DIR}")
endif()
mark_as_advanced(Sodium_INCLUDE_DIR Sodium_LIBRARY)
