/* The vector suite: one cmocka group per backend, every test receiving the vt_env below as
 * its initial state. */
#ifndef SOFTCHAT_TESTS_TEST_VECTORS_H
#define SOFTCHAT_TESTS_TEST_VECTORS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "ctx/ctx_internal.h"
#include "vectors_util.h"

typedef struct vt_env {
    sc_ctx ctx; /* bound to `backend` for the whole run */
    const char *backend;
    const char *vectors_dir; /* upstream conformance data */
    int vectors_present;     /* vectors_dir exists */
    const char *own_dir;     /* the project's own vectors (vectors/) */
    cJSON *own;              /* parsed own_dir/primitives.json, or NULL */
    const char *own_why;     /* why `own` is NULL */
} vt_env;

#define VT_OWN_FILE "primitives.json"

/* The env a test receives. */
static inline vt_env *vt_env_of(void **state)
{
    return (vt_env *)*state;
}

/* Capabilities (test_vectors_caps.c). */
int vt_cap_required(const char *backend, sc_cap cap);
/* Returns when `cap` is supported. Otherwise prints why against `file` and fails the test
 * (required capability) or skips it (optional one). */
void vt_need_cap(const vt_env *env, sc_cap cap, const char *file);
/* Loads an upstream file, or skips the test (reported) when it is missing. */
cJSON *vt_need_upstream(const vt_env *env, const char *rel);
/* The own-vector array `key` of primitives.json; fails the test when absent. */
const cJSON *vt_need_own(const vt_env *env, const char *key);

/* The groups of the bound backend, for the streaming and curve calls. */
static inline sc_ctx_impl *vt_impl(vt_env *env)
{
    return sc_ctx_impl_get(&env->ctx);
}

void test_capabilities(void **state);
void test_sha256_examples(void **state);
void test_own_sha256(void **state);
void test_hmac_rfc4231(void **state);
void test_hmac_wycheproof(void **state);
void test_own_hmac(void **state);
void test_hkdf_rfc5869(void **state);
void test_hkdf_wycheproof(void **state);
void test_own_hkdf(void **state);
void test_chacha20_rfc8439(void **state);
void test_own_chacha20(void **state);
void test_aesgcm_wycheproof(void **state);
void test_own_aesgcm(void **state);
void test_ecdh_wycheproof(void **state);
void test_bip340_csv(void **state);
void test_neg_aead(void **state);
void test_neg_curve(void **state);
void test_neg_chacha20(void **state);
void test_neg_null_args(void **state);
void test_neg_hkdf(void **state);
void test_xchacha20poly1305_wycheproof(void **state);
void test_neg_xchacha20poly1305(void **state);
void test_scrypt_rfc7914(void **state);
void test_neg_scrypt(void **state);
void test_rng(void **state);
void test_rng_fork(void **state);

#endif
