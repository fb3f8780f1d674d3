/* Where core/ meets the backend table: every call from core/ into a group function goes
 * through core/crypto/dispatch.c, which alone reads the group pointers of a context. The
 * public primitives of crypto.h live there too. Each function below checks that the context
 * is live and the group present (SC_ERR_ARG / SC_ERR_STATE / SC_ERR_UNSUPPORTED otherwise)
 * and returns the backend's status. */
#ifndef SOFTCHAT_CORE_DISPATCH_H
#define SOFTCHAT_CORE_DISPATCH_H

#include <softchat/backend.h>
#include <softchat/ctx.h>

#include "ctx/ctx_internal.h"

/* Sets up every group's state of c (bound to ctx, its groups normalised), the curve last and
 * blinded with 32 bytes from the context's RNG (drawn through ctx, so c->magic is set before
 * that step). On failure everything set up so far is torn down. */
sc_status sc_dispatch_setup(sc_ctx *ctx, sc_ctx_impl *c);

/* Aborts a streaming operation still holding the aead group, then tears every group down in
 * reverse order (safe on a partial setup). Does not wipe c. */
void sc_dispatch_teardown(sc_ctx_impl *c);

/* ---- HMAC-SHA256 key schedule over the hash group ------------------------------------- */

/* The key schedule of HMAC-SHA256 (RFC 2104) for one key: the hash group's states after
 * absorbing K0 ^ ipad and K0 ^ opad, and how many bytes of each the group uses (its
 * state_size: only those are copied and wiped). HKDF-Expand MACs every block under one key,
 * so it makes the schedule once. Holds key material: sc_dispatch_hmac_keyed_wipe it. */
typedef struct sc_hmac_keyed {
    sc_sha256_state inner, outer;
    size_t used;
} sc_hmac_keyed;

/* Makes k for key[0..key_len) (any length; hashed first when over 64 bytes). The hash group
 * is resolved once for the whole schedule. On failure k is wiped. */
sc_status sc_dispatch_hmac_keyed_init(sc_ctx *ctx, sc_hmac_keyed *k, const uint8_t *key,
                                      size_t key_len);
/* HMAC(key, parts) from k, which is left as it was; out is zeroed on failure. Every working
 * copy of a state and the inner digest is wiped. */
sc_status sc_dispatch_hmac_keyed_mac(sc_ctx *ctx, const sc_hmac_keyed *k,
                                     uint8_t out[SC_SHA256_BYTES], const sc_iov *parts,
                                     size_t n_parts);
/* Wipes the schedule. */
void sc_dispatch_hmac_keyed_wipe(sc_hmac_keyed *k);

/* ---- curve --------------------------------------------------------------------------- */

sc_status sc_dispatch_curve_keypair(sc_ctx *ctx, sc_curve_keypair *kp, uint8_t pub[SC_PUBKEY_BYTES],
                                    const uint8_t sec[SC_SECKEY_BYTES]);
sc_status sc_dispatch_curve_sign(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES], const sc_curve_keypair *kp,
                                 const uint8_t *msg, size_t msg_len,
                                 const uint8_t aux[SC_AUX_RAND_BYTES]);
sc_status sc_dispatch_curve_verify(sc_ctx *ctx, const uint8_t sig[SC_SIG_BYTES], const uint8_t *msg,
                                   size_t msg_len, const uint8_t pub[SC_PUBKEY_BYTES]);
sc_status sc_dispatch_curve_ecdh_x(sc_ctx *ctx, uint8_t x[SC_ECDH_X_BYTES],
                                   const uint8_t sec[SC_SECKEY_BYTES],
                                   const uint8_t pub[SC_PUBKEY_BYTES]);

/* ---- aead: capability probes and the streaming operation ------------------------------ */

/* The aead group's probe, or SC_ERR_UNSUPPORTED when c has no aead group. */
sc_status sc_dispatch_aead_probe(const sc_ctx_impl *c, sc_aead_mode mode, size_t iv_len,
                                 const char **why);
/* The streaming calls on c's aead state (the lease is the caller's business). */
sc_status sc_dispatch_aead_start(sc_ctx_impl *c, int decrypt,
                                 const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv,
                                 size_t iv_len);
sc_status sc_dispatch_aead_update(sc_ctx_impl *c, uint8_t *out, const uint8_t *in, size_t len);
sc_status sc_dispatch_aead_final(sc_ctx_impl *c, int decrypt, uint8_t tag[SC_AES256GCM_TAG_BYTES]);
void sc_dispatch_aead_abort(sc_ctx_impl *c);

#endif
