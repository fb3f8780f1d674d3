/* Subscriptions: deduplication across relays, the one EOSE, CLOSED per relay, a fetch
 * (ONCE) and replacing a subscription, resume points never in the future, argument checks,
 * and dropped messages. */
#include "test_pool.h"

#include <stdio.h>
#include <string.h>

static const uint32_t k1 = 1;

static void small_opts(sc_pool_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_relays = 4;
    o->max_subs = 2;
    o->max_publishes = 2;
    o->seen_per_sub = 4;
    o->session.backoff_min_ms = 50;
    o->session.backoff_max_ms = 50;
}

static void kind1(sc_relay_filter *f)
{
    memset(f, 0, sizeof *f);
    f->kinds = &k1;
    f->n_kinds = 1;
}

void test_sub_dedupe(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    sc_relay_filter f;
    pool_ev ev[6];
    uint32_t relays[2], sub = 0;
    char json[1024];
    int user = 3;
    sc_pool_sub_opts so;
    size_t i;

    small_opts(&o);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example");
    kind1(&f);
    memset(&so, 0, sizeof so);
    so.user = &user;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("feed"), &f, 1, relays, 2, &so), SC_OK);
    rig_connect(&r, relays[0]);
    rig_connect(&r, relays[1]);
    assert_string_equal(rig_next(&r, relays[0]), "[\"REQ\",\"feed\",{\"kinds\":[1]}]");
    assert_string_equal(rig_next(&r, relays[1]), "[\"REQ\",\"feed\",{\"kinds\":[1]}]");
    for (i = 0; i < 6; i++) {
        pool_make(e, &ev[i], 1, 1700000000 + (int64_t)i, "note", NULL);
    }
    /* the first relay to deliver wins; the other's copy is not delivered */
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], msg_event(json, sizeof json, "feed", &ev[0].ev)),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    assert_int_equal(r.u.sub, sub);
    assert_int_equal(r.u.relay, relays[1]);
    assert_true(r.u.user == &user);
    assert_int_equal(r.u.sub_id.len, 4);
    assert_memory_equal(r.u.event->id, ev[0].ev.id, 32);
    /* the event as the relay sent it, a view into the text */
    assert_true(r.u.event_json.ptr == strchr(json + 1, '{'));
    assert_int_equal(r.u.event_json.len, strlen(json) - (size_t)(r.u.event_json.ptr - json) - 1);
    assert_int_equal(r.u.message->type, SC_RELAY_EVENT);
    assert_int_equal(r.u.count, 0);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "feed", &ev[0].ev)),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    /* the subscription's own set holds seen_per_sub ids, the oldest forgotten first */
    for (i = 1; i < 5; i++) {
        VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "feed", &ev[i].ev)),
                         SC_OK);
        assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    }
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], msg_event(json, sizeof json, "feed", &ev[4].ev)),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], msg_event(json, sizeof json, "feed", &ev[0].ev)),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT); /* forgotten: delivered again */
    /* an event its filters do not match, and a forged one, are dropped */
    pool_make(e, &ev[5], 7, 1700000000, "reaction", NULL);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "feed", &ev[5].ev)),
                     SC_ERR_NO_MATCH);
    msg_event(json, sizeof json, "feed", &ev[1].ev);
    json[strlen(json) - 5] = json[strlen(json) - 5] == '0' ? '1' : '0'; /* the signature */
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], json), SC_ERR_INVALID_SIG);
    rig_expect(&r, SC_POOL_U_DROPPED);
    assert_int_equal(r.u.count, 2);
    assert_int_equal(r.u.status, SC_ERR_INVALID_SIG);
    rig_clear(&r);
}

/* The one EOSE comes when every relay sent EOSE, is down, or let eose_timeout_ms pass. */
void test_sub_eose(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    sc_relay_filter f;
    sc_pool_sub_opts so;
    uint32_t relays[3], sub = 0;

    small_opts(&o);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example");
    relays[2] = rig_relay(&r, "wss://c.example");
    kind1(&f);
    memset(&so, 0, sizeof so);
    so.eose_timeout_ms = 3000;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, relays, 3, &so), SC_OK);
    rig_connect(&r, relays[0]);
    rig_connect(&r, relays[1]);
    rig_connect(&r, relays[2]);
    rig_flush(&r, relays[0]);
    rig_flush(&r, relays[1]);
    rig_flush(&r, relays[2]);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], "[\"EOSE\",\"s\"]"), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, relays[1], r.now), SC_OK); /* down */
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_true(sc_pool_wakeup(&r.p) <= r.now + 3000);
    r.now += 2999;
    rig_drain(&r, SC_POOL_U_EOSE); /* b reconnects meanwhile */
    r.now += 1;
    rig_expect(&r, SC_POOL_U_EOSE);
    assert_int_equal(r.u.sub, sub);
    /* once */
    VT_ASSERT_STATUS(rig_recv(&r, relays[2], "[\"EOSE\",\"s\"]"), SC_OK);
    r.now += 10000;
    rig_drain(&r, SC_POOL_U_EOSE);
    rig_clear(&r);
}

/* A relay's CLOSED (with no prefix too) ends the subscription there and says why; it goes
 * on on the others. */
void test_sub_closed(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    sc_relay_filter f;
    sc_pool_relay_info info;
    pool_ev ev;
    uint32_t relays[2], sub = 0;
    char json[1024];

    small_opts(&o);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example");
    kind1(&f);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, relays, 2, NULL), SC_OK);
    rig_connect(&r, relays[0]);
    rig_connect(&r, relays[1]);
    rig_flush(&r, relays[0]);
    rig_flush(&r, relays[1]);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], "[\"CLOSED\",\"s\",\"we are full, try later\"]"),
                     SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_CLOSED);
    assert_int_equal(r.u.relay, relays[0]);
    assert_int_equal(r.u.sub, sub);
    assert_int_equal(r.u.prefix, SC_RELAY_PREFIX_NONE);
    assert_memory_equal(r.u.text.ptr, "we are full, try later", r.u.text.len);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, relays[0]), SC_OK);
    assert_int_equal(info.subscriptions, 0);
    /* b still delivers; the EOSE counts a as done */
    pool_make(e, &ev, 1, 1700000000, "still here", NULL);
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], msg_event(json, sizeof json, "s", &ev.ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], "[\"EOSE\",\"s\"]"), SC_OK);
    rig_expect(&r, SC_POOL_U_EOSE);
    /* a's later messages for it are dropped */
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], "[\"EOSE\",\"s\"]"), SC_ERR_SUBSCRIPTION);
    rig_clear(&r);
}

/* SC_POOL_SUB_ONCE closes after the EOSE; opening a sub id again replaces it. */
void test_sub_once_replace(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    sc_relay_filter f, g;
    sc_pool_sub_opts so;
    uint32_t relays[2], sub = 0, again = 0;
    static const uint32_t k7 = 7;

    small_opts(&o);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example");
    kind1(&f);
    memset(&so, 0, sizeof so);
    so.flags = SC_POOL_SUB_ONCE;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("fetch"), &f, 1, relays, 1, &so), SC_OK);
    rig_connect(&r, relays[0]);
    assert_string_equal(rig_next(&r, relays[0]), "[\"REQ\",\"fetch\",{\"kinds\":[1]}]");
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], "[\"EOSE\",\"fetch\"]"), SC_OK);
    rig_expect(&r, SC_POOL_U_EOSE);
    assert_int_equal(r.u.sub, sub);
    assert_memory_equal(r.u.sub_id.ptr, "fetch", 5);
    assert_string_equal(rig_next(&r, relays[0]), "[\"CLOSE\",\"fetch\"]");
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, sub), SC_ERR_NOT_FOUND);
    /* replace: the same handle, the new filters, a relay left behind gets a CLOSE */
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, relays, 2, NULL), SC_OK);
    rig_connect(&r, relays[1]);
    assert_string_equal(rig_next(&r, relays[0]), "[\"REQ\",\"s\",{\"kinds\":[1]}]");
    assert_string_equal(rig_next(&r, relays[1]), "[\"REQ\",\"s\",{\"kinds\":[1]}]");
    memset(&g, 0, sizeof g);
    g.kinds = &k7;
    g.n_kinds = 1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &again, SC_STR("s"), &g, 1, &relays[1], 1, NULL),
                     SC_OK);
    assert_int_equal(again, sub);
    assert_string_equal(rig_next(&r, relays[0]), "[\"CLOSE\",\"s\"]");
    assert_string_equal(rig_next(&r, relays[1]), "[\"REQ\",\"s\",{\"kinds\":[7]}]");
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], "[\"EOSE\",\"s\"]"), SC_ERR_SUBSCRIPTION);
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, sub), SC_OK);
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, sub), SC_ERR_NOT_FOUND);
    rig_clear(&r);
}

/* A validly signed event dated 2100 must not become the resume point: the REQ after a
 * reconnect starts from the clock, less the slack. */
void test_sub_future(void **state)
{
    pool_env *e = *state;
    static rig r;
    static const uint32_t k1059 = 1059;
    sc_pool_opts o;
    sc_relay_filter f;
    sc_pool_sub_opts so;
    pool_ev ev;
    uint32_t a, sub = 0;
    char json[1024], want[128];

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    memset(&f, 0, sizeof f);
    f.kinds = &k1059;
    f.n_kinds = 1;
    memset(&so, 0, sizeof so);
    so.resume_slack = SC_POOL_SLACK_GIFT_WRAP;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("in"), &f, 1, &a, 1, &so), SC_OK);
    rig_connect(&r, a);
    rig_flush(&r, a);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"EOSE\",\"in\"]"), SC_OK);
    rig_expect(&r, SC_POOL_U_EOSE);
    pool_make(e, &ev, 1059, 4102444800, "from 2100", NULL);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_event(json, sizeof json, "in", &ev.ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    r.now += 60000;
    rig_connect(&r, a);
    snprintf(want, sizeof want, "[\"REQ\",\"in\",{\"kinds\":[1059],\"since\":%lld}]",
             (long long)(r.now / 1000 - SC_POOL_SLACK_GIFT_WRAP));
    assert_string_equal(rig_next(&r, a), want);
    rig_clear(&r);
}

void test_sub_args(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    sc_relay_filter f, bad;
    sc_pool_sub_opts so;
    uint32_t a, sub = 5, none = 0x00090001u;
    char long_id[70];

    small_opts(&o);
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    kind1(&f);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR(""), &f, 1, &a, 1, NULL), SC_ERR_EMPTY);
    assert_int_equal(sub, 0);
    memset(long_id, 'x', 65);
    long_id[65] = '\0';
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, str_of(long_id), &f, 1, &a, 1, NULL),
                     SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("\xc3"), &f, 1, &a, 1, NULL),
                     SC_ERR_UTF8);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 0, &a, 1, NULL), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 0, NULL), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &none, 1, NULL),
                     SC_ERR_NOT_FOUND);
    memset(&bad, 0, sizeof bad);
    bad.has = SC_RELAY_FILTER_SINCE;
    bad.since = -1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &bad, 1, &a, 1, NULL),
                     SC_ERR_FILTER);
    memset(&so, 0, sizeof so);
    so.flags = 2;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, &so), SC_ERR_FLAGS);
    so.flags = 0;
    so.resume_slack = -1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, &so), SC_ERR_FLAGS);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), vt_null(), 1, &a, 1, NULL),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s1"), &f, 1, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s2"), &f, 1, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s3"), &f, 1, &a, 1, NULL), SC_ERR_FULL);
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, 0), SC_ERR_NOT_FOUND);
    rig_clear(&r);
}

/* Messages that cannot be used are dropped, and reported at most once a second per relay
 * with their number; per-type limits are checked before parsing. */
void test_dropped(void **state)
{
    pool_env *e = *state;
    static rig r;
    static char big[2048];
    sc_pool_opts o;
    sc_relay_filter f;
    uint32_t a, sub = 0;
    int i;

    small_opts(&o);
    o.max_other_msg = 100;
    o.max_event_msg = 1000;
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    kind1(&f);
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    VT_ASSERT_STATUS(rig_recv(&r, a, "not json"), SC_ERR_JSON);
    rig_expect(&r, SC_POOL_U_DROPPED);
    assert_int_equal(r.u.count, 1);
    assert_int_equal(r.u.status, SC_ERR_JSON);
    assert_int_equal(r.u.relay, a);
    for (i = 0; i < 5; i++) {
        VT_ASSERT_STATUS(rig_recv(&r, a, "[\"EOSE\",\"nope\"]"), SC_ERR_SUBSCRIPTION);
    }
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"PING\"]"), SC_ERR_RELAY_UNKNOWN);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE); /* within the second */
    assert_true(sc_pool_wakeup(&r.p) == r.now + 1000);
    r.now += 1000;
    rig_expect(&r, SC_POOL_U_DROPPED);
    assert_int_equal(r.u.count, 6);
    assert_int_equal(r.u.status, SC_ERR_RELAY_UNKNOWN);
    /* per type: a NOTICE over max_other_msg, an EVENT over max_event_msg */
    memset(big, 'n', sizeof big);
    memcpy(big, "[\"NOTICE\",\"", 11);
    memcpy(big + 101, "\"]", 3);
    VT_ASSERT_STATUS(rig_recv(&r, a, big), SC_ERR_TOO_LARGE);
    memset(big, 'n', sizeof big);
    memcpy(big, " [ \"EVENT\",\"", 12);
    memcpy(big + 500, "\"]", 3); /* malformed, but under the EVENT limit: parsed */
    VT_ASSERT_STATUS(rig_recv(&r, a, big), SC_ERR_RELAY_MESSAGE);
    memcpy(big + 500, "nnn", 3);
    memcpy(big + 1001, "\"]", 3);
    VT_ASSERT_STATUS(rig_recv(&r, a, big), SC_ERR_TOO_LARGE);
    /* the arena too small: nothing taken, nothing counted */
    VT_ASSERT_STATUS(
        sc_pool_receive(&r.p, &e->ctx, a, "[\"NOTICE\",\"hi\"]", 15, r.now, r.arena, 1),
        SC_ERR_BUFFER_TOO_SMALL);
    r.now += 1000;
    rig_expect(&r, SC_POOL_U_DROPPED);
    assert_int_equal(r.u.count, 3);
    VT_ASSERT_STATUS(sc_pool_receive(&r.p, &e->ctx, a, NULL, 1, r.now, r.arena, 4), SC_ERR_ARG);
    rig_clear(&r);
}
