/* The auth event signed elsewhere: sc_nip98_template, an sc_event_sign_start operation over a
 * local or an external signer, then sc_nip98_header, which verifies the signed event before it
 * writes the header; the header is the one sc_nip98_sign writes, and events that are not a
 * valid signed auth event are refused with their status and the output wiped. */
#include "test_nip98.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_nip98_request request(const uint8_t *payload)
{
    sc_nip98_request r;

    r.url = SC_STR(N98_URL);
    r.method = SC_STR("PUT");
    r.payload_sha256 = payload;
    return r;
}

/* Drives op over an external signer, answering its one SIGN_EVENT request with the signature
 * of `key` (aux 7) over the event it hands out, as 128 hex characters. */
static sc_status answer_sign(n98_env *env, sc_signer_op *op, const sc_identity *key)
{
    static const uint8_t aux[32] = {7};
    sc_signer_req req;
    sc_event copy;
    char hex[129];
    size_t n = 0;
    sc_status st = sc_signer_op_step(op, &env->ctx, 1000, &req);

    if (st != SC_OK) {
        return st;
    }
    assert_int_equal(req.kind, SC_SIGNER_REQ_SIGN_EVENT);
    assert_int_equal(req.seq, 1);
    assert_non_null(req.event);
    assert_int_equal(req.event->kind, SC_NIP98_KIND);
    assert_true((req.event->flags & SC_EVENT_HAS_ID) != 0);
    copy = *req.event;
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &copy, key, aux), SC_OK);
    VT_ASSERT_STATUS(sc_hex_encode(hex, sizeof hex, &n, copy.sig, 64), SC_OK);
    st = sc_signer_op_answer(op, &env->ctx, hex, n);
    if (st != SC_OK) {
        return st;
    }
    st = sc_signer_op_step(op, &env->ctx, 1001, &req);
    assert_true(st != SC_OK || req.kind == SC_SIGNER_REQ_NONE);
    return st;
}

/* Over a local identity the template, signed by the operation with the same aux, gives the
 * header sc_nip98_sign_with_rand writes, byte for byte, with and without a body. */
void test_template_local(void **state)
{
    n98_env *env = n98_env_of(state);
    static const uint8_t aux[32] = {9};
    uint8_t pub[32], body[32];
    sc_nip98_request req;
    sc_nip98_auth a;
    sc_signer local;
    sc_signer_op op;
    sc_signer_req sreq;
    char want[2048], got[2048];
    size_t nw = 0, ng = 0, i;

    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &env->id), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, body, (const uint8_t *)"body", 4), SC_OK);
    VT_ASSERT_STATUS(sc_signer_init_local(&local, &env->id), SC_OK);
    for (i = 0; i < 2; i++) {
        req = request(i == 0 ? NULL : body);
        VT_ASSERT_STATUS(sc_nip98_template(&a, &req, N98_NOW, pub), SC_OK);
        assert_int_equal(a.event.n_tags, 2 + i);
        assert_memory_equal(a.event.pubkey, pub, 32);
        assert_int_equal(a.event.flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG), 0);
        /* a template and a signed event measure the same */
        assert_int_equal(sc_nip98_header_len(&a.event), sc_nip98_sign_len(&req, N98_NOW));
        VT_ASSERT_STATUS(sc_event_sign_start_with_rand(&env->ctx, &op, &a.event, &local, aux),
                         SC_OK);
        VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &sreq), SC_OK);
        assert_int_equal(sreq.kind, SC_SIGNER_REQ_NONE);
        sc_signer_op_clear(&op);
        VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, got, sizeof got, &ng, &a.event), SC_OK);
        VT_ASSERT_STATUS(sc_nip98_sign_with_rand(&env->ctx, want, sizeof want, &nw, &env->id, &req,
                                                 N98_NOW, aux),
                         SC_OK);
        assert_int_equal(ng, nw);
        assert_int_equal(ng, sc_nip98_header_len(&a.event));
        assert_memory_equal(got, want, nw);
    }
    sc_signer_clear(&local);
}

/* Over an external signer: the operation hands out the event, the test's own key answers,
 * and the header verifies for the request as a server checks it, signed by that key. A
 * signer that signs with another key is caught by the operation. */
void test_template_external(void **state)
{
    n98_env *env = n98_env_of(state);
    static const uint8_t sec5[32] = {[31] = 5};
    uint8_t pub[32], signer[32], body[32];
    sc_nip98_request req;
    sc_nip98_auth a;
    sc_identity other;
    sc_signer ext;
    sc_signer_op op;
    char h[2048];
    size_t n = 0;

    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &env->id), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, body, (const uint8_t *)"{}", 2), SC_OK);
    VT_ASSERT_STATUS(sc_signer_init_external(&ext, pub, 0), SC_OK);
    req = request(body);
    VT_ASSERT_STATUS(sc_nip98_template(&a, &req, N98_NOW, pub), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_start(&env->ctx, &op, &a.event, &ext), SC_OK);
    VT_ASSERT_STATUS(answer_sign(env, &op, &env->id), SC_OK);
    sc_signer_op_clear(&op);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, h, sizeof h - 1, &n, &a.event), SC_OK);
    h[n] = '\0';
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "PUT", body, N98_NOW + 5, 0, signer), SC_OK);
    assert_memory_equal(signer, pub, 32);
    /* another request fails its check: the header is this request's */
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", body, N98_NOW, 0, NULL),
                     SC_ERR_NIP98_METHOD);
    /* a signer that signs with another key: refused, the event left unsigned */
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &other, sec5), SC_OK);
    VT_ASSERT_STATUS(sc_nip98_template(&a, &req, N98_NOW, pub), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_start(&env->ctx, &op, &a.event, &ext), SC_OK);
    VT_ASSERT_STATUS(answer_sign(env, &op, &other), SC_ERR_SIGNER_ANSWER);
    sc_signer_op_clear(&op);
    assert_int_equal(a.event.flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG), 0);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, h, sizeof h, &n, &a.event), SC_ERR_EVENT_FIELD);
    sc_identity_clear(&other);
    sc_signer_clear(&ext);
}

/* sc_nip98_header of ev: want, *out_len 0, and on failure out wiped. */
static void expect_header(n98_env *env, const sc_event *ev, sc_status want)
{
    char out[2048];
    size_t n = 99;

    memset(out, 'x', sizeof out);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, out, sizeof out, &n, ev), want);
    if (want == SC_OK) {
        assert_int_equal(n, sc_nip98_header_len(ev));
    } else {
        assert_int_equal(n, 0);
        assert_true(vt_all_zero((const uint8_t *)out, sizeof out));
    }
}

/* A fresh template of req at N98_NOW, signed by env->id. */
static void signed_auth(n98_env *env, sc_nip98_auth *a, const sc_nip98_request *req)
{
    static const uint8_t aux[32] = {3};
    uint8_t pub[32];

    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &env->id), SC_OK);
    VT_ASSERT_STATUS(sc_nip98_template(a, req, N98_NOW, pub), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &a->event, &env->id, aux), SC_OK);
}

/* ev, changed after signing, signed again by env->id (so only the change is wrong), then
 * refused by sc_nip98_header with want. */
static void resigned_refused(n98_env *env, sc_event *ev, sc_status want)
{
    static const uint8_t aux[32] = {3};

    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, ev, &env->id, aux), SC_OK);
    expect_header(env, ev, want);
}

/* Events that are not a valid signed auth event, each refused with its status. */
void test_header_refuses(void **state)
{
    n98_env *env = n98_env_of(state);
    uint8_t body[32] = {1};
    sc_nip98_request req = request(body);
    sc_nip98_auth a;
    sc_tag tags[3];

    signed_auth(env, &a, &req);
    expect_header(env, &a.event, SC_OK);
    a.event.sig[10] ^= 1; /* a bad signature */
    expect_header(env, &a.event, SC_ERR_INVALID_SIG);
    signed_auth(env, &a, &req);
    a.items[1] = SC_STR("https://api.example.com/other"); /* a changed tag: a stale id */
    expect_header(env, &a.event, SC_ERR_ID_MISMATCH);
    signed_auth(env, &a, &req);
    a.event.pubkey[0] ^= 1; /* another pubkey: the id no longer matches */
    expect_header(env, &a.event, SC_ERR_ID_MISMATCH);
    signed_auth(env, &a, &req);
    a.event.kind = 1; /* another kind, signed as such */
    resigned_refused(env, &a.event, SC_ERR_NIP98_KIND);
    signed_auth(env, &a, &req);
    a.event.tags = &a.tags[1]; /* no u tag: method and payload only */
    a.event.n_tags = 2;
    resigned_refused(env, &a.event, SC_ERR_NIP98_URL);
    signed_auth(env, &a, &req);
    tags[0] = a.tags[0]; /* two u tags */
    tags[1] = a.tags[0];
    tags[2] = a.tags[1];
    a.event.tags = tags;
    a.event.n_tags = 3;
    resigned_refused(env, &a.event, SC_ERR_NIP98_URL);
    signed_auth(env, &a, &req);
    tags[0] = a.tags[0]; /* no method tag */
    tags[1] = a.tags[2];
    a.event.tags = tags;
    a.event.n_tags = 2;
    resigned_refused(env, &a.event, SC_ERR_NIP98_METHOD);
    signed_auth(env, &a, &req);
    a.items[5].len = 63; /* a payload that is not a SHA-256 in hex */
    resigned_refused(env, &a.event, SC_ERR_NIP98_PAYLOAD);
    /* a template is not signed */
    {
        uint8_t pub[32];

        VT_ASSERT_STATUS(sc_identity_pubkey(pub, &env->id), SC_OK);
        VT_ASSERT_STATUS(sc_nip98_template(&a, &req, N98_NOW, pub), SC_OK);
        expect_header(env, &a.event, SC_ERR_EVENT_FIELD);
    }
}

/* The size asked for and a short buffer (ev verified, out untouched), the arguments, and the
 * template's statuses (sc_nip98_sign's, with a wiped on failure). */
void test_header_args(void **state)
{
    n98_env *env = n98_env_of(state);
    static const uint8_t pub[32] = {2};
    sc_nip98_request req = request(NULL), bad;
    sc_nip98_auth a;
    char out[2048];
    size_t n = 99, need;

    signed_auth(env, &a, &req);
    need = sc_nip98_header_len(&a.event);
    assert_int_equal(need, sc_nip98_sign_len(&req, N98_NOW));
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, NULL, 0, &n, &a.event), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    memset(out, 'x', sizeof out);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, out, need - 1, &n, &a.event),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    assert_true(out[0] == 'x' && out[need - 2] == 'x');
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, out, need, &n, &a.event), SC_OK);
    assert_int_equal(n, need);
    assert_memory_equal(out, "Nostr ", 6);
    /* a bad event asked for its size: the failure, not a size */
    a.event.sig[0] ^= 1;
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, NULL, 0, &n, &a.event), SC_ERR_INVALID_SIG);
    assert_int_equal(n, 0);
    a.event.sig[0] ^= 1;
    /* the arguments: out untouched */
    memset(out, 'x', sizeof out);
    VT_ASSERT_STATUS(sc_nip98_header((sc_ctx *)vt_null(), out, sizeof out, &n, &a.event),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, out, sizeof out, &n, (const sc_event *)vt_null()),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, NULL, 5, &n, &a.event), SC_ERR_ARG);
    assert_int_equal(n, 0);
    VT_ASSERT_STATUS(sc_nip98_header(&env->ctx, out, sizeof out, (size_t *)vt_null(), &a.event),
                     SC_ERR_ARG);
    assert_true(out[0] == 'x');
    assert_int_equal(sc_nip98_header_len((const sc_event *)vt_null()), 0);
    /* the template's statuses, a zeroed on failure */
#define EXPECT_TEMPLATE(want, req_, at)                                                            \
    do {                                                                                           \
        sc_nip98_request r_ = (req_);                                                              \
        memset(&a, 0x5a, sizeof a);                                                                \
        VT_ASSERT_STATUS(sc_nip98_template(&a, &r_, (at), pub), want);                             \
        assert_true(vt_all_zero((const uint8_t *)&a, sizeof a));                                   \
    } while (0)
    bad = req;
    bad.url = SC_STR("");
    EXPECT_TEMPLATE(SC_ERR_EMPTY, bad, N98_NOW);
    bad = req;
    bad.method = SC_STR("");
    EXPECT_TEMPLATE(SC_ERR_EMPTY, bad, N98_NOW);
    bad = req;
    bad.url = SC_STR("https://x/\xff");
    EXPECT_TEMPLATE(SC_ERR_UTF8, bad, N98_NOW);
    EXPECT_TEMPLATE(SC_ERR_EVENT_RANGE, req, -1);
    bad = req;
    bad.method.ptr = NULL;
    EXPECT_TEMPLATE(SC_ERR_ARG, bad, N98_NOW);
#undef EXPECT_TEMPLATE
    memset(&a, 0x5a, sizeof a);
    VT_ASSERT_STATUS(sc_nip98_template(&a, &req, N98_NOW, (const uint8_t *)vt_null()), SC_ERR_ARG);
    assert_true(vt_all_zero((const uint8_t *)&a, sizeof a));
    VT_ASSERT_STATUS(sc_nip98_template(&a, (const sc_nip98_request *)vt_null(), N98_NOW, pub),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip98_template((sc_nip98_auth *)vt_null(), &req, N98_NOW, pub), SC_ERR_ARG);
    printf("[%s] nip98 over a signer: template, operation, header verified\n", env->backend);
}
