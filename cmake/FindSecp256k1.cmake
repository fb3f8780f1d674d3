# Finds the system libsecp256k1 (pkg-config first, then header and library) and defines
# secp256k1::secp256k1. Sets Secp256k1_FOUND and Secp256k1_VERSION.
if(TARGET secp256k1::secp256k1)
  set(Secp256k1_FOUND TRUE)
  return()
endif()

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_Secp256k1 QUIET libsecp256k1)
endif()
find_path(Secp256k1_INCLUDE_DIR NAMES secp256k1.h HINTS ${PC_Secp256k1_INCLUDE_DIRS})
find_library(Secp256k1_LIBRARY NAMES secp256k1 HINTS ${PC_Secp256k1_LIBRARY_DIRS})
set(Secp256k1_VERSION "${PC_Secp256k1_VERSION}")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Secp256k1 REQUIRED_VARS Secp256k1_LIBRARY Secp256k1_INCLUDE_DIR
                                  VERSION_VAR Secp256k1_VERSION)
if(Secp256k1_FOUND AND NOT TARGET secp256k1::secp256k1)
  add_library(secp256k1::secp256k1 UNKNOWN IMPORTED)
  set_target_properties(secp256k1::secp256k1 PROPERTIES
    IMPORTED_LOCATION "${Secp256k1_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Secp256k1_INCLUDE_DIR}")
endif()
mark_as_advanced(Secp256k1_INCLUDE_DIR Secp256k1_LIBRARY)
