/* Internal pieces of NIP-44 v2 shared by the files of core/nip44/ and core/nip59/ (some
 * exercised directly by the tests): the conversation key of an identity, the checks that
 * come before any key is used, the length prefix, unpadding, and the in-place base64 step
 * of encryption. */
#ifndef SOFTCHAT_CORE_NIP44_INTERNAL_H
#define SOFTCHAT_CORE_NIP44_INTERNAL_H

#include <softchat/identity.h>
#include <softchat/nip44.h>
#include <softchat/signer.h>

#include <stdint.h>
#include "util/range.h"

#define SC_NIP44_VERSION 2u
#define SC_NIP44_MAC_BYTES 32u
/* version byte + nonce + MAC: the raw payload minus the padded plaintext */
#define SC_NIP44_OVERHEAD (1u + SC_NIP44_NONCE_BYTES + SC_NIP44_MAC_BYTES)
/* the smallest raw payload: 2-byte prefix + 32 padded bytes */
#define SC_NIP44_MIN_RAW (SC_NIP44_OVERHEAD + 2u + 32u)
/* plaintexts of this length and more carry the 6-byte prefix 00 00 || u32be(len) */
#define SC_NIP44_EXTENDED_THRESHOLD 65536u
/* sc_nip44_padded_len(SC_NIP44_MAX_PLAINTEXT): the longest padded plaintext, 2^32 bytes */
#define SC_NIP44_MAX_PADDED 4294967296ull

/* sc_nip44_conversation_key of identity me's secret key and peer, through the identity's
 * ECDH (core/nip44/nip44.c): every NIP-44 key of an identity is made here, and the caller
 * wipes it.
 * Returns: SC_OK; SC_ERR_ARG (ck, me or peer NULL, a NULL ctx); SC_ERR_STATE (me not imported
 *          or cleared, ctx not initialised); SC_ERR_INVALID_KEY (peer not on the curve);
 *          SC_ERR_UNSUPPORTED. ck is zeroed on failure (when not NULL).
 * Constant time: in the secret key. RNG: no. */
sc_status sc_nip44_identity_key(sc_ctx *ctx, uint8_t ck[SC_NIP44_KEY_BYTES], const sc_identity *me,
                                const uint8_t peer[SC_PUBKEY_BYTES]);

/* The checks sc_nip44_encrypt_with_rand makes before it needs a key, a nonce or a buffer
 * (core/nip44/nip44.c), in its order: arguments (ctx, pt), empty, flags, length, context,
 * policy. Returns: SC_OK with *need = the payload length; the status the encryption would
 * give. */
sc_status sc_nip44_encrypt_check(sc_ctx *ctx, size_t *need, const uint8_t *pt, size_t len,
                                 unsigned flags);

/* The checks sc_nip44_decrypt makes before it needs a key or a buffer
 * (core/nip44/nip44_decrypt.c), in its order: arguments (ctx, payload), context, then the
 * spec's checks before decoding. Returns: SC_OK with *need = sc_nip44_decrypt_max of the
 * payload; the status the decryption would give. */
sc_status sc_nip44_decrypt_check(sc_ctx *ctx, size_t *need, const char *payload, size_t payload_len,
                                 size_t max_payload);

/* Bytes of the length prefix for a plaintext of len bytes (1 <= len <= 2^32 - 1): 2 or 6. */
size_t sc_nip44_prefix_len(uint64_t len);

/* Writes the prefix for len (1 <= len <= 2^32 - 1) to p[0..sc_nip44_prefix_len(len)). */
void sc_nip44_prefix_write(uint8_t *p, uint64_t len);

/* Checks a decrypted padded buffer p[0..n) (prefix || plaintext || padding): the prefix form,
 * L >= 1 (L >= 65536 in the extended form) and n == prefix + calc_padded_len(L). The padding
 * bytes themselves are not inspected.
 * Returns: SC_OK with the plaintext at p[*off..*off + *len); SC_ERR_PADDING. */
sc_status sc_nip44_unpad(const uint8_t *p, size_t n, size_t *off, size_t *len);

/* Base64-encodes, front to back, raw bytes that sit at the end of buf[0..enc_len), where
 * enc_len = sc_base64_encode_len(raw_len): buf[enc_len - raw_len..enc_len) becomes the
 * padded standard base64 in buf[0..enc_len). Never overwrites a byte before reading it.
 * Returns: SC_OK; SC_ERR_ARG (buf NULL, or enc_len is not the encoded length of raw_len). */
sc_status sc_nip44_b64_in_place(char *buf, size_t enc_len, size_t raw_len);

/* ---- as a signer (core/nip44/nip44_signer.c) ------------------------------------------------ */

/* NIP-44 of pt[0..len) to peer as op's signer into out, which holds exactly
 * sc_nip44_encrypt_len(len) bytes (the caller checked the arguments, flags and policy). A
 * local signer encrypts at once, with nonce (NULL: one from the RNG): SC_OK, *out_len set. An
 * external one gets an ENCRYPT request posted for pt (which must stay in place):
 * SC_OP_YIELD; its answer goes to sc_nip44_encrypt_answer.
 * Returns: SC_OK; SC_OP_YIELD; as sc_nip44_encrypt_to. */
sc_status sc_nip44_encrypt_as(sc_ctx *ctx, sc_signer_op *op, char *out, size_t *out_len,
                              const uint8_t *peer, const uint8_t *pt, size_t len, unsigned flags,
                              const uint8_t *nonce);

/* Checks text as the payload of a plaintext of pt_len bytes (exactly sc_nip44_encrypt_len
 * characters, strict canonical base64, version byte 2) and copies it to out.
 * Returns: SC_OK; SC_ERR_SIGNER_ANSWER. */
sc_status sc_nip44_encrypt_answer(char *out, size_t pt_len, const char *text, size_t len);

/* The checks sc_nip44_decrypt makes without the key, in its order (arguments, context,
 * length checks, capacity, base64, size, version): the payload is decoded into work[0..cap)
 * and wiped again. *padded = the bytes of prefix and padded plaintext it carries.
 * Returns: SC_OK; sc_nip44_decrypt's statuses (SC_ERR_BUFFER_TOO_SMALL when cap is below
 * sc_nip44_decrypt_max). */
sc_status sc_nip44_payload_check(sc_ctx *ctx, const char *payload, size_t len, size_t max_payload,
                                 uint8_t *work, size_t cap, size_t *padded);

/* sc_nip44_decrypt of payload from peer as op's signer into out[0..cap) (cap >=
 * sc_nip44_decrypt_max(len)). A local signer decrypts at once: SC_OK, *out_len set. For an
 * external one the payload is checked (sc_nip44_payload_check, *padded set) and a DECRYPT
 * request posted for it: SC_OP_YIELD; its answer goes to sc_nip44_decrypt_answer.
 * Returns: SC_OK; SC_OP_YIELD; as sc_nip44_decrypt_from. */
sc_status sc_nip44_decrypt_as(sc_ctx *ctx, sc_signer_op *op, uint8_t *out, size_t cap,
                              size_t *out_len, const uint8_t *peer, const char *payload, size_t len,
                              size_t max_payload, size_t *padded);

/* Checks text as the plaintext of a payload whose padded part is `padded` bytes (the one
 * length NIP-44 pads to exactly that, at most cap, UTF-8) and copies it to out.
 * Returns: SC_OK (*out_len = len); SC_ERR_SIGNER_ANSWER (*out_len = 0). */
sc_status sc_nip44_decrypt_answer(uint8_t *out, size_t cap, size_t *out_len, size_t padded,
                                  const char *text, size_t len);

#endif
