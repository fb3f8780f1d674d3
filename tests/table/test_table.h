/* Backend tables: validation, the registry, malformed tables, miswired test doubles and
 * coexisting contexts. */
#ifndef SOFTCHAT_TESTS_TEST_TABLE_H
#define SOFTCHAT_TESTS_TEST_TABLE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <softchat/softchat.h>

#include "ctx/ctx_internal.h"
#include "vectors_util.h"

/* Expects sc_ctx_init_table(t) to fail with `want` and leave the context zeroed. */
void tt_expect_init_fails(const sc_backend *t, sc_status want, const char *what);

/* A context that computes the SHA-256 a miswired ECDH double returns (test_miswired_curve). */
int tt_hash_helper_setup(void **state);
int tt_hash_helper_teardown(void **state);

void test_miswired_stream(void **state);
void test_miswired_curve(void **state);
void test_miswired_mac(void **state);
void test_miswired_hash(void **state);
void test_miswired_aead(void **state);
void test_miswired_xaead(void **state);
void test_miswired_scrypt(void **state);
void test_rng_failures(void **state);
void test_teardown_on_failure(void **state);

#endif
