/* The NIP-46 suite: the shared environment of the NIP-59 helpers (a context on the backend
 * given), the tests of each file, and the helpers that carry a call from client to bunker. */
#ifndef SOFTCHAT_TESTS_TEST_NIP46_H
#define SOFTCHAT_TESTS_TEST_NIP46_H

#include "test_nip59_util.h"

#define N46_NOW ((int64_t)1700000000)

/* test_nip46_uri.c */
void test_uri_accepted(void **state);
void test_uri_refused(void **state);
void test_uri_build(void **state);

/* test_nip46_msg.c */
void test_msg_round_trip(void **state);
void test_msg_checks(void **state);
void test_msg_bad_rpc(void **state);
void test_bunker_policy(void **state);
void test_msg_args(void **state);

/* test_nip46_e2e.c */
void test_e2e_nip17(void **state);
void test_e2e_lying_bunker(void **state);
void test_e2e_refusal(void **state);

/* The 64 lowercase hex characters of key and a NUL. */
void n46_hex(char out[65], const uint8_t key[32]);

/* A heap buffer the caller frees, with its length. */
typedef struct n46_buf {
    char *p;
    size_t len;
} n46_buf;

/* sc_nip46_request_build into an exact-size heap buffer (the need asked first); rnd byte
 * `seed` repeated; the id to id_out. Fails the test unless SC_OK. */
n46_buf n46_request(gw_env *env, const sc_identity *client, const uint8_t bunker[32],
                    const sc_nip46_call *call, uint8_t seed, char id_out[SC_NIP46_ID_CHARS]);

/* sc_nip46_response_build likewise. */
n46_buf n46_response(gw_env *env, const sc_identity *bunker, const uint8_t client[32], sc_str id,
                     sc_str result, sc_str error);

/* The bunker's turn: opens req as `bunker`, handles it for `user` under policy and builds
 * the response (the result, or the refusal's error). *handled = the handle's status. */
n46_buf n46_bunker_turn(gw_env *env, const sc_identity *bunker, const sc_identity *user,
                        const sc_nip46_policy *policy, n46_buf req, sc_status *handled);

#endif
