/* The libsodium group tables. Exported (not static) so that named composites such as
 * "sodium+mbedtls" can take some groups from libsodium and the rest from another library.
 * libsodium has no secp256k1: tables point their curve slot at sc_curve_secp256k1. */
#ifndef SOFTCHAT_BACKENDS_SODIUM_GROUPS_H
#define SOFTCHAT_BACKENDS_SODIUM_GROUPS_H

#include <softchat/backend.h>

extern const sc_backend_hash sc_sodium_hash;
extern const sc_backend_mac sc_sodium_mac;
extern const sc_backend_stream sc_sodium_stream;
extern const sc_backend_aead sc_sodium_aead;
extern const sc_backend_rng sc_sodium_rng;
extern const sc_backend_xaead sc_sodium_xaead;
extern const sc_backend_scrypt sc_sodium_scrypt;

#endif
