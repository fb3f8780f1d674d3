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
