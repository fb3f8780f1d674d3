/* Hex, strict base64, sc_mem_ct_compare, sc_mem_wipe and the JSON string writer of the CLI
 * and softchat-bench. Base64 is checked against an independent encoder written here, and
 * every base64 case runs through each kernel the CPU has (the portable one always), which
 * must agree on status, length and every output byte. */
#include "test_core.h"

#include <string.h>

#include "util/base64_internal.h"
#include "util/json_escape.h"
#include "vt_rand.h"

#define SENTINEL 0xa5

static void fill(uint8_t *p, size_t n, uint8_t v)
{
    memset(p, v, n);
}

static int all(const uint8_t *p, size_t n, uint8_t v)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != v) {
            return 0;
        }
    }
    return 1;
}

/* ---- hex ------------------------------------------------------------------------------- */

void test_hex_encode(void **state)
{
    static const uint8_t in[] = {0x00, 0x01, 0x7f, 0x80, 0xab, 0xcd, 0xef, 0xff};
    char out[32];
    size_t len = 99;

    (void)state;
    VT_ASSERT_STATUS(sc_hex_encode(out, sizeof out, &len, in, sizeof in), SC_OK);
    assert_int_equal(len, 16);
    assert_memory_equal(out, "00017f80abcdefff", 16); /* lowercase, no terminator needed */
    assert_int_equal(sc_hex_encode_len(8), 16);
    assert_int_equal(sc_hex_encode_len(0), 0);
    /* too small: *out_len is the need and nothing is written */
    memset(out, SENTINEL, sizeof out);
    len = 0;
    VT_ASSERT_STATUS(sc_hex_encode(out, 15, &len, in, sizeof in), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 16);
    assert_true(all((uint8_t *)out, sizeof out, SENTINEL));
    /* empty input, NULL output with no room needed */
    VT_ASSERT_STATUS(sc_hex_encode((char *)vt_null(), 0, &len, NULL, 0), SC_OK);
    assert_int_equal(len, 0);
    VT_ASSERT_STATUS(sc_hex_encode(out, sizeof out, (size_t *)vt_null(), in, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_hex_encode(out, sizeof out, &len, NULL, 1), SC_ERR_ARG);
}

void test_hex_decode(void **state)
{
    uint8_t all_bytes[256], back[256];
    char hex[512], upper[512];
    size_t i, len = 0;

    (void)state;
    for (i = 0; i < 256; i++) {
        all_bytes[i] = (uint8_t)i;
    }
    VT_ASSERT_STATUS(sc_hex_encode(hex, sizeof hex, &len, all_bytes, 256), SC_OK);
    VT_ASSERT_STATUS(sc_hex_decode(back, sizeof back, &len, hex, 512, SC_HEX_LOWER_ONLY), SC_OK);
    assert_int_equal(len, 256);
    assert_memory_equal(back, all_bytes, 256);
    /* uppercase: refused by default, accepted with SC_HEX_ANY_CASE */
    for (i = 0; i < 512; i++) {
        upper[i] = (hex[i] >= 'a' && hex[i] <= 'f') ? (char)(hex[i] - 'a' + 'A') : hex[i];
    }
    fill(back, sizeof back, SENTINEL);
    VT_ASSERT_STATUS(sc_hex_decode(back, sizeof back, &len, upper, 512, 0), SC_ERR_ENCODING);
    assert_true(all(back, 256, 0)); /* zeroed on failure */
    VT_ASSERT_STATUS(sc_hex_decode(back, sizeof back, &len, upper, 512, SC_HEX_ANY_CASE), SC_OK);
    assert_memory_equal(back, all_bytes, 256);
    VT_ASSERT_STATUS(sc_hex_decode(back, sizeof back, &len, "aB", 2, SC_HEX_ANY_CASE), SC_OK);
    assert_int_equal(back[0], 0xab);
    /* empty input */
    VT_ASSERT_STATUS(sc_hex_decode(back, sizeof back, &len, "", 0, 0), SC_OK);
    assert_int_equal(len, 0);
    /* fixed size */
    VT_ASSERT_STATUS(sc_hex_decode_fixed(back, 2, "beef", 4, 0), SC_OK);
    assert_int_equal(back[0], 0xbe);
    assert_int_equal(back[1], 0xef);
    VT_ASSERT_STATUS(sc_hex_decode_fixed(back, 2, "beefaa", 6, 0), SC_ERR_ENCODING);
    VT_ASSERT_STATUS(sc_hex_decode_fixed(back, 2, "bee", 3, 0), SC_ERR_ENCODING);
    VT_ASSERT_STATUS(sc_hex_decode_fixed(back, 2, "BEEF", 4, 0), SC_ERR_ENCODING);
    VT_ASSERT_STATUS(sc_hex_decode_fixed(back, 2, "BEEF", 4, SC_HEX_ANY_CASE), SC_OK);
}

void test_hex_decode_rejects(void **state)
{
    static const char bad_chars[] = {'g', 'G', 'z', ' ', '\n', '\0',       '/',       ':',
                                     '@', '`', '-', '+', 'x',  (char)0x80, (char)0xff};
    uint8_t out[8];
    char hex[8];
    size_t i, len;

    (void)state;
    /* odd length */
    len = 77;
    VT_ASSERT_STATUS(sc_hex_decode(out, sizeof out, &len, "abc", 3, 0), SC_ERR_ENCODING);
    /* every bad character, in either nibble position */
    for (i = 0; i < sizeof bad_chars; i++) {
        memcpy(hex, "0a1b2c3d", 8);
        hex[i % 8] = bad_chars[i];
        fill(out, sizeof out, SENTINEL);
        VT_ASSERT_STATUS(sc_hex_decode(out, sizeof out, &len, hex, 8, SC_HEX_ANY_CASE),
                         SC_ERR_ENCODING);
        assert_true(all(out, 4, 0));
    }
    /* buffer too small: *out_len holds the need, nothing written */
    fill(out, sizeof out, SENTINEL);
    len = 0;
    VT_ASSERT_STATUS(sc_hex_decode(out, 3, &len, "00112233", 8, 0), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 4);
    assert_true(all(out, sizeof out, SENTINEL));
    /* argument errors */
    VT_ASSERT_STATUS(sc_hex_decode(out, sizeof out, (size_t *)vt_null(), "00", 2, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_hex_decode(out, sizeof out, &len, NULL, 2, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_hex_decode(out, sizeof out, &len, "00", 2, 0x80u), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_hex_decode_fixed((uint8_t *)vt_null(), 1, "00", 2, 0), SC_ERR_ARG);
}

/* The decoder takes eight characters at a time, then one byte at a time: every byte value at
 * every position of a 26-character text (three words and a tail) decodes exactly when it is
 * a digit of the accepted case, to the value a one-character reference gives. */
void test_hex_decode_every_byte_everywhere(void **state)
{
    static const char base[] = "0123456789abcdef0123456789";
    uint8_t out[13], want[13];
    char hex[26];
    size_t pos, len, k;
    unsigned c, any;

    (void)state;
    for (any = 0; any <= 1; any++) {
        for (pos = 0; pos < sizeof hex; pos++) {
            for (c = 0; c < 256; c++) {
                int lower = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                int valid = lower || (any && c >= 'A' && c <= 'F');
                memcpy(hex, base, sizeof hex);
                hex[pos] = (char)c;
                for (k = 0; k < sizeof want; k++) {
                    unsigned hi = (unsigned char)hex[2 * k], lo = (unsigned char)hex[2 * k + 1];
                    hi = hi <= '9' ? hi - '0' : (hi | 0x20) - 'a' + 10;
                    lo = lo <= '9' ? lo - '0' : (lo | 0x20) - 'a' + 10;
                    want[k] = (uint8_t)((hi << 4) | lo);
                }
                fill(out, sizeof out, SENTINEL);
                if (sc_hex_decode(out, sizeof out, &len, hex, sizeof hex,
                                  any ? SC_HEX_ANY_CASE : 0) != (valid ? SC_OK : SC_ERR_ENCODING)) {
                    fail_msg("byte 0x%02x at %zu (any case %u)", c, pos, any);
                }
                if (valid) {
                    assert_memory_equal(out, want, sizeof want);
                } else {
                    assert_true(all(out, sizeof out, 0));
                }
            }
        }
    }
}

/* ---- base64 ---------------------------------------------------------------------------- */

#define KERNEL_BUF 4096

/* One base64 call (decoding when `decode`) with kernel k. */
static sc_status b64_with(int decode, sc_b64_kernel k, void *out, size_t cap, size_t *len,
                          const void *in, size_t n)
{
    return decode ? sc_b64_decode_with(k, out, cap, len, in, n)
                  : sc_b64_encode_with(k, out, cap, len, in, n);
}

/* The call through the portable kernel and through every other kernel the CPU runs (SSSE3 on
 * x86-64, NEON on aarch64), each from the same starting output: all must give the same
 * status, length and bytes. */
static sc_status b64_both(int decode, void *out, size_t cap, size_t *len, const void *in, size_t n)
{
    static uint8_t pre[KERNEL_BUF], portable[KERNEL_BUF];
    size_t len_portable = 0;
    sc_status st, st2;
    int cmp = out != NULL && cap <= KERNEL_BUF && len != NULL, k;

    if (cmp) {
        memcpy(pre, out, cap);
    }
    st = b64_with(decode, SC_B64_PORTABLE, out, cap, len, in, n);
    if (cmp) {
        len_portable = *len;
        memcpy(portable, out, cap);
    }
    for (k = 1; k < SC_B64_KERNELS; k++) {
        if (!sc_b64_kernel_available((sc_b64_kernel)k)) {
            continue;
        }
        if (cmp) {
            memcpy(out, pre, cap);
        }
        st2 = b64_with(decode, (sc_b64_kernel)k, out, cap, len, in, n);
        assert_int_equal(st2, st);
        if (cmp) {
            assert_int_equal(*len, len_portable);
            assert_memory_equal(out, portable, cap);
        }
    }
    return st;
}

static sc_status b64_dec(uint8_t *out, size_t cap, size_t *len, const char *b64, size_t n)
{
    return b64_both(1, out, cap, len, b64, n);
}

static sc_status b64_enc(char *out, size_t cap, size_t *len, const uint8_t *in, size_t n)
{
    return b64_both(0, out, cap, len, in, n);
}

/* Reference encoder (RFC 4648 section 4, padded). Returns the length. */
static size_t ref_base64(char *out, const uint8_t *in, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i, o = 0;

    for (i = 0; i < n; i += 3) {
        uint32_t w = (uint32_t)in[i] << 16;
        size_t rem = n - i;

        if (rem > 1) {
            w |= (uint32_t)in[i + 1] << 8;
        }
        if (rem > 2) {
            w |= in[i + 2];
        }
        out[o++] = tab[(w >> 18) & 63];
        out[o++] = tab[(w >> 12) & 63];
        out[o++] = rem > 1 ? tab[(w >> 6) & 63] : '=';
        out[o++] = rem > 2 ? tab[w & 63] : '=';
    }
    return o;
}

void test_base64_round_trip(void **state)
{
    static uint8_t in[300], back[300];
    static char enc[404], ref[404];
    size_t n, len, rlen;

    (void)state;
    vt_rand_seed(0x6261736536340001ull);
    for (n = 0; n <= 300; n++) {
        vt_rand_bytes(in, n);
        if (n % 7 == 0) {
            memset(in, n % 2 ? 0xff : 0x00, n); /* all-zero and all-one bytes too */
        }
        rlen = ref_base64(ref, in, n);
        assert_int_equal(sc_base64_encode_len(n), rlen);
        VT_ASSERT_STATUS(b64_enc(enc, sizeof enc, &len, in, n), SC_OK);
        assert_int_equal(len, rlen);
        assert_memory_equal(enc, ref, rlen);
        fill(back, sizeof back, SENTINEL);
        VT_ASSERT_STATUS(b64_dec(back, sizeof back, &len, enc, rlen), SC_OK);
        assert_int_equal(len, n);
        assert_memory_equal(back, in, n);
        assert_true(sc_base64_decode_max(rlen) >= n);
        /* exact capacity suffices */
        VT_ASSERT_STATUS(b64_dec(back, n, &len, enc, rlen), SC_OK);
        assert_int_equal(len, n);
    }
}

void test_base64_known(void **state)
{
    static const struct {
        const char *plain, *b64;
    } rfc4648[] = {{"", ""},
                   {"f", "Zg=="},
                   {"fo", "Zm8="},
                   {"foo", "Zm9v"},
                   {"foob", "Zm9vYg=="},
                   {"fooba", "Zm9vYmE="},
                   {"foobar", "Zm9vYmFy"}};
    uint8_t out[16];
    char enc[16];
    size_t i, len;

    (void)state;
    memset(out, 0, sizeof out); /* b64_dec/b64_enc compare whole buffers */
    memset(enc, 0, sizeof enc);
    for (i = 0; i < sizeof rfc4648 / sizeof rfc4648[0]; i++) {
        size_t pl = strlen(rfc4648[i].plain), bl = strlen(rfc4648[i].b64);

        VT_ASSERT_STATUS(b64_enc(enc, sizeof enc, &len, (const uint8_t *)rfc4648[i].plain, pl),
                         SC_OK);
        assert_int_equal(len, bl);
        assert_memory_equal(enc, rfc4648[i].b64, bl);
        VT_ASSERT_STATUS(b64_dec(out, sizeof out, &len, rfc4648[i].b64, bl), SC_OK);
        assert_int_equal(len, pl);
        assert_memory_equal(out, rfc4648[i].plain, pl);
    }
    /* both alphabet ends: "+/" is standard */
    VT_ASSERT_STATUS(b64_dec(out, sizeof out, &len, "+/+/", 4), SC_OK);
    assert_int_equal(len, 3);
    assert_int_equal(out[0], 0xfb);
    assert_int_equal(out[1], 0xff);
    assert_int_equal(out[2], 0xbf);
    assert_int_equal(sc_base64_decode_max(8), 6);
}

void test_base64_rejects(void **state)
{
    static const char *const bad[] = {
        "Z",        "Zg",         "Zg=",      "Zm9vY", /* length not a multiple of 4 */
        "Zg!=",     "Zm9\x80",    "Zm9\0",    "Zm.v",  /* bad characters */
        "Zg==Zg==", "Z=g=",       "=Zg=",     "Zm=v",  /* '=' in the middle */
        "Z===",     "====",       "Zm9vYg=x",          /* bad padding */
        "QR==",     "Zh==",       "Zm9=",     "QUJ=",  /* non-zero unused bits */
        "Zm9\n",    "Zm9vYm\r\n", "Zm 9",     "\tZm9", /* whitespace */
        "-_-_",     "Zm9v_w==",   "Zm9-",              /* URL-safe alphabet */
    };
    static const size_t bad_len[] = {1, 2, 3, 5, 4, 4, 4, 4, 8, 4, 4, 4, 4,
                                     4, 8, 4, 4, 4, 4, 4, 8, 4, 4, 4, 8, 4};
    uint8_t out[16];
    size_t i, j, len;

    (void)state;
    assert_int_equal(sizeof bad / sizeof bad[0], sizeof bad_len / sizeof bad_len[0]);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sc_status st;

        fill(out, sizeof out, SENTINEL);
        st = b64_dec(out, sizeof out, &len, bad[i], bad_len[i]);
        if (st != SC_ERR_BASE64) {
            fail_msg("base64 \"%s\" (%zu chars): %s, expected SC_ERR_BASE64", bad[i], bad_len[i],
                     sc_status_name(st));
        }
        for (j = 0; j < sizeof out; j++) { /* nothing decoded is released */
            assert_true(out[j] == 0 || out[j] == SENTINEL);
        }
    }
    /* the canonical neighbours of the unused-bit cases decode */
    VT_ASSERT_STATUS(b64_dec(out, sizeof out, &len, "QQ==", 4), SC_OK);
    assert_int_equal(len, 1);
    assert_int_equal(out[0], 'A');
    VT_ASSERT_STATUS(b64_dec(out, sizeof out, &len, "QUI=", 4), SC_OK);
    assert_int_equal(len, 2);
    VT_ASSERT_STATUS(b64_dec(out, sizeof out, (size_t *)vt_null(), "QQ==", 4), SC_ERR_ARG);
    VT_ASSERT_STATUS(b64_dec(out, sizeof out, &len, NULL, 4), SC_ERR_ARG);
}

/* Every character position of a long string (most are decoded 8 at a time, the last quads
 * one by one), with every character outside the alphabet: SC_ERR_BASE64, output zeroed. And
 * every byte value is accepted exactly when it is in the alphabet. */
void test_base64_rejects_everywhere(void **state)
{
    uint8_t raw[150], out[150];
    char b64[200], bad[200];
    size_t len, pos, j;
    unsigned c;

    (void)state;
    for (j = 0; j < sizeof raw; j++) {
        raw[j] = (uint8_t)(j * 37 + 11);
    }
    assert_int_equal(b64_enc(b64, sizeof b64, &len, raw, sizeof raw), SC_OK);
    assert_int_equal(len, 200);
    for (c = 0; c < 256; c++) {
        int in_alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                          (c >= '0' && c <= '9') || c == '+' || c == '/';
        for (pos = 0; pos < 196; pos += 1 + (c % 3)) { /* the last quad is the padding case */
            sc_status st;
            memcpy(bad, b64, sizeof bad);
            bad[pos] = (char)c;
            fill(out, sizeof out, SENTINEL);
            st = b64_dec(out, sizeof out, &len, bad, 200);
            if (in_alphabet) {
                assert_int_equal(st, SC_OK);
            } else {
                if (st != SC_ERR_BASE64) {
                    fail_msg("char 0x%02x at %zu: %s", c, pos, sc_status_name(st));
                }
                for (j = 0; j < sizeof out; j++) {
                    assert_true(out[j] == 0 || out[j] == SENTINEL);
                }
            }
        }
    }
}

void test_base64_buffer_too_small(void **state)
{
    uint8_t out[8];
    char enc[8];
    size_t len;

    (void)state;
    /* decode: *out_len is the exact decoded length, not the upper bound */
    fill(out, sizeof out, SENTINEL);
    len = 0;
    VT_ASSERT_STATUS(b64_dec(out, 4, &len, "Zm9vYmE=", 8), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 5);
    assert_true(all(out, sizeof out, SENTINEL));
    VT_ASSERT_STATUS(b64_dec(out, 3, &len, "Zm9vYg==", 8), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 4);
    VT_ASSERT_STATUS(b64_dec(out, 5, &len, "Zm9vYmE=", 8), SC_OK);
    assert_int_equal(len, 5);
    /* encode: *out_len is the encoded length, nothing written */
    memset(enc, SENTINEL, sizeof enc);
    VT_ASSERT_STATUS(b64_enc(enc, 7, &len, (const uint8_t *)"fooba", 5), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 8);
    assert_true(all((uint8_t *)enc, sizeof enc, SENTINEL));
    VT_ASSERT_STATUS(b64_enc(enc, 8, &len, (const uint8_t *)"fooba", 5), SC_OK);
    assert_memory_equal(enc, "Zm9vYmE=", 8);
    VT_ASSERT_STATUS(b64_enc(enc, 8, (size_t *)vt_null(), (const uint8_t *)"f", 1), SC_ERR_ARG);
}

/* Random strings, mostly in the alphabet with a stray character, '=' or wrong length here and
 * there, and random byte strings: the public functions (best kernel), the portable kernel and
 * every other kernel the CPU runs agree on every one. The SIMD kernels are additionally
 * exercised by every case above. */
void test_base64_kernels_agree(void **state)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char *const names[SC_B64_KERNELS] = {"portable", "ssse3", "neon"};
    static char b64[KERNEL_BUF], enc_a[KERNEL_BUF], enc_b[KERNEL_BUF];
    static uint8_t raw[KERNEL_BUF], dec_a[KERNEL_BUF], dec_b[KERNEL_BUF];
    size_t round, i, n, la, lb;
    int k, others = 0;

    (void)state;
    for (k = 1; k < SC_B64_KERNELS; k++) {
        if (sc_b64_kernel_available((sc_b64_kernel)k)) {
            print_message("[ KERNEL   ] base64: %s against portable\n", names[k]);
            others++;
        }
    }
    if (others == 0) {
        print_message("[  SKIPPED ] base64 kernels: this CPU runs only the portable kernel\n");
        skip();
    }
    assert_int_not_equal(sc_b64_best_kernel(), SC_B64_PORTABLE);
    vt_rand_seed(0x6b65726e656c7321ull);
    for (round = 0; round < 4000; round++) {
        uint8_t r[4];
        sc_status sa, sb;

        vt_rand_bytes(r, sizeof r);
        n = (((size_t)r[0] << 8) | r[1]) % 3001;
        vt_rand_bytes(raw, n);
        /* encoding */
        sa = sc_b64_encode_with(SC_B64_PORTABLE, enc_a, sizeof enc_a, &la, raw, n);
        assert_int_equal(sa, SC_OK);
        for (k = 0; k < SC_B64_KERNELS; k++) { /* k == 0: the public function */
            if (k > 0 && !sc_b64_kernel_available((sc_b64_kernel)k)) {
                continue;
            }
            sb = k == 0 ? sc_base64_encode(enc_b, sizeof enc_b, &lb, raw, n)
                        : sc_b64_encode_with((sc_b64_kernel)k, enc_b, sizeof enc_b, &lb, raw, n);
            assert_int_equal(sb, SC_OK);
            assert_int_equal(la, lb);
            assert_memory_equal(enc_a, enc_b, la);
        }
        /* decoding: the encoding itself, or a damaged copy of it */
        memcpy(b64, enc_a, la);
        if (r[2] % 2 == 0 && la > 0) {
            size_t pos = (((size_t)r[3] << 8) | r[2]) % la;
            b64[pos] = (r[3] % 4 == 0) ? '=' : (r[3] % 4 == 1) ? (char)r[2] : alphabet[r[3] % 64];
        }
        if (r[2] % 5 == 1 && la > 0) {
            la--; /* length no longer a multiple of 4 */
        }
        for (i = 0; i < 2; i++) { /* room for the longest decoding, then 3 bytes less */
            size_t cap = sc_base64_decode_max(la) - i * 3 * (la >= 4), da = 0, db = 0;
            memset(dec_a, SENTINEL, sizeof dec_a);
            sa = sc_b64_decode_with(SC_B64_PORTABLE, dec_a, cap, &da, b64, la);
            for (k = 0; k < SC_B64_KERNELS; k++) {
                if (k > 0 && !sc_b64_kernel_available((sc_b64_kernel)k)) {
                    continue;
                }
                memset(dec_b, SENTINEL, sizeof dec_b);
                db = 0;
                sb = k == 0 ? sc_base64_decode(dec_b, cap, &db, b64, la)
                            : sc_b64_decode_with((sc_b64_kernel)k, dec_b, cap, &db, b64, la);
                assert_int_equal(sa, sb);
                assert_int_equal(da, db);
                assert_memory_equal(dec_a, dec_b, sizeof dec_a);
            }
        }
    }
}

/* ---- compare and wipe ------------------------------------------------------------------ */

void test_ct_compare(void **state)
{
    uint8_t a[64], b[64];
    size_t i, bit;

    (void)state;
    for (i = 0; i < sizeof a; i++) {
        a[i] = b[i] = (uint8_t)(i * 37 + 5);
    }
    assert_int_equal(sc_mem_ct_compare(a, b, sizeof a), 0);
    assert_int_equal(sc_mem_ct_compare(a, b, 0), 0);
    for (i = 0; i < sizeof a; i++) {
        for (bit = 0; bit < 8; bit++) {
            b[i] ^= (uint8_t)(1u << bit);
            assert_int_not_equal(sc_mem_ct_compare(a, b, sizeof a), 0);
            assert_int_equal(sc_mem_ct_compare(a, b, i), 0); /* the prefix before it still equal */
            b[i] ^= (uint8_t)(1u << bit);
        }
    }
    memset(b, 0, sizeof b);
    memset(a, 0xff, sizeof a);
    assert_int_not_equal(sc_mem_ct_compare(a, b, sizeof a), 0);
}

void test_memzero(void **state)
{
    uint8_t buf[100];

    (void)state;
    memset(buf, 0x5a, sizeof buf);
    sc_mem_wipe(buf + 10, 80);
    assert_true(all(buf, 10, 0x5a));
    assert_true(all(buf + 10, 80, 0));
    assert_true(all(buf + 90, 10, 0x5a));
    sc_mem_wipe(vt_null(), 0);
    sc_mem_wipe(buf, 0);
    assert_int_equal(buf[0], 0x5a);
}

/* ---- JSON strings for the CLI and softchat-bench (util/json_escape.c) ------------------------ */

typedef struct put_sink {
    char buf[96];
    size_t len;
    size_t fail_at; /* the put call that fails (1-based), 0: none */
    size_t calls;
} put_sink;

static int put_sink_fn(void *arg, const char *p, size_t n)
{
    put_sink *s = arg;

    if (++s->calls == s->fail_at || n > sizeof s->buf - s->len) {
        return -1;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    return 0;
}

/* s[0..n) put with flags: the status, and the bytes written must be want. */
static void json_put_case(const char *s, size_t n, unsigned flags, sc_status st, const char *want)
{
    put_sink k;

    memset(&k, 0, sizeof k);
    VT_ASSERT_STATUS(sc_json_put_string(s, n, flags, put_sink_fn, &k), st);
    assert_int_equal(k.len, strlen(want));
    assert_memory_equal(k.buf, want, k.len);
}

void test_json_put_string(void **state)
{
    static const char escapes[] = "q\"b\\n\n\r\t\b\f\x01\x1f\x7f \xc3\xa9!";
    size_t fail_at;

    (void)state;
    json_put_case(vt_null(), 0, 0, SC_OK, "\"\"");
    json_put_case(escapes, sizeof escapes - 1, 0, SC_OK,
                  "\"q\\\"b\\\\n\\n\\r\\t\\b\\f\\u0001\\u001f\x7f \xc3\xa9!\"");
    /* past the eight-byte steps, and an escape as the last byte */
    json_put_case("0123456789abcdef\n", 17, 0, SC_OK, "\"0123456789abcdef\\n\"");
    /* ill-formed UTF-8: refused after the well-formed prefix, or each byte as U+FFFD */
    json_put_case("ab\xff"
                  "c",
                  4, 0, SC_ERR_UTF8, "\"ab");
    json_put_case("ab\xff"
                  "c",
                  4, SC_JSON_PUT_REPLACE, SC_OK,
                  "\"ab\xef\xbf\xbd"
                  "c\"");
    json_put_case("x\xe2\x82", 3, SC_JSON_PUT_REPLACE, SC_OK, "\"x\xef\xbf\xbd\xef\xbf\xbd\"");
    json_put_case("\xed\xa0\x80", 3, 0, SC_ERR_UTF8, "\""); /* a surrogate */
    /* a failing sink stops the writer, whichever piece it fails on */
    for (fail_at = 1; fail_at <= 5; fail_at++) { /* " a \n b " */
        put_sink k;

        memset(&k, 0, sizeof k);
        k.fail_at = fail_at;
        VT_ASSERT_STATUS(sc_json_put_string("a\nb", 3, 0, put_sink_fn, &k), SC_ERR_IO);
        assert_int_equal(k.calls, fail_at);
    }
}
