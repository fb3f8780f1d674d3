/* The NIP-59 gift-wrap suite for one backend:
 *   test_nip59 --backend NAME [--vectors DIR] [--own DIR]
 * --vectors names the upstream data (nip59.spec-example.json is read from it at run time);
 * --own is accepted for symmetry (the suite's own cases are written in code). */
#include "test_nip59.h"

int main(int argc, char **argv)
{
    static gw_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_spec_unwrap, &env),
        cmocka_unit_test_prestate(test_spec_conversation_keys, &env),
        cmocka_unit_test_prestate(test_spec_layers, &env),
        cmocka_unit_test_prestate(test_spec_rebuild, &env),
        cmocka_unit_test_prestate(test_forged_layers, &env),
        cmocka_unit_test_prestate(test_check_order, &env),
        cmocka_unit_test_prestate(test_round_random, &env),
        cmocka_unit_test_prestate(test_round_options, &env),
        cmocka_unit_test_prestate(test_round_fresh, &env),
        cmocka_unit_test_prestate(test_round_clock, &env),
        cmocka_unit_test_prestate(test_round_extended, &env),
        cmocka_unit_test_prestate(test_sizes_exact, &env),
        cmocka_unit_test_prestate(test_policy_boundary, &env),
        cmocka_unit_test_prestate(test_arena_bound_dense, &env),
        cmocka_unit_test_prestate(test_arena_need, &env),
        cmocka_unit_test_prestate(test_rumor_fn, &env),
        cmocka_unit_test_prestate(test_wrap_rejects, &env),
        cmocka_unit_test_prestate(test_wrap_rng, &env),
        cmocka_unit_test_prestate(test_args, &env),
    };

    return gw_main(argc, argv, "NIP-59 gift wrap", tests, sizeof tests / sizeof tests[0], &env);
}
