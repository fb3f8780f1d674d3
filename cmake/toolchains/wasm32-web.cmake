# wasm32 with Emscripten for the npm package (bindings/js): the wasm32-emscripten toolchain,
# plus mbed TLS's entropy from the platform's generator instead of /dev/urandom. A web
# module has no file system, so mbed TLS's platform source (fopen("/dev/urandom") on
# Emscripten) cannot work there; MBEDTLS_USER_CONFIG_FILE adds MBEDTLS_NO_PLATFORM_ENTROPY
# and MBEDTLS_ENTROPY_HARDWARE_ALT, and the package's glue supplies mbedtls_hardware_poll
# from WASI random_get (crypto.getRandomValues in the browser, node:crypto in Node:
# src/native.ts). Its own dependency prefix (build/deps/wasm32-web) keeps the test suites'
# build (wasm32-emscripten: NODERAWFS, the file system) as it is:
#   scripts/deps.sh --only secp256k1,mbedtls cmake/toolchains/wasm32-web.cmake build/deps/wasm32-web
#   cmake --preset wasm32-web && cmake --build --preset wasm32-web
include("${CMAKE_CURRENT_LIST_DIR}/wasm32-emscripten.cmake")
get_filename_component(_sc_web_cfg "${CMAKE_CURRENT_LIST_DIR}/../../bindings/js/wasm/mbedtls_web.h"
                       ABSOLUTE)
string(APPEND CMAKE_C_FLAGS_INIT " \"-DMBEDTLS_USER_CONFIG_FILE=\\\"${_sc_web_cfg}\\\"\"")
