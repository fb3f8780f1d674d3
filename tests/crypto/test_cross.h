/* Cross-backend agreement: every ordered pair of compiled backends (a backend with itself
 * when only one is compiled) on random inputs from a seeded generator. */
#ifndef SOFTCHAT_TESTS_TEST_CROSS_H
#define SOFTCHAT_TESTS_TEST_CROSS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <softchat/softchat.h>

#include "ctx/ctx_internal.h"
#include "vectors_util.h"
#include "vt_rand.h"

#define XC_MAX_BACKENDS 8
#define XC_ROUNDS 48 /* random cases per pair and primitive */

typedef struct xc_env {
    size_t n;
    sc_ctx ctx[XC_MAX_BACKENDS];
    const char *name[XC_MAX_BACKENDS];
} xc_env;

/* Pair p of the run: ordered pairs (a, b) with a != b, or (0, 0) for a single backend.
 * Returns 0 when p is past the last pair. */
int xc_pair(const xc_env *x, size_t p, size_t *a, size_t *b);
/* Whether backend i has cap (no reason needed: the vector suite reports reasons). */
int xc_has(const xc_env *x, size_t i, sc_cap cap);

void test_cross_sha256(void **state);
void test_cross_hmac(void **state);
void test_cross_hkdf(void **state);
void test_cross_chacha20(void **state);
void test_cross_aesgcm(void **state);
void test_cross_xchacha20poly1305(void **state);
void test_cross_scrypt(void **state);
void test_cross_bip340(void **state);
void test_cross_ecdh(void **state);
void test_cross_keypair(void **state);

#endif
