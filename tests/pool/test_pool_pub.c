/* Publishes: results per relay, the retry rules, a lost connection, a missing OK, the OK
 * without a usable id, removal, and the argument checks. */
#include "test_pool.h"

#include <stdio.h>
#include <string.h>

static void small_opts(sc_pool_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_relays = 4;
    o->max_subs = 2;
    o->max_publishes = 4;
    o->seen_per_sub = 64;
    o->ok_timeout_ms = 2000;
    o->max_attempts = 3;
    o->retry_min_ms = 100;
    o->retry_max_ms = 150;
    o->session.backoff_min_ms = 50;
    o->session.backoff_max_ms = 50;
}

/* Sends relay's queued texts and checks the last is the EVENT of ev. */
static void sent_event(rig *r, uint32_t relay, const sc_event *ev)
{
    uint8_t id[32];

    assert_int_equal(rig_flush(r, relay), 1);
    assert_true(sent_event_id(r->out, id));
    assert_memory_equal(id, ev->id, 32);
}

static void expect_published(rig *r, uint32_t pub, uint32_t relay, sc_pool_result result,
                             sc_relay_prefix prefix, const char *text, uint32_t attempts)
{
    rig_expect(r, SC_POOL_U_PUBLISHED);
    assert_int_equal(r->u.pub, pub);
    assert_int_equal(r->u.relay, relay);
    assert_int_equal(r->u.result, result);
    assert_int_equal(r->u.prefix, prefix);
    assert_int_equal(r->u.attempts, attempts);
    if (text != NULL) {
        assert_int_equal(r->u.text.len, strlen(text));
        assert_memory_equal(r->u.text.ptr, text, r->u.text.len);
    }
}

void test_publish_results(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    pool_ev ev;
    uint32_t relays[3], pub = 0;
    sc_pool_publish_state states[4];
    size_t n = 0;
    char json[512];
    int user = 5;

    small_opts(&o);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example");
    relays[2] = rig_relay(&r, "wss://c.example");
    pool_make(e, &ev, 1, 1700000000, "hello", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, relays, 3, &user), SC_OK);
    assert_true(pub != 0);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, states, 4, &n, pub), SC_OK);
    assert_int_equal(n, 3);
    assert_int_equal(states[0].result, SC_POOL_PENDING);
    rig_connect(&r, relays[0]);
    rig_connect(&r, relays[1]);
    rig_connect(&r, relays[2]);
    sent_event(&r, relays[0], &ev.ev);
    sent_event(&r, relays[1], &ev.ev);
    sent_event(&r, relays[2], &ev.ev);
    /* accepted; a duplicate counts as accepted; a refusal keeps the relay's words */
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_ok(json, sizeof json, ev.ev.id, 1, "")), SC_OK);
    expect_published(&r, pub, relays[0], SC_POOL_ACCEPTED, SC_RELAY_PREFIX_NONE, "", 1);
    assert_true(r.u.user == &user);
    assert_memory_equal(r.u.event_id, ev.ev.id, 32);
    assert_memory_equal(r.u.url.ptr, "wss://a.example", r.u.url.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(
        rig_recv(&r, relays[1], msg_ok(json, sizeof json, ev.ev.id, 0, "duplicate: have it")),
        SC_OK);
    expect_published(&r, pub, relays[1], SC_POOL_ACCEPTED, SC_RELAY_PREFIX_DUPLICATE,
                     "duplicate: have it", 1);
    VT_ASSERT_STATUS(
        rig_recv(&r, relays[2],
                 msg_ok(json, sizeof json, ev.ev.id, 0, "blocked: kind 1 is not accepted here")),
        SC_OK);
    /* the next receive waits for the poll */
    VT_ASSERT_STATUS(rig_recv(&r, relays[2], "[\"NOTICE\",\"x\"]"), SC_ERR_STATE);
    expect_published(&r, pub, relays[2], SC_POOL_REFUSED, SC_RELAY_PREFIX_BLOCKED,
                     "blocked: kind 1 is not accepted here", 1);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, states, 4, &n, pub), SC_OK);
    assert_int_equal(states[2].result, SC_POOL_REFUSED);
    assert_int_equal(rig_poll(&r), SC_POOL_U_PUBLISH_DONE);
    assert_int_equal(r.u.pub, pub);
    assert_true(r.u.user == &user);
    assert_int_equal(r.u.relay, 0);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    /* its handle is free; a repeated OK changes nothing */
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, states, 4, &n, pub), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_ok(json, sizeof json, ev.ev.id, 1, "")), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    rig_clear(&r);
}

/* rate-limited: and error: are retried after a doubling delay, up to max_attempts; blocked:,
 * invalid:, pow:, restricted:, mute:, no prefix and an unknown one never. */
void test_publish_retries(void **state)
{
    pool_env *e = *state;
    static rig r;
    static const char *const final[] = {"invalid: bad",
                                        "pow: difficulty 30 needed",
                                        "restricted: members only",
                                        "mute: no",
                                        "just no",
                                        "weird: no"};
    static const sc_relay_prefix prefixes[] = {SC_RELAY_PREFIX_INVALID,    SC_RELAY_PREFIX_POW,
                                               SC_RELAY_PREFIX_RESTRICTED, SC_RELAY_PREFIX_MUTE,
                                               SC_RELAY_PREFIX_NONE,       SC_RELAY_PREFIX_OTHER};
    sc_pool_opts o;
    pool_ev ev;
    uint32_t a, pub = 0;
    sc_pool_publish_state st;
    size_t n = 0, i;
    char json[512];

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    pool_make(e, &ev, 1, 1700000000, "retry me", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    sent_event(&r, a, &ev.ev);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "rate-limited: slow")),
                     SC_OK);
    assert_int_equal(rig_drain(&r, SC_POOL_U_PUBLISHED), 0);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, &st, 1, &n, pub), SC_OK);
    assert_int_equal(st.result, SC_POOL_PENDING);
    assert_int_equal(st.attempts, 1);
    assert_true(st.retry_at_ms == r.now + 100);
    assert_true(sc_pool_wakeup(&r.p) == r.now + 100);
    assert_string_equal(rig_next(&r, a), ""); /* not before the delay */
    r.now += 100;
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    sent_event(&r, a, &ev.ev);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "error: try later")),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, &st, 1, &n, pub), SC_OK);
    assert_true(st.retry_at_ms == r.now + 150); /* 200, capped at retry_max */
    r.now += 150;
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    sent_event(&r, a, &ev.ev);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "rate-limited: still")),
                     SC_OK);
    /* the third attempt was the last */
    expect_published(&r, pub, a, SC_POOL_FAILED, SC_RELAY_PREFIX_RATE_LIMITED,
                     "rate-limited: still", 3);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    /* the final refusals */
    for (i = 0; i < sizeof final / sizeof final[0]; i++) {
        pool_make(e, &ev, 1, 1700000000 + (int64_t)i, "final", NULL);
        VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
        sent_event(&r, a, &ev.ev);
        VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, final[i])), SC_OK);
        expect_published(&r, pub, a, SC_POOL_REFUSED, prefixes[i], final[i], 1);
        rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    }
    rig_clear(&r);
}

/* A connection lost before the OK is an attempt that failed: retried after the delay on the
 * next connection, and FAILED with that reason after max_attempts. A connection that fails
 * (or drops) before the event went out counts too: an unreachable relay ends FAILED. */
void test_publish_lost(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    pool_ev ev;
    uint32_t a, pub = 0;
    sc_pool_publish_state st;
    size_t n = 0;
    int k;

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    pool_make(e, &ev, 1, 1700000000, "lost", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    /* the socket drops before the EVENT went out: an attempt, and a delay */
    rig_connect(&r, a);
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, &st, 1, &n, pub), SC_OK);
    assert_int_equal(st.attempts, 1);
    assert_true(st.retry_at_ms == r.now + 100);
    for (k = 2; k <= 3; k++) {
        r.now += 200;
        rig_connect(&r, a);
        sent_event(&r, a, &ev.ev);
        VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
        VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, &st, 1, &n, pub), SC_OK);
        assert_int_equal(st.attempts, (uint32_t)k);
    }
    expect_published(&r, pub, a, SC_POOL_FAILED, SC_RELAY_PREFIX_NONE, "connection lost before OK",
                     3);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    r.now += 1000;
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE); /* nothing left to connect for */
    /* a relay whose sockets never open */
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    for (k = 1; k <= 3; k++) {
        rig_expect(&r, SC_POOL_U_CONNECT);
        VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
        r.now += 200;
    }
    expect_published(&r, pub, a, SC_POOL_FAILED, SC_RELAY_PREFIX_NONE,
                     "connection failed before the event went out", 3);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    rig_clear(&r);
}

/* No OK within ok_timeout_ms: an attempt failed; a relay that answers with a NOTICE instead
 * has its words in the FAILED result. */
void test_publish_timeout(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    pool_ev ev;
    uint32_t a, pub = 0;
    sc_pool_relay_info info;
    int k;

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    pool_make(e, &ev, 1, 1700000000, "timeout", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    for (k = 1; k <= 3; k++) {
        assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
        sent_event(&r, a, &ev.ev);
        assert_true(sc_pool_wakeup(&r.p) == r.now + 2000);
        VT_ASSERT_STATUS(rig_recv(&r, a, "[\"NOTICE\",\"event too old\"]"), SC_OK);
        assert_int_equal(rig_poll(&r), SC_POOL_U_NOTICE);
        assert_memory_equal(r.u.text.ptr, "event too old", r.u.text.len);
        r.now += 1999;
        assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
        r.now += 1;
        if (k < 3) {
            assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
            r.now += 150;
        }
    }
    expect_published(&r, pub, a, SC_POOL_FAILED, SC_RELAY_PREFIX_NONE,
                     "no OK within 2000 ms; last NOTICE: event too old", 3);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_memory_equal(info.last_notice.ptr, "event too old", info.last_notice.len);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    rig_clear(&r);
}

/* ["OK","",false,"invalid: too old"] (PyPI nostr-relay): an OK without a usable id. */
void test_publish_unattributed(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    pool_ev a1, a2, a3;
    uint32_t a, p1 = 0, p2 = 0, p3 = 0;
    char json[512];

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "ws://127.0.0.1:6000");
    pool_make(e, &a1, 1, 1600000000, "one", NULL);
    pool_make(e, &a2, 1, 1700000000, "two", NULL);
    pool_make(e, &a3, 1, 1700000001, "three", NULL);
    /* one waiting: the OK is its answer */
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &p1, &a1.ev, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    sent_event(&r, a, &a1.ev);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"OK\",\"\",false,\"invalid: event too old\"]"), SC_OK);
    expect_published(&r, p1, a, SC_POOL_REFUSED, SC_RELAY_PREFIX_INVALID, "invalid: event too old",
                     1);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    /* an id that is not 64 hex characters, the same */
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &p1, &a1.ev, &a, 1, NULL), SC_OK);
    sent_event(&r, a, &a1.ev);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"OK\",\"abc\",true,\"\"]"), SC_OK);
    expect_published(&r, p1, a, SC_POOL_ACCEPTED, SC_RELAY_PREFIX_NONE, "", 1);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    /* nothing waiting: dropped, not a hang */
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"OK\",\"\",false,\"invalid: x\"]"), SC_OK);
    rig_expect(&r, SC_POOL_U_DROPPED);
    assert_int_equal(r.u.status, SC_ERR_RELAY_MESSAGE);
    /* two waiting: it is kept, and settles the one left when the other is answered */
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &p1, &a1.ev, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &p2, &a2.ev, &a, 1, NULL), SC_OK);
    assert_int_equal(rig_flush(&r, a), 2);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"OK\",\"\",false,\"invalid: event too old\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, a2.ev.id, 1, "")), SC_OK);
    expect_published(&r, p2, a, SC_POOL_ACCEPTED, SC_RELAY_PREFIX_NONE, "", 1);
    expect_published(&r, p1, a, SC_POOL_REFUSED, SC_RELAY_PREFIX_INVALID, "invalid: event too old",
                     1);
    rig_drain(&r, SC_POOL_U_PUBLISHED);
    /* two waiting and no other answer: at the OK deadline each takes the kept one */
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &p2, &a2.ev, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &p3, &a3.ev, &a, 1, NULL), SC_OK);
    assert_int_equal(rig_flush(&r, a), 2);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"OK\",\"\",false,\"blocked: no\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    r.now += 2000;
    expect_published(&r, p2, a, SC_POOL_REFUSED, SC_RELAY_PREFIX_BLOCKED, "blocked: no", 1);
    expect_published(&r, p3, a, SC_POOL_REFUSED, SC_RELAY_PREFIX_BLOCKED, "blocked: no", 1);
    rig_clear(&r);
}

void test_publish_removed(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    pool_ev ev;
    uint32_t relays[2], pub = 0;
    char json[512];

    small_opts(&o);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example");
    pool_make(e, &ev, 1, 1700000000, "gone", NULL);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, relays, 2, NULL), SC_OK);
    rig_connect(&r, relays[0]);
    rig_connect(&r, relays[1]);
    sent_event(&r, relays[0], &ev.ev);
    /* accepted on a, its update not polled yet, then a is removed: still reported */
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_ok(json, sizeof json, ev.ev.id, 1, "ok")), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_remove(&r.p, relays[0]), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_remove(&r.p, relays[1]), SC_OK);
    expect_published(&r, pub, relays[0], SC_POOL_ACCEPTED, SC_RELAY_PREFIX_NONE, "ok", 1);
    assert_memory_equal(r.u.url.ptr, "wss://a.example", r.u.url.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_DISCONNECT);
    assert_int_equal(r.u.relay, relays[0]);
    assert_int_equal(rig_poll(&r), SC_POOL_U_DISCONNECT);
    assert_int_equal(r.u.relay, relays[1]);
    expect_published(&r, pub, relays[1], SC_POOL_FAILED, SC_RELAY_PREFIX_NONE, "relay removed", 0);
    rig_expect(&r, SC_POOL_U_PUBLISH_DONE);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    rig_clear(&r);
}

void test_publish_args(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    pool_ev ev[5];
    sc_event unsigned_ev;
    sc_pool_publish_state st[2];
    uint32_t a, pub = 9, bad = 0x00050001u, twice[2];
    size_t n = 9, i;

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    for (i = 0; i < 5; i++) {
        pool_make(e, &ev[i], 1, 1700000000 + (int64_t)i, "x", NULL);
    }
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[0].ev, &a, 0, NULL), SC_ERR_EMPTY);
    assert_int_equal(pub, 0);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[0].ev, &bad, 1, NULL), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[0].ev, vt_null(), 1, NULL), SC_ERR_ARG);
    unsigned_ev = ev[0].ev;
    unsigned_ev.flags &= ~(unsigned)SC_EVENT_HAS_SIG;
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &unsigned_ev, &a, 1, NULL), SC_ERR_EVENT_FIELD);
    unsigned_ev = ev[0].ev;
    unsigned_ev.kind = 70000;
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &unsigned_ev, &a, 1, NULL), SC_ERR_EVENT_RANGE);
    /* a relay named twice counts once */
    twice[0] = a;
    twice[1] = a;
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[0].ev, twice, 2, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, NULL, 0, &n, pub), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 1);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, st, 2, &n, pub), SC_OK);
    assert_int_equal(st[0].relay, a);
    /* the same event twice in flight */
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[0].ev, &a, 1, NULL), SC_ERR_STATE);
    for (i = 1; i < 4; i++) {
        VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[i].ev, &a, 1, NULL), SC_OK);
    }
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev[4].ev, &a, 1, NULL), SC_ERR_FULL);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, st, 2, &n, 0), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_publish_states(&r.p, st, 2, vt_null(), pub), SC_ERR_ARG);
    rig_clear(&r);
}
