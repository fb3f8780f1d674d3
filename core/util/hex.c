/* Lowercase hex encoding and strict hex decoding, both constant-time: no table, no branch on
 * the data (hex often carries secret keys). */
#include <softchat/mem.h>
#include <softchat/hex.h>

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
    for (i = 0; i < n; i++) {
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
