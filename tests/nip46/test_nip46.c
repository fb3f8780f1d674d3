/* test_nip46: NIP-46 remote signing on one backend.
 *   test_nip46 --backend NAME [--vectors DIR] [--own DIR]
 * This file: main and the helpers that build messages and play the bunker. */
#include "test_nip46.h"

#include <stdlib.h>
#include <string.h>

void n46_hex(char out[65], const uint8_t key[32])
{
    size_t n = 0;

    VT_ASSERT_STATUS(sc_hex_encode(out, 65, &n, key, 32), SC_OK);
    out[64] = '\0';
}

n46_buf n46_request(gw_env *env, const sc_identity *client, const uint8_t bunker[32],
                    const sc_nip46_call *call, uint8_t seed, char id_out[SC_NIP46_ID_CHARS])
{
    uint8_t rnd[SC_NIP46_ID_RAND_BYTES];
    n46_buf b = {NULL, 0};
    size_t need = 0;

    memset(rnd, seed, sizeof rnd);
    VT_ASSERT_STATUS(sc_nip46_request_build(&env->ctx, NULL, 0, &need, client, bunker, rnd, call,
                                            N46_NOW, id_out),
                     SC_ERR_BUFFER_TOO_SMALL);
    b.p = (char *)vt_alloc(need);
    VT_ASSERT_STATUS(sc_nip46_request_build(&env->ctx, b.p, need, &b.len, client, bunker, rnd, call,
                                            N46_NOW, id_out),
                     SC_OK);
    assert_true(b.len < need);
    assert_true(vt_all_zero((const uint8_t *)b.p + b.len, need - b.len));
    return b;
}

n46_buf n46_response(gw_env *env, const sc_identity *bunker, const uint8_t client[32], sc_str id,
                     sc_str result, sc_str error)
{
    n46_buf b = {NULL, 0};
    size_t need = 0;

    VT_ASSERT_STATUS(sc_nip46_response_build(&env->ctx, NULL, 0, &need, bunker, client, id, result,
                                             error, N46_NOW),
                     SC_ERR_BUFFER_TOO_SMALL);
    b.p = (char *)vt_alloc(need);
    VT_ASSERT_STATUS(sc_nip46_response_build(&env->ctx, b.p, need, &b.len, bunker, client, id,
                                             result, error, N46_NOW),
                     SC_OK);
    return b;
}

n46_buf n46_bunker_turn(gw_env *env, const sc_identity *bunker, const sc_identity *user,
                        const sc_nip46_policy *policy, n46_buf req, sc_status *handled)
{
    sc_nip46_request r;
    size_t scap = sc_nip46_open_scratch_max(req.len), used = 0, cap, len = 0;
    void *scratch = vt_alloc(scap);
    const char *error = NULL;
    char *out;
    n46_buf resp;

    VT_ASSERT_STATUS(
        sc_nip46_request_open(&env->ctx, &r, scratch, scap, &used, bunker, req.p, req.len), SC_OK);
    cap = sc_nip46_bunker_result_max(&r);
    out = (char *)vt_alloc(cap);
    *handled = sc_nip46_bunker_handle(&env->ctx, out, cap, &len, &error, user, policy, &r);
    if (*handled == SC_OK) {
        assert_null(error);
        resp = n46_response(env, bunker, r.client, r.id, (sc_str){out, len}, (sc_str){"", 0});
    } else {
        assert_non_null(error);
        assert_int_equal(len, 0);
        resp = n46_response(env, bunker, r.client, r.id, (sc_str){"", 0},
                            (sc_str){error, strlen(error)});
    }
    free(out);
    free(scratch);
    return resp;
}

int main(int argc, char **argv)
{
    static gw_env env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_uri_accepted, &env),
        cmocka_unit_test_prestate(test_uri_refused, &env),
        cmocka_unit_test_prestate(test_uri_build, &env),
        cmocka_unit_test_prestate(test_msg_round_trip, &env),
        cmocka_unit_test_prestate(test_msg_checks, &env),
        cmocka_unit_test_prestate(test_msg_bad_rpc, &env),
        cmocka_unit_test_prestate(test_bunker_policy, &env),
        cmocka_unit_test_prestate(test_msg_args, &env),
        cmocka_unit_test_prestate(test_e2e_nip17, &env),
        cmocka_unit_test_prestate(test_e2e_lying_bunker, &env),
        cmocka_unit_test_prestate(test_e2e_refusal, &env),
    };

    return gw_main(argc, argv, "nip46", tests, sizeof tests / sizeof tests[0], &env);
}
