/* libsoftchat: strict, padded standard base64 (RFC 4648 section 4).
 *
 * Pure functions: no context, no allocation, no backend. Encoding and decoding are constant
 * time in the data: no table is indexed by a secret byte.
 */
#ifndef SOFTCHAT_BASE64_H
#define SOFTCHAT_BASE64_H

#include "common.h"
#include "status.h"

SC_BEGIN_DECLS

/** Exact number of characters sc_base64_encode writes for len bytes (4 * ceil(len / 3)).
 *  Returns: that length; 0 when it does not fit size_t. */
SC_API size_t sc_base64_encode_len(size_t len);

/** Upper bound on the bytes sc_base64_decode writes for b64_len characters; the exact
 *  length is *out_len of the call.
 *  Returns: 3 * (b64_len / 4). */
SC_API size_t sc_base64_decode_max(size_t b64_len);

/** Padded standard base64 of in[0..in_len), without a NUL terminator.
 *  Returns: SC_OK;
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_base64_encode_len(in_len));
 *           SC_ERR_ARG (out_len NULL, out NULL with out_cap > 0, in NULL with in_len > 0,
 *           a length that overflows).
 *  Out: out[0..*out_len); on failure out is untouched and *out_len is 0 (or the need).
 *  In: in[0..in_len).
 *  Constant time: in the bytes of in. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_base64_encode(char *out, size_t out_cap, size_t *out_len,
                                                 const uint8_t *in, size_t in_len) SC_NONNULL(3);

/** Strict decoding of padded standard base64: the length is a multiple of 4, only the
 *  standard alphabet, '=' only as one or two final characters, unused bits zero (so every
 *  byte string has exactly one accepted encoding), no whitespace.
 *  Returns: SC_OK; SC_ERR_BASE64 (any of the rules above broken);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = the exact decoded length);
 *           SC_ERR_ARG (out_len NULL, out NULL with out_cap > 0, b64 NULL with b64_len > 0).
 *  Out: out[0..*out_len); on SC_ERR_BASE64 every byte written is zeroed; on the other
 *       failures out is untouched; *out_len is 0 (or the need).
 *  In: b64[0..b64_len).
 *  Constant time: in the characters' values (not in where the first bad one is). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_base64_decode(uint8_t *out, size_t out_cap, size_t *out_len,
                                                 const char *b64, size_t b64_len) SC_NONNULL(3);

SC_END_DECLS

#endif
