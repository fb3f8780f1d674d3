/* libsoftchat: wiping, constant-time comparison, hex and strict base64.
 *
 * Pure functions: no context, no allocation, no backend.
 */
#ifndef SOFTCHAT_ENCODING_H
#define SOFTCHAT_ENCODING_H

#include "common.h"
#include "status.h"

SC_BEGIN_DECLS

/** Overwrites p[0..len) with zeros in a way the compiler may not elide (SecureZeroMemory,
 *  memset_s, explicit_bzero, or a volatile loop). NULL with len 0 is accepted. */
SC_API void sc_memzero(void *p, size_t len);

/** Compares a[0..len) and b[0..len) in time that depends only on len.
 *  Returns: 0 if equal, non-zero otherwise (never an sc_status). */
SC_API int sc_ct_compare(const void *a, const void *b, size_t len);

/** Hex-decoding flags. */
#define SC_HEX_LOWER_ONLY 0u /* default: only 0-9 and a-f are accepted */
#define SC_HEX_ANY_CASE 1u   /* also accept A-F */

/** Bytes needed to hex-encode len bytes (2 * len, without a terminator). */
SC_API size_t sc_hex_encoded_len(size_t len);

/** Lowercase hex of in[0..in_len), without a NUL terminator.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_BUFFER_TOO_SMALL (*out_len = 2 * in_len). */
SC_API SC_WARN_UNUSED sc_status sc_hex_encode(char *out, size_t out_cap, size_t *out_len,
                                              const uint8_t *in, size_t in_len) SC_NONNULL(3);

/** Decodes hex[0..hex_len) (even length) into out. Constant-time in the digit values.
 *  Returns: SC_OK; SC_ERR_ENCODING (odd length, or a character outside the accepted set);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = hex_len / 2); SC_ERR_ARG.
 *  Out: out, zeroed on failure (when out_cap suffices). */
SC_API SC_WARN_UNUSED sc_status sc_hex_decode(uint8_t *out, size_t out_cap, size_t *out_len,
                                              const char *hex, size_t hex_len, unsigned flags)
    SC_NONNULL(3);

/** Exactly n bytes from exactly 2n hex characters: the common fixed-size case.
 *  Returns: SC_OK; SC_ERR_ENCODING (wrong length or bad character); SC_ERR_ARG. */
SC_API SC_WARN_UNUSED sc_status sc_hex_decode_fixed(uint8_t *out, size_t n, const char *hex,
                                                    size_t hex_len, unsigned flags)
    SC_NONNULL(1);

/** Characters of the padded standard base64 (RFC 4648 section 4) of len bytes. */
SC_API size_t sc_base64_encoded_len(size_t len);

/** Upper bound on the bytes decoded from b64_len characters (3 * (b64_len / 4)). */
SC_API size_t sc_base64_decoded_max(size_t b64_len);

/** Padded standard base64 of in[0..in_len), without a NUL terminator.
 *  Returns: SC_OK; SC_ERR_ARG; SC_ERR_BUFFER_TOO_SMALL (*out_len = the encoded length). */
SC_API SC_WARN_UNUSED sc_status sc_base64_encode(char *out, size_t out_cap, size_t *out_len,
                                                 const uint8_t *in, size_t in_len) SC_NONNULL(3);

/** Strict decoding of padded standard base64: the length is a multiple of 4, only the
 *  standard alphabet, '=' only as one or two final characters, unused bits zero (so every
 *  byte string has exactly one accepted encoding), no whitespace. Constant-time in the
 *  alphabet lookups.
 *  Returns: SC_OK; SC_ERR_BASE64; SC_ERR_ARG;
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = the exact decoded length).
 *  Out: out[0..*out_len), zeroed on failure (when out_cap suffices). */
SC_API SC_WARN_UNUSED sc_status sc_base64_decode(uint8_t *out, size_t out_cap, size_t *out_len,
                                                 const char *b64, size_t b64_len) SC_NONNULL(3);

SC_END_DECLS

#endif
