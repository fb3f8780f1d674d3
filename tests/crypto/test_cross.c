/* test_cross [--seed N]: cross-backend agreement. The seed is printed so a failing run can be
 * repeated exactly. */
#include "test_cross.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xc_pair(const xc_env *x, size_t p, size_t *a, size_t *b)
{
    size_t i, j, k = 0;

    if (x->n == 1) {
        *a = *b = 0;
        return p == 0;
    }
    for (i = 0; i < x->n; i++) {
        for (j = 0; j < x->n; j++) {
            if (i != j && k++ == p) {
                *a = i;
                *b = j;
                return 1;
            }
        }
    }
    return 0;
}

int xc_has(const xc_env *x, size_t i, sc_cap cap)
{
    return sc_backend_has(sc_ctx_backend(&x->ctx[i]), cap, NULL) == SC_OK;
}

int main(int argc, char **argv)
{
    static xc_env env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_cross_sha256, &env),
        cmocka_unit_test_prestate(test_cross_hmac, &env),
        cmocka_unit_test_prestate(test_cross_hkdf, &env),
        cmocka_unit_test_prestate(test_cross_chacha20, &env),
        cmocka_unit_test_prestate(test_cross_aesgcm, &env),
        cmocka_unit_test_prestate(test_cross_xchacha20poly1305, &env),
        cmocka_unit_test_prestate(test_cross_scrypt, &env),
        cmocka_unit_test_prestate(test_cross_bip340, &env),
        cmocka_unit_test_prestate(test_cross_ecdh, &env),
        cmocka_unit_test_prestate(test_cross_keypair, &env),
    };
    uint64_t seed = vt_rand_fresh_seed();
    size_t i;
    int failed;

    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        seed = strtoull(argv[2], NULL, 0);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
        return 2;
    }
    vt_rand_seed(seed);
    env.n = sc_backend_count();
    if (env.n > XC_MAX_BACKENDS) {
        env.n = XC_MAX_BACKENDS;
    }
    for (i = 0; i < env.n; i++) {
        sc_status st;

        env.name[i] = sc_backend_at(i)->name;
        st = sc_ctx_init(&env.ctx[i], env.name[i]);
        if (st != SC_OK) {
            fprintf(stderr, "test_cross: context for %s: %s\n", env.name[i], sc_status_name(st));
            return 1;
        }
    }
    printf("[==========] cross-backend agreement, seed 0x%016" PRIx64
           " (repeat with --seed 0x%016" PRIx64 ")\n",
           seed, seed);
    if (env.n == 1) {
        printf("NOTE: only one backend is compiled (%s): the cross checks run as "
               "self-agreement of %s with itself\n",
               env.name[0], env.name[0]);
    } else {
        printf("backends:");
        for (i = 0; i < env.n; i++) {
            printf(" %s", env.name[i]);
        }
        printf(" (%zu ordered pairs)\n", env.n * (env.n - 1));
    }
    fflush(stdout);
    failed = cmocka_run_group_tests_name("cross", tests, NULL, NULL);
    for (i = 0; i < env.n; i++) {
        sc_ctx_clear(&env.ctx[i]);
    }
    return failed != 0 ? 1 : 0;
}
