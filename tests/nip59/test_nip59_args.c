/* Rumors, the refusals of wrap, its randomness (a scripted RNG shows the one-time key redraw,
 * the unbiased backdates and that a failing RNG leaves every buffer alone), and argument and
 * state checks. This file passes NULL on purpose to parameters declared non-NULL. */
#include "test_nip59.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW 1750000000

void test_rumor_fn(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[256], pub[32], id[32];
    sc_event_builder b;
    sc_identity who;
    sc_event ev, tmp;

    gw_key(env, &who, pub, 0x19);
    VT_ASSERT_STATUS(sc_event_builder_init(&b, buf, sizeof buf), SC_OK);
    sc_event_builder_kind(&b, 14);
    sc_event_builder_content(&b, "rumor", 5);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
    /* a signed event becomes a rumor: same pubkey and id, signature gone */
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &who), SC_OK);
    tmp = ev;
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, &ev, pub), SC_OK);
    assert_int_equal(ev.flags, SC_EVENT_RUMOR);
    assert_memory_equal(ev.id, tmp.id, 32);
    assert_memory_equal(ev.pubkey, pub, 32);
    assert_true(vt_all_zero(ev.sig, 64));
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_OK);
    assert_memory_equal(id, ev.id, 32);
    /* another author: another id */
    pub[0] ^= 1;
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, &ev, pub), SC_OK);
    assert_memory_not_equal(ev.id, tmp.id, 32);
    /* failure: id and sig cleared, the pubkey left as it was */
    ev.kind = 70000;
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, &ev, tmp.pubkey), SC_ERR_EVENT_RANGE);
    assert_true(vt_all_zero(ev.id, 32));
    assert_memory_equal(ev.pubkey, pub, 32);
    assert_int_equal(ev.flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG), 0);
    VT_ASSERT_STATUS(sc_nip59_rumor(vt_null(), &ev, pub), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, vt_null(), pub), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, &ev, vt_null()), SC_ERR_ARG);
    sc_identity_clear(&who);
}

/* The buffers of one wrap attempt, filled with 0xee. */
typedef struct bufs {
    char *out;
    uint8_t *scratch;
    size_t cap, scap, len;
} bufs;

static void bufs_init(bufs *b, size_t cap, size_t scap)
{
    b->cap = cap;
    b->scap = scap;
    b->out = (char *)vt_alloc(cap);
    b->scratch = vt_alloc(scap);
    memset(b->out, 0xee, cap);
    memset(b->scratch, 0xee, scap);
    b->len = 77;
}

/* Frees b, failing the test if a refused call wrote to it. */
static void bufs_untouched(bufs *b)
{
    size_t i;

    for (i = 0; i < b->cap; i++) {
        assert_int_equal((uint8_t)b->out[i], 0xee);
    }
    for (i = 0; i < b->scap; i++) {
        assert_int_equal(b->scratch[i], 0xee);
    }
    assert_int_equal(b->len, 0);
    free(b->out);
    free(b->scratch);
}

void test_wrap_rejects(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[256], apub[32], rpub[32], bad_pub[32];
    sc_identity author, recipient;
    sc_nip59_opts opts;
    sc_nip59_rand rnd;
    sc_event rumor, r2;
    size_t need, scap;
    bufs b;

    gw_key(env, &author, apub, 0x2a);
    gw_key(env, &recipient, rpub, 0x2b);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, 1700000000, "reject me", 9, NULL);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    memset(&rnd, 0, sizeof rnd);
    memset(rnd.wrap_seckey, 0x33, 32);
    need = sc_nip59_wrap_max(&rumor, &opts) + 1000;
    scap = sc_nip59_wrap_scratch_max(&rumor, &opts) + 1000;

#define REJECT(call, want)                                                                         \
    do {                                                                                           \
        bufs_init(&b, need, scap);                                                                 \
        VT_ASSERT_STATUS(call, want);                                                              \
        bufs_untouched(&b);                                                                        \
    } while (0)

    /* the rumor: no id, signed, another author, a wrong id, an invalid field */
    r2 = rumor;
    r2.flags &= ~(unsigned)SC_EVENT_HAS_ID;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &r2, &author, rpub,
                         &opts),
           SC_ERR_EVENT_FIELD);
    r2 = rumor;
    r2.flags &= ~(unsigned)SC_EVENT_HAS_PUBKEY;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &r2, &author, rpub,
                         &opts),
           SC_ERR_EVENT_FIELD);
    r2 = rumor;
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &r2, &author), SC_OK);
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &r2, &author, rpub,
                         &opts),
           SC_ERR_RUMOR_SIGNED);
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &recipient,
                         rpub, &opts),
           SC_ERR_RUMOR_AUTHOR);
    r2 = rumor;
    r2.id[31] ^= 1;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &r2, &author, rpub,
                         &opts),
           SC_ERR_ID_MISMATCH);
    r2 = rumor;
    r2.created_at = -1;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &r2, &author, rpub,
                         &opts),
           SC_ERR_EVENT_RANGE);

    /* option values */
    opts.flags = 2u; /* neither SC_NIP59_EPHEMERAL nor SC_NIP44_EXTENDED */
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub,
                         &opts),
           SC_ERR_FLAGS);
    opts.flags = 0x80000000u;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub,
                         &opts),
           SC_ERR_FLAGS);
    opts.flags = 0;
    opts.expiration = -5;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub,
                         &opts),
           SC_ERR_FLAGS);
    opts.expiration = 0;
    opts.now = -1;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub,
                         &opts),
           SC_ERR_FLAGS);
    opts.now = NOW;
    opts.relay.len = 3;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub,
                         &opts),
           SC_ERR_ARG);
    opts.relay.ptr = "\xc3\x28";
    opts.relay.len = 2;
    REJECT(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub,
                         &opts),
           SC_ERR_UTF8);
    opts.relay.ptr = NULL;
    opts.relay.len = 0;

    /* randomness out of range */
    rnd.seal_backdate = SC_NIP59_MAX_BACKDATE + 1;
    REJECT(sc_nip59_wrap_with_rand(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor,
                                   &author, rpub, &opts, &rnd),
           SC_ERR_ARG);
    rnd.seal_backdate = 0;
    rnd.wrap_backdate = SC_NIP59_MAX_BACKDATE + 1;
    REJECT(sc_nip59_wrap_with_rand(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor,
                                   &author, rpub, &opts, &rnd),
           SC_ERR_ARG);
    rnd.wrap_backdate = SC_NIP59_MAX_BACKDATE;
    memset(rnd.wrap_seckey, 0xff, 32); /* above the group order */
    REJECT(sc_nip59_wrap_with_rand(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor,
                                   &author, rpub, &opts, &rnd),
           SC_ERR_INVALID_KEY);
    memset(rnd.wrap_seckey, 0, 32);
    REJECT(sc_nip59_wrap_with_rand(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor,
                                   &author, rpub, &opts, &rnd),
           SC_ERR_INVALID_KEY);
    memset(rnd.wrap_seckey, 0x33, 32);

    /* a recipient that is not on the curve (x >= p): the scratch is wiped, out untouched */
    memset(bad_pub, 0xff, 32);
    bufs_init(&b, need, scap);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, b.out, b.cap, &b.len, b.scratch, b.scap,
                                             &rumor, &author, bad_pub, &opts, &rnd),
                     SC_ERR_INVALID_KEY);
    assert_int_equal(b.len, 0);
    assert_int_equal((uint8_t)b.out[0], 0xee);
    assert_true(vt_all_zero(b.scratch, sc_nip59_wrap_scratch_max(&rumor, &opts)));
    free(b.out);
    free(b.scratch);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&env->ctx, NULL, 0, &b.len, NULL, 0, &rumor, &author, bad_pub, &opts),
        SC_ERR_BUFFER_TOO_SMALL);

    /* buffers that alias each other or the inputs */
    bufs_init(&b, need, scap);
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, (char *)b.scratch, b.scap, &b.len, b.scratch, b.scap,
                                   &rumor, &author, rpub, &opts),
                     SC_ERR_OVERLAP);
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, b.out, b.cap, &b.len, b.out + 1, b.cap - 1, &rumor,
                                   &author, rpub, &opts),
                     SC_ERR_OVERLAP);
    b.len = 0;
    bufs_untouched(&b);
    {
        /* the rumor's content inside the scratch, the relay or the recipient inside out */
        uint8_t *scratch = vt_alloc(scap);
        char *out = (char *)vt_alloc(need);
        sc_event in_scratch = rumor;
        size_t len = 0;

        memcpy(scratch + 10, rumor.content.ptr, rumor.content.len);
        in_scratch.content.ptr = (const char *)scratch + 10;
        VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, need, &len, scratch, scap, &in_scratch,
                                       &author, rpub, &opts),
                         SC_ERR_OVERLAP);
        memcpy(out + 10, "wss:", 4);
        opts.relay.ptr = out + 10;
        opts.relay.len = 4;
        VT_ASSERT_STATUS(
            sc_nip59_wrap(&env->ctx, out, need, &len, scratch, scap, &rumor, &author, rpub, &opts),
            SC_ERR_OVERLAP);
        opts.relay.ptr = NULL;
        opts.relay.len = 0;
        memcpy(out, rpub, 32);
        VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, need, &len, scratch, scap, &rumor, &author,
                                       (const uint8_t *)out, &opts),
                         SC_ERR_OVERLAP);
        /* the same inputs elsewhere are fine */
        VT_ASSERT_STATUS(
            sc_nip59_wrap(&env->ctx, out, need, &len, scratch, scap, &rumor, &author, rpub, &opts),
            SC_OK);
        free(scratch);
        free(out);
    }
#undef REJECT
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}

void test_wrap_rng(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[256], apub[32], rpub[32], opub[32], script[400], *p, nonce[32];
    const uint32_t range = SC_NIP59_MAX_BACKDATE + 1, limit = range * (UINT32_MAX / range);
    sc_identity author, recipient, one;
    sc_nip59_opts opts;
    sc_event rumor;
    size_t need, scap, calls;
    gw_opened o;
    sc_ctx ctx;
    bufs b;

    gw_key(env, &author, apub, 0x3a);
    gw_key(env, &recipient, rpub, 0x3b);
    gw_key(env, &one, opub, 0x3c);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, 1700000000, "scripted", 8, NULL);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    need = sc_nip59_wrap_max(&rumor, &opts);
    scap = sc_nip59_wrap_scratch_max(&rumor, &opts);
    gw_ctx_scripted(env, &ctx);

    /* the draws, in order: an invalid key (redrawn), the key, the two nonces, the two aux
     * values, then each backdate from 32-bit draws, those at or above the largest multiple of
     * the range being redrawn */
    p = script;
    memset(p, 0xff, 32), p += 32;
    memset(p, 0x3c, 32), p += 32;
    memset(p, 0xa1, 32), p += 32;
    memset(p, 0xa2, 32), p += 32;
    memset(p, 0xa3, 64), p += 64;
    memset(p, 0xff, 4), p += 4; /* rejected */
    p[0] = (uint8_t)(limit >> 24), p[1] = (uint8_t)(limit >> 16);
    p[2] = (uint8_t)(limit >> 8), p[3] = (uint8_t)limit, p += 4; /* rejected: the limit itself */
    p[0] = (uint8_t)((limit - 1) >> 24), p[1] = (uint8_t)((limit - 1) >> 16);
    p[2] = (uint8_t)((limit - 1) >> 8), p[3] = (uint8_t)(limit - 1), p += 4; /* 172800 */
    p[0] = 0, p[1] = 0, p[2] = 0, p[3] = 5, p += 4;                          /* 5 */
    gw_rng_script(script, (size_t)(p - script));
    bufs_init(&b, need, scap);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub, &opts),
        SC_OK);
    assert_int_equal(gw_rng_calls(), 10);
    gw_open(env, b.out, b.len, &recipient, &o);
    assert_memory_equal(o.wrap.pubkey, opub, 32);
    assert_int_equal(o.seal.created_at, NOW - SC_NIP59_MAX_BACKDATE);
    assert_int_equal(o.wrap.created_at, NOW - 5);
    gw_payload_nonce(o.seal.content.ptr, o.seal.content.len, nonce);
    assert_true(nonce[0] == 0xa1 && nonce[31] == 0xa1);
    gw_payload_nonce(o.wrap.content.ptr, o.wrap.content.len, nonce);
    assert_true(nonce[0] == 0xa2 && nonce[31] == 0xa2);
    gw_opened_free(&o);
    free(b.out);
    free(b.scratch);

    /* a key that stays invalid: the generator is broken */
    memset(script, 0xff, sizeof script);
    gw_rng_script(script, 8 * 32);
    bufs_init(&b, need, scap);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub, &opts),
        SC_ERR_RNG);
    bufs_untouched(&b);

    /* a failing RNG: nothing written */
    gw_rng_script(NULL, 0);
    gw_rng_fail(1);
    bufs_init(&b, need, scap);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub, &opts),
        SC_ERR_RNG);
    bufs_untouched(&b);

    /* refusals come before the RNG is called */
    calls = gw_rng_calls();
    bufs_init(&b, need - 1, scap);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub, &opts),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(b.len, need);
    b.len = 0;
    bufs_untouched(&b);
    bufs_init(&b, need, scap - 1);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&ctx, b.out, b.cap, &b.len, b.scratch, b.scap, &rumor, &author, rpub, &opts),
        SC_ERR_BUFFER_TOO_SMALL);
    b.len = 0;
    bufs_untouched(&b);
    assert_int_equal(gw_rng_calls(), calls);
    gw_rng_fail(0);
    sc_ctx_clear(&ctx);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
    sc_identity_clear(&one);
}

void test_args(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[256], apub[32], rpub[32], arena[64];
    sc_identity author, recipient, erased;
    sc_nip59_rand rnd;
    sc_nip59_info info;
    sc_event rumor, got;
    char out[16];
    uint8_t scratch[16];
    size_t len = 5;
    sc_ctx cleared;

    gw_key(env, &author, apub, 0x4a);
    gw_key(env, &recipient, rpub, 0x4b);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, 1700000000, "args", 4, NULL);
    memset(&rnd, 0x11, sizeof rnd);
    rnd.seal_backdate = rnd.wrap_backdate = 0;
    memset(&cleared, 0, sizeof cleared);
    memset(&erased, 0, sizeof erased);

    /* size functions */
    assert_int_equal(sc_nip59_wrap_max(vt_null(), NULL), 0);
    assert_int_equal(sc_nip59_wrap_scratch_max(vt_null(), NULL), 0);
    assert_int_equal(sc_nip59_unwrap_arena_max((size_t)-1), 0);
    assert_true(sc_nip59_unwrap_arena_max(0) > 0);
    assert_true(sc_nip59_unwrap_arena_max(1000) >= sc_event_parse_arena_max(1000) + 750);

    /* wrap and wrap_with */
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, sizeof out, vt_null(), scratch, sizeof scratch,
                                   &rumor, &author, rpub, NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap(vt_null(), out, sizeof out, &len, scratch, sizeof scratch,
                                   &rumor, &author, rpub, NULL),
                     SC_ERR_ARG);
    assert_int_equal(len, 0);
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, sizeof out, &len, scratch, sizeof scratch,
                                   vt_null(), &author, rpub, NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, sizeof out, &len, scratch, sizeof scratch,
                                   &rumor, vt_null(), rpub, NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, sizeof out, &len, scratch, sizeof scratch,
                                   &rumor, &author, vt_null(), NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, out, sizeof out, &len, scratch,
                                             sizeof scratch, &rumor, &author, rpub, NULL,
                                             vt_null()),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, out, sizeof out, vt_null(), scratch,
                                             sizeof scratch, &rumor, &author, rpub, NULL, &rnd),
                     SC_ERR_ARG);
    /* NULL buffers with a capacity that would suffice */
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, vt_null(), 1 << 20, &len, scratch, 1 << 20, &rumor,
                                   &author, rpub, NULL),
                     SC_ERR_ARG);
    /* state: a cleared context, an erased author */
    VT_ASSERT_STATUS(sc_nip59_wrap(&cleared, out, sizeof out, &len, scratch, sizeof scratch, &rumor,
                                   &author, rpub, NULL),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip59_wrap(&env->ctx, out, sizeof out, &len, scratch, sizeof scratch,
                                   &rumor, &erased, rpub, NULL),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&cleared, out, sizeof out, &len, scratch,
                                             sizeof scratch, &rumor, &author, rpub, NULL, &rnd),
                     SC_ERR_STATE);
    /* scratch too small: *out_len is the need for out */
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, out, sizeof out, &len, scratch,
                                             sizeof scratch, &rumor, &author, rpub, NULL, &rnd),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_true(len > sizeof out);

    /* unwrap */
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(vt_null(), &got, &info, arena, sizeof arena, &len, "{}", 2, &recipient),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_unwrap(&env->ctx, vt_null(), &info, arena, sizeof arena, &len, "{}",
                                     2, &recipient),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_unwrap(&env->ctx, &got, &info, arena, sizeof arena, vt_null(), "{}",
                                     2, &recipient),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_unwrap(&env->ctx, &got, &info, arena, sizeof arena, &len, vt_null(),
                                     2, &recipient),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&env->ctx, &got, &info, arena, sizeof arena, &len, "{}", 2, vt_null()),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&env->ctx, &got, &info, vt_null(), 10, &len, "{}", 2, &recipient),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&cleared, &got, &info, arena, sizeof arena, &len, "{}", 2, &recipient),
        SC_ERR_STATE);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&env->ctx, &got, &info, arena, sizeof arena, &len, "{}", 2, &erased),
        SC_ERR_STATE);
    /* not an event at all: the wrap's own parse status (info may be NULL) */
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&env->ctx, &got, NULL, arena, sizeof arena, &len, "{}", 2, &recipient),
        SC_ERR_EVENT_FIELD);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&env->ctx, &got, NULL, arena, sizeof arena, &len, "{", 1, &recipient),
        SC_ERR_JSON);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap(&env->ctx, &got, NULL, arena, sizeof arena, &len, NULL, 0, &recipient),
        SC_ERR_JSON);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}
