/* The cursor: resume points and delivered ids across a restart (save, a new pool, load), its
 * bytes refused when truncated, extended or altered, a smaller cursor taking what fits, and
 * the argument checks. */
#include "test_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t k1 = 1;

static void small_opts(sc_pool_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_relays = 3;
    o->max_subs = 2;
    o->max_publishes = 2;
    o->seen_per_sub = 8;
}

typedef struct cur {
    sc_pool_cursor c;
    uint8_t mem[16384];
} cur;

static void cur_init(cur *c, size_t ids, size_t relays, size_t url)
{
    assert_true(sc_pool_cursor_mem_max(ids, relays, url) <= sizeof c->mem);
    VT_ASSERT_STATUS(sc_pool_cursor_init(&c->c, c->mem, sizeof c->mem, ids, relays, url), SC_OK);
}

/* Delivers events on a pool with a cursor, saves it, and resumes in a new pool. */
void test_cursor_resume(void **state)
{
    pool_env *e = *state;
    static rig r;
    static cur c, c2;
    static uint8_t saved[4096];
    sc_pool_opts o;
    sc_relay_filter f;
    sc_pool_sub_opts so;
    pool_ev ev[3];
    uint32_t relays[2], sub = 0, other = 0;
    char json[1024];
    int64_t point = 0;
    size_t len = 0, i;

    small_opts(&o);
    cur_init(&c, 16, 4, 64);
    for (i = 0; i < 3; i++) {
        pool_make(e, &ev[i], 1, 1700000100 + 100 * (int64_t)i, "n", NULL);
    }
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    relays[1] = rig_relay(&r, "wss://b.example:7000/inbox");
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    memset(&so, 0, sizeof so);
    so.cursor = &c.c;
    so.resume_slack = 10;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, relays, 2, &so), SC_OK);
    /* one cursor, one subscription */
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &other, SC_STR("t"), &f, 1, relays, 2, &so),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_pool_cursor_load(&c.c, saved, 0), SC_ERR_STATE);
    rig_connect(&r, relays[0]);
    rig_connect(&r, relays[1]);
    assert_string_equal(rig_next(&r, relays[0]), "[\"REQ\",\"s\",{\"kinds\":[1]}]");
    rig_flush(&r, relays[1]);
    /* stored events, newest first, then EOSE: the point moves only with the EOSE */
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "s", &ev[1].ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&c.c, ev[1].ev.id), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(&c.c, &point, SC_STR("wss://a.example")),
                     SC_ERR_NOT_FOUND);
    assert_true(point == -1);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "s", &ev[0].ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], "[\"EOSE\",\"s\"]"), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(&c.c, &point, SC_STR("WSS://a.example:443")),
                     SC_OK);
    assert_true(point == 1700000200);
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], msg_event(json, sizeof json, "s", &ev[1].ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE); /* a had it */
    VT_ASSERT_STATUS(rig_recv(&r, relays[1], "[\"EOSE\",\"s\"]"), SC_OK);
    rig_expect(&r, SC_POOL_U_EOSE);
    VT_ASSERT_STATUS(
        sc_pool_cursor_resume_point(&c.c, &point, SC_STR("wss://b.example:7000/inbox")), SC_OK);
    assert_true(point == 1700000200);
    /* the application saves it with what it did with the events; the process ends */
    VT_ASSERT_STATUS(sc_pool_cursor_save(&c.c, saved, sizeof saved, &len), SC_OK);
    assert_int_equal(len, sc_pool_cursor_save_len(&c.c));
    rig_clear(&r);
    /* the pool is gone: its cursor is free for another */
    VT_ASSERT_STATUS(sc_pool_cursor_load(&c.c, saved, len), SC_OK);
    sc_pool_cursor_clear(&c.c);
    /* a new process: the cursor from its bytes, a new pool */
    cur_init(&c2, 16, 4, 64);
    VT_ASSERT_STATUS(sc_pool_cursor_load(&c2.c, saved, len), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&c2.c, ev[0].ev.id), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&c2.c, ev[2].ev.id), SC_ERR_NOT_FOUND);
    rig_init(&r, e, &o);
    relays[0] = rig_relay(&r, "wss://a.example");
    so.cursor = &c2.c;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, relays, 1, &so), SC_OK);
    rig_connect(&r, relays[0]);
    assert_string_equal(rig_next(&r, relays[0]),
                        "[\"REQ\",\"s\",{\"kinds\":[1],\"since\":1700000190}]");
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "s", &ev[1].ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_NONE); /* delivered before the restart */
    VT_ASSERT_STATUS(rig_recv(&r, relays[0], msg_event(json, sizeof json, "s", &ev[2].ev)), SC_OK);
    assert_int_equal(rig_poll(&r), SC_POOL_U_EVENT);
    assert_memory_equal(r.u.event->id, ev[2].ev.id, 32);
    /* after the subscription ends the cursor is free again */
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, sub), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_load(&c2.c, saved, len), SC_OK);
    rig_clear(&r);
    sc_pool_cursor_clear(&c2.c);
}

/* CRC-32 (IEEE), written here independently of the library's. */
static uint32_t crc(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    size_t i;
    int k;

    for (i = 0; i < n; i++) {
        c ^= p[i];
        for (k = 0; k < 8; k++) {
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
        }
    }
    return ~c;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* A cursor form written by hand: n_ids ids (id k all bytes fill + step * k, created_at 5),
 * then the relays of urls (NULL-terminated) at point 0; sealed. */
static size_t forge(uint8_t *out, size_t n_ids, uint8_t fill, uint8_t step, const char *const *urls)
{
    size_t n = 0, i, n_urls = 0;

    while (urls[n_urls] != NULL) {
        n_urls++;
    }
    memcpy(out, "SCC1\x01", 5);
    n = 5;
    put32(out + n, (uint32_t)n_ids);
    put32(out + n + 4, (uint32_t)n_urls);
    n += 8;
    for (i = 0; i < n_ids; i++) {
        memset(out + n, (int)(uint8_t)(fill + step * i), 32);
        memset(out + n + 32, 0, 8);
        out[n + 39] = 5;
        n += 40;
    }
    for (i = 0; i < n_urls; i++) {
        size_t ul = strlen(urls[i]);

        put32(out + n, (uint32_t)ul);
        memcpy(out + n + 4, urls[i], ul);
        n += 4 + ul;
        memset(out + n, 0, 8);
        out[n + 7] = (uint8_t)i;
        n += 8;
    }
    put32(out + n, crc(out, n));
    return n + 4;
}

void test_cursor_bytes(void **state)
{
    static cur c, small;
    static uint8_t saved[2048], copy[2048];
    static const char *const one[] = {"wss://relay.example", NULL};
    static const char *const plain[] = {"WSS://Relay.Example:443/", NULL};
    static const char *const http[] = {"http://relay.example", NULL};
    static const char *const twice[] = {"wss://relay.example", "wss://RELAY.example", NULL};
    static const char *const two[] = {"wss://a.example", "wss://b.example", NULL};
    sc_pool_cursor *cc = &c.c;
    uint8_t id[32];
    int64_t point = 0;
    size_t len = 0, need = 0, i, n;

    (void)state;
    cur_init(&c, 8, 3, 64);
    /* an empty cursor saves and loads */
    VT_ASSERT_STATUS(sc_pool_cursor_save(cc, saved, sizeof saved, &len), SC_OK);
    assert_int_equal(len, 17);
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, saved, len), SC_OK);
    /* hand-made forms: what the format refuses, what it takes */
    memset(id, 0xab, sizeof id);
    len = forge(saved, 3, 0xab, 0, one);
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, saved, len), SC_ERR_ENCODING); /* an id 3 times */
    VT_ASSERT_STATUS(sc_pool_cursor_seen(cc, id), SC_ERR_NOT_FOUND);        /* emptied */
    len = forge(saved, 1, 0xab, 0, http);
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, saved, len), SC_ERR_ENCODING); /* not a relay */
    len = forge(saved, 1, 0xab, 0, twice);
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, saved, len), SC_ERR_ENCODING); /* a relay twice */
    len = forge(saved, 1, 0xab, 0, plain);
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, saved, len), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(cc, id), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(cc, &point, SC_STR("wss://relay.example")), SC_OK);
    assert_true(point == 0);
    /* what it saves is what it loaded, normalised */
    VT_ASSERT_STATUS(sc_pool_cursor_save(cc, NULL, 0, &need), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(need, sc_pool_cursor_save_len(cc));
    VT_ASSERT_STATUS(sc_pool_cursor_save(cc, copy, need - 1, &len), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, need);
    VT_ASSERT_STATUS(sc_pool_cursor_save(cc, copy, sizeof copy, &len), SC_OK);
    assert_int_equal(len, forge(saved, 1, 0xab, 0, one));
    assert_memory_equal(copy, saved, len);
    /* every truncation, a byte more, and every byte altered: refused, the cursor emptied */
    n = len;
    for (i = 0; i < n; i++) {
        VT_ASSERT_STATUS(sc_pool_cursor_load(cc, copy, n), SC_OK);
        VT_ASSERT_STATUS(sc_pool_cursor_load(cc, copy, i), SC_ERR_ENCODING);
        VT_ASSERT_STATUS(sc_pool_cursor_seen(cc, id), SC_ERR_NOT_FOUND);
    }
    copy[n] = 0;
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, copy, n + 1), SC_ERR_ENCODING);
    for (i = 0; i < n; i++) {
        copy[i] ^= 0x40;
        VT_ASSERT_STATUS(sc_pool_cursor_load(cc, copy, n), SC_ERR_ENCODING);
        copy[i] ^= 0x40;
    }
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, copy, n), SC_OK);
    /* a smaller cursor keeps the newest ids and the relays saved first */
    cur_init(&small, 2, 1, 64);
    len = forge(saved, 3, 0x10, 0x10, two);
    VT_ASSERT_STATUS(sc_pool_cursor_load(&small.c, saved, len), SC_OK);
    memset(id, 0x10, sizeof id);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&small.c, id), SC_ERR_NOT_FOUND);
    memset(id, 0x30, sizeof id);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&small.c, id), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(&small.c, &point, SC_STR("wss://a.example")),
                     SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(&small.c, &point, SC_STR("wss://b.example")),
                     SC_ERR_NOT_FOUND);
    sc_pool_cursor_clear(cc);
    sc_pool_cursor_clear(&small.c);
    VT_ASSERT_STATUS(sc_pool_cursor_load(cc, saved, len), SC_ERR_STATE);
}

void test_cursor_args(void **state)
{
    static cur c;
    sc_pool_cursor x;
    int64_t point = 5;
    uint8_t id[32];

    (void)state;
    memset(id, 1, sizeof id);
    assert_int_equal(sc_pool_cursor_mem_max(0, 1, 1), 0);
    assert_int_equal(sc_pool_cursor_mem_max(1, 0, 1), 0);
    assert_int_equal(sc_pool_cursor_mem_max(1, 1, 0), 0);
    assert_int_equal(sc_pool_cursor_mem_max((size_t)1 << 25, 1, 1), 0);
    assert_true(sc_pool_cursor_mem_max(1, 1, 1) > 0);
    VT_ASSERT_STATUS(sc_pool_cursor_init(&x, c.mem, sizeof c.mem, 0, 1, 1), SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_pool_cursor_init(&x, c.mem, sizeof c.mem, (size_t)1 << 25, 1, 1),
                     SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_pool_cursor_init(&x, c.mem, 16, 1, 1, 1), SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_pool_cursor_init(&x, NULL, 16, 1, 1, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&x, id), SC_ERR_STATE); /* failed init */
    assert_int_equal(sc_pool_cursor_save_len(&x), 0);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(&x, &point, SC_STR("wss://a.example")),
                     SC_ERR_STATE);
    assert_true(point == -1);
    cur_init(&c, 4, 1, 32);
    VT_ASSERT_STATUS(sc_pool_cursor_resume_point(&c.c, &point, SC_STR("http://a.example")),
                     SC_ERR_ENCODING);
    VT_ASSERT_STATUS(
        sc_pool_cursor_resume_point(&c.c, &point, SC_STR("wss://a-name-longer-than-32.example")),
        SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_pool_cursor_seen(&c.c, vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_pool_cursor_load(&c.c, NULL, 3), SC_ERR_ARG);
    sc_pool_cursor_clear(&c.c);
    sc_pool_cursor_clear(NULL);
}
