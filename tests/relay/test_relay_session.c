/* NIP-42 and the session: URL normalisation, AUTH events, and the session's flow through
 * subscriptions, publishes, AUTH and reconnects, driven by hand-written relay messages. */
#include "test_relay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_url_normalize(void **state)
{
    static const struct {
        const char *in, *out;
    } ok[] = {
        {"wss://relay.example", "wss://relay.example"},
        {"WSS://Relay.Example:443/", "wss://relay.example"},
        {"ws://127.0.0.1:80", "ws://127.0.0.1"},
        {"ws://127.0.0.1:7777/", "ws://127.0.0.1:7777"},
        {"wss://r.example/Path/?Q=1", "wss://r.example/Path/?Q=1"},
        {"wss://r.example:444", "wss://r.example:444"},
        {"wss://[::1]/", "wss://[::1]"},
        {"ws://[2001:DB8::7]:80/x", "ws://[2001:db8::7]/x"},
        {"wss://[::ffff:192.0.2.1]:7777?a", "wss://[::ffff:192.0.2.1]:7777?a"},
    };
    static const char *const bad[] = {
        "https://r",    "wss://",      "wss://:443",     "wss://r:0", "wss://r:65536",
        "wss://r:12a",  "ws:/r",       "r.example",      "wss://[]",  "wss://[::1",
        "wss://[::1]x", "wss://[::g]", "WS://[FE80::1%]"};
    char out[128];
    size_t i, len = 0;

    (void)state;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        sc_str u = {ok[i].in, strlen(ok[i].in)};

        VT_ASSERT_STATUS(sc_relay_url_normalize(out, sizeof out, &len, u), SC_OK);
        if (len != strlen(ok[i].out) || memcmp(out, ok[i].out, len) != 0) {
            fail_msg("%s -> %.*s", ok[i].in, (int)len, out);
        }
        VT_ASSERT_STATUS(sc_relay_url_normalize(NULL, 0, &len, u), SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(len, strlen(ok[i].out));
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sc_str u = {bad[i], strlen(bad[i])};

        if (sc_relay_url_normalize(out, sizeof out, &len, u) != SC_ERR_ENCODING) {
            fail_msg("%s accepted", bad[i]);
        }
    }
}

void test_auth_event(void **state)
{
    relay_env *e = *state;
    sc_relay_auth a;
    uint8_t aux[32];
    const sc_str url = SC_STR("wss://Relay.Example/"), chal = SC_STR("c-123");

    memset(aux, 1, sizeof aux);
    VT_ASSERT_STATUS(
        sc_relay_auth_sign_with_rand(&e->ctx, &a, &e->alice, url, chal, 1700000000, aux), SC_OK);
    assert_int_equal(a.event.kind, 22242);
    assert_int_equal(a.event.n_tags, 2);
    assert_memory_equal(a.event.pubkey, e->alice_pub, 32);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("wss://relay.example"), chal,
                                          1700000000 + 600, 0),
                     SC_OK);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("wss://relay.example"), chal,
                                          1700000000 - 601, 0),
                     SC_ERR_AUTH_TIME);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("wss://relay.example"), chal,
                                          1700000000 + 61, 60),
                     SC_ERR_AUTH_TIME);
    VT_ASSERT_STATUS(
        sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("wss://other.example"), chal, 1700000000, 0),
        SC_ERR_AUTH_RELAY);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("wss://relay.example"),
                                          SC_STR("c-124"), 1700000000, 0),
                     SC_ERR_AUTH_CHALLENGE);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("nope"), chal, 1700000000, 0),
                     SC_ERR_ENCODING);
    a.event.kind = 1;
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, url, chal, 1700000000, 0),
                     SC_ERR_AUTH_KIND);
    a.event.kind = 22242;
    a.items[3].ptr = "c-12X"; /* the signed challenge changed: the id no longer matches */
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, url, SC_STR("c-12X"), 1700000000, 0),
                     SC_ERR_ID_MISMATCH);
    VT_ASSERT_STATUS(sc_relay_auth_sign(&e->ctx, &a, &e->alice, url, SC_STR(""), 1), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_relay_auth_sign(&e->ctx, &a, &e->alice, url, chal, -1), SC_ERR_EVENT_RANGE);
    VT_ASSERT_STATUS(sc_relay_auth_sign(&e->ctx, &a, &e->alice, url, chal, 5), SC_OK);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, url, chal, 5, 0), SC_OK);
    /* times at the ends of int64 fail the window, without overflow */
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, url, chal, -5, 0), SC_ERR_AUTH_TIME);
    VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, url, chal, INT64_MAX, 0),
                     SC_ERR_AUTH_TIME);
    /* a URL of any length compares (the normalised forms were once built on the stack) */
    {
        static char longu[700], longv[700];
        sc_str lu, lv;

        memcpy(longu, "wss://", 6);
        memset(longu + 6, 'a', 600);
        memcpy(longu + 606, "/p", 2);
        lu.ptr = longu;
        lu.len = 608;
        memcpy(longv, "WSS://", 6);
        memset(longv + 6, 'A', 600);
        memcpy(longv + 606, ":443/p", 6);
        lv.ptr = longv;
        lv.len = 612;
        VT_ASSERT_STATUS(sc_relay_auth_sign(&e->ctx, &a, &e->alice, lu, chal, 5), SC_OK);
        VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, lv, chal, 5, 0), SC_OK);
        longv[606 + 5] = 'q';
        VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &a.event, lv, chal, 5, 0),
                         SC_ERR_AUTH_RELAY);
    }
    VT_ASSERT_STATUS(
        sc_relay_auth_sign(&e->ctx, &a, &e->alice, SC_STR("wss://[::1]:7777/"), chal, 5), SC_OK);
    VT_ASSERT_STATUS(
        sc_relay_auth_verify(&e->ctx, &a.event, SC_STR("WSS://[::1]:7777"), chal, 5, 0), SC_OK);
}

/* The wall clock of the session tests, in unix milliseconds: after every event they make
 * (a resume point is never above the clock's seconds). */
#define T0 INT64_C(1700001000000)

/* A session over static memory. */
typedef struct rig {
    sc_relay_session s;
    uint8_t mem[8192];
    char out[8192];
    size_t len;
    uint8_t arena[1 << 15];
    sc_relay_msg m;
    sc_relay_update u;
} rig;

static void rig_init(rig *r, size_t subs, size_t pend, const sc_relay_session_opts *o)
{
    assert_true(sc_relay_session_mem_max(subs, pend, 19, o) <= sizeof r->mem);
    VT_ASSERT_STATUS(sc_relay_session_init(&r->s, r->mem, sizeof r->mem, subs, pend,
                                           SC_STR("ws://127.0.0.1:7777"), o),
                     SC_OK);
}

/* The next outgoing message, NUL-terminated in r->out ("" when none). */
static const char *next(rig *r)
{
    VT_ASSERT_STATUS(sc_relay_session_next(&r->s, r->out, sizeof r->out - 1, &r->len), SC_OK);
    r->out[r->len] = '\0';
    return r->out;
}

static sc_status feed(relay_env *e, rig *r, const char *json)
{
    size_t used = 0;
    sc_status st =
        sc_relay_parse(&e->ctx, &r->m, r->arena, sizeof r->arena, &used, json, strlen(json), NULL);

    if (st != SC_OK) {
        fail_msg("parse %s: %s", json, sc_status_name(st));
    }
    return sc_relay_session_handle(&r->s, &r->u, &r->m);
}

static void ok_msg(char *buf, size_t cap, const uint8_t id[32], int accepted, const char *msg)
{
    char hex[65];
    size_t i;

    for (i = 0; i < 32; i++) {
        sprintf(hex + 2 * i, "%02x", id[i]);
    }
    snprintf(buf, cap, "[\"OK\",\"%s\",%s,\"%s\"]", hex, accepted ? "true" : "false", msg);
}

void test_session_flow(void **state)
{
    relay_env *e = *state;
    static rig r;
    static const uint32_t k14 = 14, k1 = 1;
    sc_relay_filter f;
    relay_ev ev1, ev2, other;
    char json[4096];
    int64_t retry = 0;

    rig_init(&r, 2, 2, NULL);
    memset(&f, 0, sizeof f);
    f.kinds = &k14;
    f.n_kinds = 1;
    relay_make(e, &ev1, &e->alice, 14, 1700000000, "one", NULL);
    relay_make(e, &ev2, &e->alice, 14, 1700000050, "two", NULL);
    relay_make(e, &other, &e->alice, 1, 1700000060, "not kind 14", NULL);
    /* queued while disconnected: nothing goes out yet */
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("dm"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &ev1.ev), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &ev1.ev), SC_OK); /* no duplicate entry */
    assert_int_equal(sc_relay_session_pending(&r.s), 1);
    assert_string_equal(next(&r), "");
    VT_ASSERT_STATUS(sc_relay_session_handle(&r.s, &r.u, &r.m), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 1000), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 1000), SC_ERR_STATE);
    assert_int_equal(sc_relay_session_next_len(&r.s), strlen("[\"REQ\",\"dm\",{\"kinds\":[14]}]"));
    assert_string_equal(next(&r), "[\"REQ\",\"dm\",{\"kinds\":[14]}]");
    assert_true(strncmp(next(&r), "[\"EVENT\",{\"id\":", 15) == 0);
    assert_string_equal(next(&r), "");
    /* the relay answers */
    relay_event_msg(json, sizeof json, "dm", &ev2.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_EVENT);
    assert_int_equal(r.u.sub_id.len, 2);
    relay_event_msg(json, sizeof json, "dm", &other.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_ERR_NO_MATCH);
    relay_event_msg(json, sizeof json, "nope", &ev2.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_ERR_SUBSCRIPTION);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"dm\"]"), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_EOSE);
    ok_msg(json, sizeof json, ev1.ev.id, 1, "");
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_ACCEPTED);
    assert_memory_equal(r.u.event_id, ev1.ev.id, 32);
    assert_int_equal(sc_relay_session_pending(&r.s), 0);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK); /* settled already */
    assert_int_equal(r.u.kind, SC_RELAY_U_NONE);
    /* a refusal surfaces its prefix; a duplicate is a success */
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &other.ev), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &ev2.ev), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &ev1.ev), SC_ERR_FULL);
    ok_msg(json, sizeof json, other.ev.id, 0, "blocked: kind 1 is not accepted here");
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_REJECTED);
    assert_int_equal(r.m.prefix, SC_RELAY_PREFIX_BLOCKED);
    ok_msg(json, sizeof json, ev2.ev.id, 0, "duplicate: have it");
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_ACCEPTED);
    /* unsubscribe: a CLOSE, then the sub id is unknown */
    (void)next(&r);
    (void)next(&r);
    VT_ASSERT_STATUS(sc_relay_session_unsubscribe(&r.s, SC_STR("dm")), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_unsubscribe(&r.s, SC_STR("dm")), SC_ERR_SUBSCRIPTION);
    assert_string_equal(next(&r), "[\"CLOSE\",\"dm\"]");
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"dm\"]"), SC_ERR_SUBSCRIPTION);
    /* a CLOSED ends a subscription */
    f.kinds = &k1;
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("k1"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(feed(e, &r, "[\"CLOSED\",\"k1\",\"error: shutting down\"]"), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_CLOSED);
    assert_int_equal(r.m.prefix, SC_RELAY_PREFIX_ERROR);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"k1\"]"), SC_ERR_SUBSCRIPTION);
    VT_ASSERT_STATUS(feed(e, &r, "[\"NOTICE\",\"hello\"]"), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_NOTICE);
    VT_ASSERT_STATUS(feed(e, &r, "[\"NEG-MSG\",\"n\",\"61\"]"), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_OTHER);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, 2000, &retry), SC_OK);
    sc_relay_session_clear(&r.s);
    assert_true(vt_all_zero(r.mem, sizeof r.mem));
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 1), SC_ERR_STATE);
}

void test_session_reconnect(void **state)
{
    relay_env *e = *state;
    static rig r;
    static const uint32_t k14 = 14;
    sc_relay_filter f;
    sc_relay_session_opts o;
    relay_ev a, b;
    char json[4096];
    int64_t retry = 0;

    memset(&o, 0, sizeof o);
    o.backoff_min_ms = 100;
    o.backoff_max_ms = 1000;
    o.resume_slack = 10;
    rig_init(&r, 1, 1, &o);
    memset(&f, 0, sizeof f);
    f.kinds = &k14;
    f.n_kinds = 1;
    f.has = SC_RELAY_FILTER_LIMIT;
    f.limit = 20;
    relay_make(e, &a, &e->alice, 14, 1700000100, "a", NULL);
    relay_make(e, &b, &e->alice, 14, 1700000000, "b", NULL);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("s"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[14],\"limit\":20}]");
    relay_event_msg(json, sizeof json, "s", &a.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    /* cut before EOSE: the stored events came newest first, so the REQ goes out unchanged */
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 50, &retry), SC_OK);
    assert_int_equal(retry, T0 + 150);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 150, &retry), SC_OK);
    assert_int_equal(retry, T0 + 350);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0 + 400), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[14],\"limit\":20}]");
    relay_event_msg(json, sizeof json, "s", &b.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"s\"]"), SC_OK);
    /* a publish in flight when the socket drops goes out again */
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &b.ev), SC_OK);
    assert_true(strncmp(next(&r), "[\"EVENT\"", 8) == 0);
    /* after EOSE: since = newest seen - slack, and no limit (a resume wants everything) */
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 500, &retry), SC_OK);
    assert_int_equal(retry, T0 + 900);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 900, &retry), SC_OK);
    assert_int_equal(retry, T0 + 1700); /* 800: doubling from 100 */
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 1700, &retry), SC_OK);
    assert_int_equal(retry, T0 + 2700);                                   /* capped at 1000 */
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0 + 2000), SC_OK); /* lasts to 3000 */
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[14],\"since\":1700000090}]");
    assert_true(strncmp(next(&r), "[\"EVENT\"", 8) == 0);
    assert_string_equal(next(&r), "");
    /* a connection that lasted backoff_max resets the delay */
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 3000, &retry), SC_OK);
    assert_int_equal(retry, T0 + 3100);
    /* the caller's since wins when it is newer */
    f.since = 1800000000;
    f.has |= SC_RELAY_FILTER_SINCE;
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0 + 3200), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[14],\"since\":1800000000}]");
    /* a buffer too small marks nothing sent */
    VT_ASSERT_STATUS(sc_relay_session_next(&r.s, r.out, 5, &r.len), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(r.len, sc_relay_session_next_len(&r.s));
    assert_true(strncmp(next(&r), "[\"EVENT\"", 8) == 0);
}

/* A resumed REQ cut short: what it delivered before its EOSE must not raise since, or the
 * next connection skips the older stored events the cut one never sent. */
void test_session_resume_cut(void **state)
{
    relay_env *e = *state;
    static rig r;
    static const uint32_t k1 = 1;
    sc_relay_filter f;
    sc_relay_session_opts o;
    relay_ev t100, t150, t200;
    char json[4096];
    int64_t retry = 0;

    memset(&o, 0, sizeof o);
    rig_init(&r, 1, 1, &o);
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    relay_make(e, &t100, &e->alice, 1, 1700000100, "a", NULL);
    relay_make(e, &t150, &e->alice, 1, 1700000150, "b", NULL);
    relay_make(e, &t200, &e->alice, 1, 1700000200, "c", NULL);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("s"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[1]}]");
    relay_event_msg(json, sizeof json, "s", &t100.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"s\"]"), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 10, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, retry), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1700000100}]");
    /* 200 and 150 were stored meanwhile; 200 comes first, then the socket drops */
    relay_event_msg(json, sizeof json, "s", &t200.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, retry + 10, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, retry), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1700000100}]");
    relay_event_msg(json, sizeof json, "s", &t150.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"s\"]"), SC_OK);
    /* the EOSE covers what the cut connection sent too */
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, retry + 10, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, retry), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1700000200}]");
    /* a live event after the EOSE raises it at once */
    relay_make(e, &t100, &e->alice, 1, 1700000300, "d", NULL);
    relay_event_msg(json, sizeof json, "s", &t100.ev);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"s\"]"), SC_OK);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, retry + 10, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, retry), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1700000300}]");
}

/* One validly signed event dated in the future (2100) must not become the resume point: the
 * REQ after a reconnect asks from the present, or the subscription would hear nothing more
 * until 2100. Before and after its EOSE, and with a clock before every event. */
void test_session_future(void **state)
{
    relay_env *e = *state;
    static rig r;
    static const uint32_t k1059 = 1059;
    sc_relay_filter f;
    sc_relay_session_opts o;
    relay_ev now_ev, future;
    char json[4096], want[128];
    int64_t retry = 0;

    memset(&o, 0, sizeof o);
    o.resume_slack = 172800;
    rig_init(&r, 1, 1, &o);
    memset(&f, 0, sizeof f);
    f.kinds = &k1059;
    f.n_kinds = 1;
    relay_make(e, &now_ev, &e->alice, 1059, 1700000000, "x", NULL);
    relay_make(e, &future, &e->alice, 1059, 4102444800, "from 2100", NULL);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("in"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"in\",{\"kinds\":[1059]}]");
    /* stored before the EOSE, then live after it */
    relay_event_msg(json, sizeof json, "in", &future.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_EVENT);
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"in\"]"), SC_OK);
    relay_event_msg(json, sizeof json, "in", &now_ev.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 10, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0 + 5000), SC_OK);
    /* since = the clock's seconds - slack, not 4102444800 - slack */
    snprintf(want, sizeof want, "[\"REQ\",\"in\",{\"kinds\":[1059],\"since\":%lld}]",
             (long long)((T0 + 5000) / 1000 - 172800));
    assert_string_equal(next(&r), want);
    /* live after the EOSE, the same */
    VT_ASSERT_STATUS(feed(e, &r, "[\"EOSE\",\"in\"]"), SC_OK);
    relay_event_msg(json, sizeof json, "in", &future.ev);
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 6000, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, T0 + 9000), SC_OK);
    snprintf(want, sizeof want, "[\"REQ\",\"in\",{\"kinds\":[1059],\"since\":%lld}]",
             (long long)((T0 + 9000) / 1000 - 172800));
    assert_string_equal(next(&r), want);
    /* a clock before 1970 caps at 0 */
    VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, T0 + 9500, &retry), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, -5), SC_OK);
    assert_string_equal(next(&r), "[\"REQ\",\"in\",{\"kinds\":[1059],\"since\":0}]");
}

void test_session_auth(void **state)
{
    relay_env *e = *state;
    static rig r;
    static const uint32_t k1059 = 1059;
    sc_relay_filter f;
    relay_ev a;
    char json[4096], authmsg[4096];
    size_t used = 0, len = 0;
    uint8_t aux[32], arena[8192];
    sc_relay_msg sent;

    rig_init(&r, 1, 1, NULL);
    memset(&f, 0, sizeof f);
    f.kinds = &k1059;
    f.n_kinds = 1;
    relay_make(e, &a, &e->alice, 1059, 1700000000, "w", NULL);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("w"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_publish(&r.s, &a.ev), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 0), SC_OK);
    memset(aux, 3, sizeof aux);
    VT_ASSERT_STATUS(sc_relay_session_auth_with_rand(&r.s, &e->ctx, authmsg, sizeof authmsg, &len,
                                                     &e->bob, 1700000000, aux),
                     SC_ERR_NOT_FOUND);
    (void)next(&r);
    (void)next(&r);
    /* the relay challenges and refuses both */
    VT_ASSERT_STATUS(feed(e, &r, "[\"AUTH\",\"xyz\"]"), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_AUTH_CHALLENGE);
    {
        /* an empty challenge (which sc_relay_parse refuses) is no challenge: "xyz" stays */
        sc_relay_msg empty;

        memset(&empty, 0, sizeof empty);
        empty.type = SC_RELAY_AUTH;
        VT_ASSERT_STATUS(sc_relay_session_handle(&r.s, &r.u, &empty), SC_OK);
        assert_int_equal(r.u.kind, SC_RELAY_U_NONE);
    }
    VT_ASSERT_STATUS(feed(e, &r, "[\"CLOSED\",\"w\",\"auth-required: you must auth\"]"), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_AUTH_REQUIRED);
    ok_msg(json, sizeof json, a.ev.id, 0, "auth-required: you must auth");
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_AUTH_REQUIRED);
    assert_int_equal(sc_relay_session_pending(&r.s), 1);
    assert_string_equal(next(&r), ""); /* held */
    /* authenticate: the AUTH event names the relay and the challenge; a relay accepts it */
    VT_ASSERT_STATUS(
        sc_relay_session_auth_with_rand(&r.s, &e->ctx, authmsg, 10, &len, &e->bob, 1700000000, aux),
        SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_relay_session_auth_with_rand(&r.s, &e->ctx, authmsg, sizeof authmsg, &len,
                                                     &e->bob, 1700000000, aux),
                     SC_OK);
    assert_true(strncmp(authmsg, "[\"AUTH\",{", 9) == 0);
    {
        /* parse our own AUTH as a relay would: the event is the second element */
        char *ev_json = authmsg + 8;
        size_t ev_len = len - 9;
        sc_event ev;

        VT_ASSERT_STATUS(sc_event_parse(&ev, arena, sizeof arena, &used, ev_json, ev_len, NULL),
                         SC_OK);
        VT_ASSERT_STATUS(sc_relay_auth_verify(&e->ctx, &ev, SC_STR("ws://127.0.0.1:7777/"),
                                              SC_STR("xyz"), 1700000005, 0),
                         SC_OK);
        ok_msg(json, sizeof json, ev.id, 1, "");
    }
    (void)sent;
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_AUTHENTICATED);
    assert_string_equal(next(&r), "[\"REQ\",\"w\",{\"kinds\":[1059]}]");
    assert_true(strncmp(next(&r), "[\"EVENT\"", 8) == 0);
    /* once authenticated, another auth-required is a plain refusal */
    ok_msg(json, sizeof json, a.ev.id, 0, "auth-required: not you");
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_REJECTED);
    /* a refused AUTH */
    {
        int64_t retry;

        VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, 10, &retry), SC_OK);
        VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 20), SC_OK);
        VT_ASSERT_STATUS(sc_relay_session_auth_with_rand(&r.s, &e->ctx, authmsg, sizeof authmsg,
                                                         &len, &e->bob, 1, aux),
                         SC_ERR_NOT_FOUND); /* the challenge died with the connection */
        VT_ASSERT_STATUS(feed(e, &r, "[\"AUTH\",\"second\"]"), SC_OK);
        VT_ASSERT_STATUS(sc_relay_session_auth(&r.s, &e->ctx, authmsg, sizeof authmsg, &len,
                                               &e->bob, 1700000000),
                         SC_OK);
    }
}

/* An AUTH signed elsewhere (an external signer): the template for the current challenge,
 * signed by the signer operation, and checked before it goes out. */
void test_session_auth_signed_elsewhere(void **state)
{
    relay_env *e = *state;
    static rig r;
    sc_relay_auth t;
    sc_signer sig;
    sc_signer_op op;
    sc_signer_req req;
    char out[4096], json[512];
    size_t len = 0;
    sc_str keep;
    int64_t now = 1700000000;

    rig_init(&r, 1, 0, NULL);
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, now), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 0), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, now), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(feed(e, &r, "[\"AUTH\",\"chal-1\"]"), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, -1), SC_ERR_EVENT_RANGE);
    /* a signer that signs something else is refused before anything goes out */
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, now), SC_OK);
    keep = t.items[3];
    t.items[3] = SC_STR("chal-0");
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(
        sc_relay_session_auth_send(&r.s, &e->ctx, out, sizeof out, &len, &t.event, now),
        SC_ERR_AUTH_CHALLENGE);
    assert_int_equal(len, 0);
    t.items[3] = keep;
    t.items[1] = SC_STR("wss://elsewhere.example");
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(
        sc_relay_session_auth_send(&r.s, &e->ctx, out, sizeof out, &len, &t.event, now),
        SC_ERR_AUTH_RELAY);
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, now - 3600), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    VT_ASSERT_STATUS(
        sc_relay_session_auth_send(&r.s, &e->ctx, out, sizeof out, &len, &t.event, now),
        SC_ERR_AUTH_TIME);
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, now), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &t.event, &e->bob), SC_OK);
    t.event.sig[7] ^= 1;
    VT_ASSERT_STATUS(
        sc_relay_session_auth_send(&r.s, &e->ctx, out, sizeof out, &len, &t.event, now),
        SC_ERR_INVALID_SIG);
    /* the right one, signed through an external signer's operation (answered here with
     * bob's key), goes out and its OK authenticates */
    VT_ASSERT_STATUS(sc_relay_session_auth_template(&r.s, &t, e->bob_pub, now), SC_OK);
    VT_ASSERT_STATUS(sc_signer_init_external(&sig, e->bob_pub, 0), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_start(&e->ctx, &op, &t.event, &sig), SC_OK);
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &e->ctx, 0, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_SIGN_EVENT);
    {
        sc_event copy = *req.event;
        char hex[129];
        size_t hex_len = 0;

        VT_ASSERT_STATUS(sc_event_sign(&e->ctx, &copy, &e->bob), SC_OK);
        VT_ASSERT_STATUS(sc_hex_encode(hex, sizeof hex, &hex_len, copy.sig, 64), SC_OK);
        VT_ASSERT_STATUS(sc_signer_op_answer(&op, &e->ctx, hex, hex_len), SC_OK);
    }
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &e->ctx, 1, &req), SC_OK);
    assert_int_equal(req.kind, SC_SIGNER_REQ_NONE);
    sc_signer_op_clear(&op);
    VT_ASSERT_STATUS(sc_relay_session_auth_send(&r.s, &e->ctx, out, 10, &len, &t.event, now),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_true(len > 10);
    VT_ASSERT_STATUS(
        sc_relay_session_auth_send(&r.s, &e->ctx, out, sizeof out, &len, &t.event, now), SC_OK);
    assert_true(len > 9 && strncmp(out, "[\"AUTH\",{", 9) == 0);
    ok_msg(json, sizeof json, t.event.id, 1, "");
    VT_ASSERT_STATUS(feed(e, &r, json), SC_OK);
    assert_int_equal(r.u.kind, SC_RELAY_U_AUTHENTICATED);
}

void test_session_limits(void **state)
{
    relay_env *e = *state;
    static rig r;
    sc_relay_filter f;
    sc_relay_session_opts o;
    char chal[400];
    sc_relay_session dead;

    memset(&f, 0, sizeof f);
    memset(&o, 0, sizeof o);
    rig_init(&r, 1, 0, NULL);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("a"), &f, 1), SC_OK);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("a"), &f, 1), SC_OK); /* replace */
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("b"), &f, 1), SC_ERR_FULL);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR("b"), &f, 0), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_relay_session_subscribe(&r.s, SC_STR(""), &f, 1), SC_ERR_EMPTY);
    {
        /* clocks at the ends of int64: no overflow, the retry time saturates */
        int64_t retry = 0;

        VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, INT64_MIN), SC_OK);
        VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, INT64_MAX - 5, &retry), SC_OK);
        assert_true(retry == INT64_MAX);
        VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, INT64_MAX), SC_OK);
        VT_ASSERT_STATUS(sc_relay_session_disconnected(&r.s, INT64_MIN, &retry), SC_OK);
        assert_true(retry > INT64_MIN);
    }
    VT_ASSERT_STATUS(sc_relay_session_connected(&r.s, 0), SC_OK);
    memset(chal, 'c', sizeof chal);
    snprintf(chal, sizeof chal, "[\"AUTH\",\"%0300d\"]", 1);
    VT_ASSERT_STATUS(feed(e, &r, chal), SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_relay_session_init(&r.s, r.mem, 10, 1, 1, SC_STR("ws://x"), NULL),
                     SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_relay_session_init(&r.s, r.mem, sizeof r.mem, 1, 1, SC_STR(""), NULL),
                     SC_ERR_EMPTY);
    o.backoff_min_ms = 10;
    o.backoff_max_ms = 5;
    VT_ASSERT_STATUS(sc_relay_session_init(&r.s, r.mem, sizeof r.mem, 1, 1, SC_STR("ws://x"), &o),
                     SC_ERR_FLAGS);
    o.backoff_max_ms = 0;
    o.resume_slack = -1;
    VT_ASSERT_STATUS(sc_relay_session_init(&r.s, r.mem, sizeof r.mem, 1, 1, SC_STR("ws://x"), &o),
                     SC_ERR_FLAGS);
    memset(&dead, 0, sizeof dead);
    assert_int_equal(sc_relay_session_pending(&dead), 0);
    assert_int_equal(sc_relay_session_next_len(&dead), 0);
    VT_ASSERT_STATUS(sc_relay_session_publish(&dead, (const sc_event *)vt_null()), SC_ERR_ARG);
    sc_relay_session_clear(NULL);
}
