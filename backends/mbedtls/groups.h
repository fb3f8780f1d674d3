/* The mbed TLS backend's primitive groups, shared with composite backends (sodium+mbedtls).
 * Each group is self-contained: its setup allocates its own state, so a composite table can
 * take any of them as is. */
#ifndef SOFTCHAT_BACKENDS_MBEDTLS_GROUPS_H
#define SOFTCHAT_BACKENDS_MBEDTLS_GROUPS_H

#include <softchat/backend.h>

extern const sc_backend_hash sc_mbedtls_hash;
extern const sc_backend_mac sc_mbedtls_mac;
extern const sc_backend_stream sc_mbedtls_stream;
extern const sc_backend_aead sc_mbedtls_aead;
extern const sc_backend_rng sc_mbedtls_rng;

#endif
