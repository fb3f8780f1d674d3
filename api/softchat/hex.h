/* libsoftchat: lowercase hex.
 *
 * Pure functions: no context, no allocation, no backend. Encoding and decoding are constant
 * time in the data (a hex string may carry a secret key).
 */
#ifndef SOFTCHAT_HEX_H
#define SOFTCHAT_HEX_H

#include "common.h"
#include "status.h"

SC_BEGIN_DECLS

/** Characters of the hex form of n bytes, and of the fixed-size objects Nostr writes in hex
 *  (public keys, event ids, signatures). */
#define SC_HEX_LEN(n) (2u * (n))
#define SC_PUBKEY_HEX_LEN 64u
#define SC_EVENT_ID_HEX_LEN 64u
#define SC_SIG_HEX_LEN 128u

/** Hex-decoding flags. */
#define SC_HEX_LOWER_ONLY 0u /* default: only 0-9 and a-f are accepted */
#define SC_HEX_ANY_CASE 1u   /* also accept A-F */

/** Exact number of characters sc_hex_encode writes for len bytes (2 * len).
 *  Returns: 2 * len; 0 when that does not fit size_t. */
SC_API size_t sc_hex_encode_len(size_t len);

/** Lowercase hex of in[0..in_len), without a NUL terminator.
 *  Returns: SC_OK;
 *           SC_ERR_BUFFER_TOO_SMALL (out_cap < 2 * in_len; *out_len = 2 * in_len);
 *           SC_ERR_ARG (out_len NULL, out NULL with out_cap > 0, in NULL with in_len > 0,
 *           2 * in_len overflows).
 *  Out: out[0..*out_len); *out_len. On failure out is untouched and *out_len is 0 (or the
 *       need for SC_ERR_BUFFER_TOO_SMALL).
 *  In: in[0..in_len).
 *  Constant time: in the bytes of in. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_hex_encode(char *out, size_t out_cap, size_t *out_len,
                                              const uint8_t *in, size_t in_len) SC_NONNULL(3);

/** Decodes hex[0..hex_len) (an even length) into out.
 *  Returns: SC_OK;
 *           SC_ERR_ENCODING (odd length, or a character outside the accepted set);
 *           SC_ERR_BUFFER_TOO_SMALL (out_cap < hex_len / 2; *out_len = hex_len / 2);
 *           SC_ERR_ARG (out_len NULL, out NULL with out_cap > 0, hex NULL with hex_len > 0,
 *           an unknown flag).
 *  Out: out[0..*out_len); *out_len. On SC_ERR_ENCODING out[0..hex_len / 2) is zeroed; on
 *       the other failures out is untouched; *out_len is 0 (or the need).
 *  In: hex[0..hex_len); flags: SC_HEX_LOWER_ONLY or SC_HEX_ANY_CASE.
 *  Constant time: in the digit values (not in where the first bad character is). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_hex_decode(uint8_t *out, size_t out_cap, size_t *out_len,
                                              const char *hex, size_t hex_len, unsigned flags)
    SC_NONNULL(3);

/** Exactly n bytes from exactly 2n hex characters: the common fixed-size case (keys, ids).
 *  Returns: SC_OK; SC_ERR_ENCODING (hex_len != 2 * n, or a bad character);
 *           SC_ERR_ARG (out NULL, hex NULL with hex_len > 0, an unknown flag).
 *  Out: out[0..n), zeroed on failure.
 *  In: hex[0..hex_len); flags as for sc_hex_decode.
 *  Constant time: in the digit values. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_hex_decode_fixed(uint8_t *out, size_t n, const char *hex,
                                                    size_t hex_len, unsigned flags) SC_NONNULL(1);

SC_END_DECLS

#endif
