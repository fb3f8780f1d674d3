/* Bech32 (BIP-173, checksum constant 1; not bech32m) over caller memory, for NIP-19.
 *
 * Decoding is split in two so the caller can choose where the bytes go once it knows the
 * prefix and the payload size: sc_bech32_parse checks the string (length cap, characters,
 * case, separator, whole-byte length, checksum) and sc_bech32_to_bytes converts the 5-bit
 * groups to bytes (rejecting non-zero padding). Encoding streams bytes through a
 * writer, so TLV records can be emitted without building the payload first.
 *
 * The data part may carry a secret key (nsec): its characters are mapped, checksummed and
 * converted without branches or table lookups indexed by their values; only the final
 * accept/reject decision depends on them. The prefix and the lengths are public.
 * No allocation, no global state.
 */
#ifndef SOFTCHAT_CORE_BECH32_H
#define SOFTCHAT_CORE_BECH32_H

#include <softchat/status.h>

#include <stddef.h>
#include <stdint.h>

/* A checked bech32 string: views into the caller's string. */
typedef struct sc_bech32_str {
    const char *hrp; /* human-readable part as written (all lowercase or all uppercase) */
    size_t hrp_len;
    const char *data; /* data characters, without the 6-character checksum */
    size_t data_len;
} sc_bech32_str;

/* Checks s[0..len) whose prefix is s[0..hrp_len): at most max_len characters, all in
 * 33..126, not mixed case, a prefix of 1..83 characters followed by '1', at least 6 data
 * characters, all in the bech32 charset (which has no '1', so the separator is the last '1'
 * as BIP-173 requires), a data length that encodes whole bytes (no leftover group of 5 or
 * more bits), and a valid bech32 checksum. The caller gives hrp_len from the prefix it
 * expects (so finding the separator never looks at secret data characters) or from the
 * position of the last '1'. The BIP-173 90-character limit is the caller's choice of max_len.
 * Returns: SC_OK; SC_ERR_BECH32; SC_ERR_ARG (NULL p, or NULL s with len > 0).
 * Out: p, zeroed on failure. */
sc_status sc_bech32_parse(sc_bech32_str *p, const char *s, size_t len, size_t hrp_len,
                          size_t max_len);

/* Bytes that sc_bech32_to_bytes writes for p (data_len * 5 / 8). */
size_t sc_bech32_bytes_len(const sc_bech32_str *p);

/* Converts the data part to exactly out_len == sc_bech32_bytes_len(p) bytes.
 * Returns: SC_OK; SC_ERR_BECH32 (non-zero padding bits);
 *          SC_ERR_ARG (out_len differs from sc_bech32_bytes_len(p), or NULL pointers).
 * Out: out, zeroed on failure. */
sc_status sc_bech32_to_bytes(uint8_t *out, size_t out_len, const sc_bech32_str *p);

/* Characters of the bech32 string of data_len bytes under a prefix of hrp_len characters,
 * or 0 on size_t overflow. */
size_t sc_bech32_encoded_len(size_t hrp_len, size_t data_len);

/* Streaming encoder state. Holds bits of the payload: sc_bech32_finish wipes it. */
typedef struct sc_bech32_writer {
    char *out;
    size_t cap;
    size_t pos;
    uint32_t chk;  /* BCH checksum state */
    uint32_t acc;  /* pending payload bits */
    unsigned bits; /* number of pending bits (0..4 between calls) */
    int failed;    /* a bad prefix, or a character that did not fit in cap */
} sc_bech32_writer;

/* Starts a string in out[0..cap): writes hrp (must be lowercase, 1..83 characters in
 * 33..126) and the separator. Capacity is checked as the writer goes; the caller sizes out
 * with sc_bech32_encoded_len. */
void sc_bech32_begin(sc_bech32_writer *w, char *out, size_t cap, const char *hrp, size_t hrp_len);

/* Appends bytes to the payload. */
void sc_bech32_put(sc_bech32_writer *w, const uint8_t *data, size_t len);

/* Pads the last group with zero bits, appends the checksum and wipes w.
 * Returns: SC_OK with *out_len the characters written; SC_ERR_INTERNAL for a bad prefix or
 *          an out that was too small (a bug in the caller; *out_len is 0 and out holds
 *          garbage the caller must wipe and discard). */
sc_status sc_bech32_finish(sc_bech32_writer *w, size_t *out_len);

/* One-shot encoding of data[0..data_len) (lowercase, no terminator).
 * Returns: SC_OK; SC_ERR_ARG (bad hrp, NULL pointers, size overflow);
 *          SC_ERR_BUFFER_TOO_SMALL (*out_len = the characters needed, out untouched). */
sc_status sc_bech32_encode(char *out, size_t out_cap, size_t *out_len, const char *hrp,
                           size_t hrp_len, const uint8_t *data, size_t data_len);

#endif
