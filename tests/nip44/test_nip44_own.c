/* The suite's own NIP-44 cases: size functions, one crafted payload per decrypt status (with
 * the buffer left untouched before decoding and zeroed exactly over the decoded bytes after),
 * the validation order, buffer sizing, held conversations, and fresh nonces. */
#include "test_nip44.h"
#include "nip44/nip44_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILL 0x5a

static const uint8_t ck_a[32] = {0x6b, 0x2e, 0x01, 0x4c, 0x9d, 0x33, 0x70, 0xa1, 0x5f, 0x02, 0xee,
                                 0x48, 0x19, 0xc7, 0x3a, 0x90, 0x21, 0x84, 0x5d, 0xf0, 0x0b, 0x6e,
                                 0x97, 0x13, 0xca, 0x58, 0x3f, 0xb6, 0x02, 0x7d, 0xe4, 0x11};
static const uint8_t nonce_a[32] = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
    0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};

/* ---- sizes ------------------------------------------------------------------------------- */

void test_own_sizes(void **state)
{
    static const struct {
        uint64_t len, padded;
    } samples[] = {
        /* protocol-notes section 3 */
        {16, 32},
        {33, 64},
        {65, 96},
        {100, 128},
        {257, 320},
        {515, 640},
        {1020, 1024},
        {65536, 65536},
        {65537, 81920},
        {131073, 163840},
        {4294967295u, 4294967296u},
        /* the bound decrypt checks the ciphertext against, as a constant */
        {SC_NIP44_MAX_PLAINTEXT, SC_NIP44_MAX_PADDED},
        /* the domain's edges */
        {0, 0},
        {1, 32},
        {32, 32},
        {4294967296u, 0},
        {UINT64_MAX, 0},
    };
    nt_env *env = nt_env_of(state);
    vt_report r;
    uint64_t l;
    size_t i, mismatches = 0;
    unsigned b;

    vt_report_init(&r, env->backend, "own: sizes");
    for (i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        uint64_t got = sc_nip44_padded_len(samples[i].len);
        if (got != samples[i].padded) {
            vt_case_fail(&r, "padded_len(%llu) = %llu, expected %llu",
                         (unsigned long long)samples[i].len, (unsigned long long)got,
                         (unsigned long long)samples[i].padded);
        } else {
            vt_case_pass(&r);
        }
    }
    /* every length up to 70000 and each power of two +-1 against the spec formula, and the
     * payload length against its definition */
    for (l = 1; l <= 70000 + 3 * 32; l++) {
        uint64_t len = l <= 70000 ? l : (uint64_t)1 << (7 + (l - 70001) / 3);
        uint64_t raw, payload;

        len = l <= 70000 ? len : len - 1 + (l - 70001) % 3;
        if (len == 0 || len > SC_NIP44_MAX_PLAINTEXT) {
            continue;
        }
        raw = 65 + (len >= 65536 ? 6 : 2) + nt_padded_len(len);
        payload = (raw + 2) / 3 * 4;
        if ((uint64_t)(size_t)payload != payload) {
            payload = 0; /* a 32-bit size_t cannot hold it: the size function's sentinel */
        }
        if (sc_nip44_padded_len(len) != nt_padded_len(len) ||
            (uint64_t)sc_nip44_encrypt_len((size_t)len) != payload) {
            if (mismatches++ < 5) {
                vt_case_fail(&r, "len %llu: padded %llu / payload %zu", (unsigned long long)len,
                             (unsigned long long)sc_nip44_padded_len(len),
                             sc_nip44_encrypt_len((size_t)len));
            }
        }
    }
    if (mismatches == 0) {
        vt_case_pass(&r);
    }
    /* payload and decrypt capacities */
    b = sc_nip44_encrypt_len(1) == 132 && sc_nip44_encrypt_len(65535) == 87472 &&
        sc_nip44_encrypt_len(65536) == 87476 && sc_nip44_encrypt_len(0) == 0 &&
        sc_nip44_encrypt_len((size_t)-1) == 0 && sc_nip44_decrypt_max(132) == 99 &&
        sc_nip44_decrypt_max(87472) == 65604 && sc_nip44_decrypt_max(0) == 0 &&
        sc_nip44_decrypt_max(131) == 96 && sc_nip44_decrypt_max((size_t)-1) == (size_t)-1 / 4 * 3 &&
        sc_nip44_key_bytes() == 32 && sc_nip44_nonce_bytes() == 32;
    if (b) {
        vt_case_pass(&r);
    } else {
        vt_case_fail(&r, "payload_len / decrypt_cap / key and nonce sizes");
    }
#if SIZE_MAX > 0xffffffffu
    /* the largest plaintext: 65 + 6 + 2^32 raw bytes */
    if (sc_nip44_encrypt_len((size_t)4294967295u) == (size_t)5726623156u &&
        sc_nip44_encrypt_len((size_t)4294967296u) == 0) {
        vt_case_pass(&r);
    } else {
        vt_case_fail(&r, "payload_len(2^32 - 1) = %zu, payload_len(2^32) = %zu",
                     sc_nip44_encrypt_len((size_t)4294967295u),
                     sc_nip44_encrypt_len((size_t)4294967296u));
    }
#endif
    vt_report_finish(&r, 0);
}

/* ---- crafted payloads -------------------------------------------------------------------- */

typedef struct craft {
    char *p;  /* the payload (malloc'd, NUL-terminated) */
    size_t n; /* its length */
} craft;

/* base64 of raw[0..n). */
static craft b64_of(const uint8_t *raw, size_t n)
{
    craft c;

    c.p = (char *)vt_alloc(sc_base64_encode_len(n) + 1);
    VT_ASSERT_STATUS(sc_base64_encode(c.p, sc_base64_encode_len(n), &c.n, raw, n), SC_OK);
    return c;
}

/* A payload with a valid MAC under ck_a around the padded buffer pad[0..n). */
static craft with_mac(nt_env *env, const uint8_t *pad, size_t n)
{
    craft c;

    c.p = nt_build_payload(env, ck_a, nonce_a, 2, pad, n, &c.n);
    return c;
}

/* The padded buffer u16be(prefix) || body[0..body_len) || fill to total n bytes. */
static craft short_form(nt_env *env, unsigned prefix, const char *body, size_t n, uint8_t pad)
{
    uint8_t *b = vt_alloc(n);
    craft c;

    memset(b, pad, n);
    b[0] = (uint8_t)(prefix >> 8);
    b[1] = (uint8_t)prefix;
    memcpy(b + 2, body, strlen(body));
    c = with_mac(env, b, n);
    free(b);
    return c;
}

/* The padded buffer 00 00 || u32be(l) || 'x' * min(l, n - 6) || zeros, n bytes in all. */
static craft ext_form(nt_env *env, uint32_t l, size_t n)
{
    uint8_t *b = vt_alloc(n);
    craft c;

    b[2] = (uint8_t)(l >> 24);
    b[3] = (uint8_t)(l >> 16);
    b[4] = (uint8_t)(l >> 8);
    b[5] = (uint8_t)l;
    memset(b + 6, 'x', l < n - 6 ? l : n - 6);
    c = with_mac(env, b, n);
    free(b);
    return c;
}

/* Decrypts c under ck with max_payload max into a FILL-ed buffer a little larger than needed;
 * the status, *out_len and the buffer must match: written = the bytes that must be zeroed
 * (0: untouched). want_pt (for SC_OK) is the expected plaintext. Frees c. */
static void expect(nt_env *env, vt_report *r, const char *what, craft c, size_t max, sc_status want,
                   size_t written, const char *want_pt)
{
    size_t cap = sc_nip44_decrypt_max(c.n) + 8, len = 77, k;
    uint8_t *out = vt_alloc(cap);
    sc_status st;

    memset(out, FILL, cap);
    st = sc_nip44_decrypt(&env->ctx, out, cap, &len, ck_a, c.p, c.n, max);
    if (st != want) {
        vt_case_fail(r, "%s: %s, expected %s", what, sc_status_name(st), sc_status_name(want));
    } else if (want == SC_OK) {
        size_t pl = strlen(want_pt);
        if (len != pl || memcmp(out, want_pt, pl) != 0 ||
            nt_zeroed_prefix(out + pl, cap - pl, FILL) != written - pl) {
            vt_case_fail(r, "%s: wrong plaintext or scratch not zeroed", what);
        } else {
            vt_case_pass(r);
        }
    } else if (len != 0) {
        vt_case_fail(r, "%s: *out_len %zu on failure", what, len);
    } else if ((k = nt_zeroed_prefix(out, cap, FILL)) != written) {
        vt_case_fail(r, "%s: %zu bytes zeroed, expected %zu%s", what, k, written,
                     k == (size_t)-1 ? " (something else was written)" : "");
    } else {
        vt_case_pass(r);
    }
    free(out);
    free(c.p);
}

/* A copy of s with a suffix. */
static craft str(const char *s, const char *suffix)
{
    craft c;

    c.n = strlen(s) + strlen(suffix);
    c.p = (char *)vt_alloc(c.n + 1);
    memcpy(c.p, s, strlen(s));
    memcpy(c.p + strlen(s), suffix, strlen(suffix));
    return c;
}

static craft repeat_char(char ch, size_t n)
{
    craft c;

    c.p = (char *)vt_alloc(n + 1);
    memset(c.p, ch, n);
    c.n = n;
    return c;
}

/* The decoded form of the base payload: "hello" under ck_a / nonce_a. */
static void base_raw(nt_env *env, uint8_t raw[99], craft *good)
{
    size_t n = 0;

    *good = short_form(env, 5, "hello", 34, 0);
    assert_int_equal(good->n, 132);
    VT_ASSERT_STATUS(sc_base64_decode(raw, 99, &n, good->p, good->n), SC_OK);
    assert_int_equal(n, 99);
}

void test_own_decrypt_statuses(void **state)
{
    nt_env *env = nt_env_of(state);
    uint8_t raw[99], alt[101], *big;
    craft good, c;
    vt_report r;
    size_t n;

    vt_report_init(&r, env->backend, "own: one crafted payload per decrypt status");
    base_raw(env, raw, &good);
    expect(env, &r, "control: hello", str(good.p, ""), 0, SC_OK, 99, "hello");

    /* version, before anything else */
    c = str(good.p, "");
    c.p[0] = '#';
    expect(env, &r, "'#' first", c, 0, SC_ERR_VERSION, 0, NULL);
    expect(env, &r, "'#' alone", str("#", ""), 0, SC_ERR_VERSION, 0, NULL);
    expect(env, &r, "empty", str("", ""), 0, SC_ERR_VERSION, 0, NULL);

    /* payload size before decoding */
    c = str(good.p, "");
    c.n = 131;
    expect(env, &r, "131 characters", c, 0, SC_ERR_PAYLOAD_SIZE, 0, NULL);
    expect(env, &r, "4 characters", str("Ag==", ""), 0, SC_ERR_PAYLOAD_SIZE, 0, NULL);

    /* strict base64 */
    expect(env, &r, "133 characters", str(good.p, "A"), 0, SC_ERR_BASE64, 0, NULL);
    c = str(good.p, "");
    c.p[60] = '*';
    expect(env, &r, "'*' inside", c, 0, SC_ERR_BASE64, 99, NULL);
    c = str(good.p, "");
    c.p[60] = ' ';
    expect(env, &r, "space inside", c, 0, SC_ERR_BASE64, 99, NULL);
    c = str(good.p, "");
    c.p[61] = '-';
    expect(env, &r, "URL-safe alphabet", c, 0, SC_ERR_BASE64, 99, NULL);
    c = str(good.p, "");
    c.p[64] = '=';
    expect(env, &r, "'=' inside", c, 0, SC_ERR_BASE64, 99, NULL);
    memcpy(alt, raw, 99);
    alt[99] = 0xc3;
    c = b64_of(alt, 100); /* ...X== : X carries 4 unused bits */
    assert_int_equal(c.n, 136);
    c.p[133] = (char)(c.p[133] + 1);
    expect(env, &r, "non-canonical (== with unused bits set)", c, 0, SC_ERR_BASE64, 100, NULL);
    alt[100] = 0x3c;
    c = b64_of(alt, 101); /* ...XY= : Y carries 2 unused bits */
    c.p[134] = (char)(c.p[134] + 1);
    expect(env, &r, "non-canonical (= with unused bits set)", c, 0, SC_ERR_BASE64, 101, NULL);

    /* decoded size */
    expect(env, &r, "decoded 98 bytes", b64_of(raw, 98), 0, SC_ERR_PAYLOAD_SIZE, 98, NULL);

    /* version byte */
    memcpy(alt, raw, 99);
    alt[0] = 1;
    expect(env, &r, "version byte 1", b64_of(alt, 99), 0, SC_ERR_VERSION, 99, NULL);
    alt[0] = 0;
    expect(env, &r, "version byte 0", b64_of(alt, 99), 0, SC_ERR_VERSION, 99, NULL);
    alt[0] = 3;
    expect(env, &r, "version byte 3", b64_of(alt, 99), 0, SC_ERR_VERSION, 99, NULL);

    /* MAC */
    memcpy(alt, raw, 99);
    alt[98] ^= 0x01;
    expect(env, &r, "flipped MAC bit", b64_of(alt, 99), 0, SC_ERR_MAC, 99, NULL);
    memcpy(alt, raw, 99);
    alt[5] ^= 0x80;
    expect(env, &r, "flipped nonce bit", b64_of(alt, 99), 0, SC_ERR_MAC, 99, NULL);
    memcpy(alt, raw, 99);
    alt[40] ^= 0x10;
    expect(env, &r, "flipped ciphertext bit", b64_of(alt, 99), 0, SC_ERR_MAC, 99, NULL);
    memcpy(alt, raw, 99);
    memset(alt + 67, 0, 32);
    expect(env, &r, "zero MAC", b64_of(alt, 99), 0, SC_ERR_MAC, 99, NULL);

    /* padding and prefix, each under a valid MAC */
    expect(env, &r, "prefix 57 in a 32-byte body", short_form(env, 57, "", 34, 0), 0,
           SC_ERR_PADDING, 99, NULL);
    expect(env, &r, "prefix 33 in a 32-byte body", short_form(env, 33, "", 34, 0), 0,
           SC_ERR_PADDING, 99, NULL);
    expect(env, &r, "prefix 5 in a 64-byte body", short_form(env, 5, "hello", 66, 0), 0,
           SC_ERR_PADDING, 131, NULL);
    expect(env, &r, "prefix 5 in a 35-byte body", short_form(env, 5, "hello", 37, 0), 0,
           SC_ERR_PADDING, 102, NULL);
    expect(env, &r, "extended prefix with L = 5", ext_form(env, 5, 38), 0, SC_ERR_PADDING, 103,
           NULL);
    expect(env, &r, "extended prefix with L = 0", ext_form(env, 0, 38), 0, SC_ERR_PADDING, 103,
           NULL);
    expect(env, &r, "extended prefix with L = 65535", ext_form(env, 65535, 6 + 65536), 0,
           SC_ERR_PADDING, 65 + 6 + 65536, NULL);
    expect(env, &r, "extended prefix with L = 65536, one byte short",
           ext_form(env, 65536, 6 + 65535), 0, SC_ERR_PADDING, 65 + 6 + 65535, NULL);
    expect(env, &r, "extended prefix with L = 65537, short prefix length counted",
           ext_form(env, 65537, 2 + 81920), 0, SC_ERR_PADDING, 65 + 2 + 81920, NULL);

    /* accepted: non-zero padding bytes, and the extended prefix on decrypt */
    expect(env, &r, "padding bytes 0xff (not required to be zero)",
           short_form(env, 5, "hello", 34, 0xff), 0, SC_OK, 99, "hello");
    c = ext_form(env, 65536, 6 + 65536);
    n = 65536;
    big = (uint8_t *)vt_alloc(n + 1);
    memset(big, 'x', n);
    expect(env, &r, "extended prefix with L = 65536", c, 0, SC_OK, 65 + 6 + 65536, (char *)big);
    free(big);
    free(good.p);
    vt_report_finish(&r, 0);
}

void test_own_decrypt_order(void **state)
{
    nt_env *env = nt_env_of(state);
    uint8_t raw[99], alt[99], out[8];
    size_t len = 5;
    craft good, c;
    vt_report r;

    vt_report_init(&r, env->backend, "own: decrypt validation order");
    base_raw(env, raw, &good);
    /* the caller's maximum is checked before decoding: invalid base64 over it is TOO_LARGE */
    expect(env, &r, "200 x '!' over max 150", repeat_char('!', 200), 150, SC_ERR_TOO_LARGE, 0,
           NULL);
    expect(env, &r, "200 x '!' under the default max", repeat_char('!', 200), 0, SC_ERR_BASE64, 150,
           NULL);
    expect(env, &r, "'#' over max", str("#", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 10,
           SC_ERR_VERSION, 0, NULL);
    expect(env, &r, "100 chars over max 99", repeat_char('A', 100), 99, SC_ERR_TOO_LARGE, 0, NULL);
    expect(env, &r, "100 chars under max", repeat_char('A', 100), 0, SC_ERR_PAYLOAD_SIZE, 0, NULL);
    expect(env, &r, "payload length == max", str(good.p, ""), 132, SC_OK, 99, "hello");
    expect(env, &r, "payload length == max + 1", str(good.p, ""), 131, SC_ERR_TOO_LARGE, 0,
           NULL); /* 132 characters, max 131 */
    expect(env, &r, "default max + 1", repeat_char('A', SC_NIP44_DEFAULT_MAX_PAYLOAD + 1), 0,
           SC_ERR_TOO_LARGE, 0, NULL);
    expect(env, &r, "default max exactly (decodes to version 0)",
           repeat_char('A', SC_NIP44_DEFAULT_MAX_PAYLOAD), 0, SC_ERR_VERSION,
           SC_NIP44_DEFAULT_MAX_PAYLOAD / 4 * 3, NULL);
    /* size before buffer, buffer before base64 */
    c = str(good.p, "");
    c.n = 131;
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, out, 0, &len, ck_a, c.p, c.n, 0),
                     SC_ERR_PAYLOAD_SIZE);
    free(c.p);
    c = repeat_char('*', 132);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, out, sizeof out, &len, ck_a, c.p, c.n, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 99);
    free(c.p);
    vt_case_pass(&r);
    /* decoded size before version byte, version byte before MAC, MAC before padding */
    memcpy(alt, raw, 99);
    alt[0] = 1;
    expect(env, &r, "98 bytes with version 1", b64_of(alt, 98), 0, SC_ERR_PAYLOAD_SIZE, 98, NULL);
    alt[98] ^= 1;
    expect(env, &r, "version 1 and a bad MAC", b64_of(alt, 99), 0, SC_ERR_VERSION, 99, NULL);
    c = short_form(env, 57, "", 34, 0);
    c.p[100] = c.p[100] == 'A' ? 'B' : 'A'; /* inside the MAC */
    expect(env, &r, "bad padding and a bad MAC", c, 0, SC_ERR_MAC, 99, NULL);
    free(good.p);
    vt_report_finish(&r, 0);
}

/* ---- buffers ----------------------------------------------------------------------------- */

void test_own_buffers(void **state)
{
    nt_env *env = nt_env_of(state);
    const uint8_t pt[] = "buffer sizing";
    size_t pl = sizeof pt - 1, need = sc_nip44_encrypt_len(pl), len, cap;
    char payload[200], out[200];
    uint8_t dec[200];
    vt_report r;

    vt_report_init(&r, env->backend, "own: buffer sizing and untouched outputs");
    assert_true(need <= sizeof payload);
    /* encrypt: one byte short reports the exact need and writes nothing */
    memset(out, FILL, sizeof out);
    len = 0;
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, need - 1, &len, ck_a, nonce_a, pt, pl, 0),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, need);
    assert_int_equal(nt_zeroed_prefix((uint8_t *)out, sizeof out, FILL), 0);
    len = 0;
    VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&env->ctx, NULL, 0, &len, ck_a, nonce_a, pt, pl, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, need);
    len = 0;
    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, NULL, 0, &len, ck_a, pt, pl, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, need);
    vt_case_pass(&r);
    /* exact capacity works */
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, payload, need, &len, ck_a, nonce_a, pt, pl, 0),
        SC_OK);
    assert_int_equal(len, need);
    vt_case_pass(&r);
    /* decrypt: one byte short reports the exact capacity and writes nothing */
    cap = sc_nip44_decrypt_max(need);
    memset(dec, FILL, sizeof dec);
    len = 0;
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, cap - 1, &len, ck_a, payload, need, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, cap);
    assert_int_equal(nt_zeroed_prefix(dec, sizeof dec, FILL), 0);
    len = 0;
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, NULL, 0, &len, ck_a, payload, need, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, cap);
    vt_case_pass(&r);
    /* exact capacity works; bytes past the decoded length stay untouched */
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, cap, &len, ck_a, payload, need, 0), SC_OK);
    assert_int_equal(len, pl);
    assert_memory_equal(dec, pt, pl);
    assert_int_equal(nt_zeroed_prefix(dec + pl, sizeof dec - pl, FILL), cap - pl);
    vt_case_pass(&r);
    /* the policy refusal writes nothing and reports no length */
    {
        uint8_t *bigpt = vt_alloc(65536);
        len = 3;
        memset(out, FILL, sizeof out);
        VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck_a, nonce_a,
                                                    bigpt, 65536, 0),
                         SC_ERR_POLICY);
        assert_int_equal(len, 0);
        assert_int_equal(nt_zeroed_prefix((uint8_t *)out, sizeof out, FILL), 0);
        VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, out, sizeof out, &len, ck_a, bigpt, 65536, 0),
                         SC_ERR_POLICY);
        free(bigpt);
    }
    vt_case_pass(&r);
    vt_report_finish(&r, 0);
}

/* ---- held conversations ------------------------------------------------------------------ */

/* Decrypts payload under the one-shot key ck and under conv; both must give pt. */
static int both_decrypt(nt_env *env, const uint8_t ck[32], const sc_nip44_conversation *conv,
                        const char *payload, size_t n, const uint8_t *pt, size_t pl)
{
    uint8_t a[256], b[256];
    size_t la = 0, lb = 0;

    return sc_nip44_decrypt(&env->ctx, a, sizeof a, &la, ck, payload, n, 0) == SC_OK &&
           sc_nip44_conversation_decrypt(&env->ctx, b, sizeof b, &lb, conv, payload, n, 0) ==
               SC_OK &&
           la == pl && lb == pl && memcmp(a, pt, pl) == 0 && memcmp(b, pt, pl) == 0;
}

/* The curve adapter keeps the last few lifted peer keys: with more peers than it keeps,
 * visited in an order that both hits and evicts, every conversation key still equals the one
 * computed from the other side, and an x with no point (rejected, never kept) in between
 * changes nothing. */
void test_own_peer_cache(void **state)
{
    nt_env *env = nt_env_of(state);
    enum {
        PEERS = 7
    };
    uint8_t sec[PEERS][32], pub[PEERS][32], ck1[32], ck2[32], bad[32];
    sc_identity id;
    size_t round, i, j;
    vt_report r;

    vt_report_init(&r, env->backend, "own: ECDH peer-key cache");
    memset(bad, 0, sizeof bad);
    bad[31] = 5; /* x = 5: 5^3 + 7 is not a square mod p */
    for (i = 0; i < PEERS; i++) {
        memset(sec[i], 0, 32);
        sec[i][0] = (uint8_t)(0x10 + i);
        sec[i][31] = (uint8_t)(0x31 * i + 1);
        VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, sec[i]), SC_OK);
        VT_ASSERT_STATUS(sc_identity_pubkey(pub[i], &id), SC_OK);
        sc_identity_clear(&id);
    }
    for (round = 0; round < 300; round++) {
        i = (round * 5) % PEERS;
        j = (round * 3 + 1 + round / PEERS) % PEERS;
        if (i == j) {
            continue;
        }
        VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck1, sec[i], pub[j]), SC_OK);
        if (round % 11 == 0) {
            VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck2, sec[i], bad),
                             SC_ERR_INVALID_KEY);
        }
        VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck2, sec[j], pub[i]), SC_OK);
        if (memcmp(ck1, ck2, 32) == 0) {
            vt_case_pass(&r);
        } else {
            vt_case_fail(&r, "round %zu: conv(%zu, %zu) != conv(%zu, %zu)", round, i, j, j, i);
        }
    }
    vt_report_finish(&r, 0);
}

void test_own_conversation(void **state)
{
    nt_env *env = nt_env_of(state);
    const uint8_t pt[] = "held conversation";
    size_t pl = sizeof pt - 1, len = 0, n1 = 0, n2 = 0;
    uint8_t sec1[32] = {0}, sec2[32] = {0}, pub1[32], pub2[32], ck[32], dec[256], ff[32];
    sc_nip44_conversation c12, c21, ck_held, zero;
    sc_identity id1, id2;
    char p1[256], p2[256];
    vt_report r;

    vt_report_init(&r, env->backend, "own: held conversations");
    memset(ff, 0xff, sizeof ff); /* x >= p: not a public key */
    sec1[31] = 0x2a;
    sec2[0] = 0x7f;
    sec2[31] = 0x99;
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id1, sec1), SC_OK);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id2, sec2), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub1, &id1), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub2, &id2), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck, sec1, pub2), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&env->ctx, &c12, &id1, pub2), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&env->ctx, &c21, &id2, pub1), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&ck_held, ck), SC_OK);

    /* held encryption (fresh nonce) decrypts one-shot and held, from either side */
    VT_ASSERT_STATUS(sc_nip44_conversation_encrypt(&env->ctx, p1, sizeof p1, &n1, &c12, pt, pl, 0),
                     SC_OK);
    assert_true(both_decrypt(env, ck, &c21, p1, n1, pt, pl));
    assert_true(both_decrypt(env, ck, &ck_held, p1, n1, pt, pl));
    /* one-shot encryption decrypts under every held form */
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, p2, sizeof p2, &n2, ck, nonce_a, pt, pl, 0), SC_OK);
    assert_true(both_decrypt(env, ck, &c12, p2, n2, pt, pl));
    assert_true(both_decrypt(env, ck, &c21, p2, n2, pt, pl));
    vt_case_pass(&r);

    /* cleared: the whole struct is wiped and every use is SC_ERR_STATE */
    sc_nip44_conversation_clear(&c12);
    assert_true(vt_all_zero((const uint8_t *)&c12, sizeof c12));
    len = 9;
    VT_ASSERT_STATUS(sc_nip44_conversation_encrypt(&env->ctx, p1, sizeof p1, &len, &c12, pt, pl, 0),
                     SC_ERR_STATE);
    assert_int_equal(len, 0);
    len = 9;
    VT_ASSERT_STATUS(
        sc_nip44_conversation_decrypt(&env->ctx, dec, sizeof dec, &len, &c12, p2, n2, 0),
        SC_ERR_STATE);
    assert_int_equal(len, 0);
    memset(&zero, 0, sizeof zero);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_encrypt(&env->ctx, p1, sizeof p1, &len, &zero, pt, pl, 0),
        SC_ERR_STATE);
    sc_nip44_conversation_clear(NULL);
    vt_case_pass(&r);

    /* failing inits leave the struct cleared, whatever it held */
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&env->ctx, &c21, &id2, ff), SC_ERR_INVALID_KEY);
    assert_true(vt_all_zero((const uint8_t *)&c21, sizeof c21));
    VT_ASSERT_STATUS(
        sc_nip44_conversation_decrypt(&env->ctx, dec, sizeof dec, &len, &c21, p2, n2, 0),
        SC_ERR_STATE);
    sc_identity_clear(&id1);
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&c12, ck), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&env->ctx, &c12, &id1, pub2), SC_ERR_STATE);
    assert_true(vt_all_zero((const uint8_t *)&c12, sizeof c12));
    vt_case_pass(&r);

    sc_nip44_conversation_clear(&ck_held);
    sc_identity_clear(&id2);
    sc_mem_wipe(ck, sizeof ck);
    vt_report_finish(&r, 0);
}

void test_own_random_nonce(void **state)
{
    nt_env *env = nt_env_of(state);
    const uint8_t pt[] = "same plaintext";
    size_t pl = sizeof pt - 1, n1 = 0, n2 = 0, l1 = 0, l2 = 0;
    uint8_t r1[200], r2[200], d[200];
    char p1[200], p2[200];

    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, p1, sizeof p1, &n1, ck_a, pt, pl, 0), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, p2, sizeof p2, &n2, ck_a, pt, pl, 0), SC_OK);
    assert_int_equal(n1, sc_nip44_encrypt_len(pl));
    assert_int_equal(n1, n2);
    VT_ASSERT_STATUS(sc_base64_decode(r1, sizeof r1, &l1, p1, n1), SC_OK);
    VT_ASSERT_STATUS(sc_base64_decode(r2, sizeof r2, &l2, p2, n2), SC_OK);
    assert_int_equal(r1[0], 2);
    /* fresh nonces: no two payloads share one */
    assert_memory_not_equal(r1 + 1, r2 + 1, 32);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, d, sizeof d, &l1, ck_a, p1, n1, 0), SC_OK);
    assert_int_equal(l1, pl);
    assert_memory_equal(d, pt, pl);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, d, sizeof d, &l2, ck_a, p2, n2, 0), SC_OK);
    assert_memory_equal(d, pt, pl);
    printf("[%s] own: random nonce: 2 payloads, distinct nonces, both decrypt\n", env->backend);
}
