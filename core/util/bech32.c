/* Bech32 (BIP-173) checking, decoding and streaming encoding into caller memory. The data
 * characters may encode a secret key, so their mapping, checksum and bit conversion use masks
 * instead of branches or value-indexed tables; the prefix and the lengths are public. */
#include "util/bech32.h"

#include <softchat/mem.h>

#include <string.h>

#define BECH32_CHECKSUM_CHARS 6u
#define BECH32_HRP_MAX 83u

static const char charset[32] = {'q', 'p', 'z', 'r', 'y', '9', 'x', '8', 'g', 'f', '2',
                                 't', 'v', 'd', 'w', '0', 's', '3', 'j', 'n', '5', '4',
                                 'k', 'h', 'c', 'e', '6', 'm', 'u', 'a', '7', 'l'};

/* All-ones when lo <= c <= hi, else 0 (c, lo, hi below 2^16). */
static uint32_t in_range(uint32_t c, uint32_t lo, uint32_t hi)
{
    return (((c - lo) | (hi - c)) >> 31) - 1u;
}

/* All-ones when a == b, else 0 (a, b below 2^16). */
static uint32_t equal(uint32_t a, uint32_t b)
{
    return 0u - ((((a ^ b) - 1u) >> 31) & 1u);
}

/* One step of the BIP-173 BCH checksum over a 5-bit value. */
static uint32_t polymod_step(uint32_t chk, uint32_t v)
{
    static const uint32_t gen[5] = {0x3b6a57b2u, 0x26508e6du, 0x1ea119fau, 0x3d4233ddu,
                                    0x2a1462b3u};
    uint32_t top = chk >> 25;
    unsigned i;

    chk = ((chk & 0x1ffffffu) << 5) ^ v;
    for (i = 0; i < 5; i++) {
        chk ^= (0u - ((top >> i) & 1u)) & gen[i];
    }
    return chk;
}

/* The checksum state after the expanded prefix (high bits, a zero, low bits). */
static uint32_t polymod_hrp(const char *hrp, size_t len)
{
    uint32_t chk = 1;
    size_t i;

    for (i = 0; i < len; i++) {
        uint32_t c = (unsigned char)hrp[i];
        c |= in_range(c, 'A', 'Z') & 0x20u;
        chk = polymod_step(chk, c >> 5);
    }
    chk = polymod_step(chk, 0);
    for (i = 0; i < len; i++) {
        uint32_t c = (unsigned char)hrp[i];
        c |= in_range(c, 'A', 'Z') & 0x20u;
        chk = polymod_step(chk, c & 31u);
    }
    return chk;
}

/* The 5-bit value of data character c (either case), or sets *bad. */
static uint32_t char_value(uint32_t c, uint32_t *bad)
{
    uint32_t v = 0, found = 0, i;

    c |= in_range(c, 'A', 'Z') & 0x20u;
    for (i = 0; i < 32; i++) {
        uint32_t m = equal(c, (unsigned char)charset[i]);
        v |= m & i;
        found |= m;
    }
    *bad |= ~found & 1u;
    return v;
}

/* The lowercase character of a 5-bit value. */
static char value_char(uint32_t v)
{
    uint32_t c = 0, i;

    for (i = 0; i < 32; i++) {
        c |= equal(v & 31u, i) & (unsigned char)charset[i];
    }
    return (char)c;
}

sc_status sc_bech32_parse(sc_bech32_str *p, const char *s, size_t len, size_t hrp_len,
                          size_t max_len)
{
    uint32_t lower = 0, upper = 0, bad = 0, chk;
    size_t i;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    memset(p, 0, sizeof *p);
    if (s == NULL && len != 0) {
        return SC_ERR_ARG;
    }
    /* Shape first: it depends only on lengths and the public prefix. */
    if (len > max_len || hrp_len == 0 || hrp_len > BECH32_HRP_MAX || hrp_len >= len ||
        s[hrp_len] != '1' || len - hrp_len - 1 < BECH32_CHECKSUM_CHARS) {
        return SC_ERR_BECH32;
    }
    /* Byte payloads only: a length that leaves 5 or more bits over has a whole unused group,
     * which the BIP-173 conversion forbids. */
    if ((len - hrp_len - 1 - BECH32_CHECKSUM_CHARS) % 8 * 5 % 8 >= 5) {
        return SC_ERR_BECH32;
    }
    /* Every character: in 33..126 and one case; data characters (which exclude '1', so the
     * separator is the last '1' as BIP-173 requires) in the charset. No early exit. */
    for (i = 0; i < len; i++) {
        uint32_t c = (unsigned char)s[i];
        bad |= ~in_range(c, 33, 126) & 1u;
        lower |= in_range(c, 'a', 'z') & 1u;
        upper |= in_range(c, 'A', 'Z') & 1u;
    }
    chk = polymod_hrp(s, hrp_len);
    for (i = hrp_len + 1; i < len; i++) {
        chk = polymod_step(chk, char_value((unsigned char)s[i], &bad));
    }
    if ((bad | (lower & upper)) != 0 || chk != 1u) {
        return SC_ERR_BECH32;
    }
    p->hrp = s;
    p->hrp_len = hrp_len;
    p->data = s + hrp_len + 1;
    p->data_len = len - hrp_len - 1 - BECH32_CHECKSUM_CHARS;
    return SC_OK;
}

size_t sc_bech32_bytes_len(const sc_bech32_str *p)
{
    return p == NULL ? 0 : p->data_len / 8 * 5 + p->data_len % 8 * 5 / 8;
}

sc_status sc_bech32_to_bytes(uint8_t *out, size_t out_len, const sc_bech32_str *p)
{
    uint32_t acc = 0, bad = 0;
    unsigned bits = 0;
    size_t i, o = 0;

    if (p == NULL || (p->data == NULL && p->data_len != 0) || (out == NULL && out_len != 0) ||
        out_len != sc_bech32_bytes_len(p)) {
        return SC_ERR_ARG;
    }
    if (p->data_len % 8 * 5 % 8 >= 5) { /* never from sc_bech32_parse */
        sc_mem_wipe(out, out_len);
        return SC_ERR_BECH32;
    }
    for (i = 0; i < p->data_len; i++) {
        acc = ((acc << 5) | char_value((unsigned char)p->data[i], &bad)) & 0xfffu;
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    bad |= (acc & ((1u << bits) - 1u)) != 0; /* padding bits must be zero */
    if (bad) {
        sc_mem_wipe(out, out_len);
        return SC_ERR_BECH32;
    }
    return SC_OK;
}

size_t sc_bech32_encoded_len(size_t hrp_len, size_t data_len)
{
    size_t groups;

    if (data_len > ((size_t)-1) / 8) {
        return 0;
    }
    groups = (data_len * 8 + 4) / 5;
    if (hrp_len > ((size_t)-1) - groups - 1 - BECH32_CHECKSUM_CHARS) {
        return 0;
    }
    return hrp_len + 1 + groups + BECH32_CHECKSUM_CHARS;
}

static void put_char(sc_bech32_writer *w, char c)
{
    if (w->pos < w->cap) {
        w->out[w->pos++] = c;
    } else {
        w->failed = 1;
    }
}

/* Emits one 5-bit group: into the checksum and as a character. */
static void put_group(sc_bech32_writer *w, uint32_t v)
{
    w->chk = polymod_step(w->chk, v & 31u);
    put_char(w, value_char(v));
}

void sc_bech32_begin(sc_bech32_writer *w, char *out, size_t cap, const char *hrp, size_t hrp_len)
{
    size_t i;

    memset(w, 0, sizeof *w);
    w->out = out;
    w->cap = out == NULL ? 0 : cap;
    if (hrp == NULL || hrp_len == 0 || hrp_len > BECH32_HRP_MAX) {
        w->failed = 1;
        return;
    }
    for (i = 0; i < hrp_len; i++) {
        unsigned c = (unsigned char)hrp[i];
        if (c < 33 || c > 126 || (c >= 'A' && c <= 'Z')) {
            w->failed = 1;
        }
        put_char(w, (char)c);
    }
    put_char(w, '1');
    w->chk = polymod_hrp(hrp, hrp_len);
}

void sc_bech32_put(sc_bech32_writer *w, const uint8_t *data, size_t len)
{
    size_t i;

    if (data == NULL && len != 0) {
        w->failed = 1;
        return;
    }
    for (i = 0; i < len; i++) {
        w->acc = ((w->acc << 8) | data[i]) & 0xfffu;
        w->bits += 8;
        while (w->bits >= 5) {
            w->bits -= 5;
            put_group(w, w->acc >> w->bits);
        }
    }
}

sc_status sc_bech32_finish(sc_bech32_writer *w, size_t *out_len)
{
    sc_status st;
    uint32_t chk;
    unsigned i;

    if (w->bits != 0) {
        put_group(w, w->acc << (5 - w->bits));
    }
    for (i = 0; i < BECH32_CHECKSUM_CHARS; i++) {
        w->chk = polymod_step(w->chk, 0);
    }
    chk = w->chk ^ 1u;
    for (i = 0; i < BECH32_CHECKSUM_CHARS; i++) {
        put_char(w, value_char(chk >> (5 * (5 - i))));
    }
    st = w->failed ? SC_ERR_INTERNAL : SC_OK;
    if (out_len != NULL) {
        *out_len = st == SC_OK ? w->pos : 0;
    }
    sc_mem_wipe(w, sizeof *w);
    return st;
}

sc_status sc_bech32_encode(char *out, size_t out_cap, size_t *out_len, const char *hrp,
                           size_t hrp_len, const uint8_t *data, size_t data_len)
{
    sc_bech32_writer w;
    size_t i, need;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (hrp == NULL || hrp_len == 0 || hrp_len > BECH32_HRP_MAX ||
        (data == NULL && data_len != 0)) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < hrp_len; i++) {
        unsigned c = (unsigned char)hrp[i];
        if (c < 33 || c > 126 || (c >= 'A' && c <= 'Z')) {
            return SC_ERR_ARG;
        }
    }
    need = sc_bech32_encoded_len(hrp_len, data_len);
    if (need == 0) {
        return SC_ERR_ARG;
    }
    *out_len = need;
    if (out_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        *out_len = 0;
        return SC_ERR_ARG;
    }
    sc_bech32_begin(&w, out, need, hrp, hrp_len);
    sc_bech32_put(&w, data, data_len);
    return sc_bech32_finish(&w, out_len);
}
