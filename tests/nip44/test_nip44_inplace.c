/* Encryption works inside the caller's output buffer. These cases show that the in-place
 * base64 step never overwrites raw bytes it has not read yet (every plaintext length 1..2000
 * and the padding and prefix boundaries, against an out-of-place reference; and the helper
 * itself for every raw length 0..3000), and that a backend failure after the buffer was
 * written leaves it zeroed. */
#include "test_nip44.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nip44/nip44_internal.h"

static const uint8_t ck_b[32] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                                 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60,
                                 0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0, 0xd0, 0xe0, 0xf0, 0x01};

/* Plaintext bytes that differ from position to position and from length to length. */
static void fill_pt(uint8_t *pt, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        pt[i] = (uint8_t)(i * 131 + len * 7 + (i >> 8));
    }
}

void test_own_in_place(void **state)
{
    static const size_t edges[] = {2047,  2048,  2049,  4095,  4096,  4097,  8191,
                                   8192,  8193,  16383, 16384, 16385, 32767, 32768,
                                   32769, 49152, 49153, 65534, 65535};
    static const size_t ext_edges[] = {65536, 65537, 81920, 81921, 98304, 131072, 131073};
    nt_env *env = nt_env_of(state);
    uint8_t nonce[32], *pt = vt_alloc(131073);
    size_t len, i;
    char err[300];
    vt_report r;

    vt_report_init(&r, env->backend, "own: in-place encryption vs out-of-place reference");
    for (i = 0; i < 32; i++) {
        nonce[i] = (uint8_t)(0xa0 ^ i);
    }
    for (len = 1; len <= 2000; len++) {
        fill_pt(pt, len);
        nonce[0] = (uint8_t)len; /* a different nonce per length */
        if (!nt_encrypt_check(env, ck_b, nonce, pt, len, 0, err, sizeof err)) {
            vt_case_fail(&r, "%s", err);
        } else {
            vt_case_pass(&r);
        }
    }
    for (i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        fill_pt(pt, edges[i]);
        if (!nt_encrypt_check(env, ck_b, nonce, pt, edges[i], 0, err, sizeof err)) {
            vt_case_fail(&r, "%s", err);
        } else {
            vt_case_pass(&r);
        }
    }
    for (i = 0; i < sizeof ext_edges / sizeof ext_edges[0]; i++) {
        fill_pt(pt, ext_edges[i]);
        if (!nt_encrypt_check(env, ck_b, nonce, pt, ext_edges[i], SC_NIP44_EXTENDED, err,
                              sizeof err)) {
            vt_case_fail(&r, "extended: %s", err);
        } else {
            vt_case_pass(&r);
        }
    }
    free(pt);
    snprintf(r.detail, sizeof r.detail, "lengths 1..2000, %zu boundaries, %zu extended",
             sizeof edges / sizeof edges[0], sizeof ext_edges / sizeof ext_edges[0]);
    vt_report_finish(&r, 2000 + sizeof edges / sizeof edges[0] +
                             sizeof ext_edges / sizeof ext_edges[0]);
}

void test_own_b64_in_place(void **state)
{
    nt_env *env = nt_env_of(state);
    const size_t max_raw = 3000;
    char *buf = (char *)vt_alloc(sc_base64_encode_len(max_raw));
    char *ref = (char *)vt_alloc(sc_base64_encode_len(max_raw));
    uint8_t *raw = vt_alloc(max_raw);
    size_t n, e, i, ref_len;
    vt_report r;

    vt_report_init(&r, env->backend, "own: sc_nip44_b64_in_place, raw lengths 0..3000");
    for (n = 0; n <= max_raw; n++) {
        e = sc_base64_encode_len(n);
        for (i = 0; i < n; i++) {
            raw[i] = (uint8_t)(i * 37 + n);
        }
        memset(buf, '?', e);
        memcpy(buf + (e - n), raw, n);
        VT_ASSERT_STATUS(sc_base64_encode(ref, e, &ref_len, raw, n), SC_OK);
        if (sc_nip44_b64_in_place(buf, e, n) != SC_OK || memcmp(buf, ref, e) != 0) {
            vt_case_fail(&r, "raw length %zu: in-place encoding differs", n);
        } else {
            vt_case_pass(&r);
        }
    }
    /* the encoded length must be exactly that of the raw length */
    VT_ASSERT_STATUS(sc_nip44_b64_in_place(buf, 8, 4), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_b64_in_place(buf, 12, 4), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_b64_in_place(buf, 4, 4), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_b64_in_place(NULL, 0, 0), SC_ERR_ARG);
    free(buf);
    free(ref);
    free(raw);
    vt_report_finish(&r, max_raw + 1);
}

/* ---- backend failures -------------------------------------------------------------------- */

static const sc_backend *real; /* the backend the doubles below wrap */
static int rng_broken;         /* set once a context exists: the RNG then fails */

static sc_status rng_breakable(sc_bstate *st, uint8_t *out, size_t len)
{
    return rng_broken ? SC_ERR_RNG : real->rng->fill(st, out, len);
}

/* A context over `real` with one group removed (or the RNG breakable). */
static void ctx_without(sc_ctx *ctx, sc_backend *t, sc_backend_rng *rng, sc_group g)
{
    *t = *real;
    switch (g) {
    case SC_GROUP_STREAM:
        t->stream = NULL;
        break;
    case SC_GROUP_MAC:
        t->mac = NULL;
        break;
    case SC_GROUP_CURVE:
        t->curve = NULL;
        break;
    default:
        *rng = *real->rng;
        rng->fill = rng_breakable;
        t->rng = rng;
        break;
    }
    rng_broken = 0;
    VT_ASSERT_STATUS(sc_ctx_init_table(ctx, t), SC_OK);
    rng_broken = 1;
}

void test_own_backend_failure(void **state)
{
    nt_env *env = nt_env_of(state);
    const uint8_t pt[] = "written, then the backend fails";
    size_t pl = sizeof pt - 1, need = sc_nip44_encrypt_len(pl), len, n = 0;
    uint8_t nonce[32] = {0}, ck[32], sec[32] = {0}, pub[32], dec[200];
    char good[200], out[200];
    sc_backend t;
    sc_backend_rng rng;
    sc_identity id;
    sc_nip44_conversation conv;
    sc_ctx ctx;

    real = sc_ctx_backend(&env->ctx);
    assert_non_null(real);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, good, sizeof good, &n, ck_b, nonce, pt, pl, 0),
        SC_OK);

    /* no stream group: the buffer held the plaintext when ChaCha20 failed, so it is zeroed
     * over the payload length and left alone after */
    ctx_without(&ctx, &t, &rng, SC_GROUP_STREAM);
    memset(out, 0x5a, sizeof out);
    len = 9;
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&ctx, out, sizeof out, &len, ck_b, nonce, pt, pl, 0),
        SC_ERR_UNSUPPORTED);
    assert_int_equal(len, 0);
    assert_int_equal(nt_zeroed_prefix((uint8_t *)out, sizeof out, 0x5a), need);
    /* the MAC passes, then decryption cannot run: the decoded bytes are zeroed */
    memset(dec, 0x5a, sizeof dec);
    len = 9;
    VT_ASSERT_STATUS(sc_nip44_decrypt(&ctx, dec, sizeof dec, &len, ck_b, good, n, 0),
                     SC_ERR_UNSUPPORTED);
    assert_int_equal(len, 0);
    assert_int_equal(nt_zeroed_prefix(dec, sizeof dec, 0x5a), nt_decoded_len(good, n));
    sc_ctx_clear(&ctx);

    /* no MAC group: the message keys fail before anything is written */
    ctx_without(&ctx, &t, &rng, SC_GROUP_MAC);
    memset(out, 0x5a, sizeof out);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&ctx, out, sizeof out, &len, ck_b, nonce, pt, pl, 0),
        SC_ERR_UNSUPPORTED);
    assert_int_equal(nt_zeroed_prefix((uint8_t *)out, sizeof out, 0x5a), 0);
    memset(dec, 0x5a, sizeof dec);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&ctx, dec, sizeof dec, &len, ck_b, good, n, 0),
                     SC_ERR_UNSUPPORTED);
    assert_int_equal(nt_zeroed_prefix(dec, sizeof dec, 0x5a), nt_decoded_len(good, n));
    sc_ctx_clear(&ctx);

    /* no curve group */
    sec[31] = 3;
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &id), SC_OK);
    ctx_without(&ctx, &t, &rng, SC_GROUP_CURVE);
    memset(ck, 0x5a, sizeof ck);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&ctx, ck, sec, pub), SC_ERR_UNSUPPORTED);
    assert_true(vt_all_zero(ck, sizeof ck));
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&ctx, &conv, &id, pub), SC_ERR_UNSUPPORTED);
    assert_true(vt_all_zero((const uint8_t *)&conv, sizeof conv));
    sc_ctx_clear(&ctx);
    sc_identity_clear(&id);

    /* a failing RNG: no nonce, no payload, nothing written */
    ctx_without(&ctx, &t, &rng, SC_GROUP_RNG);
    memset(out, 0x5a, sizeof out);
    len = 9;
    VT_ASSERT_STATUS(sc_nip44_encrypt(&ctx, out, sizeof out, &len, ck_b, pt, pl, 0), SC_ERR_RNG);
    assert_int_equal(len, 0);
    assert_int_equal(nt_zeroed_prefix((uint8_t *)out, sizeof out, 0x5a), 0);
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&conv, ck_b), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_encrypt(&ctx, out, sizeof out, &len, &conv, pt, pl, 0),
                     SC_ERR_RNG);
    sc_nip44_conversation_clear(&conv);
    rng_broken = 0;
    sc_ctx_clear(&ctx);
    printf("[%s] own: backend failures: stream, mac, curve, rng: statuses and buffers ok\n",
           env->backend);
}
