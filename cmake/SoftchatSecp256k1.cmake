# libsecp256k1, the curve library every backend shares. SOFTCHAT_SECP256K1 chooses where it
# comes from:
#   source  (default for native builds) the release pinned in scripts/deps.pins, unpacked by
#           scripts/setup.sh (scripts/deps.sh --fetch secp256k1 build/deps/src) and checked
#           against the pin's SHA-256 here, built with the project as a static library with the
#           host options: ecmult window 15, an 86 KiB generator table, -O3
#           (SOFTCHAT_SECP256K1_C_FLAGS, after the release's own -O2). It is linked into
#           libsoftchat.so (not exported) and its objects are part of libsoftchat.a, so the
#           installed package needs no libsecp256k1 of its own. SOFTCHAT_SECP256K1_SOURCE_DIR
#           names another tree (the like-for-like build uses the release rust-nostr bundles);
#           its own options, or the SECP256K1_* cache variables given, apply there.
#   system  (default when cross-compiling) an installed libsecp256k1 found by pkg-config or
#           by name: the distribution's package (Debian: libsecp256k1-dev) or a prefix on
#           CMAKE_PREFIX_PATH, such as the size-tuned static build of scripts/deps.sh the
#           cross presets use. The installed package then depends on it.
# Either way the result is the target secp256k1::secp256k1 with the schnorrsig, extrakeys and
# ecdh modules, SOFTCHAT_SECP256K1_LINK (what the library links: the target, or in source mode
# the target for the build tree only) and SOFTCHAT_SECP256K1_VERSION (sc_version_secp256k1():
# the release, where it came from and its options, e.g. "0.5.0 (source, window 15, gen 86 KiB,
# -O3)").
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

# The pinned release's tree: "<version>;<dir>", or a configure error saying how to fetch it.
function(_softchat_secp256k1_pinned_tree out)
  set(pins "${PROJECT_SOURCE_DIR}/scripts/deps.pins")
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${pins}")
  file(STRINGS "${pins}" line REGEX "^secp256k1[ \t]")
  string(REGEX REPLACE "[ \t]+" ";" line "${line}")
  list(LENGTH line n)
  if(NOT n EQUAL 5)
    message(FATAL_ERROR "softchat: no secp256k1 line in ${pins}")
  endif()
  list(GET line 1 version)
  list(GET line 4 sha)
  set(dir "${SOFTCHAT_DEPS_SRC_DIR}/secp256k1-${version}")
  set(stamp "${dir}/.softchat-sha256")
  set(got "")
  if(EXISTS "${stamp}")
    file(STRINGS "${stamp}" got LIMIT_COUNT 1)
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${stamp}")
  endif()
  if(NOT got STREQUAL sha OR NOT EXISTS "${dir}/include/secp256k1_schnorrsig.h")
    set(where "${SOFTCHAT_DEPS_SRC_DIR}")
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${where}")
    if(NOT rel MATCHES "^\\.\\.")
      set(where "${rel}")
    endif()
    set(what "is not unpacked in ${dir}")
    if(got)
      set(what "is not what ${dir} holds (unpacked from a tarball with SHA-256 ${got}, "
               "not the pinned ${sha})")
    endif()
    message(FATAL_ERROR
      "softchat: libsecp256k1 ${version} is built from source by default "
      "(SOFTCHAT_SECP256K1=source), but its pinned tarball ${what}. Fetch it (from the "
      "Debian archive, checked against scripts/deps.pins) with:\n"
      "  scripts/setup.sh\n"
      "or only the tarball:\n"
      "  scripts/deps.sh --fetch secp256k1 ${where}\n"
      "Or link the installed library instead (Debian: libsecp256k1-dev): "
      "-DSOFTCHAT_SECP256K1=system")
  endif()
  set(${out} "${version};${dir}" PARENT_SCOPE)
endfunction()

function(_softchat_secp256k1_source)
  if(SOFTCHAT_SECP256K1_SOURCE_DIR)
    set(tree "${SOFTCHAT_SECP256K1_SOURCE_DIR}")
    if(NOT EXISTS "${tree}/include/secp256k1_schnorrsig.h")
      message(FATAL_ERROR "softchat: SOFTCHAT_SECP256K1_SOURCE_DIR=${tree} "
                          "is not a libsecp256k1 source tree")
    endif()
    set(origin "source tree")
  else()
    _softchat_secp256k1_pinned_tree(pinned)
    list(GET pinned 1 tree)
    set(origin "source")
    # The host options (the pinned release only; a tree of SOFTCHAT_SECP256K1_SOURCE_DIR keeps
    # what its build gives): the verification table of upstream's default window (15: 1 MiB,
    # against 128 KiB at the cross builds' 12) and the largest generator table (86 KiB against
    # upstream's default 22: fewer additions per signature and key derivation). Cache
    # variables of the release's own CMake, so -D on the command line wins.
    set(SECP256K1_ECMULT_WINDOW_SIZE 15 CACHE STRING "libsecp256k1 ecmult window (softchat: 15)")
    set(SECP256K1_ECMULT_GEN_KB 86 CACHE STRING "libsecp256k1 generator table in KiB (softchat: 86)")
    set(SECP256K1_VALGRIND OFF CACHE STRING "libsecp256k1 valgrind annotations (softchat: OFF)")
  endif()
  file(STRINGS "${tree}/CMakeLists.txt" ver REGEX "^[ \t]*VERSION[ \t]+[0-9]+\\.[0-9]+\\.[0-9]+")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" ver "${ver}")
  if(NOT SOFTCHAT_SECP256K1_SOURCE_DIR)
    list(GET pinned 0 pinned_ver)
    if(NOT ver STREQUAL pinned_ver)
      message(FATAL_ERROR "softchat: ${tree} says libsecp256k1 ${ver}, scripts/deps.pins ${pinned_ver}")
    endif()
  endif()

  set(SECP256K1_ENABLE_MODULE_SCHNORRSIG ON CACHE BOOL "" FORCE)
  set(SECP256K1_ENABLE_MODULE_EXTRAKEYS ON CACHE BOOL "" FORCE)
  set(SECP256K1_ENABLE_MODULE_ECDH ON CACHE BOOL "" FORCE)
  set(SECP256K1_ENABLE_MODULE_RECOVERY OFF CACHE BOOL "" FORCE)
  set(SECP256K1_ENABLE_MODULE_ELLSWIFT OFF CACHE BOOL "" FORCE)
  set(SECP256K1_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(SECP256K1_BUILD_EXHAUSTIVE_TESTS OFF CACHE BOOL "" FORCE)
  set(SECP256K1_BUILD_BENCHMARK OFF CACHE BOOL "" FORCE)
  set(SECP256K1_BUILD_CTIME_TESTS OFF CACHE BOOL "" FORCE)
  set(SECP256K1_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
  set(SECP256K1_INSTALL OFF CACHE BOOL "" FORCE)
  set(SECP256K1_DISABLE_SHARED ON CACHE BOOL "" FORCE)
  set(BUILD_SHARED_LIBS OFF)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  # Not instrumented, like a distribution's package: the sanitizer and fuzzer builds
  # (scripts/test.sh, scripts/fuzz.sh) are for libsoftchat's code, and upstream tests its
  # own; only this function's copy of the flags changes.
  string(REGEX REPLACE "(^| )-f(no-)?sanitize[-a-z]*(=[^ ]*)?" "" CMAKE_C_FLAGS "${CMAKE_C_FLAGS}")
  add_subdirectory("${tree}" "${PROJECT_BINARY_DIR}/secp256k1" EXCLUDE_FROM_ALL)
  if(NOT TARGET secp256k1::secp256k1)
    add_library(secp256k1::secp256k1 ALIAS secp256k1)
  endif()
  # SOFTCHAT_SECP256K1_C_FLAGS go after the release's own options, so they win over the -O2
  # its CMake puts in every build type's flags (the like-for-like build passes the options
  # the peer compiles its release with: bench/peers/rust-nostr/secp256k1-tree.sh).
  set(flags "")
  if(SOFTCHAT_SECP256K1_C_FLAGS)
    separate_arguments(flags UNIX_COMMAND "${SOFTCHAT_SECP256K1_C_FLAGS}")
    foreach(t secp256k1 secp256k1_precomputed)
      if(TARGET ${t})
        target_compile_options(${t} PRIVATE ${flags})
      endif()
    endforeach()
  endif()

  # What the report says: release, origin, options.
  set(what "${origin}")
  if(SECP256K1_ECMULT_WINDOW_SIZE MATCHES "^[0-9]+$")
    string(APPEND what ", window ${SECP256K1_ECMULT_WINDOW_SIZE}")
  endif()
  if(ver VERSION_GREATER_EQUAL 0.5 AND SECP256K1_ECMULT_GEN_KB MATCHES "^[0-9]+$")
    string(APPEND what ", gen ${SECP256K1_ECMULT_GEN_KB} KiB")
  elseif(ver VERSION_LESS 0.5 AND SECP256K1_ECMULT_GEN_PREC_BITS MATCHES "^[0-9]+$")
    string(APPEND what ", gen ${SECP256K1_ECMULT_GEN_PREC_BITS} bits")
  endif()
  if(flags)
    list(JOIN flags " " f)
    string(APPEND what ", ${f}")
  endif()
  set(SOFTCHAT_SECP256K1_VERSION "${ver} (${what})" PARENT_SCOPE)
  add_feature_info("libsecp256k1" ON "${ver} built from ${tree} (${what})")
endfunction()

function(_softchat_secp256k1_system)
  find_package(Secp256k1 QUIET)
  if(NOT Secp256k1_FOUND)
    message(FATAL_ERROR "softchat: libsecp256k1 not found (SOFTCHAT_SECP256K1=system). On "
                        "Debian/Ubuntu install it with:\n  sudo apt-get install libsecp256k1-dev\n"
                        "(or run scripts/setup.sh), or build the pinned release with the "
                        "project: -DSOFTCHAT_SECP256K1=source")
  endif()
  _softchat_secp256k1_check_modules()
  # A prefix built by scripts/deps.sh says which options it used (its stamp).
  set(what "system")
  get_filename_component(libdir "${Secp256k1_LIBRARY}" DIRECTORY)
  set(stamp "${libdir}/../share/softchat-deps/secp256k1.stamp")
  if(EXISTS "${stamp}")
    file(STRINGS "${stamp}" opts REGEX "^options ")
    string(REGEX MATCH "window=([0-9]+)" _ "${opts}")
    set(w "${CMAKE_MATCH_1}")
    string(REGEX MATCH "gen_kb=([0-9]+)" _ "${opts}")
    set(g "${CMAKE_MATCH_1}")
    set(what "scripts/deps.sh")
    if(w AND g)
      string(APPEND what ", window ${w}, gen ${g} KiB")
    endif()
  endif()
  set(SOFTCHAT_SECP256K1_VERSION "${Secp256k1_VERSION} (${what})" PARENT_SCOPE)
  add_feature_info("libsecp256k1" ON "${Secp256k1_VERSION} installed: ${Secp256k1_LIBRARY} (${what})")
endfunction()

function(softchat_find_secp256k1)
  if(NOT SOFTCHAT_SECP256K1 MATCHES "^(source|system)$")
    message(FATAL_ERROR "softchat: SOFTCHAT_SECP256K1 is '${SOFTCHAT_SECP256K1}': use source or system")
  endif()
  if(SOFTCHAT_SECP256K1 STREQUAL "system" AND SOFTCHAT_SECP256K1_SOURCE_DIR)
    message(FATAL_ERROR "softchat: SOFTCHAT_SECP256K1_SOURCE_DIR is a source build: drop it "
                        "or SOFTCHAT_SECP256K1=system")
  endif()
  if(SOFTCHAT_SECP256K1 STREQUAL "source")
    _softchat_secp256k1_source()
    # The build tree links the static library; the installed package does not (its objects
    # are inside libsoftchat.a: softchat_bundle_secp256k1).
    set(SOFTCHAT_SECP256K1_LINK "$<BUILD_INTERFACE:secp256k1::secp256k1>" PARENT_SCOPE)
  else()
    _softchat_secp256k1_system()
    set(SOFTCHAT_SECP256K1_LINK secp256k1::secp256k1 PARENT_SCOPE)
  endif()
  set(SOFTCHAT_SECP256K1_VERSION "${SOFTCHAT_SECP256K1_VERSION}" PARENT_SCOPE)
endfunction()

# Source mode: libsoftchat.a carries libsecp256k1's objects (the release's own library and
# the object files it packs: the precomputed tables), so a static consumer needs nothing
# beyond the backends' libraries and no second libsecp256k1 is installed beside the
# distribution's. Called once the library targets exist.
function(softchat_bundle_secp256k1)
  if(NOT SOFTCHAT_SECP256K1 STREQUAL "source")
    return()
  endif()
  set(objs "$<TARGET_OBJECTS:secp256k1>")
  get_target_property(srcs secp256k1 SOURCES)
  foreach(s IN LISTS srcs)
    if(s MATCHES "^\\$<TARGET_OBJECTS:")
      list(APPEND objs "${s}")
    endif()
  endforeach()
  target_sources(softchat_static PRIVATE ${objs})
endfunction()
