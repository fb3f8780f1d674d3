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
 * Which call to use: sc_nip44_encrypt_to / sc_nip44_decrypt_from work from an sc_identity and
 * the peer's public key (one ECDH per call, nothing secret leaves the library); a held
 * sc_nip44_conversation derives the key once for many messages; the calls taking a
 * conversation key `ck` are the spec's primitives, for vectors and for keys held elsewhere.
 *
 * No function here allocates. Keys and intermediate material are wiped on every path. The
 * library keeps no secret between calls; the curve adapter keeps the last few lifted public
 * keys per context (public data, see ctx.h), which makes a repeated peer cheaper.
 */
#ifndef SOFTCHAT_NIP44_H
#define SOFTCHAT_NIP44_H

#include "backend.h"
#include "ctx.h"
#include "identity.h"
#include "signer.h"

SC_BEGIN_DECLS

#define SC_NIP44_KEY_BYTES 32
#define SC_NIP44_NONCE_BYTES 32
#define SC_NIP44_HMAC_KEY_BYTES 32
#define SC_NIP44_MAX_SHORT_PLAINTEXT 65535u   /* largest plaintext without the extension */
#define SC_NIP44_MAX_PLAINTEXT 4294967295u    /* 2^32 - 1 */
#define SC_NIP44_MIN_PAYLOAD 132u             /* base64 characters */
#define SC_NIP44_DEFAULT_MAX_PAYLOAD 1048576u /* max_payload used when 0 is passed */

/** Encryption flags (any other bit is SC_ERR_FLAGS). The same flag is accepted wherever the
 *  library encrypts with NIP-44 on the caller's behalf (sc_nip59_opts.flags). */
#define SC_NIP44_EXTENDED 1u /* allow the 6-byte prefix for plaintexts >= 65536 bytes */

/** SC_NIP44_KEY_BYTES, for bindings. Returns: 32. */
SC_API size_t sc_nip44_key_bytes(void);

/** SC_NIP44_NONCE_BYTES, for bindings. Returns: 32. */
SC_API size_t sc_nip44_nonce_bytes(void);

/** calc_padded_len(len) of the spec, in 64 bits (it reaches 2^32 for len = 2^32 - 1); the
 *  length prefix is not included.
 *  Returns: the padded length; 0 outside the spec's domain 1 <= len <= 2^32 - 1. */
SC_API uint64_t sc_nip44_padded_len(uint64_t len);

/** Exact length of the base64 payload sc_nip44_encrypt writes for a plaintext of len bytes
 *  (with the extended prefix where len >= 65536).
 *  Returns: the length; 0 for len 0 or len > 2^32 - 1, or when it does not fit size_t. */
SC_API size_t sc_nip44_encrypt_len(size_t len);

/** Capacity sc_nip44_decrypt needs for a payload of payload_len characters: the largest
 *  decoded size, 3 * (payload_len / 4) (the buffer is scratch for decoding; the plaintext is a
 *  prefix of it). Returns: that bound (0 for payload_len < 4). */
SC_API size_t sc_nip44_decrypt_max(size_t payload_len);

/** conversation_key(sec, pub): validates both keys. Symmetric: conv(a, B) = conv(b, A).
 *  Returns: SC_OK; SC_ERR_INVALID_KEY (sec 0 or >= n, pub not on the curve); SC_ERR_ARG (a
 *           NULL argument); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED (no curve or mac group).
 *  Out: ck: SC_NIP44_KEY_BYTES, zeroed on failure. The shared x coordinate never leaves the
 *       function and is wiped.
 *  In: sec: SC_SECKEY_BYTES; pub: SC_PUBKEY_BYTES (x-only).
 *  Constant time: in sec. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_key(sc_ctx *ctx,
                                                          uint8_t ck[SC_NIP44_KEY_BYTES],
                                                          const uint8_t sec[SC_SECKEY_BYTES],
                                                          const uint8_t pub[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3, 4);

/** The per-message keys for (ck, nonce): HKDF-Expand(ck, nonce, 76) split into the ChaCha20
 *  key, the ChaCha20 nonce and the HMAC key.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED.
 *  Out: chacha_key, chacha_nonce, hmac_key: every one that is not NULL is zeroed on failure.
 *  In: ck: SC_NIP44_KEY_BYTES; nonce: SC_NIP44_NONCE_BYTES.
 *  Constant time: in ck. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_message_keys(sc_ctx *ctx,
                                                      uint8_t chacha_key[SC_CHACHA20_KEY_BYTES],
                                                      uint8_t chacha_nonce[SC_CHACHA20_NONCE_BYTES],
                                                      uint8_t hmac_key[SC_NIP44_HMAC_KEY_BYTES],
                                                      const uint8_t ck[SC_NIP44_KEY_BYTES],
                                                      const uint8_t nonce[SC_NIP44_NONCE_BYTES])
    SC_NONNULL(1, 2, 3, 4, 5, 6);

/** Encrypts plaintext pt[0..len) (1 <= len <= 2^32 - 1) under ck with an explicit nonce
 *  (vectors; a nonce must never be reused). Writes the base64 payload (no terminator).
 *  Checks run in this order: arguments, context, policy, capacity, overlap.
 *  Returns: SC_OK; SC_ERR_ARG (ctx, ck, nonce or out_len NULL; pt NULL with len > 0; out NULL
 *           with enough out_cap); SC_ERR_EMPTY (len 0); SC_ERR_FLAGS (an unknown flag);
 *           SC_ERR_TOO_LARGE (len > 2^32 - 1, or a payload that does not fit size_t);
 *           SC_ERR_STATE (ctx not initialised); SC_ERR_POLICY (len >= 65536 without
 *           SC_NIP44_EXTENDED); SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_nip44_encrypt_len(len);
 *           out may then be NULL); SC_ERR_OVERLAP (pt or nonce inside
 *           out[0..sc_nip44_encrypt_len(len))); SC_ERR_UNSUPPORTED; SC_ERR_INTERNAL (a
 *           backend failure).
 *  Out: out[0..*out_len); *out_len is 0 on every other failure. Failures found before out is
 *       written leave it untouched; a backend failure after that zeroes
 *       out[0..sc_nip44_encrypt_len(len)), which may have held plaintext. Bytes of out beyond
 *       the payload are never touched. out is also the working buffer.
 *  In: ck: SC_NIP44_KEY_BYTES; nonce: SC_NIP44_NONCE_BYTES; pt[0..len) (not required to be
 *      UTF-8 here); flags: 0 or SC_NIP44_EXTENDED.
 *  Constant time: in ck, nonce and the plaintext bytes (not in len). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt_with_rand(
    sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, const uint8_t ck[SC_NIP44_KEY_BYTES],
    const uint8_t nonce[SC_NIP44_NONCE_BYTES], const uint8_t *pt, size_t len, unsigned flags)
    SC_NONNULL(1, 4, 5, 6);

/** As sc_nip44_encrypt_with_rand with a fresh 32-byte nonce from the context's CSPRNG.
 *  Returns: as sc_nip44_encrypt_with_rand, plus SC_ERR_RNG.
 *  Out: as sc_nip44_encrypt_with_rand. In: as sc_nip44_encrypt_with_rand, without the nonce.
 *  Constant time: as sc_nip44_encrypt_with_rand. RNG: yes (SC_NIP44_NONCE_BYTES), and only
 *  once the arguments, the policy and the capacity have passed. */
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
 *           SC_ERR_ARG (ctx, ck or out_len NULL; payload NULL with payload_len > 0; out NULL
 *           with enough out_cap); SC_ERR_OVERLAP (payload inside
 *           out[0..sc_nip44_decrypt_max(payload_len))); SC_ERR_STATE (ctx not initialised);
 *           SC_ERR_UNSUPPORTED; SC_ERR_INTERNAL.
 *  Out: out[0..*out_len) is the plaintext, and the rest of what the call wrote (up to the
 *       decoded length) is zeroed. On failure *out_len is 0 (except BUFFER_TOO_SMALL) and
 *       every byte the call wrote is zeroed; failures found before decoding leave out
 *       untouched. Bytes of out beyond the decoded length are never touched. The plaintext is
 *       not checked for UTF-8 here. Nothing is written before the MAC has been verified.
 *  In: ck: SC_NIP44_KEY_BYTES; payload[0..payload_len); max_payload.
 *  Constant time: in ck and the plaintext; the MAC comparison is constant time. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_decrypt(sc_ctx *ctx, uint8_t *out, size_t out_cap,
                                                 size_t *out_len,
                                                 const uint8_t ck[SC_NIP44_KEY_BYTES],
                                                 const char *payload, size_t payload_len,
                                                 size_t max_payload) SC_NONNULL(1, 4, 5);

/* ---- between an identity and a peer ------------------------------------------------------- */

/** sc_nip44_encrypt from identity `me` to the peer's public key: derives the conversation
 *  key for this call only (one ECDH), encrypts, and wipes the key. The arguments, policy and
 *  capacity are checked before the ECDH, so a size query (out NULL, out_cap 0) is cheap.
 *  Returns: as sc_nip44_encrypt, plus SC_ERR_ARG (me or peer NULL), SC_ERR_STATE (me not
 *           imported or cleared) and SC_ERR_INVALID_KEY (peer not on the curve).
 *  Out: as sc_nip44_encrypt.
 *  In: me; peer: SC_PUBKEY_BYTES; pt[0..len); flags: 0 or SC_NIP44_EXTENDED.
 *  Constant time: in the secret key, the derived keys and the plaintext bytes. RNG: yes
 *  (SC_NIP44_NONCE_BYTES), after every check has passed. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt_to(sc_ctx *ctx, char *out, size_t out_cap,
                                                    size_t *out_len, const sc_identity *me,
                                                    const uint8_t peer[SC_PUBKEY_BYTES],
                                                    const uint8_t *pt, size_t len, unsigned flags)
    SC_NONNULL(1, 4, 5, 6);

/** As sc_nip44_encrypt_to with an explicit nonce (vectors; never reuse a nonce).
 *  Returns: as sc_nip44_encrypt_to, without SC_ERR_RNG. Out: as sc_nip44_encrypt.
 *  In: as sc_nip44_encrypt_to, plus nonce: SC_NIP44_NONCE_BYTES.
 *  Constant time: as sc_nip44_encrypt_to. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt_to_with_rand(
    sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, const sc_identity *me,
    const uint8_t peer[SC_PUBKEY_BYTES], const uint8_t nonce[SC_NIP44_NONCE_BYTES],
    const uint8_t *pt, size_t len, unsigned flags) SC_NONNULL(1, 4, 5, 6, 7);

/** sc_nip44_decrypt of a payload from the peer's public key to identity `me`: derives the
 *  conversation key for this call only, decrypts, and wipes the key. The checks before base64
 *  decoding, and the capacity, run before the ECDH.
 *  Returns: as sc_nip44_decrypt, plus SC_ERR_ARG (me or peer NULL), SC_ERR_STATE (me not
 *           imported or cleared) and SC_ERR_INVALID_KEY (peer not on the curve).
 *  Out: as sc_nip44_decrypt.
 *  In: me; peer: SC_PUBKEY_BYTES; payload[0..payload_len); max_payload (0 = the default).
 *  Constant time: in the secret key, the derived keys and the plaintext. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_decrypt_from(sc_ctx *ctx, uint8_t *out, size_t out_cap,
                                                      size_t *out_len, const sc_identity *me,
                                                      const uint8_t peer[SC_PUBKEY_BYTES],
                                                      const char *payload, size_t payload_len,
                                                      size_t max_payload) SC_NONNULL(1, 4, 5, 6);

/* ---- as a signer (signer.h) ---------------------------------------------------------------- */

/** Starts NIP-44 encryption as `me`, a signer, to the peer's public key: the operation
 *  sc_signer_op_step drives. A local identity encrypts at the first step (as
 *  sc_nip44_encrypt_to); an external signer is asked with an NIP44_ENCRYPT request for pt,
 *  and its answer must be a payload of exactly sc_nip44_encrypt_len(len) characters, strict
 *  base64, version 2 (signer.h). The checks of sc_nip44_encrypt_to run here, in its order,
 *  then an external signer's plaintext must be UTF-8 (it travels as a JSON string).
 *  Returns: SC_OK (started); as sc_nip44_encrypt_to before its ECDH (SC_ERR_ARG,
 *           SC_ERR_EMPTY, SC_ERR_FLAGS, SC_ERR_TOO_LARGE, SC_ERR_STATE, SC_ERR_POLICY,
 *           SC_ERR_BUFFER_TOO_SMALL with *out_len the need, SC_ERR_OVERLAP); SC_ERR_UTF8
 *           (external). Then the steps: SC_OK when done; SC_ERR_SIGNER_ANSWER,
 *           SC_ERR_SIGNER_REFUSED, SC_ERR_TIMEOUT; a local encryption's SC_ERR_INVALID_KEY,
 *           SC_ERR_RNG, SC_ERR_UNSUPPORTED, SC_ERR_INTERNAL.
 *  Out: op (started; cleared on failure); when done out[0..*out_len) is the payload; on
 *       failure *out_len is 0 (the need for SC_ERR_BUFFER_TOO_SMALL) and a failed operation
 *       zeroes out[0..sc_nip44_encrypt_len(len)).
 *  In: me; peer: SC_PUBKEY_BYTES (copied); pt[0..len) (kept by reference); flags: 0 or
 *      SC_NIP44_EXTENDED.
 *  Constant time: as sc_nip44_encrypt_to (local). RNG: yes (a local encryption's
 *  SC_NIP44_NONCE_BYTES, drawn by the step that encrypts). */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt_start(sc_ctx *ctx, sc_signer_op *op, char *out,
                                                       size_t out_cap, size_t *out_len,
                                                       const sc_signer *me,
                                                       const uint8_t peer[SC_PUBKEY_BYTES],
                                                       const uint8_t *pt, size_t len,
                                                       unsigned flags) SC_NONNULL(1, 2, 5, 6, 7);

/** As sc_nip44_encrypt_start with an explicit nonce for a local encryption (vectors; an
 *  external signer draws its own).
 *  Returns: as sc_nip44_encrypt_start, without SC_ERR_RNG; SC_ERR_ARG for a NULL nonce;
 *           SC_ERR_OVERLAP for a nonce inside out.
 *  Out: as sc_nip44_encrypt_start. In: as sc_nip44_encrypt_start, plus nonce:
 *  SC_NIP44_NONCE_BYTES (copied).
 *  Constant time: as sc_nip44_encrypt_start. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_encrypt_start_with_rand(
    sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap, size_t *out_len, const sc_signer *me,
    const uint8_t peer[SC_PUBKEY_BYTES], const uint8_t nonce[SC_NIP44_NONCE_BYTES],
    const uint8_t *pt, size_t len, unsigned flags) SC_NONNULL(1, 2, 5, 6, 7, 8);

/** Starts NIP-44 decryption as `me`, a signer, of a payload from the peer's public key. A
 *  local identity decrypts at the first step (as sc_nip44_decrypt_from). For an external
 *  signer the step first makes every check that needs no key (sc_nip44_decrypt's order up
 *  to the version byte: a malformed payload fails with its own status and never reaches the
 *  signer), then asks with an NIP44_DECRYPT request; its answer must be UTF-8 (the text
 *  travels as a JSON string), at most out_cap bytes, and of the one length whose NIP-44
 *  padding fills the payload (signer.h).
 *  Returns: SC_OK (started); as sc_nip44_decrypt_from before its ECDH (SC_ERR_ARG,
 *           SC_ERR_STATE, SC_ERR_VERSION, SC_ERR_TOO_LARGE, SC_ERR_PAYLOAD_SIZE,
 *           SC_ERR_BUFFER_TOO_SMALL with *out_len = sc_nip44_decrypt_max(payload_len),
 *           SC_ERR_OVERLAP). Then the steps: SC_OK when done; SC_ERR_BASE64, SC_ERR_VERSION,
 *           SC_ERR_PAYLOAD_SIZE; SC_ERR_SIGNER_ANSWER, SC_ERR_SIGNER_REFUSED,
 *           SC_ERR_TIMEOUT; a local decryption's SC_ERR_MAC, SC_ERR_PADDING,
 *           SC_ERR_INVALID_KEY, SC_ERR_UNSUPPORTED, SC_ERR_INTERNAL.
 *  Out: op (started; cleared on failure); when done out[0..*out_len) is the plaintext and
 *       the rest of what was written (up to the decoded length) zero, as sc_nip44_decrypt
 *       leaves it; on failure *out_len is 0 (but for SC_ERR_BUFFER_TOO_SMALL) and a failed
 *       operation zeroes out[0..sc_nip44_decrypt_max(payload_len)).
 *  In: me; peer: SC_PUBKEY_BYTES (copied); payload[0..payload_len) (kept by reference);
 *      max_payload (0 = the default).
 *  Constant time: as sc_nip44_decrypt_from (local); an external signer's plaintext is
 *  checked for UTF-8. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_decrypt_start(
    sc_ctx *ctx, sc_signer_op *op, uint8_t *out, size_t out_cap, size_t *out_len,
    const sc_signer *me, const uint8_t peer[SC_PUBKEY_BYTES], const char *payload,
    size_t payload_len, size_t max_payload) SC_NONNULL(1, 2, 5, 6, 7);

/* ---- a held conversation ------------------------------------------------------------------ */

/** A held conversation: the conversation key of (my secret, peer's public key), derived once
 *  and used for many messages. This is the explicit, caller-owned form of a conversation-key
 *  cache: the library keeps no conversation key of its own.
 *  Lifetime: sc_nip44_conversation_init ... sc_nip44_conversation_clear; the key lives in the
 *  struct, in caller memory, so it is wiped exactly when the caller clears it (or on a
 *  failing init).
 *  Thread safety: read-only after init; concurrent encrypt/decrypt from several threads are
 *  fine, each with its own sc_ctx. Copying the struct copies the key: avoid it, or wipe the
 *  copy. Not tied to a context. */
typedef struct sc_nip44_conversation {
    uint64_t opaque[6];
} sc_nip44_conversation;

/** Derives and holds the conversation key for (me, peer).
 *  Returns: as sc_nip44_conversation_key, plus SC_ERR_STATE for an identity not imported or
 *           cleared.
 *  Out: conv (cleared first, and on failure).
 *  In: me; peer: SC_PUBKEY_BYTES.
 *  Constant time: in the secret key. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_init(sc_ctx *ctx, sc_nip44_conversation *conv,
                                                           const sc_identity *me,
                                                           const uint8_t peer[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3, 4);

/** Holds a conversation key obtained elsewhere (e.g. from a vector).
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument).
 *  Out: conv (cleared first, and on failure).
 *  In: ck: SC_NIP44_KEY_BYTES (the caller wipes its copy).
 *  Constant time: yes. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_init_key(sc_nip44_conversation *conv,
                                                               const uint8_t ck[SC_NIP44_KEY_BYTES])
    SC_NONNULL(1, 2);

/** sc_nip44_encrypt under the held key (fresh nonce from the RNG).
 *  Returns: as sc_nip44_encrypt, plus SC_ERR_STATE for a cleared or uninitialised conv.
 *  Out: as sc_nip44_encrypt.
 *  In: conv; pt[0..len); flags: 0 or SC_NIP44_EXTENDED.
 *  Constant time: as sc_nip44_encrypt. RNG: yes (SC_NIP44_NONCE_BYTES). */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_encrypt(sc_ctx *ctx, char *out,
                                                              size_t out_cap, size_t *out_len,
                                                              const sc_nip44_conversation *conv,
                                                              const uint8_t *pt, size_t len,
                                                              unsigned flags) SC_NONNULL(1, 4, 5);

/** sc_nip44_decrypt under the held key.
 *  Returns: as sc_nip44_decrypt, plus SC_ERR_STATE for a cleared or uninitialised conv.
 *  Out: as sc_nip44_decrypt.
 *  In: conv; payload[0..payload_len); max_payload (0 = the default).
 *  Constant time: as sc_nip44_decrypt. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip44_conversation_decrypt(
    sc_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len, const sc_nip44_conversation *conv,
    const char *payload, size_t payload_len, size_t max_payload) SC_NONNULL(1, 4, 5);

/** Wipes the held key (the whole struct); later use gives SC_ERR_STATE.
 *  In/Out: conv; NULL is accepted (no-op). Constant time: yes. RNG: no. */
SC_API void sc_nip44_conversation_clear(sc_nip44_conversation *conv);

SC_END_DECLS

#endif
