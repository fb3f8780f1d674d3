/* libsoftchat: NIP-44 version 2 encrypted payloads.
 *
 * conversation_key = HKDF-Extract(salt "nip44-v2", ECDH x(sec * pub)); per message
 * HKDF-Expand(conversation_key, nonce, 76) gives the ChaCha20 key and nonce and the HMAC key;
 * payload = base64(0x02 || nonce(32) || ChaCha20(padded plaintext) || HMAC(nonce || ct)).
 *
 * Decryption follows the spec's validation order, with a distinct status per failure:
 *   1. empty payload or first character '#'           SC_ERR_VERSION
 *   2. longer than the caller's maximum                 SC_ERR_TOO_LARGE (before decoding)
 *   3. shorter than 132 characters                      SC_ERR_PAYLOAD_SIZE
 *   4. (out_cap below sc_nip44_decrypt_max)             SC_ERR_BUFFER_TOO_SMALL
 *   5. not strict, canonical base64                     SC_ERR_BASE64
 *   6. decoded to fewer than 99 bytes                   SC_ERR_PAYLOAD_SIZE
 *   7. version byte other than 2                        SC_ERR_VERSION
 *   8. MAC mismatch (constant-time, before decrypting)  SC_ERR_MAC
 *   9. length prefix or padded length wrong             SC_ERR_PADDING
 * Plaintext is written only after the MAC passes; padding bytes are not required to be zero
 * (the spec does not require it). An empty payload is a version error as in the spec's step
 * 1 (the reference code checks the length first and calls it "invalid payload length").
 *
 * Extended length prefix: plaintexts of 65536 bytes and more use the 6-byte prefix
 * 00 00 || u32be(len). Decryption always accepts it (a length below 65536, 0 included, in the
 * extended form is SC_ERR_PADDING: each plaintext has one encoding). Encryption produces it
 * only with SC_NIP44_EXTENDED, because many deployed decoders cannot read it; without the
 * flag such plaintexts give SC_ERR_POLICY.
 *
 * No function here allocates. Keys and intermediate material are wiped on every path.
 */
#ifndef SOFTCHAT_NIP44_H
#define SOFTCHAT_NIP44_H

#include "backend.h"
#include "ctx.h"
#include "identity.h"

SC_BEGIN_DECLS

#define SC_NIP44_KEY_BYTES 32
#define SC_NIP44_NONCE_BYTES 32
#define SC_NIP44_MAX_SHORT_PLAINTEXT 65535u      /* largest plaintext without the extension */
#define SC_NIP44_MAX_PLAINTEXT 4294967295u       /* 2^32 - 1 */
#define SC_NIP44_MIN_PAYLOAD 132u                /* base64 characters */
#define SC_NIP44_DEFAULT_MAX_PAYLOAD 1048576u    /* max_payload used when 0 is passed */

/** Encryption flags (any other bit is SC_ERR_ARG). */
#define SC_NIP44_EXTENDED 1u /* allow the 6-byte prefix for plaintexts >= 65536 bytes */

SC_API size_t sc_nip44_key_bytes(void);
SC_API size_t sc_nip44_nonce_bytes(void);

/** calc_padded_len(len) of the spec, in 64 bits (it reaches 2^32 for len = 2^32 - 1); the
 *  length prefix is not included. 0 outside the spec's domain 1 <= len <= 2^32 - 1. */
SC_API uint64_t sc_nip44_padded_len(uint64_t len);

/** Base64 length of the payload for a plaintext of len bytes (with the extended prefix where
 *  len >= 65536); 0 for len 0 or len > 2^32 - 1, or when it does not fit size_t. */
SC_API size_t sc_nip44_encrypt_len(size_t len);

/** Capacity sc_nip44_decrypt needs for a payload of payload_len characters: the largest
 *  decoded size, 3 * (payload_len / 4) (the buffer is scratch for decoding; the plaintext is a
 *  prefix of it). */
SC_API size_t sc_nip44_decrypt_max(size_t payload_len);

/** conversation_key(sec, pub): validates both keys. Symmetric: conv(a, B) = conv(b, A).
 *  Returns: SC_OK; SC_ERR_INVALID_KEY (sec 0 or >= n, pub not on the curve); SC_ERR_ARG;
 *           SC_ERR_STATE; SC_ERR_UNSUPPORTED. Out: ck, zeroed on failure. Constant-time in sec.
 *  The shared x coordinate never leaves the function and is wiped. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_key(sc_ctx *ctx,
                                                          uint8_t ck[SC_NIP44_KEY_BYTES],
                                                          const uint8_t sec[SC_SECKEY_BYTES],
                                                          const uint8_t pub[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3, 4);

/** The per-message keys for (ck, nonce): ChaCha20 key (32), ChaCha20 nonce (12), HMAC key (32).
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE; SC_ERR_UNSUPPORTED. Outs zeroed on failure. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_message_keys(sc_ctx *ctx, uint8_t chacha_key[32],
                                                      uint8_t chacha_nonce[12],
                                                      uint8_t hmac_key[32],
                                                      const uint8_t ck[SC_NIP44_KEY_BYTES],
                                                      const uint8_t nonce[SC_NIP44_NONCE_BYTES])
    SC_NONNULL(1, 2, 3, 4, 5, 6);

/** Encrypts plaintext pt[0..len) (1 <= len <= 2^32 - 1) under ck with an explicit nonce
 *  (vectors; a nonce must never be reused). Writes the base64 payload (no terminator).
 *  Checks run in this order: arguments, context, policy, capacity.
 *  Returns: SC_OK; SC_ERR_ARG (NULL, len 0 or > 2^32 - 1, unknown flag, pt or nonce inside
 *           out[0..sc_nip44_encrypt_len(len))); SC_ERR_STATE (ctx not initialised);
 *           SC_ERR_POLICY (len >= 65536 without SC_NIP44_EXTENDED);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_nip44_encrypt_len(len); out may then be
 *           NULL); SC_ERR_UNSUPPORTED; SC_ERR_INTERNAL (a backend failure).
 *  Out: out[0..*out_len); *out_len is 0 on every other failure. Failures found before out is
 *  written leave it untouched; a backend failure after that zeroes
 *  out[0..sc_nip44_encrypt_len(len)), which may have held plaintext.
 *  Bytes of out beyond the payload are never touched. The plaintext is not required to be
 *  UTF-8 here. No allocation; out is also the working buffer. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt_with_rand(sc_ctx *ctx, char *out,
                                                            size_t out_cap, size_t *out_len,
                                                            const uint8_t ck[SC_NIP44_KEY_BYTES],
                                                            const uint8_t nonce[32],
                                                            const uint8_t *pt, size_t len,
                                                            unsigned flags)
    SC_NONNULL(1, 4, 5, 6);

/** As sc_nip44_encrypt_with_rand with a fresh 32-byte nonce from the context's CSPRNG.
 *  Also returns SC_ERR_RNG. The RNG is not called when the arguments, the policy or the
 *  capacity already fail. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt(sc_ctx *ctx, char *out, size_t out_cap,
                                                 size_t *out_len,
                                                 const uint8_t ck[SC_NIP44_KEY_BYTES],
                                                 const uint8_t *pt, size_t len, unsigned flags)
    SC_NONNULL(1, 4, 5);

/** Decrypts payload[0..payload_len) under ck, in the order listed at the top of this file.
 *  max_payload is the caller's limit on the payload length in characters, checked before
 *  base64 decoding (0 means SC_NIP44_DEFAULT_MAX_PAYLOAD, which admits extended-prefix
 *  payloads of up to ~786 KB of plaintext; the largest payload without the extension is 87472
 *  characters).
 *  Returns: SC_OK; SC_ERR_VERSION; SC_ERR_TOO_LARGE (over max_payload); SC_ERR_PAYLOAD_SIZE;
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_nip44_decrypt_max(payload_len); out may
 *           then be NULL); SC_ERR_BASE64; SC_ERR_MAC; SC_ERR_PADDING;
 *           SC_ERR_ARG (NULL; payload inside out[0..sc_nip44_decrypt_max(payload_len)));
 *           SC_ERR_STATE (ctx not initialised); SC_ERR_UNSUPPORTED; SC_ERR_INTERNAL.
 *  Out: out[0..*out_len) is the plaintext, and the rest of what the call wrote (up to the
 *  decoded length) is zeroed. On failure *out_len is 0 (except BUFFER_TOO_SMALL) and every
 *  byte the call wrote is zeroed; failures found before decoding leave out untouched.
 *  Bytes of out beyond the decoded length are never touched. The plaintext is not checked for
 *  UTF-8 here. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_decrypt(sc_ctx *ctx, uint8_t *out, size_t out_cap,
                                                 size_t *out_len,
                                                 const uint8_t ck[SC_NIP44_KEY_BYTES],
                                                 const char *payload, size_t payload_len,
                                                 size_t max_payload) SC_NONNULL(1, 4, 5);

/* ---- a held conversation ------------------------------------------------------------------ */

/** A held conversation: the conversation key of (my secret, peer's public key), derived once
 *  and used for many messages. This is the explicit, caller-owned form of a conversation-key
 *  cache: there is no hidden cache anywhere in the library.
 *  Lifetime: sc_nip44_conversation_init ... sc_nip44_conversation_clear; the key lives in the struct, in
 *  caller memory, so it is wiped exactly when the caller clears it (or on a failing init).
 *  Thread safety: read-only after init; concurrent encrypt/decrypt from several threads are
 *  fine, each with its own sc_ctx. Copying the struct copies the key: avoid it, or wipe the
 *  copy. Not tied to a context. */
typedef struct sc_nip44_conversation {
    uint64_t opaque[6];
} sc_nip44_conversation;

/** Derives and holds the conversation key for (me, peer).
 *  Returns: as sc_nip44_conversation_key, plus SC_ERR_STATE for an erased identity.
 *  Out: conv (cleared on failure, whatever it held before). */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_init(sc_ctx *ctx, sc_nip44_conversation *conv,
                                                     const sc_identity *me,
                                                     const uint8_t peer[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3, 4);

/** Holds a conversation key obtained elsewhere (e.g. from a vector).
 *  Returns: SC_OK; SC_ERR_ARG. Out: conv (cleared on failure). */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_init_key(sc_nip44_conversation *conv,
                                                         const uint8_t ck[SC_NIP44_KEY_BYTES])
    SC_NONNULL(1, 2);

/** sc_nip44_encrypt under the held key (fresh nonce from the RNG).
 *  Returns: as sc_nip44_encrypt, plus SC_ERR_STATE for a cleared or uninitialised conv. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_encrypt(sc_ctx *ctx, const sc_nip44_conversation *conv,
                                                        char *out, size_t out_cap,
                                                        size_t *out_len, const uint8_t *pt,
                                                        size_t len, unsigned flags)
    SC_NONNULL(1, 2, 5);

/** sc_nip44_decrypt under the held key.
 *  Returns: as sc_nip44_decrypt, plus SC_ERR_STATE for a cleared or uninitialised conv. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_decrypt(sc_ctx *ctx, const sc_nip44_conversation *conv,
                                                        uint8_t *out, size_t out_cap,
                                                        size_t *out_len, const char *payload,
                                                        size_t payload_len, size_t max_payload)
    SC_NONNULL(1, 2, 5);

/** Wipes the held key (the whole struct); later use gives SC_ERR_STATE. NULL is accepted. */
SC_API void sc_nip44_conversation_clear(sc_nip44_conversation *conv);

SC_END_DECLS

#endif
