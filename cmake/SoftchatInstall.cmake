# Install rules: headers under include/softchat/, both libraries, the softchat::softchat
# CMake package (with the find modules a static consumer needs) and softchat.pc.
include(CMakePackageConfigHelpers)

set(SOFTCHAT_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/softchat")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/api/softchat" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h" PATTERN "module.modulemap")
# The C module map for Swift and Objective-C (import CSoftchat), beside the headers.
install(FILES "${PROJECT_SOURCE_DIR}/bindings/apple/module.modulemap"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/softchat")
install(TARGETS softchat softchat_static EXPORT softchat-targets
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# A libsecp256k1 built from source (SOFTCHAT_SECP256K1=source) is inside both libraries:
# linked into libsoftchat.so without exporting it, its objects part of libsoftchat.a. No
# libsecp256k1 is installed beside them (one there would shadow the distribution's).
install(EXPORT softchat-targets NAMESPACE softchat:: DESTINATION "${SOFTCHAT_CMAKE_DIR}")

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/softchatConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/softchatConfig.cmake" INSTALL_DESTINATION "${SOFTCHAT_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/softchatConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
# The find modules of the selected backends' libraries (backend.cmake FIND_MODULE) and of
# libsecp256k1, for softchatConfig.cmake's find_dependency() lines.
install(FILES "${PROJECT_BINARY_DIR}/softchatConfig.cmake"
              "${PROJECT_BINARY_DIR}/softchatConfigVersion.cmake"
              ${SOFTCHAT_FIND_MODULES}
        DESTINATION "${SOFTCHAT_CMAKE_DIR}")

# pkg-config: Requires.private lists each selected backend's module (libgit2 PC_REQUIRES);
# mbed TLS 2.28 ships no .pc file, so it goes to Libs.private.
# The .pc file is relocatable: prefix is derived from its own location.
file(RELATIVE_PATH SOFTCHAT_PC_PREFIX_REL "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" SOFTCHAT_PC_PREFIX_REL "${SOFTCHAT_PC_PREFIX_REL}")
set(SOFTCHAT_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
set(SOFTCHAT_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/softchat.pc.in" "${PROJECT_BINARY_DIR}/softchat.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/softchat.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
