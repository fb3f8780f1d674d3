/* libsoftchat: identity (a secp256k1 secret key and its BIP-340 x-only public key).
 *
 * An sc_identity lives in caller memory and holds the secret key, the cached x-only public
 * key and the curve keypair, so signing never recomputes the public key. It is not tied to a
 * context: import with one context, sign with another. Erase it with sc_identity_erase when
 * done (every failing call leaves it erased).
 *
 * Thread safety: an identity is read-only after import; several threads may sign with it
 * concurrently, each with its own sc_ctx.
 */
#ifndef SOFTCHAT_IDENTITY_H
#define SOFTCHAT_IDENTITY_H

#include "backend.h"
#include "ctx.h"

SC_BEGIN_DECLS

/** An identity in caller memory. Opaque; holds the secret key. */
typedef struct sc_identity {
    uint64_t opaque[24];
} sc_identity;

/** Size of sc_identity in bytes (for bindings). */
SC_API size_t sc_identity_bytes(void);

/** Imports a 32-byte big-endian secret key and caches its x-only public key.
 *  Returns: SC_OK; SC_ERR_INVALID_KEY if sec is 0 or >= the curve order n; SC_ERR_ARG;
 *           SC_ERR_STATE (bad ctx); SC_ERR_UNSUPPORTED (no curve group).
 *  Out: id (erased on failure). Constant-time in sec. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_identity_import(sc_ctx *ctx, sc_identity *id,
                                                   const uint8_t sec[SC_SECKEY_BYTES])
    SC_NONNULL(1, 2, 3);

/** Generates a new secret key from the context's CSPRNG and imports it.
 *  Returns: SC_OK; SC_ERR_RNG; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: id (erased on failure). Calls the RNG. */
SC_API SC_WARN_UNUSED sc_status sc_identity_generate(sc_ctx *ctx, sc_identity *id)
    SC_NONNULL(1, 2);

/** Copies the x-only public key.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE (id not imported or erased). */
SC_API SC_WARN_UNUSED sc_status sc_identity_pubkey(const sc_identity *id,
                                                   uint8_t pub[SC_PUBKEY_BYTES]) SC_NONNULL(1, 2);

/** Copies the secret key out (for backup or nsec display). The caller wipes it.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE. */
SC_API SC_WARN_UNUSED sc_status sc_identity_seckey(const sc_identity *id,
                                                   uint8_t sec[SC_SECKEY_BYTES]) SC_NONNULL(1, 2);

/** Wipes the identity (secret key, keypair, public key). NULL is accepted. */
SC_API void sc_identity_erase(sc_identity *id);

/** BIP-340 signature over a 32-byte message (a NIP-01 event id) with aux randomness from the
 *  context's RNG.
 *  Returns: SC_OK; SC_ERR_RNG; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: sig, zeroed on failure. Constant-time in the secret key. */
SC_API SC_WARN_UNUSED sc_status sc_identity_sign(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES],
                                                 const sc_identity *id, const uint8_t msg[32])
    SC_NONNULL(1, 2, 3, 4);

/** As sc_identity_sign with explicit 32 bytes of aux randomness (test vectors). Signing the
 *  same message with the same aux is deterministic. */
SC_API SC_WARN_UNUSED sc_status sc_identity_sign_with_aux(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES],
                                                          const sc_identity *id,
                                                          const uint8_t msg[32],
                                                          const uint8_t aux[32])
    SC_NONNULL(1, 2, 3, 4, 5);

/** BIP-340 verification of sig over a 32-byte message by x-only public key pub.
 *  Returns: SC_OK; SC_ERR_INVALID_SIG (also for a pub that is not on the curve); SC_ERR_ARG;
 *           SC_ERR_STATE; SC_ERR_UNSUPPORTED. */
SC_API SC_WARN_UNUSED sc_status sc_schnorr_verify(sc_ctx *ctx, const uint8_t sig[SC_SIG_BYTES],
                                                  const uint8_t msg[32],
                                                  const uint8_t pub[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3, 4);

SC_END_DECLS

#endif
