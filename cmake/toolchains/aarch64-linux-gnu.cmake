# aarch64 Linux (glibc) with Debian's cross compiler (gcc-aarch64-linux-gnu), run under
# qemu-aarch64-static: the stand-in for an arm64 phone on an x86-64 machine.
#   scripts/deps.sh cmake/toolchains/aarch64-linux-gnu.cmake build/deps/aarch64-linux-gnu
#   cmake --preset aarch64-linux-gnu   (or -DCMAKE_TOOLCHAIN_FILE=this file and
#                                       -DCMAKE_PREFIX_PATH / -DCMAKE_FIND_ROOT_PATH = PREFIX)
# Libraries and headers are searched only under CMAKE_FIND_ROOT_PATH (the from-source
# dependencies) and the cross compiler's sysroot, never the build machine's /usr, the way
# the Android NDK's toolchain file searches; programs (python3, node, javac) come from the
# build machine. No multiarch (dpkg --add-architecture) is needed.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Debian's cross sysroot (libc6-dev-arm64-cross); qemu loads the dynamic linker from it.
set(SOFTCHAT_CROSS_SYSROOT /usr/aarch64-linux-gnu)
list(APPEND CMAKE_FIND_ROOT_PATH "${SOFTCHAT_CROSS_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config: only the .pc files of CMAKE_PREFIX_PATH (FindPkgConfig adds them), never the
# build machine's.
set(ENV{PKG_CONFIG_LIBDIR} "${CMAKE_CURRENT_LIST_DIR}/no-pkg-config-dir")

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${SOFTCHAT_CROSS_SYSROOT}")
