/* Keys and IVs (sc_file_keygen, sc_file_iv_candidates) and the argument and state checks of
 * every file call. NULL is passed on purpose to parameters declared non-NULL (the SC_ERR_ARG
 * paths), so this file is built without UBSan's nonnull-attribute check. */
#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char nonce16[] = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
static const uint8_t nonce16_bytes[16] = {0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
                                          0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f};

/* ---- keygen ----------------------------------------------------------------------------- */

void test_keygen(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t k1[32], iv1[16], k2[32], iv2[16];
    sc_ctx cleared;

    VT_ASSERT_STATUS(sc_file_keygen(&env->ctx, k1, iv1), SC_OK);
    VT_ASSERT_STATUS(sc_file_keygen(&env->ctx, k2, iv2), SC_OK);
    assert_false(vt_all_zero(k1, 32) || vt_all_zero(iv1, 16));
    assert_true(memcmp(k1, k2, 32) != 0 && memcmp(iv1, iv2, 16) != 0);
    /* failures zero what they were given */
    memset(k1, 0xee, 32);
    memset(iv1, 0xee, 16);
    VT_ASSERT_STATUS(sc_file_keygen(vt_null(), k1, iv1), SC_ERR_ARG);
    assert_true(vt_all_zero(k1, 32) && vt_all_zero(iv1, 16));
    memset(k1, 0xee, 32);
    VT_ASSERT_STATUS(sc_file_keygen(&env->ctx, k1, vt_null()), SC_ERR_ARG);
    assert_true(vt_all_zero(k1, 32));
    memset(iv1, 0xee, 16);
    VT_ASSERT_STATUS(sc_file_keygen(&env->ctx, vt_null(), iv1), SC_ERR_ARG);
    assert_true(vt_all_zero(iv1, 16));
    memset(&cleared, 0, sizeof cleared);
    memset(k1, 0xee, 32);
    VT_ASSERT_STATUS(sc_file_keygen(&cleared, k1, iv1), SC_ERR_STATE);
    assert_true(vt_all_zero(k1, 32) && vt_all_zero(iv1, 16));
    /* the keys work (where the backend streams) */
    if (env->stream_ok) {
        uint8_t pt[100], x[32], ox[32], *blob = NULL;
        size_t blob_len = 0;
        uint64_t size = 0;
        sc_file_sink unused;
        ft_sink k;

        memset(pt, 'p', sizeof pt);
        VT_ASSERT_STATUS(
            ft_encrypt(env, k2, iv2, 16, pt, sizeof pt, 7, &blob, &blob_len, x, ox, &size), SC_OK);
        ft_sink_init(&k, &unused);
        VT_ASSERT_STATUS(ft_decrypt(env, k2, iv2, 16, blob, blob_len, 7, &k, x, ox), SC_OK);
        assert_true(k.committed_len == sizeof pt && memcmp(k.committed, pt, sizeof pt) == 0);
        ft_sink_free(&k);
        free(blob);
    }
}

/* ---- IV candidates ---------------------------------------------------------------------- */

static void expect_refused_text(const char *text, size_t len, sc_status want)
{
    uint8_t ivs[2][32];
    size_t lens[2] = {7, 7}, n = 7;

    memset(ivs, 0xee, sizeof ivs);
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, text, len), want);
    assert_true(n == 0 && lens[0] == 0 && lens[1] == 0);
    assert_true(vt_all_zero(&ivs[0][0], sizeof ivs));
}

void test_iv_candidates(void **state)
{
    ft_env *env = ft_env_of(state);
    char upper[33], mixed[33], text[64];
    uint8_t ivs[2][32];
    size_t lens[2], n = 0, i;
    static const uint8_t iv12[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                                     0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

    (void)env;
    /* 32 hex digits: the decoded 16 bytes, then the text itself */
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, nonce16, 32), SC_OK);
    assert_true(n == 2 && lens[0] == 16 && lens[1] == 32);
    assert_memory_equal(ivs[0], nonce16_bytes, 16);
    assert_true(vt_all_zero(ivs[0] + 16, 16));
    assert_memory_equal(ivs[1], nonce16, 32);
    /* either case, also mixed; the legacy IV keeps the text's own bytes */
    for (i = 0; i < 32; i++) {
        upper[i] = (char)(nonce16[i] >= 'a' ? nonce16[i] - 'a' + 'A' : nonce16[i]);
        mixed[i] = (i % 2) ? upper[i] : nonce16[i];
    }
    upper[32] = mixed[32] = '\0';
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, upper, 32), SC_OK);
    assert_true(n == 2 && lens[0] == 16 && memcmp(ivs[0], nonce16_bytes, 16) == 0 &&
                memcmp(ivs[1], upper, 32) == 0);
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, mixed, 32), SC_OK);
    assert_true(n == 2 && memcmp(ivs[0], nonce16_bytes, 16) == 0);
    /* 24 digits: a 12-byte IV, no legacy reading */
    memset(ivs, 0xee, sizeof ivs);
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, "cafebabefacedbaddecaf888", 24), SC_OK);
    assert_true(n == 1 && lens[0] == 12 && lens[1] == 0);
    assert_memory_equal(ivs[0], iv12, 12);
    assert_true(vt_all_zero(ivs[0] + 12, 20) && vt_all_zero(ivs[1], 32));
    /* the length given counts, not a terminator */
    memcpy(text, nonce16, 32);
    memcpy(text + 32, "abcdef", 7);
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, text, 32), SC_OK);
    assert_true(n == 2 && memcmp(ivs[1], nonce16, 32) == 0);
    /* refused: other lengths, non-hex text (the legacy reading is for hex text only) */
    expect_refused_text(nonce16, 0, SC_ERR_ENCODING);
    expect_refused_text(nonce16, 22, SC_ERR_ENCODING);
    expect_refused_text(nonce16, 23, SC_ERR_ENCODING);
    expect_refused_text(nonce16, 31, SC_ERR_ENCODING);
    expect_refused_text(text, 33, SC_ERR_ENCODING);
    expect_refused_text("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", 64,
                        SC_ERR_ENCODING);
    memcpy(text, nonce16, 33);
    text[31] = 'g';
    expect_refused_text(text, 32, SC_ERR_ENCODING);
    text[31] = ' ';
    expect_refused_text(text, 32, SC_ERR_ENCODING);
    text[5] = '\0';
    text[31] = 'f';
    expect_refused_text(text, 32, SC_ERR_ENCODING);
    expect_refused_text("cafebabefacedbaddecaf88x", 24, SC_ERR_ENCODING);
    expect_refused_text("0xfebabefacedbaddecaf888", 24, SC_ERR_ENCODING);
    /* NULL */
    expect_refused_text(vt_null(), 32, SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_iv_candidates(vt_null(), lens, &n, nonce16, 32), SC_ERR_ARG);
    assert_true(n == 0 && lens[0] == 0);
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, vt_null(), &n, nonce16, 32), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, vt_null(), nonce16, 32), SC_ERR_ARG);
}

/* ---- arguments and states --------------------------------------------------------------- */

void test_args(void **state)
{
    ft_env *env = ft_env_of(state);
    static const size_t bad_ivs[] = {0, 1, 8, 11, 13, 15, 17, 24, 31, 33, 64};
    uint8_t key[32] = {7}, iv[32] = {9}, buf[128], out[256], x[32], ox[32];
    size_t i, n = 0;
    uint64_t size = 0;
    sc_file_sink sink, bad;
    sc_file_enc e;
    sc_file_dec d;
    sc_ctx cleared;
    ft_sink k;

    ft_sink_init(&k, &sink);
    memset(&cleared, 0, sizeof cleared);
    /* init: checked before the backend, on every backend */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, vt_null(), key, iv, 16), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, vt_null(), key, iv, 16, &sink), SC_ERR_ARG);
    memset(&e, 0x5a, sizeof e);
    VT_ASSERT_STATUS(sc_file_encrypt_init(vt_null(), &e, key, iv, 16), SC_ERR_ARG);
    assert_true(vt_all_zero((const uint8_t *)&e, sizeof e));
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, vt_null(), iv, 16), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, vt_null(), 16), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&cleared, &e, key, iv, 16), SC_ERR_STATE);
    memset(&d, 0x5a, sizeof d);
    VT_ASSERT_STATUS(sc_file_decrypt_init(vt_null(), &d, key, iv, 16, &sink), SC_ERR_ARG);
    assert_true(vt_all_zero((const uint8_t *)&d, sizeof d));
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, vt_null(), iv, 16, &sink), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, vt_null(), 16, &sink), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 16, vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&cleared, &d, key, iv, 16, &sink), SC_ERR_STATE);
    bad = sink;
    bad.write = NULL;
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 16, &bad), SC_ERR_ARG);
    bad = sink;
    bad.commit = NULL;
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 16, &bad), SC_ERR_ARG);
    bad = sink;
    bad.discard = NULL;
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 16, &bad), SC_ERR_ARG);
    for (i = 0; i < sizeof bad_ivs / sizeof bad_ivs[0]; i++) {
        VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, bad_ivs[i]), SC_ERR_ARG);
        if (bad_ivs[i] != 32) {
            VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, bad_ivs[i], &sink),
                             SC_ERR_ARG);
        }
    }
    assert_int_equal(k.writes + k.commits + k.discards, 0); /* failed inits never call it */
    /* states that were never started, or are over */
    memset(&e, 0, sizeof e);
    memset(&d, 0x5a, sizeof d);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, buf, 1), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out, sizeof out, &n, x, ox, &size), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, buf, 1), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_encrypt_update(vt_null(), out, sizeof out, &n, buf, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_encrypt_final(vt_null(), out, sizeof out, &n, x, ox, &size),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_decrypt_update(vt_null(), buf, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_decrypt_final(vt_null(), x, ox), SC_ERR_ARG);
    sc_file_decrypt_abort(&d); /* not live: the sink is not called */
    assert_int_equal(k.discards, 0);
    ft_need_stream(env, "arguments of a running operation");

    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 32, &sink), SC_OK);
    sc_file_decrypt_abort(&d);
    assert_int_equal(k.discards, 1);
    /* encrypt update: each bad argument is refused, consumes nothing, and leaves the
     * operation live: the next good call produces the same ciphertext as a fresh one */
    for (i = 0; i < 5; i++) {
        static const sc_status want[5] = {SC_ERR_ARG, SC_ERR_ARG, SC_ERR_ARG, SC_ERR_OVERLAP,
                                          SC_ERR_OVERLAP};
        uint8_t ref[32];
        sc_status st;

        memset(buf, 'b', sizeof buf);
        VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 16), SC_OK);
        VT_ASSERT_STATUS(sc_file_encrypt_update(&e, ref, sizeof ref, &n, buf, 16), SC_OK);
        sc_file_encrypt_abort(&e);
        VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 16), SC_OK);
        switch (i) {
        case 0:
            st = sc_file_encrypt_update(&e, out, sizeof out, vt_null(), buf, 16);
            break;
        case 1:
            st = sc_file_encrypt_update(&e, out, sizeof out, &n, vt_null(), 16);
            break;
        case 2:
            st = sc_file_encrypt_update(&e, vt_null(), sizeof out, &n, buf, 16);
            break;
        case 3: /* in place is refused: output blocks run behind the input by up to 15 */
            st = sc_file_encrypt_update(&e, buf, sizeof buf, &n, buf, 16);
            break;
        default: /* partial overlap */
            st = sc_file_encrypt_update(&e, buf + 8, sizeof buf - 8, &n, buf, 64);
            break;
        }
        VT_ASSERT_STATUS(st, want[i]);
        for (n = 0; n < sizeof buf; n++) {
            assert_int_equal(buf[n], 'b'); /* the caller's input was not touched */
        }
        VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, buf, 16), SC_OK);
        assert_int_equal(n, 16);
        assert_memory_equal(out, ref, 16);
        sc_file_encrypt_abort(&e);
    }
    /* encrypt final: each NULL is refused and the operation stays live */
    for (i = 0; i < 5; i++) {
        sc_status st;

        VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 16), SC_OK);
        st = sc_file_encrypt_final(&e, i == 0 ? vt_null() : out, sizeof out,
                                   i == 1 ? vt_null() : &n, i == 2 ? vt_null() : x,
                                   i == 3 ? vt_null() : ox, i == 4 ? vt_null() : &size);
        VT_ASSERT_STATUS(st, SC_ERR_ARG);
        VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out, sizeof out, &n, x, ox, &size), SC_OK);
        assert_int_equal(n, SC_FILE_TAG_BYTES);
        VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out, sizeof out, &n, x, ox, &size),
                         SC_ERR_STATE);
    }
    /* decrypt update: NULL input with a length is refused (live); an empty update is fine */
    ft_sink_free(&k);
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, vt_null(), 0), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, vt_null(), 5), SC_ERR_ARG);
    assert_int_equal(k.discards, 0);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, buf, 5), SC_OK);
    sc_file_decrypt_abort(&d);
    assert_true(ft_sink_discarded_once(&k));
    ft_sink_free(&k);
}
