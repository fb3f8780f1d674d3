/* NIP-17 routing: the inbox directory (kind 10050, NIP-65 kind 10002, the newest list wins,
 * no inbox is a status, fallbacks only on request) and the delivery record (one message to
 * its receivers' relays through the pool, brought up to date from its updates, saved,
 * restored after a crash and finished without asking a relay twice; its bytes strict). */
#include "test_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex_of(char out[65], const uint8_t in[32])
{
    size_t i;

    for (i = 0; i < 32; i++) {
        snprintf(out + 2 * i, 3, "%02x", in[i]);
    }
}

/* A relay list of alice's: kind, created_at, and tags given as in pool_make. */
static void make_list(pool_env *e, pool_ev *h, uint32_t kind, int64_t at, const char *const *tags)
{
    pool_make(e, h, kind, at, "", tags);
}

void test_inboxes(void **state)
{
    pool_env *e = *state;
    static uint8_t mem[65536];
    static const char *const dm1[] = {
        "relay", "WSS://Inbox.Example/", NULL, "relay", "wss://inbox.example", NULL,
        "relay", "https://not.a.relay",  NULL, "relay", "wss://two.example",   NULL,
        "relay", "wss://three.example",  NULL, NULL};
    static const char *const dm2[] = {"relay", "wss://newer.example", NULL, NULL};
    static const char *const rl[] = {"r",
                                     "wss://both.example",
                                     NULL,
                                     "r",
                                     "wss://read.example",
                                     "read",
                                     NULL,
                                     "r",
                                     "wss://write.example",
                                     "write",
                                     NULL,
                                     "r",
                                     "wss://odd.example",
                                     "sometimes",
                                     NULL,
                                     NULL};
    sc_inboxes b;
    pool_ev l1, l2, l3, other;
    sc_relay_filter f;
    sc_inbox_source src;
    sc_str out[4];
    size_t n = 0;
    uint8_t users[2][32];

    assert_int_equal(sc_inboxes_mem_max(0, 1, 1), 0);
    assert_int_equal(sc_inboxes_mem_max(1, 65536, 1), 0);
    VT_ASSERT_STATUS(sc_inboxes_init(&b, mem, sizeof mem, 0, 2, 64), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_inboxes_init(&b, mem, sizeof mem, 70000, 2, 64), SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_inboxes_init(&b, mem, 64, 1, 2, 64), SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, 0), SC_ERR_STATE);
    assert_true(sc_inboxes_mem_max(1, 3, 64) <= sizeof mem);
    VT_ASSERT_STATUS(sc_inboxes_init(&b, mem, sizeof mem, 1, 3, 64), SC_OK);
    /* the filter that fetches them */
    memcpy(users[0], e->alice_pub, 32);
    memcpy(users[1], e->bob_pub, 32);
    VT_ASSERT_STATUS(sc_inboxes_filter(&f, users, 2), SC_OK);
    assert_int_equal(f.n_kinds, 2);
    assert_int_equal(f.kinds[0], 10050);
    assert_int_equal(f.kinds[1], 10002);
    assert_int_equal(f.n_authors, 2);
    VT_ASSERT_STATUS(sc_inboxes_filter(&f, users, 0), SC_ERR_EMPTY);
    /* nothing known: no inbox, and no fallback either */
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, 0), SC_ERR_NO_INBOX);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, SC_INBOXES_FALLBACK_READ),
                     SC_ERR_NO_INBOX);
    /* NIP-65 alone: no inbox unless the fallback is asked for */
    make_list(e, &l3, 10002, 1700000000, rl);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &l3.ev), SC_OK);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, 0), SC_ERR_NO_INBOX);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, SC_INBOXES_FALLBACK_READ),
                     SC_OK);
    assert_int_equal(src, SC_INBOX_NIP65_READ);
    assert_int_equal(n, 2);
    assert_memory_equal(out[0].ptr, "wss://both.example", out[0].len);
    assert_memory_equal(out[1].ptr, "wss://read.example", out[1].len);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, SC_INBOXES_WRITE), SC_OK);
    assert_int_equal(src, SC_INBOX_NIP65_WRITE);
    assert_int_equal(n, 2);
    assert_memory_equal(out[1].ptr, "wss://write.example", out[1].len);
    /* the 10050: normalised, once each, bad URLs and those past max_relays left out */
    make_list(e, &l1, 10050, 1700000000, dm1);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &l1.ev), SC_OK);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, &src, e->alice_pub, 0), SC_OK);
    assert_int_equal(src, SC_INBOX_DM_RELAYS);
    assert_int_equal(n, 3);
    assert_memory_equal(out[0].ptr, "wss://inbox.example", out[0].len);
    assert_memory_equal(out[2].ptr, "wss://three.example", out[2].len);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 2, &n, &src, e->alice_pub, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 3);
    /* the newest list wins; an older one is ignored; a tie goes to the lowest id */
    make_list(e, &l2, 10050, 1700000100, dm2);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &l2.ev), SC_OK);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &l1.ev), SC_OK);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, NULL, e->alice_pub, 0), SC_OK);
    assert_int_equal(n, 1);
    assert_memory_equal(out[0].ptr, "wss://newer.example", out[0].len);
    make_list(e, &l1, 10050, 1700000100, dm1);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &l1.ev), SC_OK);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, NULL, e->alice_pub, 0), SC_OK);
    assert_int_equal(n, memcmp(l1.ev.id, l2.ev.id, 32) < 0 ? 3 : 1);
    /* refusals */
    pool_make(e, &other, 1, 1700000000, "a note", NULL);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &other.ev), SC_ERR_MESSAGE);
    other = l2;
    other.ev.flags &= ~(unsigned)SC_EVENT_HAS_PUBKEY;
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &other.ev), SC_ERR_EVENT_FIELD);
    other = l2;
    memcpy(other.ev.pubkey, e->bob_pub, 32); /* another user: the directory holds one */
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &other.ev), SC_ERR_FULL);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, NULL, e->alice_pub, 4), SC_ERR_FLAGS);
    VT_ASSERT_STATUS(sc_inboxes_get(&b, out, 4, &n, NULL, e->alice_pub,
                                    SC_INBOXES_WRITE | SC_INBOXES_FALLBACK_READ),
                     SC_ERR_FLAGS);
    sc_inboxes_clear(&b);
    VT_ASSERT_STATUS(sc_inboxes_add(&b, &l2.ev), SC_ERR_STATE);
    sc_inboxes_clear(NULL);
}

/* One message from alice to bob: wraps for bob and for alice's own copy. */
typedef struct message {
    char *out;
    size_t out_len;
    sc_nip17_wrap wraps[2];
    size_t n;
    uint8_t rumor_buf[1024];
} message;

static void make_message(pool_env *e, message *msg)
{
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor;
    void *scratch;
    size_t cap, scap;

    memset(&to, 0, sizeof to);
    memcpy(to.pubkey, e->bob_pub, 32);
    memset(&m, 0, sizeof m);
    m.content = SC_STR("lunch at noon?");
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&e->ctx, &rumor, msg->rumor_buf, sizeof msg->rumor_buf, &m,
                                         e->alice_pub),
                     SC_OK);
    cap = sc_nip17_send_max(&rumor, e->alice_pub, NULL);
    scap = sc_nip17_send_scratch_max(&rumor, e->alice_pub, NULL);
    msg->out = (char *)vt_alloc(cap);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(sc_nip17_send(&e->ctx, msg->out, cap, &msg->out_len, msg->wraps, 2, &msg->n,
                                   scratch, scap, &rumor, &e->alice, NULL),
                     SC_OK);
    assert_int_equal(msg->n, 2);
    free(scratch);
}

/* The index of the wrap for pubkey. */
static size_t wrap_for(const message *msg, const uint8_t pubkey[32])
{
    return memcmp(msg->wraps[0].recipient, pubkey, 32) == 0 ? 0 : 1;
}

/* Polls the rig, applying each update to the record; stops at NONE. */
static void pump(rig *r, sc_delivery *d)
{
    while (rig_poll(r) != SC_POOL_U_NONE) {
        sc_status st = sc_delivery_apply(d, &r->u);

        if (r->u.kind == SC_POOL_U_PUBLISHED || r->u.kind == SC_POOL_U_PUBLISH_DONE) {
            VT_ASSERT_STATUS(st, SC_OK);
        } else {
            VT_ASSERT_STATUS(st, SC_ERR_NOT_FOUND);
        }
        if (r->u.kind == SC_POOL_U_CONNECT) {
            VT_ASSERT_STATUS(sc_pool_connected(&r->p, r->u.relay, r->now), SC_OK);
        }
    }
}

/* The relay answers the wrap it was sent (its last EVENT text) with an OK. */
static void answer(rig *r, uint32_t relay, int accepted, const char *text)
{
    uint8_t id[32];
    char json[256];

    assert_int_equal(rig_flush(r, relay), 1);
    assert_true(sent_event_id(r->out, id));
    VT_ASSERT_STATUS(rig_recv(r, relay, msg_ok(json, sizeof json, id, accepted, text)), SC_OK);
}

void test_delivery(void **state)
{
    pool_env *e = *state;
    static rig r;
    static message msg;
    static uint8_t saved[16384], mem[65536], mem2[65536];
    static const sc_str bob_relays[] = {
        {"wss://b1.example", 16}, {"wss://B2.example:443/", 21}, {"wss://b1.example/", 17}};
    static const sc_str own_relays[] = {{"wss://a1.example", 16}};
    sc_pool_opts o;
    sc_delivery d, d2;
    sc_delivery_route routes[2];
    sc_delivery_receiver rv;
    sc_delivery_relay rl;
    size_t bob, me, len = 0, need, i;
    uint32_t h;
    char idhex[65];
    long allocs = 0;

    make_message(e, &msg);
    alloc_count_start(); /* no call on the record allocates (the rigs' memory aside) */
    bob = wrap_for(&msg, e->bob_pub);
    me = 1 - bob;
    routes[bob].relays = bob_relays;
    routes[bob].n_relays = 3; /* b1 named twice */
    routes[me].relays = own_relays;
    routes[me].n_relays = 1;
    need = sc_delivery_mem_max(2, msg.out_len, 4, 16 + 21 + 17 + 16);
    assert_true(need > 0 && need <= sizeof mem);
    VT_ASSERT_STATUS(
        sc_delivery_init(&d, mem, need - 1, msg.out, msg.out_len, msg.wraps, 2, routes),
        SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_delivery_init(&d, mem, need, msg.out, msg.out_len, msg.wraps, 2, routes),
                     SC_OK);
    assert_int_equal(sc_delivery_receivers(&d), 2);
    VT_ASSERT_STATUS(sc_delivery_receiver_get(&d, &rv, bob), SC_OK);
    assert_memory_equal(rv.pubkey, e->bob_pub, 32);
    assert_int_equal(rv.n_relays, 2);
    assert_int_equal(rv.outcome, SC_DELIVERY_PENDING);
    VT_ASSERT_STATUS(sc_delivery_relay_get(&d, &rl, bob, 1), SC_OK);
    assert_memory_equal(rl.url.ptr, "wss://b2.example", rl.url.len);
    VT_ASSERT_STATUS(sc_delivery_relay_get(&d, &rl, bob, 2), SC_ERR_NOT_FOUND);
    /* the intent is saved before anything goes out */
    VT_ASSERT_STATUS(sc_delivery_save(&d, saved, sizeof saved, &len), SC_OK);
    /* through a pool: b1 refuses, a1 asks to slow down, then the process dies */
    memset(&o, 0, sizeof o);
    o.max_relays = 4;
    o.max_subs = 1;
    o.max_publishes = 4;
    o.seen_per_sub = 4;
    o.retry_min_ms = 100;
    allocs += alloc_count_stop();
    rig_init(&r, e, &o);
    alloc_count_start();
    VT_ASSERT_STATUS(sc_delivery_start(&d, &r.p), SC_OK);
    VT_ASSERT_STATUS(sc_delivery_start(&d, &r.p), SC_ERR_STATE);
    pump(&r, &d);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &h, SC_STR("wss://b1.example")), SC_OK);
    answer(&r, h, 0, "blocked: not on the list");
    pump(&r, &d);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &h, SC_STR("wss://a1.example")), SC_OK);
    answer(&r, h, 0, "rate-limited: slow down");
    pump(&r, &d);
    VT_ASSERT_STATUS(sc_delivery_relay_get(&d, &rl, bob, 0), SC_OK);
    assert_int_equal(rl.result, SC_POOL_REFUSED);
    assert_int_equal(rl.prefix, SC_RELAY_PREFIX_BLOCKED);
    assert_memory_equal(rl.text.ptr, "blocked: not on the list", rl.text.len);
    assert_int_equal(sc_delivery_outcome_get(&d), SC_DELIVERY_PENDING);
    VT_ASSERT_STATUS(sc_delivery_save(&d, saved, sizeof saved, &len), SC_OK);
    allocs += alloc_count_stop();
    rig_clear(&r);
    alloc_count_start();
    sc_delivery_clear(&d);
    /* a new process: the record from its bytes; b1 is not asked again */
    need = sc_delivery_load_mem_max(saved, len);
    assert_true(need > 0 && need <= sizeof mem2);
    VT_ASSERT_STATUS(sc_delivery_load(&d2, mem2, need - 1, saved, len), SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_delivery_load(&d2, mem2, need, saved, len), SC_OK);
    VT_ASSERT_STATUS(sc_delivery_relay_get(&d2, &rl, bob, 0), SC_OK);
    assert_int_equal(rl.result, SC_POOL_REFUSED);
    VT_ASSERT_STATUS(sc_delivery_receiver_get(&d2, &rv, bob), SC_OK);
    hex_of(idhex, rv.wrap_id);
    assert_non_null(strstr(msg.out + msg.wraps[bob].offset, idhex));
    allocs += alloc_count_stop();
    rig_init(&r, e, &o);
    alloc_count_start();
    VT_ASSERT_STATUS(sc_delivery_start(&d2, &r.p), SC_OK);
    pump(&r, &d2);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &h, SC_STR("wss://b1.example")), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &h, SC_STR("wss://b2.example")), SC_OK);
    answer(&r, h, 1, "");
    pump(&r, &d2);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &h, SC_STR("wss://a1.example")), SC_OK);
    answer(&r, h, 1, "");
    pump(&r, &d2);
    assert_int_equal(sc_delivery_outcome_get(&d2), SC_DELIVERY_DELIVERED);
    VT_ASSERT_STATUS(sc_delivery_receiver_get(&d2, &rv, me), SC_OK);
    assert_int_equal(rv.outcome, SC_DELIVERY_DELIVERED);
    VT_ASSERT_STATUS(sc_delivery_relay_get(&d2, &rl, me, 0), SC_OK);
    assert_int_equal(rl.attempts, 1);
    /* nothing left: starting again publishes nothing */
    VT_ASSERT_STATUS(sc_delivery_start(&d2, &r.p), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE);
    /* its bytes: every truncation, a byte more, every byte altered refused */
    VT_ASSERT_STATUS(sc_delivery_save(&d2, saved, sizeof saved, &len), SC_OK);
    assert_int_equal(len, sc_delivery_save_len(&d2));
    for (i = 0; i < len; i += (i < 64 || len - i < 64) ? 1 : 7) {
        assert_int_equal(sc_delivery_load_mem_max(saved, i), 0);
        VT_ASSERT_STATUS(sc_delivery_load(&d, mem, sizeof mem, saved, i), SC_ERR_ENCODING);
        saved[i] ^= 0x20;
        VT_ASSERT_STATUS(sc_delivery_load(&d, mem, sizeof mem, saved, len), SC_ERR_ENCODING);
        saved[i] ^= 0x20;
    }
    VT_ASSERT_STATUS(sc_delivery_load(&d, mem, sizeof mem, saved, len + 1), SC_ERR_ENCODING);
    VT_ASSERT_STATUS(sc_delivery_load(&d, mem, sizeof mem, saved, len), SC_OK);
    assert_int_equal(sc_delivery_outcome_get(&d), SC_DELIVERY_DELIVERED);
    sc_delivery_clear(&d);
    sc_delivery_clear(&d2);
    assert_int_equal(sc_delivery_outcome_get(&d2), SC_DELIVERY_PENDING);
    allocs += alloc_count_stop();
    assert_true(allocs <= 0); /* 0, or -1 per window where malloc cannot be wrapped */
    rig_clear(&r);
    free(msg.out);
}

/* A receiver whose every relay refuses: the message FAILED, with the relays' words. */
void test_delivery_failed(void **state)
{
    pool_env *e = *state;
    static rig r;
    static message msg;
    static uint8_t mem[65536];
    static const sc_str one[] = {{"ws://127.0.0.1:7000", 19}};
    static const sc_str none[] = {{"", 0}};
    static const sc_str bad[] = {{"http://x.example", 16}};
    sc_pool_opts o;
    sc_delivery d;
    sc_delivery_route routes[2];
    sc_nip17_wrap wrong[2];
    uint32_t h;

    make_message(e, &msg);
    routes[0].relays = one;
    routes[0].n_relays = 1;
    routes[1].relays = one;
    routes[1].n_relays = 1;
    /* the refusals of init */
    VT_ASSERT_STATUS(
        sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, msg.wraps, 0, routes),
        SC_ERR_EMPTY);
    routes[1].n_relays = 0;
    VT_ASSERT_STATUS(
        sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, msg.wraps, 2, routes),
        SC_ERR_EMPTY);
    routes[1].relays = none;
    routes[1].n_relays = 1;
    VT_ASSERT_STATUS(
        sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, msg.wraps, 2, routes),
        SC_ERR_EMPTY);
    routes[1].relays = bad;
    VT_ASSERT_STATUS(
        sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, msg.wraps, 2, routes),
        SC_ERR_ENCODING);
    routes[1].relays = one;
    memcpy(wrong, msg.wraps, sizeof wrong);
    memcpy(wrong[0].recipient, wrong[1].recipient, 32); /* a wrap for someone else */
    VT_ASSERT_STATUS(sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, wrong, 2, routes),
                     SC_ERR_MESSAGE);
    assert_true(vt_all_zero(mem, sizeof mem));
    memcpy(wrong, msg.wraps, sizeof wrong);
    wrong[1].offset = msg.out_len;
    VT_ASSERT_STATUS(sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, wrong, 2, routes),
                     SC_ERR_ARG);
    /* both wraps to one relay, which refuses them */
    VT_ASSERT_STATUS(
        sc_delivery_init(&d, mem, sizeof mem, msg.out, msg.out_len, msg.wraps, 2, routes), SC_OK);
    memset(&o, 0, sizeof o);
    o.max_relays = 2;
    o.max_subs = 1;
    o.max_publishes = 2;
    o.seen_per_sub = 4;
    rig_init(&r, e, &o);
    VT_ASSERT_STATUS(sc_delivery_start(&d, &r.p), SC_OK);
    pump(&r, &d);
    VT_ASSERT_STATUS(sc_pool_relay_find(&r.p, &h, SC_STR("ws://127.0.0.1:7000")), SC_OK);
    while (rig_next(&r, h)[0] != '\0') {
        uint8_t id[32];
        char json[256];

        assert_true(sent_event_id(r.out, id));
        VT_ASSERT_STATUS(rig_recv(&r, h, msg_ok(json, sizeof json, id, 0, "invalid: too old")),
                         SC_OK);
        pump(&r, &d);
    }
    assert_int_equal(sc_delivery_outcome_get(&d), SC_DELIVERY_FAILED);
    sc_delivery_clear(&d);
    rig_clear(&r);
    free(msg.out);
}
