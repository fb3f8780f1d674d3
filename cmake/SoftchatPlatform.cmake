# What every shipped shared library gets on ELF targets (Linux, Android), and the stripped
# copies an app ships (docs/platforms.md):
#   - -z max-page-size=16384: every LOAD segment 16 KiB aligned, as Android 15+ requires on
#     arm64 and x86_64 devices with 16 KiB pages (the linker's default differs by linker and
#     version; the flag makes it explicit, ctest platform.align-16k checks the result);
#   - --gc-sections: sections nothing calls are dropped (the dependencies built by
#     scripts/deps.sh put every function in its own section);
#   - the target softchat_dist (part of ALL): BUILD/dist/ holds each shared library stripped
#     (--strip-unneeded, with the toolchain's strip) and BUILD/dist/unstripped/ the same file
#     with its symbols and debug information, for symbolication of crash reports (the GNU
#     build-id links the two).
#   - SOFTCHAT_SELF_CONTAINED (the mobile and cross presets turn it on): every dependency must
#     be a static library (scripts/deps.sh builds them), so each shipped library needs nothing
#     beyond the C library; configure fails otherwise, and ctest checks it.
# Included from the top-level CMakeLists.txt after the library and the bindings exist.
option(SOFTCHAT_SELF_CONTAINED
       "Require static dependencies: the shipped libraries need only the C library" OFF)
if(SOFTCHAT_SELF_CONTAINED)
  foreach(lib IN LISTS SOFTCHAT_BACKEND_LIBS)
    if(NOT TARGET ${lib})
      continue()
    endif()
    get_target_property(_sc_type ${lib} TYPE)
    get_target_property(_sc_alias ${lib} ALIASED_TARGET)
    if(_sc_alias)
      get_target_property(_sc_type ${_sc_alias} TYPE)
    endif()
    set(_sc_locs "")
    foreach(p IMPORTED_LOCATION IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_RELWITHDEBINFO
              IMPORTED_LOCATION_NOCONFIG IMPORTED_LOCATION_MINSIZEREL IMPORTED_LOCATION_DEBUG)
      get_target_property(_sc_loc ${lib} ${p})
      if(_sc_loc)
        list(APPEND _sc_locs "${_sc_loc}")
      endif()
    endforeach()
    set(_sc_static TRUE)
    if(_sc_type STREQUAL "SHARED_LIBRARY")
      set(_sc_static FALSE)
    endif()
    foreach(_sc_loc IN LISTS _sc_locs)
      if(NOT _sc_loc MATCHES "\\${CMAKE_STATIC_LIBRARY_SUFFIX}$")
        set(_sc_static FALSE)
      endif()
    endforeach()
    if(NOT _sc_static)
      message(FATAL_ERROR "softchat: SOFTCHAT_SELF_CONTAINED needs static dependencies, but "
                          "${lib} is ${_sc_type} ${_sc_locs}. Build them with "
                          "scripts/deps.sh TOOLCHAIN PREFIX and configure with "
                          "-DCMAKE_PREFIX_PATH=PREFIX -DCMAKE_FIND_ROOT_PATH=PREFIX.")
    endif()
  endforeach()
endif()
set(SOFTCHAT_SHIPPED_LIBRARIES softchat)
if(TARGET softchat_jni)
  list(APPEND SOFTCHAT_SHIPPED_LIBRARIES softchat_jni)
endif()

if(EMSCRIPTEN)
  # No shared libraries in wasm32: CMake builds `softchat` as a second static archive, which
  # must not overwrite softchat_static's libsoftchat.a.
  set_target_properties(softchat PROPERTIES OUTPUT_NAME softchat_as_shared)
endif()

if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang" AND NOT APPLE AND NOT WIN32 AND NOT EMSCRIPTEN)
  foreach(t IN LISTS SOFTCHAT_SHIPPED_LIBRARIES)
    target_link_options(${t} PRIVATE "LINKER:-z,max-page-size=16384" "LINKER:--gc-sections"
                                     "LINKER:--build-id")
  endforeach()

  if(NOT CMAKE_STRIP)
    message(FATAL_ERROR "softchat: no strip program (CMAKE_STRIP) for BUILD/dist")
  endif()
  set(_sc_dist "${PROJECT_BINARY_DIR}/dist")
  set(_sc_dist_cmds "")
  foreach(t IN LISTS SOFTCHAT_SHIPPED_LIBRARIES)
    list(APPEND _sc_dist_cmds
      COMMAND "${CMAKE_COMMAND}" -E copy "$<TARGET_FILE:${t}>" "${_sc_dist}/unstripped/$<TARGET_FILE_NAME:${t}>"
      COMMAND "${CMAKE_STRIP}" --strip-unneeded -o "${_sc_dist}/$<TARGET_FILE_NAME:${t}>" "$<TARGET_FILE:${t}>")
  endforeach()
  add_custom_target(softchat_dist ALL
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${_sc_dist}/unstripped"
    ${_sc_dist_cmds}
    DEPENDS ${SOFTCHAT_SHIPPED_LIBRARIES}
    COMMENT "Stripped shared libraries in ${_sc_dist}, unstripped copies in ${_sc_dist}/unstripped"
    VERBATIM)
endif()

if(SOFTCHAT_BUILD_TESTS)
  include("${PROJECT_SOURCE_DIR}/tests/platform/suite.cmake")
endif()
