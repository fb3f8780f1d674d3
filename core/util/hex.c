/* Lowercase hex encoding and strict hex decoding, both constant-time: no table, no branch on
 * the data (hex often carries secret keys). Decoding takes eight characters at a time in a
 * 64-bit word (event ids, keys and signatures are parsed on every received event). */
#include <softchat/mem.h>
#include <softchat/hex.h>

#include "util/swar.h"

size_t sc_hex_encode_len(size_t len)
{
    return len > ((size_t)-1) / 2 ? 0 : 2 * len;
}

/* '0'..'9', 'a'..'f' for n = 0..15, by arithmetic: 39 more past 9. */
static char nibble_char(unsigned n)
{
    unsigned past9 = 0u - ((9u - n) >> (sizeof(unsigned) * 8 - 1));
    return (char)(n + '0' + (past9 & 39u));
}

/* All-ones when lo <= c <= hi, else 0; no branch on c. */
static unsigned in_range(unsigned c, unsigned lo, unsigned hi)
{
    return (((c - lo) | (hi - c)) >> (sizeof(unsigned) * 8 - 1)) - 1u;
}

/* Value 0..15 of hex digit c, without branching on c; any other character sets *bad. */
static unsigned digit(unsigned c, unsigned any_case, unsigned *bad)
{
    unsigned num = in_range(c, '0', '9');
    unsigned low = in_range(c, 'a', 'f');
    unsigned up = in_range(c, 'A', 'F') & (0u - any_case);
    unsigned v = (num & (c - '0')) | (low & (c - 'a' + 10u)) | (up & (c - 'A' + 10u));

    *bad |= ~(num | low | up) & 1u;
    return v & 0xfu;
}

sc_status sc_hex_encode(char *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                        size_t in_len)
{
    size_t i;

    if (out_len == NULL || (in == NULL && in_len != 0) || in_len > ((size_t)-1) / 2) {
        return SC_ERR_ARG;
    }
    *out_len = 2 * in_len;
    if (out_cap < 2 * in_len) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL && in_len != 0) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < in_len; i++) {
        out[2 * i] = nibble_char(in[i] >> 4);
        out[2 * i + 1] = nibble_char(in[i] & 15u);
    }
    return SC_OK;
}

/* The high bit of each byte of x (all below 0x80) set where lo <= byte <= hi. No carry
 * crosses a byte: each sum stays below 0x100. */
static uint64_t in_range8(uint64_t x, unsigned lo, unsigned hi)
{
    uint64_t ge_lo = x + SC_SWAR_ONES * (0x80u - lo);
    uint64_t le_hi = ~(x + SC_SWAR_ONES * (0x7fu - hi));

    return ge_lo & le_hi & SC_SWAR_HIGHS;
}

/* Eight hex characters at p into four bytes at out; sets *bad when one is not a digit of
 * the accepted case. No branch on the data. */
static void decode8(uint8_t out[4], const char *p, unsigned any_case, unsigned *bad)
{
    uint64_t x = sc_swar_load((const uint8_t *)p);
    uint64_t ascii = ~x & SC_SWAR_HIGHS; /* the ranges below need bytes under 0x80 */
    uint64_t num = in_range8(x, '0', '9'), low = in_range8(x, 'a', 'f');
    uint64_t up = in_range8(x, 'A', 'F') & (0u - (uint64_t)any_case);
    uint64_t letter = (low | up) >> 7, v, t;

    *bad |= (unsigned)(((num | low | up) & ascii) != SC_SWAR_HIGHS);
    v = (x & (SC_SWAR_ONES * 0x0f)) + letter * 9; /* each byte its digit value, 0..15 */
    t = ((v & UINT64_C(0x00ff00ff00ff00ff)) << 4) | ((v >> 8) & UINT64_C(0x00ff00ff00ff00ff));
    out[0] = (uint8_t)t;
    out[1] = (uint8_t)(t >> 16);
    out[2] = (uint8_t)(t >> 32);
    out[3] = (uint8_t)(t >> 48);
}

sc_status sc_hex_decode(uint8_t *out, size_t out_cap, size_t *out_len, const char *hex,
                        size_t hex_len, unsigned flags)
{
    unsigned bad = 0;
    size_t i, n;

    if (out_len == NULL || (hex == NULL && hex_len != 0) || (flags & ~SC_HEX_ANY_CASE) != 0) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (hex_len % 2 != 0) {
        return SC_ERR_ENCODING;
    }
    n = hex_len / 2;
    if (out_cap < n) {
        *out_len = n;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL && n != 0) {
        return SC_ERR_ARG;
    }
    for (i = 0; i + 4 <= n; i += 4) {
        decode8(out + i, hex + 2 * i, flags & SC_HEX_ANY_CASE, &bad);
    }
    for (; i < n; i++) {
        unsigned hi = digit((unsigned char)hex[2 * i], flags & SC_HEX_ANY_CASE, &bad);
        unsigned lo = digit((unsigned char)hex[2 * i + 1], flags & SC_HEX_ANY_CASE, &bad);
        out[i] = (uint8_t)((hi << 4) | lo);
    }
    if (bad) {
        sc_mem_wipe(out, n);
        return SC_ERR_ENCODING;
    }
    *out_len = n;
    return SC_OK;
}

sc_status sc_hex_decode_fixed(uint8_t *out, size_t n, const char *hex, size_t hex_len,
                              unsigned flags)
{
    size_t got;
    if (out == NULL || (hex == NULL && hex_len != 0)) {
        return SC_ERR_ARG;
    }
    if (n > ((size_t)-1) / 2 || hex_len != 2 * n) {
        return SC_ERR_ENCODING;
    }
    return sc_hex_decode(out, n, &got, hex, hex_len, flags);
}
