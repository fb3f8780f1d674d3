/* The conformance suite for one backend:
 *   test_vectors --backend NAME [--vectors DIR] [--own DIR]
 * --vectors names the upstream data (Wycheproof, RFCs, BIP-340), --own the project's vectors/.
 * One context is created for the backend and every test of the table runs against it; the
 * cmocka group is named after the backend. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static vt_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_capabilities, &env),
        cmocka_unit_test_prestate(test_sha256_examples, &env),
        cmocka_unit_test_prestate(test_own_sha256, &env),
        cmocka_unit_test_prestate(test_hmac_rfc4231, &env),
        cmocka_unit_test_prestate(test_hmac_wycheproof, &env),
        cmocka_unit_test_prestate(test_own_hmac, &env),
        cmocka_unit_test_prestate(test_hkdf_rfc5869, &env),
        cmocka_unit_test_prestate(test_hkdf_wycheproof, &env),
        cmocka_unit_test_prestate(test_own_hkdf, &env),
        cmocka_unit_test_prestate(test_chacha20_rfc8439, &env),
        cmocka_unit_test_prestate(test_own_chacha20, &env),
        cmocka_unit_test_prestate(test_aesgcm_wycheproof, &env),
        cmocka_unit_test_prestate(test_own_aesgcm, &env),
        cmocka_unit_test_prestate(test_ecdh_wycheproof, &env),
        cmocka_unit_test_prestate(test_bip340_csv, &env),
        cmocka_unit_test_prestate(test_neg_aead, &env),
        cmocka_unit_test_prestate(test_neg_curve, &env),
        cmocka_unit_test_prestate(test_neg_chacha20, &env),
        cmocka_unit_test_prestate(test_neg_null_args, &env),
        cmocka_unit_test_prestate(test_neg_hkdf, &env),
        cmocka_unit_test_prestate(test_xchacha20poly1305_wycheproof, &env),
        cmocka_unit_test_prestate(test_neg_xchacha20poly1305, &env),
        cmocka_unit_test_prestate(test_scrypt_rfc7914, &env),
        cmocka_unit_test_prestate(test_neg_scrypt, &env),
        cmocka_unit_test_prestate(test_rng, &env),
        cmocka_unit_test_prestate(test_rng_fork, &env),
    };
    char why[600];
    vt_suite suite;
    int failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_vectors",
                                "primitives (upstream and own vectors)",
                                "every upstream vector file is", NULL, 0);

    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.vectors_dir = suite.vectors_dir;
    env.own_dir = suite.own_dir;
    env.vectors_present = suite.vectors_present;
    env.own = vt_load_json(env.own_dir, VT_OWN_FILE, why, sizeof why);
    env.own_why = why;
    if (env.own == NULL) {
        printf("ERROR: the project's own vectors cannot be read: %s\n", why);
    }
    printf("[%s] own vectors %s/%s\n", suite.backend, env.own_dir, VT_OWN_FILE);
    fflush(stdout);
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    cJSON_Delete(env.own);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
