/* Padded standard base64 (RFC 4648 section 4): encoding, and strict canonical decoding, whose
 * alphabet mappings do not branch on the data and use no tables (payloads may carry
 * secrets). The bulk of the input is decoded 8 characters at a time in a 64-bit word
 * (SWAR: one byte lane per character), or 16 at a time by the SSSE3 kernel (x86-64,
 * core/util/base64_simd.c) or 64 at a time by the NEON kernel (aarch64,
 * core/util/base64_neon.c) where the CPU has it, the tail one character at a time; all
 * compute the same function. */
#include "util/base64_internal.h"

size_t sc_base64_encode_len(size_t len)
{
    if (len > ((size_t)-1) / 4 * 3 - 2) {
        return 0;
    }
    return (len + 2) / 3 * 4;
}

size_t sc_base64_decode_max(size_t b64_len)
{
    return b64_len / 4 * 3;
}

/* All-ones when lo <= c <= hi, else 0. */
static unsigned in_range(unsigned c, unsigned lo, unsigned hi)
{
    return (((c - lo) | (hi - c)) >> (sizeof(unsigned) * 8 - 1)) - 1u;
}

/* Sextet value of c, or sets *bad; no branch on c. */
static unsigned sextet(unsigned c, unsigned *bad)
{
    unsigned up = in_range(c, 'A', 'Z');
    unsigned low = in_range(c, 'a', 'z');
    unsigned num = in_range(c, '0', '9');
    unsigned plus = in_range(c, '+', '+');
    unsigned slash = in_range(c, '/', '/');
    unsigned v = (up & (c - 'A')) | (low & (c - 'a' + 26u)) | (num & (c - '0' + 52u)) |
                 (plus & 62u) | (slash & 63u);

    *bad |= ~(up | low | num | plus | slash) & 1u;
    return v & 63u;
}

#define B8(x) ((uint64_t)(x)*0x0101010101010101ull)
#define HI8 B8(0x80)

/* Per byte lane of x (lanes < 0x80): high bit set where lane >= lo / lane <= hi. */
static uint64_t lanes_ge(uint64_t x, unsigned lo)
{
    return ((x | HI8) - B8(lo)) & HI8;
}

static uint64_t lanes_le(uint64_t x, unsigned hi)
{
    return ((B8(hi) | HI8) - x) & HI8;
}

/* 0xff in every lane whose high bit is set in m (m has only high bits). */
static uint64_t lanes_mask(uint64_t m)
{
    return (m >> 7) * 0xffu;
}

/* Lane-wise x + k mod 256, without carries between lanes. */
static uint64_t lanes_add(uint64_t x, unsigned k)
{
    uint64_t y = B8(k);
    return ((x & ~HI8) + (y & ~HI8)) ^ ((x ^ y) & HI8);
}

/* The sextets of the 8 characters in x (character i in lane i), one per lane; sets high bits
 * of *bad for characters outside the alphabet. */
static uint64_t sextets8(uint64_t x, uint64_t *bad)
{
    uint64_t x7 = x & ~HI8;
    uint64_t up = lanes_ge(x7, 'A') & lanes_le(x7, 'Z');
    uint64_t low = lanes_ge(x7, 'a') & lanes_le(x7, 'z');
    uint64_t num = lanes_ge(x7, '0') & lanes_le(x7, '9');
    uint64_t plus = lanes_ge(x7, '+') & lanes_le(x7, '+');
    uint64_t slash = lanes_ge(x7, '/') & lanes_le(x7, '/');

    *bad |= (x & HI8) | (~(up | low | num | plus | slash) & HI8);
    return (lanes_mask(up) & lanes_add(x7, 256u - 'A')) |
           (lanes_mask(low) & lanes_add(x7, 256u - 'a' + 26u)) |
           (lanes_mask(num) & lanes_add(x7, 52u - '0')) | (lanes_mask(plus) & B8(62)) |
           (lanes_mask(slash) & B8(63));
}

/* Decodes 8 characters (two full quads, no padding) into 6 bytes. */
static void decode8(uint8_t out[6], const unsigned char *in, uint64_t *bad)
{
    uint64_t x = 0, v, w = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        x = (x << 8) | in[i];
    }
    v = sextets8(x, bad);
    /* lane i holds sextet i; gather them big-endian: pairs, then quads, then the whole */
    v = ((v & 0x003f003f003f003full) << 6) | ((v >> 8) & 0x003f003f003f003full);
    v = ((v & 0x00000fff00000fffull) << 12) | ((v >> 16) & 0x00000fff00000fffull);
    w = ((v & 0xffffffull) << 24) | ((v >> 32) & 0xffffffull);
    for (i = 0; i < 6; i++) {
        out[i] = (uint8_t)(w >> (40 - 8 * i));
    }
}

/* Encodes 6 bytes into 8 characters: the sextets are spread one per byte lane (the reverse of
 * decode8's gather), then mapped to the alphabet lane-wise as in sextet_char. Every lane stays
 * within 0..137 through the sums, so plain 64-bit arithmetic never carries between lanes. */
static void encode6(char out[8], const uint8_t in[6])
{
    uint64_t w = ((uint64_t)in[0] << 40) | ((uint64_t)in[1] << 32) | ((uint64_t)in[2] << 24) |
                 ((uint64_t)in[3] << 16) | ((uint64_t)in[4] << 8) | in[5];
    uint64_t x = (w >> 24) | ((w & 0xffffffull) << 32);
    uint64_t ge26, ge52, ge62, ge63;

    x = ((x >> 12) & 0x00000fff00000fffull) | ((x & 0x00000fff00000fffull) << 16);
    x = ((x >> 6) & 0x003f003f003f003full) | ((x & 0x003f003f003f003full) << 8);
    /* 1 in each lane whose sextet is >= k (lanes < 64: x + 128 - k never carries) */
    ge26 = ((x + B8(128 - 26)) >> 7) & B8(1);
    ge52 = ((x + B8(128 - 52)) >> 7) & B8(1);
    ge62 = ((x + B8(128 - 62)) >> 7) & B8(1);
    ge63 = ((x + B8(128 - 63)) >> 7) & B8(1);
    x = x + B8('A') + ge26 * 6u + ge63 * 3u - ge52 * 75u - ge62 * 15u;
    /* spelled out so that compilers merge the stores */
    out[0] = (char)(uint8_t)x;
    out[1] = (char)(uint8_t)(x >> 8);
    out[2] = (char)(uint8_t)(x >> 16);
    out[3] = (char)(uint8_t)(x >> 24);
    out[4] = (char)(uint8_t)(x >> 32);
    out[5] = (char)(uint8_t)(x >> 40);
    out[6] = (char)(uint8_t)(x >> 48);
    out[7] = (char)(uint8_t)(x >> 56);
}

/* 1 when v >= k (v, k < 2^31), else 0; no branch. */
static unsigned ge(unsigned v, unsigned k)
{
    return ((k - 1u - v) >> (sizeof(unsigned) * 8 - 1)) & 1u;
}

/* The character of sextet v, by arithmetic rather than a table (the bytes may be secret):
 * 'A' + v, moved on at 26 ('a'), 52 ('0'), 62 ('+') and 63 ('/'). */
static char sextet_char(unsigned v)
{
    v &= 63u;
    return (char)(v + 'A' + 6u * ge(v, 26) - 75u * ge(v, 52) - 15u * ge(v, 62) + 3u * ge(v, 63));
}

sc_b64_kernel sc_b64_best_kernel(void)
{
    if (sc_b64_ssse3_available()) {
        return SC_B64_SSSE3;
    }
    if (sc_b64_neon_available()) {
        return SC_B64_NEON;
    }
    return SC_B64_PORTABLE;
}

int sc_b64_kernel_available(sc_b64_kernel k)
{
    switch (k) {
    case SC_B64_PORTABLE:
        return 1;
    case SC_B64_SSSE3:
        return sc_b64_ssse3_available();
    case SC_B64_NEON:
        return sc_b64_neon_available();
    }
    return 0;
}

sc_status sc_base64_encode(char *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                           size_t in_len)
{
    return sc_b64_encode_with(sc_b64_best_kernel(), out, out_cap, out_len, in, in_len);
}

sc_status sc_base64_decode(uint8_t *out, size_t out_cap, size_t *out_len, const char *b64,
                           size_t b64_len)
{
    return sc_b64_decode_with(sc_b64_best_kernel(), out, out_cap, out_len, b64, b64_len);
}

sc_status sc_b64_encode_with(sc_b64_kernel k, char *out, size_t out_cap, size_t *out_len,
                             const uint8_t *in, size_t in_len)
{
    size_t need, i = 0, o = 0;

    if (out_len == NULL || (in == NULL && in_len != 0)) {
        return SC_ERR_ARG;
    }
    need = sc_base64_encode_len(in_len);
    if (need == 0 && in_len != 0) {
        return SC_ERR_ARG;
    }
    *out_len = need;
    if (out_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL && need != 0) {
        return SC_ERR_ARG;
    }
    if (k == SC_B64_SSSE3) {
        i = sc_b64_ssse3_encode(out, in, in_len);
    } else if (k == SC_B64_NEON) {
        i = sc_b64_neon_encode(out, in, in_len);
    }
    o = i / 3 * 4;
    for (; i + 6 <= in_len; i += 6, o += 8) {
        encode6(out + o, in + i);
    }
    for (; i + 3 <= in_len; i += 3) {
        uint32_t w = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8) | in[i + 2];
        out[o++] = sextet_char(w >> 18);
        out[o++] = sextet_char(w >> 12);
        out[o++] = sextet_char(w >> 6);
        out[o++] = sextet_char(w);
    }
    if (in_len - i == 1) {
        uint32_t w = (uint32_t)in[i] << 16;
        out[o++] = sextet_char(w >> 18);
        out[o++] = sextet_char(w >> 12);
        out[o++] = '=';
        out[o++] = '=';
    } else if (in_len - i == 2) {
        uint32_t w = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8);
        out[o++] = sextet_char(w >> 18);
        out[o++] = sextet_char(w >> 12);
        out[o++] = sextet_char(w >> 6);
        out[o++] = '=';
    }
    return SC_OK;
}

sc_status sc_b64_decode_with(sc_b64_kernel k, uint8_t *out, size_t out_cap, size_t *out_len,
                             const char *b64, size_t b64_len)
{
    unsigned bad = 0;
    uint64_t bad8 = 0;
    size_t pad = 0, n, groups, g = 0, o = 0;

    if (out_len == NULL || (b64 == NULL && b64_len != 0)) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (b64_len % 4 != 0) {
        return SC_ERR_BASE64;
    }
    if (b64_len == 0) {
        return SC_OK;
    }
    if (b64[b64_len - 1] == '=') {
        pad = (b64[b64_len - 2] == '=') ? 2 : 1;
    }
    n = b64_len / 4 * 3 - pad;
    if (out_cap < n) {
        *out_len = n;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        return SC_ERR_ARG;
    }
    groups = b64_len / 4;
    if (k == SC_B64_SSSE3) { /* never the last quad */
        g = sc_b64_ssse3_decode(out, b64, b64_len - 4, &bad) / 4;
    } else if (k == SC_B64_NEON) {
        g = sc_b64_neon_decode(out, b64, b64_len - 4, &bad) / 4;
    }
    o = g * 3;
    /* pairs of full quads, never the last quad (it may carry padding) */
    for (; g + 2 < groups; g += 2, o += 6) {
        decode8(out + o, (const unsigned char *)b64 + 4 * g, &bad8);
    }
    bad |= (bad8 != 0);
    for (; g < groups; g++) {
        const unsigned char *q = (const unsigned char *)b64 + 4 * g;
        int last = (g + 1 == groups);
        unsigned a = sextet(q[0], &bad);
        unsigned b = sextet(q[1], &bad);
        unsigned c = (last && pad == 2) ? 0u : sextet(q[2], &bad);
        unsigned d = (last && pad >= 1) ? 0u : sextet(q[3], &bad);
        uint32_t w = (a << 18) | (b << 12) | (c << 6) | d;

        out[o++] = (uint8_t)(w >> 16);
        if (!(last && pad == 2)) {
            out[o++] = (uint8_t)(w >> 8);
        } else if (w & 0xffffu) {
            bad = 1; /* non-zero unused bits: not the canonical encoding */
        }
        if (!(last && pad >= 1)) {
            out[o++] = (uint8_t)w;
        } else if (pad == 1 && (w & 0xffu)) {
            bad = 1;
        }
    }
    if (bad) {
        sc_mem_wipe(out, n);
        return SC_ERR_BASE64;
    }
    *out_len = n;
    return SC_OK;
}
