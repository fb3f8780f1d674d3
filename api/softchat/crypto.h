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
 *  Returns: SC_OK; SC_ERR_ARG (out NULL, in NULL with len > 0, a NULL ctx); SC_ERR_STATE
 *           (ctx not initialised or cleared); SC_ERR_UNSUPPORTED (no hash group).
 *  Out: out: SC_SHA256_BYTES, zeroed on failure.
 *  In: in[0..len).
 *  Constant time: in the message contents (the backends' SHA-256 is). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256(sc_ctx *ctx, uint8_t out[SC_SHA256_BYTES],
                                                 const uint8_t *in, size_t len) SC_NONNULL(1, 2);

/** Incremental SHA-256: init, update*, final. The state lives in caller memory; final wipes
 *  it, and so does every failure. Several states may be live at once on one context.
 *  Returns: SC_OK; SC_ERR_ARG (s NULL; a NULL ctx); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED.
 *  Out: s, initialised (zeroed on failure). In: ctx (its hash group).
 *  Constant time: yes. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256_init(sc_ctx *ctx, sc_sha256_state *s)
    SC_NONNULL(1, 2);

/** Absorbs in[0..len) into s.
 *  Returns: SC_OK; SC_ERR_ARG (s NULL, in NULL with len > 0); SC_ERR_STATE;
 *           SC_ERR_UNSUPPORTED.
 *  In/Out: s (wiped on failure). In: in[0..len).
 *  Constant time: in the message contents. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256_update(sc_ctx *ctx, sc_sha256_state *s,
                                                        const uint8_t *in, size_t len)
    SC_NONNULL(1, 2);

/** Writes the digest and wipes s.
 *  Returns: SC_OK; SC_ERR_ARG (s or out NULL); SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: out: SC_SHA256_BYTES, zeroed on failure. In/Out: s (wiped).
 *  Constant time: yes. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_sha256_final(sc_ctx *ctx, sc_sha256_state *s,
                                                       uint8_t out[SC_SHA256_BYTES])
    SC_NONNULL(1, 2, 3);

/** HMAC-SHA256 over the concatenation of parts[0..n_parts) with a key of any length.
 *  Returns: SC_OK; SC_ERR_ARG (out NULL, key NULL with key_len > 0, parts NULL with
 *           n_parts > 0, a part NULL with a length); SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: out: SC_HMAC_SHA256_BYTES, zeroed on failure.
 *  In: key[0..key_len); parts[0..n_parts) (a scatter list: nonce || ciphertext without a copy).
 *  Constant time: in the key and the message contents. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_hmac_sha256(sc_ctx *ctx,
                                                      uint8_t out[SC_HMAC_SHA256_BYTES],
                                                      const uint8_t *key, size_t key_len,
                                                      const sc_iov *parts, size_t n_parts)
    SC_NONNULL(1, 2);

/** HKDF-Extract (RFC 5869) with SHA-256: prk = HMAC(salt, ikm). A NULL or empty salt means 32
 *  zero bytes, as the RFC says.
 *  Returns: SC_OK; SC_ERR_ARG (prk NULL, salt NULL with salt_len > 0, ikm NULL with
 *           ikm_len > 0); SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: prk: SC_SHA256_BYTES, zeroed on failure.
 *  In: salt[0..salt_len); ikm[0..ikm_len).
 *  Constant time: in salt and ikm. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_hkdf_extract(sc_ctx *ctx, uint8_t prk[SC_SHA256_BYTES],
                                                       const uint8_t *salt, size_t salt_len,
                                                       const uint8_t *ikm, size_t ikm_len)
    SC_NONNULL(1, 2);

/** HKDF-Expand (RFC 5869) with SHA-256: okm_len bytes (1..8160) from prk (>= 32 bytes). The
 *  HMAC of each block is computed over the hash group (SHA-256), with prk's HMAC key schedule
 *  made once for all blocks.
 *  Returns: SC_OK; SC_ERR_ARG (okm or prk NULL, info NULL with info_len > 0, okm_len 0 or
 *           over 8160, prk shorter than 32); SC_ERR_STATE; SC_ERR_UNSUPPORTED (no mac or
 *           no hash group).
 *  Out: okm[0..okm_len), zeroed on failure, except when okm_len itself is out of range (then
 *       untouched). Intermediate blocks are wiped.
 *  In: prk[0..prk_len); info[0..info_len).
 *  Constant time: in prk and info. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_hkdf_expand(sc_ctx *ctx, uint8_t *okm, size_t okm_len,
                                                      const uint8_t *prk, size_t prk_len,
                                                      const uint8_t *info, size_t info_len)
    SC_NONNULL(1, 2, 4);

/** ChaCha20 (RFC 8439) keystream XOR from block `counter`; out == in (exact in-place) allowed.
 *  Returns: SC_OK; SC_ERR_ARG (key or nonce NULL, out or in NULL with len > 0);
 *           SC_ERR_OVERLAP (out and in overlap other than exactly); SC_ERR_TOO_LARGE (the
 *           32-bit block counter would wrap: counter + ceil(len / 64) > 2^32); SC_ERR_STATE;
 *           SC_ERR_UNSUPPORTED (no stream group, or counter != 0 on a backend without
 *           SC_CAP_CHACHA20_COUNTER).
 *  Out: out[0..len), zeroed on failure unless it aliases in.
 *  In: in[0..len); key: SC_CHACHA20_KEY_BYTES; nonce: SC_CHACHA20_NONCE_BYTES; counter.
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_chacha20_xor(sc_ctx *ctx, uint8_t *out, const uint8_t *in,
                                                       size_t len,
                                                       const uint8_t key[SC_CHACHA20_KEY_BYTES],
                                                       const uint8_t nonce[SC_CHACHA20_NONCE_BYTES],
                                                       uint32_t counter) SC_NONNULL(1, 5, 6);

/** One-shot AES-256-GCM encryption: ct (len bytes) and a 16-byte tag. ct == pt allowed.
 *  Returns: SC_OK; SC_ERR_ARG (key, iv or tag NULL, an IV of length 0, aad NULL with
 *           aad_len > 0, ct or pt NULL with len > 0); SC_ERR_OVERLAP (partial overlap of ct
 *           and pt); SC_ERR_STATE; SC_ERR_UNSUPPORTED (capability absent, or this IV length
 *           unsupported by the backend: see sc_backend_has); SC_ERR_INTERNAL.
 *  Out: ct[0..len) and tag: SC_AES256GCM_TAG_BYTES, zeroed on failure (ct unless it aliases
 *       pt).
 *  In: key: SC_AES256GCM_KEY_BYTES; iv[0..iv_len); aad[0..aad_len); pt[0..len).
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_aes256gcm_seal(
    sc_ctx *ctx, uint8_t *ct, uint8_t tag[SC_AES256GCM_TAG_BYTES],
    const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv, size_t iv_len, const uint8_t *aad,
    size_t aad_len, const uint8_t *pt, size_t len) SC_NONNULL(1, 3, 4, 5);

/** One-shot AES-256-GCM decryption. The tag is compared in constant time; pt is released
 *  only when it matches. pt == ct allowed.
 *  Returns: SC_OK; SC_ERR_AUTH (tag mismatch); SC_ERR_ARG, SC_ERR_OVERLAP, SC_ERR_STATE,
 *           SC_ERR_UNSUPPORTED, SC_ERR_INTERNAL (as sc_crypto_aes256gcm_seal).
 *  Out: pt[0..len): the plaintext; zeroed on every failure (in place, so is the ciphertext).
 *  In: key: SC_AES256GCM_KEY_BYTES; iv[0..iv_len); aad[0..aad_len); ct[0..len); tag:
 *      SC_AES256GCM_TAG_BYTES.
 *  Constant time: in the key, the data and the tag comparison. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_aes256gcm_open(
    sc_ctx *ctx, uint8_t *pt, const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv,
    size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
    const uint8_t tag[SC_AES256GCM_TAG_BYTES]) SC_NONNULL(1, 3, 4, 10);

/** XChaCha20-Poly1305 encryption (draft-irtf-cfrg-xchacha-03: the AEAD NIP-49 uses), with a
 *  detached 16-byte tag. ct == pt allowed. A 24-byte nonce may be drawn at random.
 *  Returns: SC_OK; SC_ERR_ARG (key, nonce or tag NULL, aad NULL with aad_len > 0, ct or pt
 *           NULL with len > 0, a NULL ctx); SC_ERR_OVERLAP (partial overlap of ct and pt);
 *           SC_ERR_TOO_LARGE (len over 2^38 - 64, the RFC 8439 limit); SC_ERR_STATE (ctx);
 *           SC_ERR_UNSUPPORTED (no xaead group: sc_backend_has(SC_CAP_XCHACHA20POLY1305)
 *           says why); SC_ERR_INTERNAL.
 *  Out: ct[0..len) and tag: SC_POLY1305_TAG_BYTES, zeroed on failure (ct unless it aliases
 *       pt, or on SC_ERR_TOO_LARGE).
 *  In: key: SC_XCHACHA20_KEY_BYTES; nonce: SC_XCHACHA20_NONCE_BYTES; aad[0..aad_len);
 *      pt[0..len).
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_xchacha20poly1305_seal(
    sc_ctx *ctx, uint8_t *ct, uint8_t tag[SC_POLY1305_TAG_BYTES],
    const uint8_t key[SC_XCHACHA20_KEY_BYTES], const uint8_t nonce[SC_XCHACHA20_NONCE_BYTES],
    const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len) SC_NONNULL(1, 3, 4, 5);

/** XChaCha20-Poly1305 decryption. The tag is compared in constant time; pt is released only
 *  when it matches. pt == ct allowed.
 *  Returns: SC_OK; SC_ERR_AUTH (tag mismatch); SC_ERR_ARG, SC_ERR_OVERLAP, SC_ERR_TOO_LARGE,
 *           SC_ERR_STATE, SC_ERR_UNSUPPORTED, SC_ERR_INTERNAL (as
 *           sc_crypto_xchacha20poly1305_seal).
 *  Out: pt[0..len): the plaintext; zeroed on every failure but SC_ERR_TOO_LARGE (in place,
 *       so is the ciphertext).
 *  In: key: SC_XCHACHA20_KEY_BYTES; nonce: SC_XCHACHA20_NONCE_BYTES; aad[0..aad_len);
 *      ct[0..len); tag: SC_POLY1305_TAG_BYTES.
 *  Constant time: in the key, the data and the tag comparison. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_xchacha20poly1305_open(
    sc_ctx *ctx, uint8_t *pt, const uint8_t key[SC_XCHACHA20_KEY_BYTES],
    const uint8_t nonce[SC_XCHACHA20_NONCE_BYTES], const uint8_t *aad, size_t aad_len,
    const uint8_t *ct, size_t len, const uint8_t tag[SC_POLY1305_TAG_BYTES]) SC_NONNULL(1, 3, 4, 9);

/** The most working memory sc_crypto_scrypt accepts to use: 4 GiB for N blocks (NIP-49's
 *  largest cost, log_n 22 at r = 8) and 1 MiB for the rest. */
#define SC_SCRYPT_MEMORY_MAX ((((uint64_t)1) << 32) + (((uint64_t)1) << 20))

/** The working memory scrypt needs for N = 2^log_n, block size r and parallelism p:
 *  128 * r * (N + p + 2) bytes (the N-block array V, the p blocks B and two more). The
 *  backends' libraries allocate about that much (OpenSSL exactly; libsodium 64 bytes more).
 *  Returns: the bytes; 0 for parameters scrypt refuses whatever the cap (log_n 0 or above
 *           62, r or p 0, r * p >= 2^30, a size over 2^64).
 *  In: log_n, r, p. Constant time: n/a (public parameters). RNG: no. */
SC_API uint64_t sc_crypto_scrypt_memory(unsigned log_n, uint32_t r, uint32_t p);

/** scrypt (RFC 7914) with N = 2^log_n, block size r and parallelism p: out_len bytes derived
 *  from password and salt. NIP-49 runs it with r = 8, p = 1 (sc_nip49_encrypt).
 *  Memory: this is the one call of the library that allocates per call: the backend's
 *  library allocates the working memory (sc_crypto_scrypt_memory bytes) and frees it before
 *  returning (OpenSSL: EVP_KDF "SCRYPT", whose memory cap is raised to exactly that need;
 *  libsodium: crypto_pwhash_scryptsalsa208sha256_ll). Time grows with N * r * p.
 *  Returns: SC_OK; SC_ERR_SCRYPT_COST (log_n 0 or above 62, r * p >= 2^30, or working memory
 *           above SC_SCRYPT_MEMORY_MAX or SIZE_MAX); SC_ERR_NOMEM (the library could not
 *           allocate the working memory); SC_ERR_TOO_LARGE (out_len over (2^32 - 1) * 32);
 *           SC_ERR_ARG (out NULL, out_len 0, r or p 0, password or salt NULL with a length,
 *           a NULL ctx); SC_ERR_OVERLAP (out overlaps password or salt: out untouched);
 *           SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED (no scrypt group:
 *           sc_backend_has(SC_CAP_SCRYPT) says why); SC_ERR_INTERNAL.
 *  Out: out[0..out_len), zeroed on failure (but for SC_ERR_OVERLAP).
 *  In: password[0..password_len) (any bytes; NIP-49 gives NFKC-normalised UTF-8);
 *      salt[0..salt_len); log_n; r; p.
 *  Constant time: no: ROMix reads its memory at addresses derived from the password, as
 *  scrypt is defined (in every implementation); its PBKDF2 steps are. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_crypto_scrypt(sc_ctx *ctx, uint8_t *out, size_t out_len,
                                                 const uint8_t *password, size_t password_len,
                                                 const uint8_t *salt, size_t salt_len,
                                                 unsigned log_n, uint32_t r, uint32_t p)
    SC_NONNULL(1, 2);

/** Fills out[0..len) from the backend's CSPRNG (the rng group).
 *  Returns: SC_OK; SC_ERR_RNG (the generator failed); SC_ERR_ARG (out NULL with len > 0, a
 *           NULL ctx); SC_ERR_STATE; SC_ERR_UNSUPPORTED (no rng group).
 *  Out: out[0..len), zeroed on failure. In: len.
 *  Constant time: yes. RNG: yes (len bytes). */
SC_API SC_WARN_UNUSED sc_status sc_crypto_rng_fill(sc_ctx *ctx, uint8_t *out, size_t len)
    SC_NONNULL(1);

SC_END_DECLS

#endif
