/* End to end, in process: a NIP-17 message sent over an external signer (signer.h) whose
 * requests travel as NIP-46 events to a bunker holding the user's key, and its answers back;
 * the peer receives the message. A bunker that answers with another key, and one whose
 * policy refuses, fail the operation. */
#include "test_nip46.h"

#include <stdlib.h>
#include <string.h>

/* One request of the operation carried to the bunker and its answer given back; the status
 * sc_nip46_response_open gave (SC_OK: answered; SC_ERR_SIGNER_REFUSED: refused). */
static sc_status carry(gw_env *env, sc_signer_op *op, const sc_signer_req *req,
                       const sc_identity *client, const uint8_t bpub[32], const sc_identity *bunker,
                       const sc_identity *user, const sc_nip46_policy *pol, sc_status *answered)
{
    sc_nip46_call call;
    sc_nip46_response resp;
    char id[SC_NIP46_ID_CHARS + 1] = {0}, *buf;
    size_t need = 0, used = 0, scap;
    n46_buf rq, rs;
    sc_status handled, st;
    void *scratch;

    VT_ASSERT_STATUS(sc_nip46_call_from_req(&call, NULL, 0, &need, req), SC_ERR_BUFFER_TOO_SMALL);
    buf = (char *)vt_alloc(need);
    VT_ASSERT_STATUS(sc_nip46_call_from_req(&call, buf, need, &used, req), SC_OK);
    assert_int_equal(used, need);
    rq = n46_request(env, client, bpub, &call, (uint8_t)req->seq, id);
    rs = n46_bunker_turn(env, bunker, user, pol, rq, &handled);
    scap = sc_nip46_open_scratch_max(rs.len);
    scratch = vt_alloc(scap);
    st = sc_nip46_response_open(&env->ctx, &resp, scratch, scap, &used, client, bpub,
                                (sc_str){id, SC_NIP46_ID_CHARS}, rs.p, rs.len);
    if (st == SC_OK) {
        *answered = sc_signer_op_answer(op, &env->ctx, resp.result.ptr, resp.result.len);
    } else {
        VT_ASSERT_STATUS(st, SC_ERR_SIGNER_REFUSED);
        VT_ASSERT_STATUS(sc_signer_op_refuse(op), SC_OK);
        *answered = SC_ERR_SIGNER_REFUSED;
    }
    free(scratch);
    free(rq.p);
    free(rs.p);
    free(buf);
    return st;
}

typedef struct e2e {
    sc_identity alice, bob, client, bunker, mallory;
    uint8_t apub[32], bpub[32], cpub[32], kpub[32], mpub[32];
    char bhex[65];
    sc_event rumor;
    uint8_t rbuf[1024];
    sc_signer ext;
} e2e;

static void e2e_init(gw_env *env, e2e *t)
{
    const char *tags[4];

    gw_key(env, &t->alice, t->apub, 0x31);
    gw_key(env, &t->bob, t->bpub, 0x32);
    gw_key(env, &t->client, t->cpub, 0x33);
    gw_key(env, &t->bunker, t->kpub, 0x34);
    gw_key(env, &t->mallory, t->mpub, 0x35);
    n46_hex(t->bhex, t->bpub);
    tags[0] = "p";
    tags[1] = t->bhex;
    tags[2] = NULL;
    tags[3] = NULL;
    gw_rumor(env, &t->rumor, t->rbuf, sizeof t->rbuf, t->apub, 14, N46_NOW, "over a bunker", 13,
             tags);
    VT_ASSERT_STATUS(sc_signer_init_external(&t->ext, t->apub, 0), SC_OK);
}

static void e2e_clear(e2e *t)
{
    sc_identity_clear(&t->alice);
    sc_identity_clear(&t->bob);
    sc_identity_clear(&t->client);
    sc_identity_clear(&t->bunker);
    sc_identity_clear(&t->mallory);
}

/* Sends the rumor over t->ext, each request carried to a bunker whose user is `user` under
 * pol. Returns the last step's status; out/wraps hold the result. */
static sc_status send_over(gw_env *env, e2e *t, const sc_identity *user, const sc_nip46_policy *pol,
                           char **out, sc_nip17_wrap *wraps, size_t *n_wraps, size_t *n_requests)
{
    sc_signer_op op;
    sc_signer_req req;
    sc_nip59_opts opts;
    size_t cap, scap, len = 0;
    void *scratch;
    sc_status st, answered = SC_OK;

    memset(&opts, 0, sizeof opts);
    opts.now = N46_NOW;
    cap = sc_nip17_send_max(&t->rumor, t->apub, &opts);
    scap = sc_nip17_send_scratch_max(&t->rumor, t->apub, &opts);
    *out = (char *)vt_alloc(cap);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(sc_nip17_send_start(&env->ctx, &op, *out, cap, &len, wraps, 2, n_wraps,
                                         scratch, scap, &t->rumor, &t->ext, &opts),
                     SC_OK);
    *n_requests = 0;
    while ((st = sc_signer_op_step(&op, &env->ctx, 0, &req)) == SC_OK &&
           req.kind != SC_SIGNER_REQ_NONE) {
        (*n_requests)++;
        (void)carry(env, &op, &req, &t->client, t->kpub, &t->bunker, user, pol, &answered);
        if (answered != SC_OK) {
            break;
        }
    }
    if (answered != SC_OK) {
        st = sc_signer_op_step(&op, &env->ctx, 0, &req);
    }
    sc_signer_op_clear(&op);
    free(scratch);
    return st;
}

static const sc_str all_grants[] = {{"sign_event:13", 13}, {"nip44_encrypt", 13}};

void test_e2e_nip17(void **state)
{
    gw_env *env = gw_env_of(state);
    e2e t;
    sc_nip46_policy pol = {all_grants, 2, {"", 0}, NULL, 0};
    sc_nip17_wrap wraps[2];
    size_t n = 0, asked = 0;
    char *out;

    e2e_init(env, &t);
    VT_ASSERT_STATUS(send_over(env, &t, &t.alice, &pol, &out, wraps, &n, &asked), SC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(asked, 4); /* per wrap: the rumor encrypted, the seal signed */
    {
        sc_nip17_received msg;
        size_t i, acap, used = 0;
        void *arena;

        for (i = 0; i < n && memcmp(wraps[i].recipient, t.bpub, 32) != 0; i++) {
        }
        assert_true(i < n);
        acap = sc_nip17_receive_arena_max(wraps[i].len);
        arena = vt_alloc(acap);
        VT_ASSERT_STATUS(sc_nip17_receive(&env->ctx, &msg, arena, acap, &used,
                                          out + wraps[i].offset, wraps[i].len, &t.bob),
                         SC_OK);
        assert_memory_equal(msg.wrap.sender, t.apub, 32);
        assert_int_equal(msg.rumor.content.len, 13);
        assert_memory_equal(msg.rumor.content.ptr, "over a bunker", 13);
        free(arena);
    }
    free(out);
    e2e_clear(&t);
}

void test_e2e_lying_bunker(void **state)
{
    gw_env *env = gw_env_of(state);
    e2e t;
    sc_nip46_policy pol = {all_grants, 2, {"", 0}, NULL, 0};
    sc_nip17_wrap wraps[2];
    size_t n = 0, asked = 0;
    char *out;

    e2e_init(env, &t);
    /* the bunker holds mallory's key, not alice's: the seal's signature is caught */
    VT_ASSERT_STATUS(send_over(env, &t, &t.mallory, &pol, &out, wraps, &n, &asked),
                     SC_ERR_SIGNER_ANSWER);
    assert_int_equal(asked, 2);
    free(out);
    e2e_clear(&t);
}

void test_e2e_refusal(void **state)
{
    gw_env *env = gw_env_of(state);
    e2e t;
    /* signing of kind 14 only: the seal (kind 13) is refused */
    static const sc_str grants[] = {{"sign_event:14", 13}, {"nip44_encrypt", 13}};
    sc_nip46_policy pol = {grants, 2, {"", 0}, NULL, 0};
    sc_nip17_wrap wraps[2];
    size_t n = 0, asked = 0;
    char *out;

    e2e_init(env, &t);
    VT_ASSERT_STATUS(send_over(env, &t, &t.alice, &pol, &out, wraps, &n, &asked),
                     SC_ERR_SIGNER_REFUSED);
    assert_int_equal(asked, 2);
    free(out);
    e2e_clear(&t);
}
