/* NIP-42 through the pool: answered on demand (after an auth-required refusal), always, or
 * never (the application answers, as a local identity or with an event signed elsewhere,
 * checked first); a refused AUTH ends what waited for it; one signature per connection. */
#include "test_pool.h"

#include <stdio.h>
#include <string.h>

static const uint32_t k1 = 1;

static void small_opts(sc_pool_opts *o, uint32_t auth)
{
    memset(o, 0, sizeof *o);
    o->max_relays = 2;
    o->max_subs = 2;
    o->max_publishes = 2;
    o->seen_per_sub = 8;
    o->ok_timeout_ms = 3000;
    o->auth = auth;
}

/* The AUTH event in an ["AUTH", {...}] text, parsed into ev (views into arena); checked as
 * the relay at url with challenge would. */
static void check_auth(pool_env *e, const char *text, const char *url, const char *challenge,
                       int64_t now, sc_event *ev, uint8_t *arena, size_t cap)
{
    size_t used = 0, n = strlen(text);

    assert_true(strncmp(text, "[\"AUTH\",{", 9) == 0);
    VT_ASSERT_STATUS(sc_event_parse(ev, arena, cap, &used, text + 8, n - 9, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, ev, str_of(url), str_of(challenge), now, 0),
                     SC_OK);
}

void test_auth_on_demand(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_pool_relay_info info;
    pool_ev ev;
    sc_event auth;
    uint32_t a, pub = 0;
    char json[512];

    small_opts(&o, SC_POOL_AUTH_ON_DEMAND);
    rig_init(&r, e, &o);
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->bob), SC_OK);
    a = rig_relay(&r, "wss://private.example");
    pool_make(e, &ev, 1, 1700000000, "members only", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    assert_int_equal(rig_flush(&r, a), 1);
    /* a challenge alone is reported, not answered */
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"chal-1\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    assert_memory_equal(r.u.text.ptr, "chal-1", r.u.text.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_string_equal(rig_next(&r, a), "");
    /* the refusal asks for it: the pool answers, the AUTH goes out first */
    VT_ASSERT_STATUS(
        rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required: members only")),
        SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_true(sc_pool_next_len(&r.p, a) > 0);
    check_auth(e, rig_next(&r, a), "wss://private.example", "chal-1", r.now / 1000, &auth, arena,
               sizeof arena);
    assert_memory_equal(auth.pubkey, e->bob_pub, 32);
    assert_string_equal(rig_next(&r, a), "");
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, auth.id, 1, "")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTHENTICATED);
    assert_int_equal(r.u.relay, a);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.authenticated, 1);
    /* what waited goes out again */
    assert_int_equal(rig_flush(&r, a), 1);
    assert_true(strncmp(r.out, "[\"EVENT\"", 8) == 0);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 1, "")), SC_OK);
    rig_expect(&r, SC_POOL_U_PUBLISHED);
    assert_int_equal(r.u.result, SC_POOL_ACCEPTED);
    assert_int_equal(r.u.attempts, 2);
    /* after a reconnect nothing is authenticated */
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.authenticated, 0);
    rig_clear(&r);
}

void test_auth_policies(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_relay_filter f;
    sc_event auth;
    pool_ev ev;
    uint32_t a, sub = 0, pub = 0;
    char json[512];
    int i;

    /* always: the first challenge of a connection is answered at once, and only it */
    small_opts(&o, SC_POOL_AUTH_ALWAYS);
    rig_init(&r, e, &o);
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->alice), SC_OK);
    a = rig_relay(&r, "ws://127.0.0.1:7001");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    rig_flush(&r, a);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c1\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    check_auth(e, rig_next(&r, a), "ws://127.0.0.1:7001", "c1", r.now / 1000, &auth, arena,
               sizeof arena);
    for (i = 0; i < 20; i++) { /* a flood of challenges signs nothing more */
        snprintf(json, sizeof json, "[\"AUTH\",\"flood-%d\"]", i);
        VT_ASSERT_STATUS(rig_recv(&r, a, json), SC_OK);
        assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
        assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
        assert_string_equal(rig_next(&r, a), "");
    }
    rig_clear(&r);

    /* never: the application answers with sc_pool_auth */
    small_opts(&o, SC_POOL_AUTH_NEVER);
    rig_init(&r, e, &o);
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->alice), SC_OK);
    a = rig_relay(&r, "ws://127.0.0.1:7001");
    pool_make(e, &ev, 1, 1700000000, "x", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth(&r.p, &e->ctx, a, &e->alice, r.now / 1000), SC_ERR_STATE);
    rig_connect(&r, a);
    VT_ASSERT_STATUS(sc_pool_auth(&r.p, &e->ctx, a, &e->alice, r.now / 1000), SC_ERR_NOT_FOUND);
    rig_flush(&r, a);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c2\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required: x")),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_string_equal(rig_next(&r, a), "");
    VT_ASSERT_STATUS(sc_pool_auth(&r.p, &e->ctx, a, &e->bob, r.now / 1000), SC_OK);
    check_auth(e, rig_next(&r, a), "ws://127.0.0.1:7001", "c2", r.now / 1000, &auth, arena,
               sizeof arena);
    assert_memory_equal(auth.pubkey, e->bob_pub, 32);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, auth.id, 1, "")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTHENTICATED);
    rig_clear(&r);

    /* no identity: what waits for an AUTH is refused at the deadline, in the relay's words */
    small_opts(&o, SC_POOL_AUTH_ON_DEMAND);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "ws://127.0.0.1:7001");
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    rig_flush(&r, a);
    VT_ASSERT_STATUS(
        rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required: who are you")),
        SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_true(sc_pool_wakeup(&r.p) == r.now + 3000);
    r.now += 3000;
    rig_expect(&r, SC_POOL_U_PUBLISHED);
    assert_int_equal(r.u.result, SC_POOL_REFUSED);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_AUTH_REQUIRED);
    assert_memory_equal(r.u.text.ptr, "auth-required: who are you", r.u.text.len);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    rig_clear(&r);
}

/* A refused AUTH: the publish and the REQ that waited for it end there. */
void test_auth_refused(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_relay_filter f;
    sc_event auth;
    pool_ev ev;
    uint32_t a, sub = 0, pub = 0;
    char json[512];

    small_opts(&o, SC_POOL_AUTH_ON_DEMAND);
    rig_init(&r, e, &o);
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->alice), SC_OK);
    a = rig_relay(&r, "wss://private.example");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    pool_make(e, &ev, 1, 1700000000, "x", NULL);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    assert_int_equal(rig_flush(&r, a), 2);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"CLOSED\",\"s\",\"auth-required: read needs auth\"]"),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required: w")),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    check_auth(e, rig_next(&r, a), "wss://private.example", "c", r.now / 1000, &auth, arena,
               sizeof arena);
    VT_ASSERT_STATUS(
        rig_recv(&r, a, msg_ok(json, sizeof json, auth.id, 0, "restricted: not a member")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH_REFUSED);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_RESTRICTED);
    assert_memory_equal(r.u.text.ptr, "restricted: not a member", r.u.text.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_CLOSED);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_AUTH_REQUIRED);
    assert_int_equal(r.u.sub, sub);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EOSE); /* its only relay is done */
    assert_int_equal(rig_poll(&r), SC_POOL_U_PUBLISHED);
    assert_int_equal(r.u.result, SC_POOL_REFUSED);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_AUTH_REQUIRED);
    assert_memory_equal(r.u.text.ptr, "auth-required: w", r.u.text.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_PUBLISH_DONE);
    assert_string_equal(rig_next(&r, a), "[\"CLOSE\",\"s\"]");
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    /* the next connection tries the subscription again: its AUTH may be accepted there */
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    r.now += 60000;
    rig_connect(&r, a);
    assert_int_equal(strncmp(rig_next(&r, a), "[\"REQ\",\"s\",", 11), 0);
    assert_string_equal(rig_next(&r, a), "");
    rig_clear(&r);
}

/* An AUTH the relay accepts after the pool gave up waiting for it: the subscription it ended
 * (reported CLOSED) goes out again on the same connection. */
void test_auth_late(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_relay_filter f;
    sc_event auth;
    uint32_t a, sub = 0;
    char json[512];

    small_opts(&o, SC_POOL_AUTH_ON_DEMAND);
    rig_init(&r, e, &o);
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->alice), SC_OK);
    a = rig_relay(&r, "wss://private.example");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    assert_int_equal(rig_flush(&r, a), 1);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"CLOSED\",\"s\",\"auth-required: read needs auth\"]"),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    check_auth(e, rig_next(&r, a), "wss://private.example", "c", r.now / 1000, &auth, arena,
               sizeof arena);
    r.now += o.ok_timeout_ms; /* no OK for the AUTH in time: the REQ ends there */
    assert_int_equal(rig_poll(&r), SC_POOL_U_CLOSED);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_AUTH_REQUIRED);
    assert_int_equal(r.u.sub, sub);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EOSE);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, auth.id, 1, "")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTHENTICATED);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_int_equal(strncmp(rig_next(&r, a), "[\"REQ\",\"s\",", 11), 0);
    assert_string_equal(rig_next(&r, a), "");
    rig_clear(&r);
}

/* An AUTH event signed elsewhere (an external signer): the template, then the check. */
void test_auth_external(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_relay_filter f;
    sc_relay_auth t;
    sc_event auth;
    sc_str bad;
    uint32_t a, sub = 0;
    int64_t now;
    char json[512];

    small_opts(&o, SC_POOL_AUTH_NEVER);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://private.example");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    rig_flush(&r, a);
    now = r.now / 1000;
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, now), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"outside\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, -1), SC_ERR_EVENT_RANGE);
    /* the signer signs something else: each refused before it goes out */
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, now), SC_OK);
    bad = t.items[3];
    t.items[3] = SC_STR("another");
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_AUTH_CHALLENGE);
    t.items[3] = bad;
    t.items[1] = SC_STR("wss://elsewhere.example");
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_AUTH_RELAY);
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, now - 3600), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_AUTH_TIME);
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, now), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    t.event.sig[5] ^= 1;
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_INVALID_SIG);
    assert_string_equal(rig_next(&r, a), "");
    /* the right one goes out, and its OK is the AUTH's */
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, now), SC_OK);
    assert_int_equal(t.event.kind, 22242);
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_OK);
    check_auth(e, rig_next(&r, a), "wss://private.example", "outside", now, &auth, arena,
               sizeof arena);
    assert_memory_equal(auth.id, t.event.id, 32);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, t.event.id, 1, "")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTHENTICATED);
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_STATE);
    rig_clear(&r);
}

/* The AUTH for relay a's challenge signed the way an application with its key in an external
 * signer signs it: the template, an operation over an external signer for bob's key, its one
 * SIGN_EVENT request answered with the signature the signer (bob's key, here) makes, then
 * sc_pool_auth_send. t keeps the signed event. */
static sc_status auth_external(pool_env *e, rig *r, uint32_t a, sc_relay_auth *t)
{
    static sc_signer_op op;
    sc_signer signer;
    sc_signer_req req;
    sc_event copy;
    char sig[2 * SC_SIG_BYTES];
    size_t len = 0;
    int64_t now = r->now / 1000;

    VT_ASSERT_STATUS(sc_pool_auth_template(&r->p, t, a, e->bob_pub, now), SC_OK);
    VT_ASSERT_STATUS(sc_signer_init_external(&signer, e->bob_pub, 0), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_start(&e->ctx, &op, &t->event, &signer), SC_OK);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &e->ctx, r->now, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_SIGN_EVENT);
    assert_int_equal(req.event->kind, 22242);
    copy = *req.event; /* the signer's side */
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &copy, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_hex_encode(sig, sizeof sig, &len, copy.sig, SC_SIG_BYTES), SC_OK);
    VT_ASSERT_STATUS(sc_signer_op_answer(&op, &e->ctx, sig, len), SC_OK);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &e->ctx, r->now, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_NONE);
    sc_signer_op_clear(&op);
    sc_signer_clear(&signer);
    return sc_pool_auth_send(&r->p, &e->ctx, a, &t->event, now);
}

/* ON_DEMAND without an identity: the relay that refused something with auth-required and
 * has a challenge is reported once (AUTH_WANTED); what waits keeps waiting; a wrong AUTH is
 * refused; the application's AUTH goes out, and once accepted the REQ and the EVENT go out
 * again. Reported again on the next connection. */
void test_auth_wanted(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_relay_filter f;
    sc_relay_auth t;
    sc_event auth;
    sc_str keep;
    pool_ev ev;
    uint32_t a, b, sub = 0, pub = 0;
    int64_t now;
    char json[512];
    int i;

    small_opts(&o, SC_POOL_AUTH_ON_DEMAND);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://private.example");
    b = rig_relay(&r, "wss://other.example");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    pool_make(e, &ev, 1, 1700000000, "members only", NULL);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    assert_int_equal(rig_flush(&r, a), 2);
    /* a refusal without a challenge: nothing to answer yet */
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"CLOSED\",\"s\",\"auth-required: read needs auth\"]"),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    /* the challenge: now it is wanted, once */
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"chal-w\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH_WANTED);
    assert_int_equal(r.u.relay, a);
    assert_memory_equal(r.u.url.ptr, "wss://private.example", r.u.url.len);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_AUTH_REQUIRED);
    assert_memory_equal(r.u.text.ptr, "auth-required: read needs auth", r.u.text.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required: w")),
                     SC_OK);
    for (i = 0; i < 3; i++) { /* more refusals and challenges: not again */
        snprintf(json, sizeof json, "[\"AUTH\",\"chal-%d\"]", i);
        assert_int_equal(rig_drain(&r, SC_POOL_U_AUTH_WANTED), i == 0 ? 0 : 1);
        VT_ASSERT_STATUS(rig_recv(&r, a, json), SC_OK);
    }
    assert_int_equal(rig_drain(&r, SC_POOL_U_AUTH_WANTED), 1); /* the AUTH only */
    assert_string_equal(rig_next(&r, a), "");                  /* the pool signs nothing itself */
    /* a wrong AUTH: for another challenge, another relay; refused, nothing goes out */
    now = r.now / 1000;
    VT_ASSERT_STATUS(sc_pool_auth_template(&r.p, &t, a, e->bob_pub, now), SC_OK);
    keep = t.items[3];
    t.items[3] = SC_STR("chal-w"); /* an earlier challenge of the relay: the latest counts */
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_AUTH_CHALLENGE);
    t.items[3] = keep;
    t.items[1] = SC_STR("wss://other.example");
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, a, &t.event, now), SC_ERR_AUTH_RELAY);
    VT_ASSERT_STATUS(sc_pool_auth_send(&r.p, &e->ctx, b, &t.event, now), SC_ERR_STATE);
    assert_string_equal(rig_next(&r, a), "");
    /* the application's AUTH, signed over an external signer, within the deadline */
    r.now += o.ok_timeout_ms - 1;
    assert_int_equal(rig_drain(&r, SC_POOL_U_NONE), 0); /* still waiting */
    VT_ASSERT_STATUS(auth_external(e, &r, a, &t), SC_OK);
    check_auth(e, rig_next(&r, a), "wss://private.example", "chal-2", r.now / 1000, &auth, arena,
               sizeof arena);
    assert_memory_equal(auth.pubkey, e->bob_pub, 32);
    assert_memory_equal(auth.id, t.event.id, 32);
    assert_string_equal(rig_next(&r, a), "");
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, auth.id, 1, "")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTHENTICATED);
    assert_int_equal(rig_drain(&r, SC_POOL_U_NONE), 0);
    /* what waited goes out again: the REQ and the EVENT */
    assert_int_equal(strncmp(rig_next(&r, a), "[\"REQ\",\"s\",", 11), 0);
    assert_int_equal(strncmp(rig_next(&r, a), "[\"EVENT\",", 9), 0);
    assert_string_equal(rig_next(&r, a), "");
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 1, "")), SC_OK);
    rig_expect(&r, SC_POOL_U_PUBLISHED);
    assert_int_equal(r.u.result, SC_POOL_ACCEPTED);
    assert_int_equal(r.u.attempts, 2);
    /* a new connection: wanted again once asked for again */
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    r.now += 60000;
    rig_connect(&r, a);
    assert_int_equal(strncmp(rig_next(&r, a), "[\"REQ\",\"s\",", 11), 0);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"chal-2nd\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"CLOSED\",\"s\",\"auth-required: again\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH_WANTED);
    assert_memory_equal(r.u.text.ptr, "auth-required: again", r.u.text.len);
    /* not answered: at the deadline the REQ ends there, as without AUTH_WANTED */
    r.now += o.ok_timeout_ms;
    assert_int_equal(rig_poll(&r), SC_POOL_U_CLOSED);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_AUTH_REQUIRED);
    assert_int_equal(rig_drain(&r, SC_POOL_U_NONE), 0); /* its EOSE was reported already */
    assert_string_equal(rig_next(&r, a), "[\"CLOSE\",\"s\"]");
    rig_clear(&r);
}

/* AUTH_WANTED by policy: not with an identity (the pool signs), not under NEVER (the
 * application decides at the challenge), at the challenge under ALWAYS. */
void test_auth_wanted_policies(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t arena[4096];
    sc_pool_opts o;
    sc_event auth;
    pool_ev ev;
    uint32_t a, pub = 0, policy;
    char json[512];

    pool_make(e, &ev, 1, 1700000000, "x", NULL);
    for (policy = SC_POOL_AUTH_ON_DEMAND; policy <= SC_POOL_AUTH_NEVER; policy++) {
        small_opts(&o, policy);
        rig_init(&r, e, &o);
        VT_ASSERT_STATUS(
            sc_pool_auth_identity(&r.p, policy == SC_POOL_AUTH_NEVER ? NULL : &e->alice), SC_OK);
        a = rig_relay(&r, "ws://127.0.0.1:7001");
        VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
        rig_connect(&r, a);
        rig_flush(&r, a);
        VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c\"]"), SC_OK);
        assert_int_equal(rig_drain(&r, SC_POOL_U_AUTH_WANTED), 1);
        VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required:")),
                         SC_OK);
        assert_int_equal(rig_drain(&r, SC_POOL_U_AUTH_WANTED), 0);
        /* with an identity the pool signed (at the challenge or at the refusal) */
        assert_int_equal(sc_pool_next_len(&r.p, a) > 0, policy != SC_POOL_AUTH_NEVER);
        rig_clear(&r);
    }
    /* ALWAYS without an identity: wanted at the challenge, before any refusal */
    small_opts(&o, SC_POOL_AUTH_ALWAYS);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "ws://127.0.0.1:7001");
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    rig_flush(&r, a);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH);
    assert_int_equal(rig_poll(&r), SC_POOL_U_AUTH_WANTED);
    assert_int_equal(r.u.relay, a);
    assert_int_equal(r.u.text.len, 0);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_NONE);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    /* an identity given now answers it: nothing more is wanted */
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->bob), SC_OK);
    assert_int_equal(rig_drain(&r, SC_POOL_U_AUTH_WANTED), 0);
    check_auth(e, rig_next(&r, a), "ws://127.0.0.1:7001", "c", r.now / 1000, &auth, arena,
               sizeof arena);
    assert_memory_equal(auth.pubkey, e->bob_pub, 32);
    rig_clear(&r);
}
