/* libsoftchat: the primitives of the bound backend, and the core utilities built over them.
 *
 * These calls dispatch to the context's backend table; HKDF is written once in core over
 * the backend's HMAC. They exist so apps, tests and tools reach exactly the code protocol
 * functions use. No allocation anywhere in this header.
 */
#ifndef SOFTCHAT_CRYPTO_H
#define SOFTCHAT_CRYPTO_H

#include "backend.h"
#include "ctx.h"

SC_BEGIN_DECLS

/** SHA-256 of in[0..len).
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE (bad ctx); SC_ERR_UNSUPPORTED (no hash group).
 *  Out: out (32 bytes), zeroed on failure. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256(sc_ctx *ctx, uint8_t out[SC_SHA256_BYTES],
                                          const uint8_t *in, size_t len) SC_NONNULL(1, 2);

/** Incremental SHA-256: init, update*, final. The state lives in caller memory and is wiped
 *  by final (and by every failure). Several states may be live at once.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256_init(sc_ctx *ctx, sc_sha256_state *s) SC_NONNULL(1, 2);
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256_update(sc_ctx *ctx, sc_sha256_state *s,
                                                 const uint8_t *in, size_t len) SC_NONNULL(1, 2);
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256_final(sc_ctx *ctx, sc_sha256_state *s,
                                                uint8_t out[SC_SHA256_BYTES]) SC_NONNULL(1, 2, 3);

/** HMAC-SHA256 over the concatenation of parts[0..n_parts) with a key of any length.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: out (32 bytes), zeroed on failure. Constant-time in key and message contents. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_hmac_sha256(sc_ctx *ctx, uint8_t out[SC_HMAC_SHA256_BYTES],
                                               const uint8_t *key, size_t key_len,
                                               const sc_iov *parts, size_t n_parts)
    SC_NONNULL(1, 2);

/** HKDF-Extract (RFC 5869) with SHA-256: prk = HMAC(salt, ikm). A NULL/empty salt means 32
 *  zero bytes, as the RFC says.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED. Out: prk, zeroed on failure. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_hkdf_extract(sc_ctx *ctx, uint8_t prk[SC_SHA256_BYTES],
                                                const uint8_t *salt, size_t salt_len,
                                                const uint8_t *ikm, size_t ikm_len)
    SC_NONNULL(1, 2);

/** HKDF-Expand (RFC 5869) with SHA-256: okm_len bytes (1..8160) from prk (>= 32 bytes).
 *  Returns: SC_OK; SC_ERR_ARG (okm_len 0 or > 8160, prk shorter than 32); SC_ERR_STATE;
 *           SC_ERR_UNSUPPORTED.
 *  Out: okm, zeroed on failure, except when okm_len itself is out of range (then untouched).
 *  Intermediate blocks are wiped. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_hkdf_expand(sc_ctx *ctx, uint8_t *okm, size_t okm_len,
                                               const uint8_t *prk, size_t prk_len,
                                               const uint8_t *info, size_t info_len)
    SC_NONNULL(1, 2, 4);

/** ChaCha20 (RFC 8439) keystream XOR from block `counter`; out == in allowed.
 *  Returns: SC_OK; SC_ERR_ARG (NULL, partial overlap, or the 32-bit block counter would
 *           wrap); SC_ERR_STATE; SC_ERR_UNSUPPORTED (no stream group, or counter != 0 on a
 *           backend without SC_CAP_CHACHA20_COUNTER). */
SC_API SC_WARN_UNUSED sc_status sc_crypto_chacha20_xor(sc_ctx *ctx, uint8_t *out, const uint8_t *in,
                                                size_t len, const uint8_t key[32],
                                                const uint8_t nonce[12], uint32_t counter)
    SC_NONNULL(1, 5, 6);

/** One-shot AES-256-GCM encryption: ct (len bytes) and a 16-byte tag. ct == pt allowed.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED (capability absent, or this
 *           IV length unsupported: see sc_backend_has). Out: ct and tag, zeroed on failure. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_aes256gcm_seal(sc_ctx *ctx, uint8_t *ct, uint8_t tag[16],
                                                  const uint8_t key[32], const uint8_t *iv,
                                                  size_t iv_len, const uint8_t *aad,
                                                  size_t aad_len, const uint8_t *pt, size_t len)
    SC_NONNULL(1, 3, 4, 5);

/** One-shot AES-256-GCM decryption. The tag is compared in constant time; pt is released
 *  only when it matches (zeroed otherwise). pt == ct allowed.
 *  Returns: SC_OK; SC_ERR_AUTH (tag mismatch); SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_aes256gcm_open(sc_ctx *ctx, uint8_t *pt, const uint8_t key[32],
                                                  const uint8_t *iv, size_t iv_len,
                                                  const uint8_t *aad, size_t aad_len,
                                                  const uint8_t *ct, size_t len,
                                                  const uint8_t tag[16]) SC_NONNULL(1, 3, 4, 10);

/** Fills out[0..len) from the backend's CSPRNG.
 *  Returns: SC_OK; SC_ERR_RNG (out zeroed); SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_rng_fill(sc_ctx *ctx, uint8_t *out, size_t len) SC_NONNULL(1);

SC_END_DECLS

#endif
