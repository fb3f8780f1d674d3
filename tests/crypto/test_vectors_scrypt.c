/* scrypt (the scrypt group, NIP-49's KDF): RFC 7914 section 12 (rfc/rfc7914-scrypt.json), then
 * the parameter checks of core: the working-memory formula and cap, and what each refusal
 * leaves in the output. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RFC7914_FILE "rfc/rfc7914-scrypt.json"

void test_scrypt_rfc7914(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;

    vt_need_cap(env, SC_CAP_SCRYPT, RFC7914_FILE);
    root = vt_need_upstream(env, RFC7914_FILE);
    vt_report_init(&r, env->backend, RFC7914_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases"))
    {
        const char *name = vt_json_str(c, "name");
        long log_n = 0, rr = 0, p = 0;
        vt_bytes pw, salt, dk;
        uint8_t *out;
        sc_status st;
        char h[128];

        if (!vt_json_hex(c, "password", &pw) + !vt_json_hex(c, "salt", &salt) +
                    !vt_json_hex(c, "dk", &dk) !=
                0 ||
            !vt_json_long(c, "log_n", &log_n) || !vt_json_long(c, "r", &rr) ||
            !vt_json_long(c, "p", &p) || log_n < 1 || rr < 1 || p < 1) {
            vt_case_fail(&r, "%s: malformed case", name != NULL ? name : "?");
        } else {
            out = vt_alloc(dk.n);
            st = sc_crypto_scrypt(&env->ctx, out, dk.n, pw.p, pw.n, salt.p, salt.n, (unsigned)log_n,
                                  (uint32_t)rr, (uint32_t)p);
            if (st != SC_OK || memcmp(out, dk.p, dk.n) != 0) {
                vt_case_fail(&r, "%s: %s, dk %s", name, sc_status_name(st),
                             vt_hexstr(h, sizeof h, out, dk.n));
            } else {
                vt_case_pass(&r);
            }
            free(out);
        }
        vt_bytes_free(&pw);
        vt_bytes_free(&salt);
        vt_bytes_free(&dk);
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 3);
}

/* Calls sc_crypto_scrypt into a buffer of 0xa5 and expects `want` and, on failure, a zeroed
 * output. */
static void expect_scrypt(vt_env *env, sc_status want, size_t out_len, unsigned log_n, uint32_t r,
                          uint32_t p)
{
    uint8_t out[64];

    memset(out, 0xa5, sizeof out);
    VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, out, out_len, (const uint8_t *)"pw", 2,
                                      (const uint8_t *)"salt", 4, log_n, r, p),
                     want);
    if (want != SC_OK) {
        assert_true(vt_all_zero(out, out_len));
    }
}

void test_neg_scrypt(void **state)
{
    vt_env *env = vt_env_of(state);
    int has = sc_backend_has(sc_ctx_backend(&env->ctx), SC_CAP_SCRYPT, NULL) == SC_OK;
    uint8_t buf[64];

    /* the formula: 128 * r * (2^log_n + p + 2) bytes; 0 for what scrypt never accepts */
    assert_true(sc_crypto_scrypt_memory(16, 8, 1) == 128u * 8u * (65536u + 3u));
    assert_true(sc_crypto_scrypt_memory(22, 8, 1) == 128u * 8u * ((((uint64_t)1) << 22) + 3u));
    assert_true(sc_crypto_scrypt_memory(22, 8, 1) <= SC_SCRYPT_MEMORY_MAX);
    assert_true(sc_crypto_scrypt_memory(23, 8, 1) > SC_SCRYPT_MEMORY_MAX);
    assert_true(sc_crypto_scrypt_memory(0, 8, 1) == 0);
    assert_true(sc_crypto_scrypt_memory(63, 1, 1) == 0);
    assert_true(sc_crypto_scrypt_memory(4, 0, 1) == 0);
    assert_true(sc_crypto_scrypt_memory(4, 1, 0) == 0);
    assert_true(sc_crypto_scrypt_memory(4, 1u << 15, 1u << 15) == 0); /* r * p = 2^30 */
    assert_true(sc_crypto_scrypt_memory(4, (1u << 15) - 1, 1u << 15) != 0);

    /* refused before the backend is asked, whatever it is: the cost first */
    expect_scrypt(env, SC_ERR_SCRYPT_COST, 32, 0, 8, 1);
    expect_scrypt(env, SC_ERR_SCRYPT_COST, 32, 23, 8, 1);  /* 8 GiB */
    expect_scrypt(env, SC_ERR_SCRYPT_COST, 32, 22, 16, 1); /* 8 GiB */
    expect_scrypt(env, SC_ERR_SCRYPT_COST, 32, 63, 1, 1);
    expect_scrypt(env, SC_ERR_SCRYPT_COST, 32, 4, 1u << 15, 1u << 15);
    expect_scrypt(env, SC_ERR_ARG, 32, 4, 0, 1);
    expect_scrypt(env, SC_ERR_ARG, 32, 4, 1, 0);
    VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, buf, 0, NULL, 0, NULL, 0, 4, 1, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_crypto_scrypt(&env->ctx, (uint8_t *)vt_null(), 32, NULL, 0, NULL, 0, 4, 1, 1),
        SC_ERR_ARG);
    memset(buf, 0x33, sizeof buf);
    VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, buf, 32, buf + 16, 8, NULL, 0, 4, 1, 1),
                     SC_ERR_OVERLAP);
    assert_true(buf[0] == 0x33 && buf[31] == 0x33); /* untouched: it holds the input */
    VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, buf, 32, NULL, 0, buf + 31, 1, 4, 1, 1),
                     SC_ERR_OVERLAP);
    /* within the limits: computed, or refused by a backend without the group */
    expect_scrypt(env, has ? SC_OK : SC_ERR_UNSUPPORTED, 32, 4, 1, 1);
    if (has) {
        uint8_t a[32], b[32];

        /* r and p are distinct parameters; the same inputs give the same output */
        VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, a, 32, buf, 3, buf, 3, 5, 2, 3), SC_OK);
        VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, b, 32, buf, 3, buf, 3, 5, 3, 2), SC_OK);
        assert_memory_not_equal(a, b, 32);
        VT_ASSERT_STATUS(sc_crypto_scrypt(&env->ctx, b, 32, buf, 3, buf, 3, 5, 2, 3), SC_OK);
        assert_memory_equal(a, b, 32);
    }
}
