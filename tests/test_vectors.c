/* The conformance suite for one backend:
 *   test_vectors --backend NAME [--vectors DIR] [--own DIR]
 * --vectors names the upstream data (Wycheproof, RFCs, BIP-340), --own the project's vectors/.
 * One context is created for the backend and every test of the table runs against it; the
 * cmocka group is named after the backend. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SC_TEST_VECTORS_DIR
#define SC_TEST_VECTORS_DIR "../shared/vectors"
#endif
#ifndef SC_TEST_OWN_DIR
#define SC_TEST_OWN_DIR "vectors"
#endif

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s --backend NAME [--vectors DIR] [--own DIR]\n", argv0);
    return 2;
}

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
        cmocka_unit_test_prestate(test_rng, &env),
        cmocka_unit_test_prestate(test_rng_fork, &env),
    };
    const char *backend = NULL;
    char why[600];
    sc_status st;
    int i, failed;

    env.vectors_dir = SC_TEST_VECTORS_DIR;
    env.own_dir = SC_TEST_OWN_DIR;
    for (i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--backend") == 0) {
            backend = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--vectors") == 0) {
            env.vectors_dir = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--own") == 0) {
            env.own_dir = argv[++i];
        } else {
            return usage(argv[0]);
        }
    }
    if (backend == NULL) {
        backend = sc_backend_default()->name;
        printf("note: no --backend given; using the default backend %s\n", backend);
    }
    st = sc_ctx_init(&env.ctx, backend);
    if (st != SC_OK) {
        fprintf(stderr, "test_vectors: cannot create a context for backend \"%s\": %s (%s)\n",
                backend, sc_status_name(st), sc_status_str(st));
        return 1;
    }
    env.backend = backend;
    env.vectors_present = vt_dir_exists(env.vectors_dir);
    if (!env.vectors_present) {
        printf("\n**********************************************************************\n"
               "WARNING: upstream vectors folder %s not found; running only the project's "
               "own vectors\n"
               "**********************************************************************\n\n",
               env.vectors_dir);
    }
    env.own = vt_load_json(env.own_dir, VT_OWN_FILE, why, sizeof why);
    env.own_why = why;
    if (env.own == NULL) {
        printf("ERROR: the project's own vectors cannot be read: %s\n", why);
    }
    printf("[==========] group %s: upstream vectors %s, own vectors %s/%s\n", backend,
           env.vectors_dir, env.own_dir, VT_OWN_FILE);
    fflush(stdout);
    failed = cmocka_run_group_tests_name(backend, tests, NULL, NULL);
    cJSON_Delete(env.own);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
