/* The NIP-77 Negentropy suite for one backend:
 *   test_negentropy --backend NAME
 * Wire format and fingerprints (values computed independently), full reconciliations in
 * both roles with and without frame limits, malformed and hostile messages, sizes, state
 * and argument checks. Cross-implementation runs are tests/negentropy/cross.py. */
#include "test_negentropy.h"

#include <string.h>

static neg_env env;

void test_init_checks(void **state)
{
    sc_negentropy neg;
    sc_negentropy_item it[3];
    sc_negentropy_opts o;

    (void)state;
    memset(it, 0, sizeof it);
    it[0].timestamp = 5;
    it[1].timestamp = 5;
    it[1].id[31] = 1;
    it[2].timestamp = 6;
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, NULL, 0, NULL), SC_OK);
    /* out of order, duplicate, infinity */
    it[1].id[31] = 0;
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, NULL), SC_ERR_UNSORTED);
    assert_int_equal(sc_negentropy_have_max(&neg), 0); /* zeroed on failure */
    it[1].timestamp = 4;
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, NULL), SC_ERR_UNSORTED);
    VT_ASSERT_STATUS(sc_negentropy_sort(it, 3), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, NULL), SC_OK);
    assert_int_equal(it[0].timestamp, 4);
    it[2].timestamp = UINT64_MAX;
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, NULL), SC_ERR_ARG);
    it[2].timestamp = 6;
    memset(&o, 0, sizeof o);
    o.frame_limit = SC_NEGENTROPY_FRAME_MIN - 1;
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, &o), SC_ERR_FLAGS);
    o.frame_limit = SC_NEGENTROPY_FRAME_MIN;
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, it, 3, &o), SC_OK);
    assert_int_equal(sc_negentropy_reconcile_max(&neg, 100000), SC_NEGENTROPY_FRAME_MIN);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, NULL, 1, NULL), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_init(vt_null(), it, 3, NULL), SC_ERR_ARG);
}

void test_args(void **state)
{
    neg_env *e = *state;
    sc_negentropy neg, dead;
    sc_negentropy_item it;
    uint8_t out[64], msg[1] = {SC_NEGENTROPY_VERSION};
    size_t have[1], len = 9, hl = 9, nl = 9;
    uint8_t need[1][32];

    memset(&it, 0, sizeof it);
    memset(&dead, 0, sizeof dead);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, &it, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &dead, out, sizeof out, &len), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_negentropy_initiate(vt_null(), &neg, out, sizeof out, &len), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &neg, NULL, 5, &len), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &neg, out, sizeof out, vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &dead, out, sizeof out, &len, have, 1, &hl,
                                             need, 1, &nl, msg, 1),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &neg, out, sizeof out, &len, have, 1, &hl,
                                             need, 1, &nl, msg, 0),
                     SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &neg, out, sizeof out, &len, have, 1, &hl,
                                             need, 1, &nl, NULL, 1),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &neg, out, sizeof out, &len, NULL, 1, &hl,
                                             need, 1, &nl, msg, 1),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &neg, out, sizeof out, &len, have, 1,
                                             vt_null(), need, 1, &nl, msg, 1),
                     SC_ERR_ARG);
    /* the message inside the output */
    out[0] = SC_NEGENTROPY_VERSION;
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &neg, out, sizeof out, &len, have, 1, &hl,
                                             need, 1, &nl, out, 1),
                     SC_ERR_OVERLAP);
    assert_int_equal(sc_negentropy_initiate_max(&dead), 0);
    assert_int_equal(sc_negentropy_reconcile_max(vt_null(), 10), 0);
    assert_int_equal(sc_negentropy_have_max(&dead), 0);
    assert_int_equal(sc_negentropy_need_max(31), 0);
    assert_int_equal(sc_negentropy_need_max(64), 2);
    VT_ASSERT_STATUS(sc_negentropy_sort(NULL, 2), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_negentropy_sort(NULL, 0), SC_OK);
}

int main(int argc, char **argv)
{
    vt_suite s;
    int failed;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_varint, &env),
        cmocka_unit_test_prestate(test_bounds, &env),
        cmocka_unit_test_prestate(test_fingerprint, &env),
        cmocka_unit_test_prestate(test_initiate_shape, &env),
        cmocka_unit_test_prestate(test_round_sizes, &env),
        cmocka_unit_test_prestate(test_round_limits, &env),
        cmocka_unit_test_prestate(test_round_edges, &env),
        cmocka_unit_test_prestate(test_version, &env),
        cmocka_unit_test_prestate(test_malformed, &env),
        cmocka_unit_test_prestate(test_frame_edges, &env),
        cmocka_unit_test_prestate(test_hostile_idlist, &env),
        cmocka_unit_test_prestate(test_buffers, &env),
        cmocka_unit_test_prestate(test_init_checks, &env),
        cmocka_unit_test_prestate(test_args, &env),
    };

    failed = vt_suite_start(&s, &env.ctx, argc, argv, "test_negentropy", "NIP-77 Negentropy", NULL,
                            NULL, 0);
    if (failed != 0) {
        return failed;
    }
    env.backend = s.backend;
    failed = _cmocka_run_group_tests(s.backend, tests, sizeof tests / sizeof tests[0], NULL, NULL);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
