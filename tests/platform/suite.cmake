# Platform checks (included by cmake/SoftchatPlatform.cmake, after every shipped library
# exists; docs/platforms.md):
#   platform.align-16k       every LOAD segment of each shipped .so (as built and stripped)
#                            16 KiB aligned
#   platform.exports         libsoftchat.so exports only sc_*; with SOFTCHAT_SELF_CONTAINED it
#                            needs no library beyond the C library (the dependencies are
#                            linked in)
#   platform.exports.jni     libsoftchat_jni.so exports only JNI_OnLoad and JNI_OnUnload (the
#                            natives are registered, never found by name), and the same
#   platform.elf.selftest    the checker fails on a library with 4 KiB pages and a stray export
#   platform.aar             cross builds for an Android CPU: scripts/aar.sh assembles the AAR
#                            from the Kotlin facade's jar (SOFTCHAT_KOTLIN_JAR, built by
#                            Maven) and this build's JNI library (standing in for the Android
#                            one of its ABI), and tests/platform/check_aar.py checks it
#   platform.base64-kernels  every base64 kernel the CPU runs against the portable one, timed
#   platform.modulemap       bindings/apple/module.modulemap and the public headers, by clang
#   platform.ios-headers     the public headers and the module for arm64-apple-ios (freestanding)
# The last two read only sources: they run in native builds (not cross builds, which would
# repeat them).
set(_sc_pf "${CMAKE_CURRENT_LIST_DIR}")

softchat_add_test_executable(test_base64_kernels "${_sc_pf}/base64_kernels.c")
add_test(NAME platform.base64-kernels COMMAND test_base64_kernels --reps 100)
set_tests_properties(platform.base64-kernels PROPERTIES LABELS "platform" TIMEOUT 300)

if(TARGET softchat_dist) # ELF shared libraries
  if(ANDROID)
    set(_sc_needed "^(libc|libm|libdl|liblog)\\.so$")
  else()
    set(_sc_needed "^(libc\\.so\\.6|libm\\.so\\.6|libdl\\.so\\.2|libpthread\\.so\\.0|ld-linux[a-z0-9_.-]*\\.so\\.[0-9]+)$")
  endif()
  set(_sc_elf "${_sc_pf}/check_elf.sh")
  set(_sc_dist "${PROJECT_BINARY_DIR}/dist")
  set(_sc_libs "$<TARGET_FILE:softchat>" "${_sc_dist}/$<TARGET_FILE_NAME:softchat>")
  set(_sc_exports_cmd sh "${_sc_elf}" --exports "^sc_")
  if(SOFTCHAT_SELF_CONTAINED)
    list(APPEND _sc_exports_cmd --needed "${_sc_needed}")
  endif()
  set(_sc_exports "${_sc_exports_cmd}" "$<TARGET_FILE:softchat>")
  if(TARGET softchat_jni)
    list(APPEND _sc_libs "$<TARGET_FILE:softchat_jni>" "${_sc_dist}/$<TARGET_FILE_NAME:softchat_jni>")
  endif()
  add_test(NAME platform.align-16k COMMAND sh "${_sc_elf}" --align 16384 ${_sc_libs})
  add_test(NAME platform.exports COMMAND ${_sc_exports_cmd} "$<TARGET_FILE:softchat>"
                                         "${_sc_dist}/$<TARGET_FILE_NAME:softchat>")
  set_tests_properties(platform.align-16k platform.exports PROPERTIES LABELS "platform")
  if(TARGET softchat_jni)
    string(REPLACE "^sc_" "^JNI_On(Load|Unload)$" _sc_jni_cmd "${_sc_exports_cmd}")
    add_test(NAME platform.exports.jni COMMAND ${_sc_jni_cmd} "$<TARGET_FILE:softchat_jni>"
                                               "${_sc_dist}/$<TARGET_FILE_NAME:softchat_jni>")
    set_tests_properties(platform.exports.jni PROPERTIES LABELS "platform")
  endif()

  add_library(softchat_elf_bad SHARED "${_sc_pf}/elf_bad.c")
  target_link_options(softchat_elf_bad PRIVATE "LINKER:-z,max-page-size=4096")
  add_test(NAME platform.elf.selftest
           COMMAND sh -c "if sh \"$0\" --align 16384 \"$1\"; then echo 'FAIL: 4 KiB pages passed'; exit 1; fi; if sh \"$0\" --exports '^sc_' \"$1\"; then echo 'FAIL: a stray export passed'; exit 1; fi; echo 'ok   the checker fails the bad library on both counts'"
                   "${_sc_elf}" "$<TARGET_FILE:softchat_elf_bad>")
  set_tests_properties(platform.elf.selftest PROPERTIES LABELS "platform")

  # The AAR, with this build's JNI library standing in for its Android ABI. Registered in
  # cross builds only (the aarch64 one stands in for arm64-v8a): the
  # facade's jar comes from Maven (bindings/kotlin/mvn.sh), which the x86-64 pass of
  # scripts/test.sh runs after its ctest, and scripts/test-platforms.sh before the cross
  # ctest. A missing jar fails the test, with how to build it.
  set(_sc_abi "")
  if(ANDROID_ABI)
    set(_sc_abi "${ANDROID_ABI}")
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(_sc_abi arm64-v8a)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(_sc_abi x86_64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^armv7")
    set(_sc_abi armeabi-v7a)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^i[3-6]86$")
    set(_sc_abi x86)
  endif()
  if(CMAKE_CROSSCOMPILING AND TARGET softchat_jni AND _sc_abi)
    set(SOFTCHAT_KOTLIN_JAR "${PROJECT_SOURCE_DIR}/bindings/kotlin/softchat/target/softchat-kotlin-${PROJECT_VERSION}.jar"
        CACHE FILEPATH "The Kotlin facade's jar for platform.aar (bindings/kotlin/mvn.sh package)")
    find_package(Python3 COMPONENTS Interpreter)
    if(NOT Python3_Interpreter_FOUND)
      message(FATAL_ERROR "softchat: platform.aar needs python3")
    endif()
    set(_sc_aar_abi "${_sc_abi}")
    if(SOFTCHAT_SELF_CONTAINED)
      set(_sc_aar_abi "${_sc_abi}:${_sc_needed}")
    endif()
    add_test(NAME platform.aar
             COMMAND sh -c "if [ ! -f \"$1\" ]; then echo \"FAIL no Kotlin facade jar $1: build it with bindings/kotlin/mvn.sh package -pl softchat -DskipTests (scripts/test-platforms.sh does)\"; exit 1; fi; \"$0\" --jar \"$1\" --out \"$2\" \"$3=$4\" && \"$5\" \"$6\" \"$2\" \"$7\" \"$8\""
                     "${PROJECT_SOURCE_DIR}/scripts/aar.sh" "${SOFTCHAT_KOTLIN_JAR}"
                     "${PROJECT_BINARY_DIR}/dist/softchat.aar" "${_sc_abi}"
                     "${_sc_dist}/$<TARGET_FILE_NAME:softchat_jni>" "${Python3_EXECUTABLE}"
                     "${_sc_pf}/check_aar.py" "${_sc_elf}" "${_sc_aar_abi}")
    set_tests_properties(platform.aar PROPERTIES LABELS "platform")
  endif()
endif()

if(NOT CMAKE_CROSSCOMPILING)
  find_program(SOFTCHAT_CLANG NAMES clang clang-16 clang-15 clang-14
               DOC "clang, for the module map and iOS header checks")
  if(SOFTCHAT_CLANG)
    set(_sc_clang "${SOFTCHAT_CLANG}")
  else()
    message(WARNING "softchat: clang not found: platform.modulemap and platform.ios-headers "
                    "will FAIL (Debian package: clang; scripts/setup.sh --with-tools)")
    set(_sc_clang "clang-not-found")
  endif()
  add_test(NAME platform.modulemap
           COMMAND sh "${_sc_pf}/check_modulemap.sh" "${_sc_clang}" "${PROJECT_SOURCE_DIR}"
                   "${CMAKE_CURRENT_BINARY_DIR}/platform-modulemap")
  add_test(NAME platform.ios-headers
           COMMAND sh "${_sc_pf}/check_modulemap.sh" "${_sc_clang}" "${PROJECT_SOURCE_DIR}"
                   "${CMAKE_CURRENT_BINARY_DIR}/platform-ios" --ios)
  set_tests_properties(platform.modulemap platform.ios-headers PROPERTIES LABELS "platform")
endif()
