/* libsoftchat: identity (a secp256k1 secret key and its BIP-340 x-only public key), and
 * BIP-340 signatures.
 *
 * An sc_identity lives in caller memory and holds the secret key, the cached x-only public
 * key and the curve keypair, so signing never recomputes the public key. It is not tied to a
 * context: import with one context, sign with another. Clear it with sc_identity_clear when
 * done (every failing call that would set it leaves it cleared).
 *
 * Thread safety: an identity is read-only after import; several threads may sign with it
 * concurrently, each with its own sc_ctx.
 */
#ifndef SOFTCHAT_IDENTITY_H
#define SOFTCHAT_IDENTITY_H

#include "backend.h"
#include "ctx.h"

SC_BEGIN_DECLS

/** An identity in caller memory. Opaque; holds the secret key. Copying it copies the key. */
typedef struct sc_identity {
    uint64_t opaque[24];
} sc_identity;

/** Size of sc_identity in bytes, for bindings that allocate it themselves.
 *  Returns: sizeof(sc_identity). */
SC_API size_t sc_identity_bytes(void);

/** Imports a 32-byte big-endian secret key and caches its x-only public key.
 *  Returns: SC_OK;
 *           SC_ERR_INVALID_KEY (sec is 0 or >= the curve order n);
 *           SC_ERR_ARG (id or sec NULL; a NULL ctx);
 *           SC_ERR_STATE (ctx not initialised or cleared);
 *           SC_ERR_UNSUPPORTED (the backend has no curve group).
 *  Out: id, cleared on failure.
 *  In: sec: SC_SECKEY_BYTES bytes; the caller wipes its copy.
 *  Constant time: in sec. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_identity_import(sc_ctx *ctx, sc_identity *id,
                                                   const uint8_t sec[SC_SECKEY_BYTES])
    SC_NONNULL(1, 2, 3);

/** Generates a new secret key from the context's CSPRNG and imports it.
 *  Returns: SC_OK; SC_ERR_RNG (the RNG failed, or gave eight out-of-range keys in a row);
 *           SC_ERR_ARG (id NULL, a NULL ctx); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED.
 *  Out: id, cleared on failure. In: ctx (its RNG and curve).
 *  Constant time: in the drawn key. RNG: yes (32 bytes per try). */
SC_API SC_WARN_UNUSED sc_status sc_identity_generate(sc_ctx *ctx, sc_identity *id) SC_NONNULL(1, 2);

/** Copies the x-only public key.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument); SC_ERR_STATE (id never imported, or
 *           cleared).
 *  Out: pub: SC_PUBKEY_BYTES bytes, untouched on failure.
 *  In: id.
 *  Constant time: not needed (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_identity_pubkey(uint8_t pub[SC_PUBKEY_BYTES],
                                                   const sc_identity *id) SC_NONNULL(1, 2);

/** Copies the secret key out (for backup or nsec display). The caller wipes it.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument); SC_ERR_STATE (id not imported or cleared).
 *  Out: sec: SC_SECKEY_BYTES bytes, untouched on failure.
 *  In: id.
 *  Constant time: yes. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_identity_seckey(uint8_t sec[SC_SECKEY_BYTES],
                                                   const sc_identity *id) SC_NONNULL(1, 2);

/** Wipes the identity (secret key, keypair, public key); later use gives SC_ERR_STATE.
 *  In/Out: id; NULL is accepted (no-op).
 *  Constant time: yes. RNG: no. */
SC_API void sc_identity_clear(sc_identity *id);

/** BIP-340 signature over a 32-byte message (a NIP-01 event id), with aux randomness from
 *  the context's RNG.
 *  Returns: SC_OK; SC_ERR_RNG; SC_ERR_ARG (a NULL argument); SC_ERR_STATE (ctx, or id not
 *           imported / cleared); SC_ERR_UNSUPPORTED (no curve group).
 *  Out: sig: SC_SIG_BYTES bytes, zeroed on failure.
 *  In: id; msg: SC_SIGN_MSG_BYTES bytes.
 *  Constant time: in the secret key. RNG: yes (SC_AUX_RAND_BYTES). */
SC_API SC_WARN_UNUSED sc_status sc_identity_sign(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES],
                                                 const sc_identity *id,
                                                 const uint8_t msg[SC_SIGN_MSG_BYTES])
    SC_NONNULL(1, 2, 3, 4);

/** As sc_identity_sign with explicit aux randomness (test vectors). Signing the same message
 *  with the same aux is deterministic.
 *  Returns: as sc_identity_sign, without SC_ERR_RNG.
 *  Out: sig, zeroed on failure.
 *  In: id; msg: SC_SIGN_MSG_BYTES; aux: SC_AUX_RAND_BYTES (BIP-340 aux_rand).
 *  Constant time: in the secret key and aux. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_identity_sign_with_rand(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES],
                                                           const sc_identity *id,
                                                           const uint8_t msg[SC_SIGN_MSG_BYTES],
                                                           const uint8_t aux[SC_AUX_RAND_BYTES])
    SC_NONNULL(1, 2, 3, 4, 5);

/** BIP-340 verification of sig over a 32-byte message by the x-only public key pub.
 *  Returns: SC_OK (valid); SC_ERR_INVALID_SIG (invalid, also for a pub that is not on the
 *           curve); SC_ERR_ARG (a NULL argument); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED.
 *  In: sig: SC_SIG_BYTES; msg: SC_SIGN_MSG_BYTES; pub: SC_PUBKEY_BYTES.
 *  Constant time: not needed (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_identity_verify(sc_ctx *ctx, const uint8_t sig[SC_SIG_BYTES],
                                                   const uint8_t msg[SC_SIGN_MSG_BYTES],
                                                   const uint8_t pub[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3, 4);

SC_END_DECLS

#endif
