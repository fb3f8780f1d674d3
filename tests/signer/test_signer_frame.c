/* The frame every operation runs in: deadlines (time is an input), refusals, an operation
 * cleared midway (nothing it held is left, the caller's buffers wiped as on a failure),
 * misuse of the calls, and the checks each _start function makes before anything runs. */
#include "test_signer.h"

#include <stdlib.h>
#include <string.h>

#define NOW 1700000000

/* A rumor of alice's for bob, and the buffers of one wrap. */
typedef struct wrap_rig {
    sc_identity alice, bob;
    uint8_t apub[32], bpub[32], buf[512];
    sc_event rumor;
    char *out;
    uint8_t *scratch;
    size_t cap, scap, len;
    sc_signer ext;
} wrap_rig;

static void rig_init(gw_env *env, wrap_rig *r)
{
    gw_key(env, &r->alice, r->apub, 0x61);
    gw_key(env, &r->bob, r->bpub, 0x62);
    gw_rumor(env, &r->rumor, r->buf, sizeof r->buf, r->apub, 14, NOW, "in good time", 12, NULL);
    r->cap = sc_nip59_wrap_max(&r->rumor, NULL);
    r->scap = sc_nip59_wrap_scratch_max(&r->rumor, NULL);
    r->out = (char *)vt_alloc(r->cap);
    r->scratch = vt_alloc(r->scap);
    memset(r->out, 0xee, r->cap);
    r->len = 5;
    sg_external(&r->ext, &r->alice);
}

static void rig_free(wrap_rig *r)
{
    free(r->out);
    free(r->scratch);
    sc_identity_clear(&r->alice);
    sc_identity_clear(&r->bob);
}

static void start_wrap(gw_env *env, wrap_rig *r, sc_signer_op *op)
{
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, op, r->out, r->cap, &r->len, r->scratch,
                                         r->scap, &r->rumor, &r->ext, r->bpub, NULL),
                     SC_OK);
}

/* The outputs of a wrap that failed: nothing left. */
static void assert_wrap_failed(const wrap_rig *r)
{
    assert_int_equal(r->len, 0);
    assert_true(vt_only_zero_or((const uint8_t *)r->out, r->cap, 0xee));
    assert_true(vt_all_zero(r->scratch, r->scap));
}

void test_deadline(void **state)
{
    gw_env *env = gw_env_of(state);
    sc_signer_req req, req2;
    sc_signer_op op;
    sg_double d;
    wrap_rig r;
    size_t len;
    char *ans;

    rig_init(env, &r);
    start_wrap(env, &r, &op);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 1000, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_NIP44_ENCRYPT);
    assert_int_equal(req.seq, 1);
    assert_true(req.deadline_ms == 6000);
    /* the text asked about is the rumor, in scratch */
    assert_true((const uint8_t *)req.text.ptr == r.scratch);
    /* just before the deadline: the same request; from the deadline on: too late */
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 5999, &req2), SC_OK);
    assert_int_equal(req2.seq, 1);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 6000, &req2), SC_ERR_TIMEOUT);
    assert_int_equal(req2.kind, SC_SIGNER_REQ_NONE);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 1, &req2), SC_ERR_TIMEOUT);
    assert_wrap_failed(&r);
    /* an answer that comes too late changes nothing */
    sg_double_init(&d, env, &r.alice);
    ans = sg_answer(&d, &req, &len);
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &env->ctx, ans, len), SC_ERR_STATE);
    free(ans);
    sc_signer_op_clear(&op);
    /* each request's deadline counts from the step that hands it out */
    start_wrap(env, &r, &op);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 1000, &req), SC_OK);
    ans = sg_answer(&d, &req, &len);
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &env->ctx, ans, len), SC_OK);
    free(ans);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 5500, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_SIGN_EVENT);
    assert_int_equal(req.seq, 2);
    assert_true(req.deadline_ms == 10500);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, INT64_MAX, &req), SC_ERR_TIMEOUT);
    assert_wrap_failed(&r);
    sc_signer_op_clear(&op);
    /* a clock at the end of time cannot overflow the deadline */
    start_wrap(env, &r, &op);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, INT64_MAX - 10, &req), SC_OK);
    assert_true(req.deadline_ms == INT64_MAX);
    sc_signer_op_clear(&op);
    rig_free(&r);
}

void test_refuse_and_clear(void **state)
{
    gw_env *env = gw_env_of(state);
    sc_signer_req req;
    sc_signer_op op;
    wrap_rig r;

    rig_init(env, &r);
    start_wrap(env, &r, &op);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_OK);
    VT_ASSERT_STATUS(sc_signer_op_refuse(&op), SC_OK);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_ERR_SIGNER_REFUSED);
    VT_ASSERT_STATUS(sc_signer_op_refuse(&op), SC_ERR_STATE);
    assert_wrap_failed(&r);
    sc_signer_op_clear(&op);
    assert_true(vt_all_zero((const uint8_t *)&op, sizeof op));
    /* cleared while waiting: the rumor in scratch, the one-time key and nonces are gone */
    start_wrap(env, &r, &op);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_OK);
    assert_false(vt_all_zero(r.scratch, r.scap)); /* the rumor, in clear, for the signer */
    sc_signer_op_clear(&op);
    assert_true(vt_all_zero((const uint8_t *)&op, sizeof op));
    assert_wrap_failed(&r);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_ERR_STATE);
    /* an unwrap cleared while waiting: the arena wiped, nothing out */
    {
        size_t len = 0, cap, used = 3;
        uint8_t *arena;
        sc_nip59_info info;
        sc_event rumor;
        sc_signer ext;
        char *json = gw_wrap(env, &r.rumor, &r.alice, r.bpub, NULL, &len);

        cap = sc_nip59_unwrap_arena_max(len);
        arena = vt_alloc(cap);
        memset(arena, 0xa5, cap);
        sg_external(&ext, &r.bob);
        VT_ASSERT_STATUS(sc_nip59_unwrap_start(&env->ctx, &op, &rumor, &info, arena, cap, &used,
                                               json, len, &ext, -1),
                         SC_OK);
        VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_OK);
        assert_int_equal(req.kind, SC_SIGNER_REQ_NIP44_DECRYPT);
        sc_signer_op_clear(&op);
        assert_true(vt_only_zero_or(arena, cap, 0xa5));
        assert_int_equal(used, 0);
        assert_true(vt_all_zero((const uint8_t *)&info, sizeof info));
        free(arena);
        free(json);
    }
    rig_free(&r);
}

void test_frame_misuse(void **state)
{
    gw_env *env = gw_env_of(state);
    sc_signer_req req;
    sc_signer_op op, zero;
    sc_ctx dead;
    wrap_rig r;

    rig_init(env, &r);
    memset(&zero, 0, sizeof zero);
    memset(&dead, 0, sizeof dead);
    VT_ASSERT_STATUS(sc_signer_op_step(&zero, &env->ctx, 0, &req), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_op_step(vt_null(), &env->ctx, 0, &req), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_signer_op_answer(&zero, &env->ctx, "x", 1), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_op_refuse(&zero), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_op_refuse(vt_null()), SC_ERR_ARG);
    sc_signer_op_clear(vt_null());
    start_wrap(env, &r, &op);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, vt_null()), SC_ERR_ARG);
    /* a running operation takes no answer before it asked */
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &env->ctx, "x", 1), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_op_refuse(&op), SC_ERR_STATE);
    /* a context that cannot be used: nothing happens, the operation goes on */
    VT_ASSERT_STATUS(sc_signer_op_step(&op, vt_null(), 0, &req), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &dead, 0, &req), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_NIP44_ENCRYPT);
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, vt_null(), "x", 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &env->ctx, vt_null(), 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_OK);
    assert_int_equal(req.seq, 1);
    /* an empty answer is an answer, and a wrong one */
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &env->ctx, vt_null(), 0), SC_ERR_SIGNER_ANSWER);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_ERR_SIGNER_ANSWER);
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &env->ctx, "x", 1), SC_ERR_STATE);
    sc_signer_op_clear(&op);
    rig_free(&r);
}

void test_start_checks(void **state)
{
    gw_env *env = gw_env_of(state);
    sc_nip59_rand rnd[2];
    sc_nip17_received msg;
    sc_nip17_wrap w[2];
    sc_signer zero, loc;
    sc_signer_req req;
    sc_signer_op op;
    sc_event ev;
    wrap_rig r;
    size_t len = 3, n = 3, used = 3;
    uint8_t pt[64];

    rig_init(env, &r);
    memset(&zero, 0, sizeof zero);
    memset(rnd, 0, sizeof rnd);
    VT_ASSERT_STATUS(sc_signer_init_local(&loc, &r.alice), SC_OK);
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, vt_null(), r.out, r.cap, &r.len, r.scratch,
                                         r.scap, &r.rumor, &r.ext, r.bpub, NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, &op, r.out, r.cap, vt_null(), r.scratch, r.scap,
                                         &r.rumor, &r.ext, r.bpub, NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, &op, r.out, r.cap, &r.len, r.scratch, r.scap,
                                         &r.rumor, &zero, r.bpub, NULL),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, &op, r.out, 10, &r.len, r.scratch, r.scap,
                                         &r.rumor, &r.ext, r.bpub, NULL),
                     SC_ERR_BUFFER_TOO_SMALL);
    {
        size_t want = 0;

        VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, r.out, 10, &want, r.scratch, r.scap, &r.rumor,
                                       &r.alice, r.bpub, NULL),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(r.len, want); /* the synchronous call's need */
        assert_true(want <= r.cap);
    }
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, &op, r.out, r.cap, &r.len, r.scratch, r.scap,
                                         &r.rumor, &loc, r.apub, NULL),
                     SC_OK); /* a local signer of the author is fine */
    sc_signer_op_clear(&op);
    /* an external signer of another key is not the rumor's author */
    sg_external(&loc, &r.bob);
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, &op, r.out, r.cap, &r.len, r.scratch, r.scap,
                                         &r.rumor, &loc, r.apub, NULL),
                     SC_ERR_RUMOR_AUTHOR);
    VT_ASSERT_STATUS(sc_nip59_wrap_start_with_rand(&env->ctx, &op, r.out, r.cap, &r.len, r.scratch,
                                                   r.scap, &r.rumor, &r.ext, r.bpub, NULL,
                                                   vt_null()),
                     SC_ERR_ARG);
    assert_true(vt_only_zero_or((const uint8_t *)r.out, r.cap, 0xee));
    /* NIP-17: one randomness per wrap */
    {
        char bhex[65];
        const char *tags[] = {"p", bhex, NULL, NULL};
        sc_event chat;
        uint8_t buf[512];

        sg_hex(bhex, r.bpub);
        gw_rumor(env, &chat, buf, sizeof buf, r.apub, 14, NOW, "hi", 2, tags);
        VT_ASSERT_STATUS(sc_nip17_send_start_with_rand(&env->ctx, &op, r.out, r.cap, &len, w, 2, &n,
                                                       r.scratch, r.scap, &chat, &r.ext, NULL, rnd,
                                                       1),
                         SC_ERR_ARG);
        VT_ASSERT_STATUS(sc_nip17_send_start_with_rand(&env->ctx, &op, NULL, 0, &len, NULL, 0, &n,
                                                       NULL, 0, &chat, &r.ext, NULL, rnd, 2),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(n, 2);
        assert_int_equal(len, sc_nip17_send_max(&chat, r.apub, NULL));
        VT_ASSERT_STATUS(sc_nip17_send_start(&env->ctx, &op, NULL, 0, vt_null(), NULL, 0, &n, NULL,
                                             0, &chat, &r.ext, NULL),
                         SC_ERR_ARG);
    }
    /* unwrap and receive */
    VT_ASSERT_STATUS(
        sc_nip59_unwrap_start(&env->ctx, &op, &ev, NULL, NULL, 0, &used, "{}", 2, vt_null(), -1),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap_start(&env->ctx, &op, &ev, NULL, NULL, 0, &used, "{}", 2, &zero, -1),
        SC_ERR_STATE);
    VT_ASSERT_STATUS(
        sc_nip17_receive_start(&env->ctx, &op, vt_null(), NULL, 0, &used, "{}", 2, &r.ext, -1),
        SC_ERR_ARG);
    {
        sc_nip17_received m2;
        size_t want = 0, wlen = 0;
        char *json = gw_wrap(env, &r.rumor, &r.alice, r.bpub, NULL, &wlen);

        /* the need a shortfall reports is the synchronous call's */
        VT_ASSERT_STATUS(
            sc_nip17_receive_start(&env->ctx, &op, &msg, NULL, 0, &used, json, wlen, &r.ext, -1),
            SC_OK);
        VT_ASSERT_STATUS(sc_nip17_receive(&env->ctx, &m2, NULL, 0, &want, json, wlen, &r.bob),
                         SC_ERR_BUFFER_TOO_SMALL);
        VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(used, want);
        assert_true(want > 0);
        free(json);
    }
    sc_signer_op_clear(&op);
    /* an event and NIP-44 */
    memset(&ev, 0, sizeof ev);
    ev.kind = 70000;
    VT_ASSERT_STATUS(sc_event_sign_start(&env->ctx, &op, &ev, &r.ext), SC_ERR_EVENT_RANGE);
    VT_ASSERT_STATUS(sc_event_sign_start(&env->ctx, &op, &ev, &zero), SC_ERR_STATE);
    VT_ASSERT_STATUS(
        sc_nip44_decrypt_start(&env->ctx, &op, pt, 10, &len, &r.ext, r.bpub, "AAAA", 4, 0),
        SC_ERR_PAYLOAD_SIZE);
    VT_ASSERT_STATUS(sc_nip44_encrypt_start(&env->ctx, &op, (char *)pt, 10, &len, &r.ext, r.bpub,
                                            (const uint8_t *)"hi", 2, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, sc_nip44_encrypt_len(2));
    VT_ASSERT_STATUS(sc_nip44_encrypt_start_with_rand(&env->ctx, &op, (char *)pt, 10, &len, &r.ext,
                                                      r.bpub, vt_null(), (const uint8_t *)"hi", 2,
                                                      0),
                     SC_ERR_ARG);
    rig_free(&r);
}
