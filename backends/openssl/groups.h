/* The openssl backend's groups that live in their own file (the rest are in backend.c). */
#ifndef SOFTCHAT_BACKENDS_OPENSSL_GROUPS_H
#define SOFTCHAT_BACKENDS_OPENSSL_GROUPS_H

#include <softchat/backend.h>

extern const sc_backend_stream sc_openssl_stream;
extern const sc_backend_xaead sc_openssl_xaead;   /* xchacha.c */
extern const sc_backend_scrypt sc_openssl_scrypt; /* scrypt.c */

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 2.2) of the 16-byte in under key, derived from one
 * OpenSSL ChaCha20 block with the xaead group's state st (xchacha.c; its own test:
 * tests/backends/openssl/test_hchacha.c). SC_OK, or SC_ERR_INTERNAL with out zeroed. */
sc_status sc_openssl_hchacha20(sc_bstate *st, uint8_t out[32], const uint8_t key[32],
                               const uint8_t in[16]);

#endif
