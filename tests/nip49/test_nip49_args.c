/* NIP-49 with the RNG, the argument checks and their outputs on failure, the cost limits and
 * buffer sizes, and a backend without NIP-49's primitives. Costs here are small (log_n <= 6):
 * the NIP's cost-16 vector runs in test_nip49.c. */
#include "test_nip49.h"

#include <stdio.h>
#include <string.h>

static const uint8_t key1[32] = {0x35, 0x01, 0x45, 0x41, 0x35, 0x01, 0x45, 0x41, 0x35, 0x01, 0x45,
                                 0x41, 0x35, 0x01, 0x45, 0x3f, 0xef, 0xb0, 0x22, 0x27, 0xe4, 0x49,
                                 0xe5, 0x7c, 0xf4, 0xd3, 0xa3, 0xce, 0x05, 0x37, 0x86, 0x83};

/* The drawn salt and nonce make each encryption different, and every one opens. */
void test_round_trip(void **state)
{
    n49_env *env = n49_env_of(state);
    char a[SC_NIP49_LEN], b[SC_NIP49_LEN], upper[SC_NIP49_LEN];
    uint8_t back[32];
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    size_t na = 0, nb = 0, i;

    n49_need_backend(env, "round trip");
    assert_int_equal(sc_nip49_encrypt_len(), SC_NIP49_LEN);
    VT_ASSERT_STATUS(
        sc_nip49_encrypt(&env->ctx, a, sizeof a, &na, key1, "hunter2", 7, 5, SC_NIP49_KEY_SECURE),
        SC_OK);
    VT_ASSERT_STATUS(
        sc_nip49_encrypt(&env->ctx, b, sizeof b, &nb, key1, "hunter2", 7, 5, SC_NIP49_KEY_SECURE),
        SC_OK);
    assert_int_equal(na, SC_NIP49_LEN);
    assert_int_equal(nb, SC_NIP49_LEN);
    assert_memory_not_equal(a, b, SC_NIP49_LEN);
    assert_memory_equal(a, "ncryptsec1", 10);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, back, &security, b, nb, "hunter2", 7), SC_OK);
    assert_memory_equal(back, key1, 32);
    assert_int_equal(security, SC_NIP49_KEY_SECURE);
    /* BIP-173 accepts a string in upper case (QR codes): so does decryption */
    for (i = 0; i < na; i++) {
        upper[i] = (a[i] >= 'a' && a[i] <= 'z') ? (char)(a[i] - 'a' + 'A') : a[i];
    }
    memset(back, 0, sizeof back);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, back, NULL, upper, na, "hunter2", 7), SC_OK);
    assert_memory_equal(back, key1, 32);
    /* a password of one byte more or less is another password */
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, back, NULL, a, na, "hunter2", 6), SC_ERR_AUTH);
    assert_true(vt_all_zero(back, sizeof back));
    sc_mem_wipe(back, sizeof back);
}

void test_args(void **state)
{
    n49_env *env = n49_env_of(state);
    static const uint8_t zero[32],
        order[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                     0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48,
                     0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
    uint8_t salt[16], nonce[24], sec[32];
    char out[SC_NIP49_LEN + 8];
    size_t n = 99;

    n49_need_backend(env, "argument checks");
    memset(salt, 1, sizeof salt);
    memset(nonce, 2, sizeof nonce);
    /* each refusal zeroes the output (but SC_ERR_ARG, which leaves it untouched) */
#define EXPECT_ENC(want, sec_, pw, pw_len, log_n, security)                                        \
    do {                                                                                           \
        memset(out, 'x', sizeof out);                                                              \
        VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, out, sizeof out, &n, sec_, pw,      \
                                                    pw_len, log_n, security, salt, nonce),         \
                         want);                                                                    \
        assert_int_equal(n, 0);                                                                    \
        if ((want) != SC_ERR_ARG) {                                                                \
            assert_true(vt_all_zero((const uint8_t *)out, sizeof out));                            \
        }                                                                                          \
    } while (0)
    EXPECT_ENC(SC_ERR_EMPTY, key1, "", 0, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_EMPTY, key1, NULL, 0, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_UTF8, key1, "ab\xff", 3, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_UTF8, key1, "\xc3\x28", 2, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_UTF8, key1, "\xed\xa0\x80", 3, 4, SC_NIP49_KEY_UNKNOWN); /* a surrogate */
    EXPECT_ENC(SC_ERR_INVALID_KEY, zero, "pw", 2, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_INVALID_KEY, order, "pw", 2, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_SCRYPT_COST, key1, "pw", 2, 0, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_SCRYPT_COST, key1, "pw", 2, SC_NIP49_LOG_N_MAX + 1, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_ARG, key1, "pw", 2, 4, (sc_nip49_security)3);
    EXPECT_ENC(SC_ERR_ARG, key1, NULL, 2, 4, SC_NIP49_KEY_UNKNOWN);
    EXPECT_ENC(SC_ERR_ARG, (const uint8_t *)vt_null(), "pw", 2, 4, SC_NIP49_KEY_UNKNOWN);
#undef EXPECT_ENC
    VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, out, sizeof out, &n, key1, "pw", 2, 4,
                                                SC_NIP49_KEY_UNKNOWN, (const uint8_t *)vt_null(),
                                                nonce),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip49_encrypt(&env->ctx, out, sizeof out, (size_t *)vt_null(), key1, "pw",
                                      2, 4, SC_NIP49_KEY_UNKNOWN),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip49_encrypt((sc_ctx *)vt_null(), out, sizeof out, &n, key1, "pw", 2, 4,
                                      SC_NIP49_KEY_UNKNOWN),
                     SC_ERR_ARG);
    /* decryption: the key is zeroed on every refusal but a NULL key */
    memset(sec, 0xa5, sizeof sec);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, sec, NULL, (const char *)vt_null(), 5, "pw", 2),
                     SC_ERR_ARG);
    assert_true(vt_all_zero(sec, sizeof sec));
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, (uint8_t *)vt_null(), NULL, "x", 1, "pw", 2),
                     SC_ERR_ARG);
    memset(sec, 0xa5, sizeof sec);
    VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, out, sizeof out, &n, key1, "pw", 2, 2,
                                                SC_NIP49_KEY_INSECURE, salt, nonce),
                     SC_OK);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, sec, NULL, out, n, "p\xffw", 3), SC_ERR_UTF8);
    assert_true(vt_all_zero(sec, sizeof sec));
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, sec, NULL, out, n, (const char *)vt_null(), 2),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, sec, NULL, out, n - 1, "pw", 2), SC_ERR_BECH32);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, sec, NULL, out, n, "pw", 2), SC_OK);
    assert_memory_equal(sec, key1, 32);
    sc_mem_wipe(sec, sizeof sec);
}

/* The cost limits, the buffer sizes, and inspect's answers on strings it refuses. */
void test_cost_and_size(void **state)
{
    n49_env *env = n49_env_of(state);
    uint8_t salt[16], nonce[24];
    char out[SC_NIP49_LEN];
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    unsigned log_n = 99;
    size_t n = 0;

    n49_need_backend(env, "costs and sizes");
    memset(salt, 3, sizeof salt);
    memset(nonce, 4, sizeof nonce);
    /* ask the size first: no output, *out_len = the need, nothing drawn or derived */
    VT_ASSERT_STATUS(
        sc_nip49_encrypt(&env->ctx, NULL, 0, &n, key1, "pw", 2, 22, SC_NIP49_KEY_UNKNOWN),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, SC_NIP49_LEN);
    memset(out, 'x', sizeof out);
    VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, out, SC_NIP49_LEN - 1, &n, key1, "pw", 2,
                                                1, SC_NIP49_KEY_UNKNOWN, salt, nonce),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, SC_NIP49_LEN);
    assert_true(out[0] == 'x' && out[SC_NIP49_LEN - 2] == 'x');
    /* the smallest cost works; the cost is read back without paying it */
    VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, out, sizeof out, &n, key1, "pw", 2, 1,
                                                SC_NIP49_KEY_UNKNOWN, salt, nonce),
                     SC_OK);
    VT_ASSERT_STATUS(sc_nip49_inspect(&log_n, &security, out, n), SC_OK);
    assert_int_equal(log_n, 1);
    assert_int_equal(security, SC_NIP49_KEY_UNKNOWN);
    VT_ASSERT_STATUS(sc_nip49_inspect(&log_n, &security, out, 10), SC_ERR_BECH32);
    assert_int_equal(log_n, 0);
    VT_ASSERT_STATUS(sc_nip49_inspect((unsigned *)vt_null(), &security, out, n), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip49_inspect(&log_n, (sc_nip49_security *)vt_null(), out, n), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip49_inspect(&log_n, &security, (const char *)vt_null(), 3), SC_ERR_ARG);
    assert_int_equal(SC_NIP49_LOG_N_MAX, 22);
    assert_true(sc_crypto_scrypt_memory(SC_NIP49_LOG_N_MAX, 8, 1) <= SC_SCRYPT_MEMORY_MAX);
    assert_true(sc_crypto_scrypt_memory(SC_NIP49_LOG_N_MAX + 1, 8, 1) > SC_SCRYPT_MEMORY_MAX);
}

/* mbedtls and psa have neither scrypt nor XChaCha20-Poly1305: every call that needs them says
 * so, before any work, while inspect (no crypto) still answers. */
void test_unsupported(void **state)
{
    n49_env *env = n49_env_of(state);
    static const char spec[] =
        "ncryptsec1qgg9947rlpvqu76pj5ecreduf9jxhselq2nae2kghhvd5g7dgjtcxfqtd67p9m0w57lspw8gsq6yp"
        "hnm8623nsl8xn9j4jdzz84zm3frztj3z7s35vpzmqf6ksu8r89qk5z2zxfmu5gv8th8wclt0h4p";
    uint8_t sec[32];
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    unsigned log_n = 0;
    char out[SC_NIP49_LEN];
    size_t n = 0;

    VT_ASSERT_STATUS(sc_nip49_inspect(&log_n, &security, spec, sizeof spec - 1), SC_OK);
    assert_int_equal(log_n, 16);
    assert_int_equal(security, SC_NIP49_KEY_INSECURE);
    if (env->has_nip49) {
        printf("[%s] the backend has NIP-49's primitives: nothing to refuse\n", env->backend);
        return;
    }
    memset(sec, 0xa5, sizeof sec);
    VT_ASSERT_STATUS(sc_nip49_decrypt(&env->ctx, sec, NULL, spec, sizeof spec - 1, "nostr", 5),
                     SC_ERR_UNSUPPORTED);
    assert_true(vt_all_zero(sec, sizeof sec));
    VT_ASSERT_STATUS(
        sc_nip49_encrypt(&env->ctx, out, sizeof out, &n, key1, "pw", 2, 4, SC_NIP49_KEY_UNKNOWN),
        SC_ERR_UNSUPPORTED);
    printf("[%s] refused with SC_ERR_UNSUPPORTED: %s\n", env->backend, env->why);
}
