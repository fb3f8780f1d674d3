/* mbed TLS options of the web build (cmake/toolchains/wasm32-web.cmake passes this file as
 * MBEDTLS_USER_CONFIG_FILE): no platform entropy source (a web module has no /dev/urandom);
 * entropy from mbedtls_hardware_poll, which entropy.c supplies from WASI random_get. */
#ifndef SOFTCHAT_JS_MBEDTLS_WEB_H
#define SOFTCHAT_JS_MBEDTLS_WEB_H

#define MBEDTLS_NO_PLATFORM_ENTROPY
#define MBEDTLS_ENTROPY_HARDWARE_ALT

#endif
