/* The pool's options, its memory, its relays and their connections. */
#include "test_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_opts(void **state)
{
    pool_env *e = *state;
    sc_pool_opts o;
    sc_pool p;
    static uint8_t small[256];
    uint8_t *mem;
    size_t need = sc_pool_mem_max(NULL);
    uint32_t h = 0;

    assert_true(need > 0);
    mem = vt_alloc(need);
    VT_ASSERT_STATUS(sc_pool_init(vt_null(), mem, need, NULL), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_pool_init(&p, NULL, need, NULL), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_pool_init(&p, small, sizeof small, NULL), SC_ERR_BUFFER_TOO_SMALL);
    /* a failed init leaves an unusable pool */
    VT_ASSERT_STATUS(sc_pool_relay_add(&p, &h, SC_STR("wss://a.example")), SC_ERR_STATE);
    memset(&o, 0, sizeof o);
    o.auth = 3;
    assert_int_equal(sc_pool_mem_max(&o), 0);
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.retry_min_ms = 5000;
    o.retry_max_ms = 4000;
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.retry_min_ms = 70000; /* above the default cap */
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.max_other_msg = 63;
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.max_event_msg = 10;
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.session.resume_slack = -1;
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.session.backoff_min_ms = 900;
    o.session.backoff_max_ms = 800;
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_FLAGS);
    memset(&o, 0, sizeof o);
    o.max_relays = 65536;
    assert_int_equal(sc_pool_mem_max(&o), 0);
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_TOO_LARGE);
    memset(&o, 0, sizeof o);
    o.seen_per_sub = 70000;
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_ERR_TOO_LARGE);
    /* NULL and zeroed options are the same pool */
    memset(&o, 0, sizeof o);
    assert_int_equal(sc_pool_mem_max(&o), need);
    VT_ASSERT_STATUS(sc_pool_init(&p, mem, need, &o), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_add(&p, &h, SC_STR("wss://a.example")), SC_OK);
    sc_pool_clear(&p);
    assert_true(vt_all_zero(mem, need));
    VT_ASSERT_STATUS(sc_pool_relay_add(&p, &h, SC_STR("wss://a.example")), SC_ERR_STATE);
    sc_pool_clear(&p); /* twice is fine */
    sc_pool_clear(NULL);
    /* the memory may sit at any alignment */
    VT_ASSERT_STATUS(sc_pool_init(&p, mem + 1, need - 1, NULL), SC_ERR_BUFFER_TOO_SMALL);
    free(mem);
    mem = vt_alloc(need + 8);
    VT_ASSERT_STATUS(sc_pool_init(&p, mem + 3, need, NULL), SC_OK);
    sc_pool_clear(&p);
    free(mem);
    (void)e;
}

/* The figure docs/api.md states, and that it scales as the formula says. */
void test_memory(void **state)
{
    sc_pool_opts o;
    size_t dflt = sc_pool_mem_max(NULL), one, two;

    (void)state;
    printf("[ INFO     ] pool memory with the default options: %zu bytes\n", dflt);
    /* the default options: under 1.6 MB on 64-bit targets, most of it the 8 x 4096 ids */
    assert_true(dflt > 8 * 4096 * 32);
    assert_true(dflt < 1600000);
    memset(&o, 0, sizeof o);
    o.max_relays = 1;
    o.max_subs = 1;
    o.max_publishes = 1;
    o.seen_per_sub = 16;
    one = sc_pool_mem_max(&o);
    o.max_relays = 2;
    two = sc_pool_mem_max(&o);
    printf("[ INFO     ] one relay, one subscription, one publish: %zu bytes; each further "
           "relay: %zu\n",
           one, two - one);
    assert_true(one > 0 && two > one);
    assert_true(one < 16384);
}

void test_relays(void **state)
{
    pool_env *e = *state;
    static rig r;
    sc_pool_opts o;
    sc_pool_relay_info info;
    uint32_t a, b, c, x = 7;
    char url[400];

    memset(&o, 0, sizeof o);
    o.max_relays = 2;
    o.max_url = 64;
    rig_init(&r, e, &o);
    a = rig_relay(&r, "WSS://Relay.Example:443/");
    /* the same relay, written another way, is found, not added */
    b = rig_relay(&r, "wss://relay.example");
    assert_int_equal(a, b);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &c, SC_STR("wss://RELAY.example/")), SC_OK);
    assert_int_equal(a, c);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.url.len, strlen("wss://relay.example"));
    assert_memory_equal(info.url.ptr, "wss://relay.example", info.url.len);
    assert_int_equal(info.link, SC_POOL_LINK_IDLE);
    assert_int_equal(info.last_notice.len, 0);
    /* bad URLs */
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, &x, SC_STR("https://relay.example")), SC_ERR_ENCODING);
    assert_int_equal(x, 0);
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, &x, SC_STR("")), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, &x, SC_STR("wss://\xff")), SC_ERR_UTF8);
    memset(url, 'a', sizeof url);
    memcpy(url, "wss://", 6);
    url[80] = '\0';
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, &x, str_of(url)), SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &x, SC_STR("wss://other.example")), SC_ERR_NOT_FOUND);
    /* full, then room again after a removal; the old handle is stale */
    b = rig_relay(&r, "ws://127.0.0.1:7777");
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, &x, SC_STR("wss://third.example")), SC_ERR_FULL);
    VT_ASSERT_STATUS(sc_pool_relay_remove(&r.p, a), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_remove(&r.p, a), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_ERR_NOT_FOUND);
    c = rig_relay(&r, "wss://third.example");
    assert_true(c != a);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, 0), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, 0xffffffffu), SC_ERR_NOT_FOUND);
    /* nothing to do: no CONNECT */
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_true(sc_pool_wakeup(&r.p) == INT64_MAX);
    VT_ASSERT_STATUS(sc_pool_connected(&r.p, b, r.now), SC_ERR_STATE); /* not asked */
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, b, r.now), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_pool_relay_add(vt_null(), &x, SC_STR("wss://a.example")), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, vt_null(), SC_STR("wss://a.example")), SC_ERR_ARG);
    assert_int_equal(sc_pool_message_max(&r.p), 1u << 20);
    assert_int_equal(sc_pool_message_max(vt_null()), 0);
    assert_int_equal(sc_pool_receive_arena_max(100), sc_relay_parse_arena_max(100));
    rig_clear(&r);
}

/* A relay is connected while it has something to do; a lost connection waits out the
 * session's backoff; a removed one is disconnected. */
void test_links(void **state)
{
    pool_env *e = *state;
    static rig r;
    static const uint32_t k1 = 1;
    sc_pool_opts o;
    sc_relay_filter f;
    sc_pool_relay_info info;
    uint32_t a, sub = 0;
    int64_t wake;

    memset(&o, 0, sizeof o);
    o.max_relays = 2;
    o.session.backoff_min_ms = 100;
    o.session.backoff_max_ms = 400;
    rig_init(&r, e, &o);
    a = rig_relay(&r, "wss://a.example");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    assert_true(sc_pool_wakeup(&r.p) == 0); /* something to report */
    assert_int_equal(rig_poll(&r), SC_POOL_U_CONNECT);
    assert_int_equal(r.u.relay, a);
    assert_int_equal(r.u.url.len, strlen("wss://a.example"));
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.link, SC_POOL_LINK_CONNECTING);
    assert_int_equal(info.subscriptions, 1);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    assert_string_equal(rig_next(&r, a), ""); /* nothing goes out before the socket opens */
    /* the socket fails to open: the backoff */
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.link, SC_POOL_LINK_WAITING);
    assert_int_equal(info.failures, 1);
    assert_true(info.retry_at_ms == r.now + 100);
    rig_expect(&r, SC_POOL_U_EOSE); /* its only relay failed to connect */
    assert_int_equal(r.u.sub, sub);
    assert_int_equal(r.u.relay, 0);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    wake = sc_pool_wakeup(&r.p);
    assert_true(wake == r.now + 100);
    r.now = wake - 1;
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    r.now = wake;
    rig_connect(&r, a);
    assert_string_equal(rig_next(&r, a), "[\"REQ\",\"s\",{\"kinds\":[1]}]");
    assert_string_equal(rig_next(&r, a), "");
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.link, SC_POOL_LINK_CONNECTED);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"EOSE\",\"s\"]"), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.failures, 0);             /* a message came: the connection works */
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE); /* the EOSE came once, above */
    /* nothing left to do: the relay is idle after a loss, not reconnected */
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, sub), SC_OK);
    assert_string_equal(rig_next(&r, a), "[\"CLOSE\",\"s\"]");
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    r.now += 10000;
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(sc_pool_relay_info_get(&r.p, &info, a), SC_OK);
    assert_int_equal(info.link, SC_POOL_LINK_IDLE);
    assert_true(sc_pool_wakeup(&r.p) == INT64_MAX);
    /* removal of a connected relay asks to close its socket */
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, NULL), SC_OK);
    rig_connect(&r, a);
    VT_ASSERT_STATUS(sc_pool_relay_remove(&r.p, a), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_DISCONNECT);
    assert_int_equal(r.u.relay, a);
    assert_memory_equal(r.u.url.ptr, "wss://a.example", r.u.url.len);
    rig_expect(&r, SC_POOL_U_EOSE); /* its subscription had no relay left */
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    VT_ASSERT_STATUS(sc_pool_connected(&r.p, a, r.now), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"EOSE\",\"s\"]"), SC_ERR_NOT_FOUND);
    rig_clear(&r);
}
