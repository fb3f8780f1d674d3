/* The NIP-59 suite: one cmocka group per backend; every test receives the gw_env of
 * test_nip59_util.h as its initial state. */
#ifndef SOFTCHAT_TESTS_TEST_NIP59_H
#define SOFTCHAT_TESTS_TEST_NIP59_H

#include "test_nip59_util.h"

#define N59_FILE "nip59.spec-example.json"

/* nip59.spec-example.json (test_nip59_spec.c) */
void test_spec_unwrap(void **state);
void test_spec_conversation_keys(void **state);
void test_spec_layers(void **state);
void test_spec_rebuild(void **state);

/* forged layers (test_nip59_forge.c) */
void test_forged_layers(void **state);
void test_check_order(void **state);

/* round trips (test_nip59_round.c) */
void test_round_random(void **state);
void test_round_options(void **state);
void test_round_fresh(void **state);
void test_round_clock(void **state);
void test_round_extended(void **state);

/* sizes and buffers (test_nip59_sizes.c) */
void test_sizes_exact(void **state);
void test_policy_boundary(void **state);
void test_arena_bound_dense(void **state);
void test_arena_need(void **state);

/* randomness, rejects and arguments (test_nip59_args.c) */
void test_rumor_fn(void **state);
void test_wrap_rejects(void **state);
void test_wrap_rng(void **state);
void test_args(void **state);

#endif
