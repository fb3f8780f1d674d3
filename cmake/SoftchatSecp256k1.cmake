# libsecp256k1: the system package (default) or a source tree (SOFTCHAT_SECP256K1_SOURCE_DIR,
# as Android/iOS builds and like-for-like benchmarks need). Either way the result is the
# target secp256k1::secp256k1 with the schnorrsig, extrakeys and ecdh modules, checked here,
# and SOFTCHAT_SECP256K1_VERSION.
include(CheckSymbolExists)
include(CMakePushCheckState)

function(_softchat_secp256k1_check_modules)
  cmake_push_check_state(RESET)
  get_target_property(_inc secp256k1::secp256k1 INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(_loc secp256k1::secp256k1 IMPORTED_LOCATION)
  set(CMAKE_REQUIRED_INCLUDES ${_inc})
  set(CMAKE_REQUIRED_LIBRARIES ${_loc})
  set(CMAKE_REQUIRED_QUIET ON)
  check_symbol_exists(secp256k1_schnorrsig_sign32 "secp256k1_schnorrsig.h" SC_HAVE_SCHNORRSIG)
  check_symbol_exists(secp256k1_keypair_xonly_pub "secp256k1_extrakeys.h" SC_HAVE_EXTRAKEYS)
  check_symbol_exists(secp256k1_ecdh "secp256k1_ecdh.h" SC_HAVE_ECDH)
  check_symbol_exists(secp256k1_context_preallocated_create "secp256k1_preallocated.h"
                      SC_HAVE_PREALLOCATED)
  cmake_pop_check_state()
  foreach(m SCHNORRSIG EXTRAKEYS ECDH PREALLOCATED)
    if(NOT SC_HAVE_${m})
      message(FATAL_ERROR "softchat: the libsecp256k1 found lacks the ${m} module "
                          "(schnorrsig, extrakeys, ecdh and preallocated are required, "
                          "libsecp256k1 >= 0.2.0). On Debian: sudo apt-get install libsecp256k1-dev")
    endif()
  endforeach()
endfunction()

function(softchat_find_secp256k1)
  if(SOFTCHAT_SECP256K1_SOURCE_DIR)
    if(NOT EXISTS "${SOFTCHAT_SECP256K1_SOURCE_DIR}/include/secp256k1_schnorrsig.h")
      message(FATAL_ERROR "softchat: SOFTCHAT_SECP256K1_SOURCE_DIR=${SOFTCHAT_SECP256K1_SOURCE_DIR} "
                          "is not a libsecp256k1 source tree")
    endif()
    file(STRINGS "${SOFTCHAT_SECP256K1_SOURCE_DIR}/CMakeLists.txt" _ver
         REGEX "^[ \t]*VERSION[ \t]+[0-9]+\\.[0-9]+\\.[0-9]+")
    string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" _ver "${_ver}")
    set(SECP256K1_ENABLE_MODULE_SCHNORRSIG ON CACHE BOOL "" FORCE)
    set(SECP256K1_ENABLE_MODULE_EXTRAKEYS ON CACHE BOOL "" FORCE)
    set(SECP256K1_ENABLE_MODULE_ECDH ON CACHE BOOL "" FORCE)
    set(SECP256K1_BUILD_TESTS OFF CACHE BOOL "" FORCE)
    set(SECP256K1_BUILD_EXHAUSTIVE_TESTS OFF CACHE BOOL "" FORCE)
    set(SECP256K1_BUILD_BENCHMARK OFF CACHE BOOL "" FORCE)
    set(SECP256K1_BUILD_CTIME_TESTS OFF CACHE BOOL "" FORCE)
    set(SECP256K1_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
    set(SECP256K1_INSTALL OFF CACHE BOOL "" FORCE)
    set(SECP256K1_DISABLE_SHARED ON CACHE BOOL "" FORCE)
    set(BUILD_SHARED_LIBS OFF)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    add_subdirectory("${SOFTCHAT_SECP256K1_SOURCE_DIR}" "${PROJECT_BINARY_DIR}/secp256k1"
                     EXCLUDE_FROM_ALL)
    if(NOT TARGET secp256k1::secp256k1)
      add_library(secp256k1::secp256k1 ALIAS secp256k1)
    endif()
    # Extra compile options for the source build, after the release's own (-O2 in its Release
    # type), so they win: the like-for-like build passes the options the peer compiles the
    # same release with (bench/peers/rust-nostr/secp256k1-tree.sh writes them).
    if(SOFTCHAT_SECP256K1_C_FLAGS)
      separate_arguments(_sc_secp_flags UNIX_COMMAND "${SOFTCHAT_SECP256K1_C_FLAGS}")
      foreach(_t secp256k1 secp256k1_precomputed)
        if(TARGET ${_t})
          target_compile_options(${_t} PRIVATE ${_sc_secp_flags})
        endif()
      endforeach()
    endif()
    set(SOFTCHAT_SECP256K1_VERSION "${_ver} (source)" PARENT_SCOPE)
    add_feature_info("libsecp256k1" ON "from source ${SOFTCHAT_SECP256K1_SOURCE_DIR} (${_ver})")
  else()
    find_package(Secp256k1 QUIET)
    if(NOT Secp256k1_FOUND)
      message(FATAL_ERROR "softchat: libsecp256k1 not found. On Debian/Ubuntu install it with:\n"
                          "  sudo apt-get install libsecp256k1-dev\n(or run scripts/setup.sh)")
    endif()
    _softchat_secp256k1_check_modules()
    set(SOFTCHAT_SECP256K1_VERSION "${Secp256k1_VERSION}" PARENT_SCOPE)
    add_feature_info("libsecp256k1" ON "system ${Secp256k1_VERSION}")
  endif()
endfunction()
