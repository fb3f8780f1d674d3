/* The arguments of sc_nip98_sign and sc_nip98_verify: what each refusal returns and leaves in
 * the outputs, the sizes asked for, and the request's strings. */
#include "test_nip98.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_nip98_request request(const char *url, const char *method)
{
    sc_nip98_request r;

    r.url.ptr = url;
    r.url.len = url != NULL ? strlen(url) : 0;
    r.method.ptr = method;
    r.method.len = method != NULL ? strlen(method) : 0;
    r.payload_sha256 = NULL;
    return r;
}

void test_sign_args(void **state)
{
    n98_env *env = n98_env_of(state);
    static const uint8_t aux[32];
    sc_nip98_request req = request(N98_URL, "GET");
    sc_identity cleared;
    char out[2048];
    size_t n = 99, need = sc_nip98_sign_len(&req, N98_NOW);

#define EXPECT_SIGN(want, req_, created_at)                                                        \
    do {                                                                                           \
        sc_nip98_request r_ = (req_);                                                              \
        memset(out, 'x', sizeof out);                                                              \
        VT_ASSERT_STATUS(sc_nip98_sign_with_rand(&env->ctx, out, sizeof out, &n, &env->id, &r_,    \
                                                 created_at, aux),                                 \
                         want);                                                                    \
        assert_int_equal(n, 0);                                                                    \
        assert_true((want) == SC_ERR_ARG ? out[0] == 'x'                                           \
                                         : vt_all_zero((const uint8_t *)out, sizeof out));         \
    } while (0)
    assert_true(need > 6);
    EXPECT_SIGN(SC_ERR_EMPTY, request("", "GET"), N98_NOW);
    EXPECT_SIGN(SC_ERR_EMPTY, request(N98_URL, ""), N98_NOW);
    EXPECT_SIGN(SC_ERR_UTF8, request("https://x/\xff", "GET"), N98_NOW);
    EXPECT_SIGN(SC_ERR_UTF8, request(N98_URL, "G\xc3"), N98_NOW);
    EXPECT_SIGN(SC_ERR_EVENT_RANGE, req, -1);
    {
        sc_nip98_request bad = req;

        bad.url.ptr = NULL;
        EXPECT_SIGN(SC_ERR_ARG, bad, N98_NOW);
    }
#undef EXPECT_SIGN
    assert_int_equal(sc_nip98_sign_len(&req, -1), 0);
    assert_int_equal(sc_nip98_sign_len((const sc_nip98_request *)vt_null(), N98_NOW), 0);
    /* ask the size first; a buffer one byte short; untouched both times */
    VT_ASSERT_STATUS(sc_nip98_sign(&env->ctx, NULL, 0, &n, &env->id, &req, N98_NOW),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    memset(out, 'x', sizeof out);
    VT_ASSERT_STATUS(
        sc_nip98_sign_with_rand(&env->ctx, out, need - 1, &n, &env->id, &req, N98_NOW, aux),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    assert_true(out[0] == 'x');
    VT_ASSERT_STATUS(
        sc_nip98_sign_with_rand(&env->ctx, out, need, &n, &env->id, &req, N98_NOW, aux), SC_OK);
    assert_int_equal(n, need);
    /* a cleared identity, NULL arguments, a NULL context */
    memset(&cleared, 0, sizeof cleared);
    VT_ASSERT_STATUS(sc_nip98_sign(&env->ctx, out, sizeof out, &n, &cleared, &req, N98_NOW),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip98_sign(&env->ctx, out, sizeof out, &n, (const sc_identity *)vt_null(),
                                   &req, N98_NOW),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip98_sign(&env->ctx, out, sizeof out, (size_t *)vt_null(), &env->id, &req, N98_NOW),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip98_sign((sc_ctx *)vt_null(), out, sizeof out, &n, &env->id, &req, N98_NOW),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_sign_with_rand(&env->ctx, out, sizeof out, &n, &env->id, &req,
                                             N98_NOW, (const uint8_t *)vt_null()),
                     SC_ERR_ARG);
}

void test_verify_args(void **state)
{
    n98_env *env = n98_env_of(state);
    sc_nip98_request req = request(N98_URL, "GET"), bad;
    char *h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", "u=" N98_URL "|method=GET", 1);
    size_t hl = strlen(h), cap = sc_nip98_verify_scratch_max(hl), used = 99;
    uint8_t *scratch = vt_alloc(cap);
    sc_event ev;

    assert_true(cap > hl);
    assert_int_equal(sc_nip98_verify_scratch_max((size_t)-1), 0);
    /* a scratch below the bound: the bound, scratch untouched */
    memset(scratch, 0xa5, cap);
    VT_ASSERT_STATUS(
        sc_nip98_verify(&env->ctx, &ev, scratch, cap - 1, &used, h, hl, &req, N98_NOW, 0),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, cap);
    assert_true(scratch[0] == 0xa5 && scratch[cap - 1] == 0xa5);
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, NULL, 0, &used, h, hl, &req, N98_NOW, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    /* a failing check wipes what it wrote; success reports the bytes in use */
    VT_ASSERT_STATUS(
        sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, h, hl, &req, N98_NOW + 1000, 0),
        SC_ERR_NIP98_TIME);
    assert_int_equal(used, 0);
    assert_true(vt_all_zero(scratch, cap));
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, h, hl, &req, N98_NOW, 0),
                     SC_OK);
    assert_true(used > 0 && used <= cap);
    /* the arguments */
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, h, hl, &req, N98_NOW, -1),
                     SC_ERR_ARG);
    bad = request("", "GET");
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, h, hl, &bad, N98_NOW, 0),
                     SC_ERR_ARG);
    bad = request(N98_URL, "");
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, h, hl, &bad, N98_NOW, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, h, hl,
                                     (const sc_nip98_request *)vt_null(), N98_NOW, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, (const char *)vt_null(),
                                     5, &req, N98_NOW, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_verify(&env->ctx, (sc_event *)vt_null(), scratch, cap, &used, h, hl,
                                     &req, N98_NOW, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip98_verify((sc_ctx *)vt_null(), &ev, scratch, cap, &used, h, hl, &req, N98_NOW, 0),
        SC_ERR_ARG);
    free(scratch);
    free(h);
}
