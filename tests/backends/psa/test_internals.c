/* backend.psa.internals: what the psa backend promises about mbed TLS's PSA state.
 *  - No key stays in PSA's key store: after every call, on success and failure paths, and in
 *    the middle of a streaming AES-GCM operation, the process-wide store holds no volatile,
 *    half-filled or locked slot (mbedtls_psa_get_stats).
 *  - psa_hash_operation_t in sc_sha256_state is copyable: a copy taken mid-message finishes
 *    independently with the right digest.
 *  - Several contexts share the PSA state: clearing one leaves the others working. */
#define MBEDTLS_ALLOW_PRIVATE_ACCESS /* the fields of mbedtls_psa_stats_t */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <psa/crypto.h>
#include <softchat/softchat.h>

#include "ctx/ctx_internal.h"
#include "vectors_util.h"

/* Fails unless PSA's key store is empty of keys (`what` names the call just made). */
static void expect_no_keys(const char *what)
{
    mbedtls_psa_stats_t st;

    mbedtls_psa_get_stats(&st);
    if (st.volatile_slots != 0 || st.half_filled_slots != 0 || st.locked_slots != 0) {
        fail_msg("after %s: %zu volatile, %zu half-filled, %zu locked key slots", what,
                 st.volatile_slots, st.half_filled_slots, st.locked_slots);
    }
}

static void test_every_call_leaves_no_key(void **state)
{
    static const uint8_t key[32] = {7}, iv[16] = {9};
    uint8_t buf[100], out[100], tag[16], digest[32], big_key[100];
    sc_iov part;
    sc_ctx ctx;
    sc_ctx_impl *c;
    size_t n;

    (void)state;
    memset(buf, 0x33, sizeof buf);
    memset(big_key, 0x44, sizeof big_key);
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, "psa"), SC_OK);
    expect_no_keys("sc_ctx_init (known-answer checks of every group)");

    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx, digest, buf, sizeof buf), SC_OK);
    part.data = buf;
    part.len = sizeof buf;
    for (n = 0; n <= sizeof big_key; n += 50) { /* empty, block-sized and hashed keys */
        VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&ctx, digest, big_key, n, &part, 1), SC_OK);
        expect_no_keys("sc_crypto_hmac_sha256");
    }
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&ctx, out, buf, sizeof buf, key, iv, 0), SC_OK);
    expect_no_keys("sc_crypto_chacha20_xor");
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&ctx, out, buf, sizeof buf, key, iv, 1),
                     SC_ERR_UNSUPPORTED);
    expect_no_keys("sc_crypto_chacha20_xor refused");

    for (n = 12; n <= 16; n += 4) {
        VT_ASSERT_STATUS(
            sc_crypto_aes256gcm_seal(&ctx, out, tag, key, iv, n, buf, 5, buf, sizeof buf), SC_OK);
        expect_no_keys("sc_crypto_aes256gcm_seal");
        VT_ASSERT_STATUS(
            sc_crypto_aes256gcm_open(&ctx, out, key, iv, n, buf, 5, out, sizeof buf, tag), SC_OK);
        expect_no_keys("sc_crypto_aes256gcm_open");
        assert_memory_equal(out, buf, sizeof buf);
        tag[0] ^= 1;
        VT_ASSERT_STATUS(
            sc_crypto_aes256gcm_open(&ctx, out, key, iv, n, buf, 5, out, sizeof buf, tag),
            SC_ERR_AUTH);
        expect_no_keys("sc_crypto_aes256gcm_open with a wrong tag");
    }

    /* streaming: the key is gone from the store once the operation is set up */
    c = sc_ctx_impl_get(&ctx);
    assert_non_null(c);
    VT_ASSERT_STATUS(c->aead->start(c->st[SC_GROUP_AEAD], 0, key, iv, 16, NULL, 0), SC_OK);
    expect_no_keys("aead start");
    VT_ASSERT_STATUS(c->aead->update(c->st[SC_GROUP_AEAD], out, buf, 64), SC_OK);
    expect_no_keys("aead update");
    VT_ASSERT_STATUS(c->aead->final(c->st[SC_GROUP_AEAD], 0, tag), SC_OK);
    VT_ASSERT_STATUS(c->aead->start(c->st[SC_GROUP_AEAD], 1, key, iv, 16, NULL, 0), SC_OK);
    VT_ASSERT_STATUS(c->aead->update(c->st[SC_GROUP_AEAD], out, out, 64), SC_OK);
    VT_ASSERT_STATUS(c->aead->final(c->st[SC_GROUP_AEAD], 1, tag), SC_OK);
    assert_memory_equal(out, buf, 64);
    VT_ASSERT_STATUS(c->aead->start(c->st[SC_GROUP_AEAD], 0, key, iv, 12, NULL, 0), SC_OK);
    c->aead->abort(c->st[SC_GROUP_AEAD]);
    expect_no_keys("aead abort");
    VT_ASSERT_STATUS(c->aead->start(c->st[SC_GROUP_AEAD], 1, key, iv, 12, NULL, 0), SC_OK);
    sc_ctx_clear(&ctx); /* a started operation, cleared with its context */
    expect_no_keys("sc_ctx_clear during a streaming operation");
}

static void test_contexts_share_psa(void **state)
{
    static const uint8_t key[32] = {1}, iv[12] = {2};
    uint8_t buf[32] = {3}, a[32], b[32];
    sc_ctx one, two;

    (void)state;
    VT_ASSERT_STATUS(sc_ctx_init(&one, "psa"), SC_OK);
    VT_ASSERT_STATUS(sc_ctx_init(&two, "psa"), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&one, a, buf, sizeof buf, key, iv, 0), SC_OK);
    sc_ctx_clear(&one); /* PSA stays initialised for the other context */
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&two, b, buf, sizeof buf, key, iv, 0), SC_OK);
    assert_memory_equal(a, b, sizeof a);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&two, a, sizeof a), SC_OK);
    VT_ASSERT_STATUS(sc_ctx_init(&one, "psa"), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&one, b, sizeof b), SC_OK);
    assert_memory_not_equal(a, b, sizeof a);
    sc_ctx_clear(&one);
    sc_ctx_clear(&two);
    expect_no_keys("two contexts");
}

static void test_hash_state_copies(void **state)
{
    static const char abc[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    sc_sha256_state s, copy;
    uint8_t d1[32], d2[32];
    sc_ctx ctx;

    (void)state;
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, "psa"), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256_init(&ctx, &s), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256_update(&ctx, &s, (const uint8_t *)"a", 1), SC_OK);
    memcpy(&copy, &s, sizeof s);
    VT_ASSERT_STATUS(sc_crypto_sha256_update(&ctx, &s, (const uint8_t *)"bc", 2), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256_final(&ctx, &s, d1), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256_update(&ctx, &copy, (const uint8_t *)"bc", 2), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256_final(&ctx, &copy, d2), SC_OK);
    assert_true(vt_hex_is(d1, 32, abc));
    assert_true(vt_hex_is(d2, 32, abc));
    sc_ctx_clear(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_call_leaves_no_key),
        cmocka_unit_test(test_hash_state_copies),
        cmocka_unit_test(test_contexts_share_psa),
    };

    return cmocka_run_group_tests_name("backend.psa.internals", tests, NULL, NULL) != 0;
}
