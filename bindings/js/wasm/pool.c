/* The relay pool (pool.h) for the TypeScript RelayPool, which owns the WebSockets and the
 * timer. The pool keeps references to its subscriptions' filters and cursors, to the events
 * it publishes, and to the text of the last message received (an EVENT update points into
 * it); this file owns that memory: a block per subscription (its parsed filters and, when
 * asked, a cursor), a block per publish (its parsed event) until SC_POOL_U_PUBLISH_DONE, and
 * one receive buffer and arena reused for every message. */
#include "exports.h"

#include <stdlib.h>
#include <string.h>

typedef struct scw_psub {
    uint32_t handle; /* 0: free */
    void *filters;   /* the parsed filters (scw_filters_parse) */
    sc_pool_cursor cursor;
    void *cursor_mem; /* NULL: no cursor */
} scw_psub;

typedef struct scw_ppub {
    uint32_t handle; /* 0: free */
    void *event;     /* sc_event and its arena */
} scw_ppub;

struct scw_pool {
    sc_pool p;
    void *mem;
    scw_psub *subs;
    size_t n_subs;
    scw_ppub *pubs;
    size_t n_pubs;
    size_t max_relays, max_url;
    char *text; /* the last message received, kept until the next one */
    size_t text_cap;
    uint8_t *arena;
    size_t arena_cap;
};

SCW_EXPORT void scw_pool_free(scw_pool *g)
{
    size_t i;

    if (g == NULL) {
        return;
    }
    sc_pool_clear(&g->p);
    for (i = 0; g->subs != NULL && i <= g->n_subs; i++) {
        free(g->subs[i].filters);
        sc_pool_cursor_clear(&g->subs[i].cursor);
        free(g->subs[i].cursor_mem);
    }
    for (i = 0; g->pubs != NULL && i < g->n_pubs; i++) {
        free(g->pubs[i].event);
    }
    free(g->subs);
    free(g->pubs);
    free(g->text);
    free(g->arena);
    free(g->mem);
    free(g);
}

/* A pool with the options opt[0..11] (u32 each, 0: the default): max_relays, max_subs,
 * max_publishes, max_url, seen_per_sub, ok_timeout_ms, max_attempts, retry_min_ms,
 * retry_max_ms, auth, session backoff_min_ms, backoff_max_ms. Handle to res[0..4). */
SCW_EXPORT int scw_pool_new(scw *w, const uint32_t *opt)
{
    scw_pool *g = calloc(1, sizeof *g);
    sc_pool_opts o;
    size_t need;
    sc_status st = SC_ERR_NOMEM;
    uint32_t h;

    memset(&o, 0, sizeof o);
    o.max_relays = opt[0];
    o.max_subs = opt[1];
    o.max_publishes = opt[2];
    o.max_url = opt[3];
    o.seen_per_sub = opt[4];
    o.ok_timeout_ms = opt[5];
    o.max_attempts = opt[6];
    o.retry_min_ms = opt[7];
    o.retry_max_ms = opt[8];
    o.auth = opt[9];
    o.session.backoff_min_ms = opt[10];
    o.session.backoff_max_ms = opt[11];
    need = sc_pool_mem_max(&o);
    if (need == 0) {
        free(g);
        return SC_ERR_FLAGS;
    }
    if (g != NULL && (g->mem = malloc(need)) != NULL) {
        g->n_subs = o.max_subs != 0 ? o.max_subs : 8;
        g->n_pubs = o.max_publishes != 0 ? o.max_publishes : 64;
        g->max_relays = o.max_relays != 0 ? o.max_relays : 16;
        g->max_url = o.max_url != 0 ? o.max_url : 256;
        /* one slot more than the pool's subscriptions: a replacement's new filters */
        g->subs = calloc(g->n_subs + 1, sizeof(scw_psub));
        g->pubs = calloc(g->n_pubs, sizeof(scw_ppub));
        if (g->subs != NULL && g->pubs != NULL) {
            st = sc_pool_init(&g->p, g->mem, need, &o);
        }
    }
    if (st != SC_OK) {
        scw_pool_free(g);
        return st;
    }
    h = (uint32_t)(uintptr_t)g;
    memcpy(w->res, &h, 4);
    return SC_OK;
}

/* Adds (or finds) the relay at url[0..len): its handle to res[0..4). */
SCW_EXPORT int scw_pool_relay_add(scw *w, scw_pool *g, const char *url, uint32_t len)
{
    sc_str u = {url, len};
    uint32_t r = 0;
    sc_status st = sc_pool_relay_add(&g->p, &r, u);

    memcpy(w->res, &r, 4);
    return st;
}

SCW_EXPORT int scw_pool_relay_remove(scw_pool *g, uint32_t relay)
{
    return sc_pool_relay_remove(&g->p, relay);
}

SCW_EXPORT int scw_pool_connected(scw_pool *g, uint32_t relay, double now_ms)
{
    int64_t t;

    return scw_time(now_ms, &t) ? sc_pool_connected(&g->p, relay, t) : SC_ERR_ARG;
}

SCW_EXPORT int scw_pool_disconnected(scw_pool *g, uint32_t relay, double now_ms)
{
    int64_t t;

    return scw_time(now_ms, &t) ? sc_pool_disconnected(&g->p, relay, t) : SC_ERR_ARG;
}

/* The next message to send to relay: the result (empty: nothing). */
SCW_EXPORT int scw_pool_next(scw *w, scw_pool *g, uint32_t relay)
{
    size_t n = sc_pool_next_len(&g->p, relay), got = 0;
    uint8_t *out;
    sc_status st;

    if (n == 0) {
        return scw_result(w, 0);
    }
    if ((out = scw_output(w, n)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_pool_next(&g->p, relay, (char *)out, n, &got);
    return st == SC_OK ? scw_result(w, got) : st;
}

/* Grows a kept buffer to n bytes (wiping and freeing the old one). 1, or 0. */
static int grow(void **buf, size_t *cap, size_t n)
{
    void *p;

    if (n <= *cap) {
        return 1;
    }
    if ((p = malloc(n)) == NULL) {
        return 0;
    }
    if (*buf != NULL) {
        sc_mem_wipe(*buf, *cap);
        free(*buf);
    }
    *buf = p;
    *cap = n;
    return 1;
}

/* One text frame from relay: copied into the pool's receive buffer (an EVENT update points
 * into it until the next frame), then taken in; sc_pool_poll reports what it meant. */
SCW_EXPORT int scw_pool_receive(scw *w, scw_pool *g, uint32_t relay, const char *text, uint32_t len,
                                double now_ms)
{
    size_t an = sc_pool_receive_arena_max(len);
    int64_t t;

    (void)w;
    if (len > sc_pool_message_max(&g->p)) {
        return SC_ERR_TOO_LARGE;
    }
    if (!scw_time(now_ms, &t)) {
        return SC_ERR_ARG;
    }
    if (an == 0 || !grow((void **)&g->text, &g->text_cap, len + 1) ||
        !grow((void **)&g->arena, &g->arena_cap, an)) {
        return SC_ERR_NOMEM;
    }
    memcpy(g->text, text, len);
    return sc_pool_receive(&g->p, w->ctx, relay, g->text, len, t, g->arena, g->arena_cap);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* Frees what a settled publish held. */
static void pub_done(scw_pool *g, uint32_t pub)
{
    size_t i;

    for (i = 0; i < g->n_pubs; i++) {
        if (g->pubs[i].handle == pub) {
            free(g->pubs[i].event);
            g->pubs[i].event = NULL;
            g->pubs[i].handle = 0;
        }
    }
}

/* The next update. res: u32 kind, relay, sub, pub, result, attempts, prefix, status,
 * count at 0..36, event id at 36, then u32 lengths of url, sub id, text and event JSON at
 * 68..84; the result is those four strings one after the other. */
SCW_EXPORT int scw_pool_poll(scw *w, scw_pool *g, double now_ms)
{
    sc_pool_update u;
    sc_str s[4];
    size_t total = 0, i;
    uint8_t *out;
    int64_t t;
    sc_status st;

    if (!scw_time(now_ms, &t)) {
        return SC_ERR_ARG;
    }
    if ((st = sc_pool_poll(&g->p, w->ctx, t, &u)) != SC_OK) {
        return st;
    }
    put_u32(w->res, (uint32_t)u.kind);
    put_u32(w->res + 4, u.relay);
    put_u32(w->res + 8, u.sub);
    put_u32(w->res + 12, u.pub);
    put_u32(w->res + 16, (uint32_t)u.result);
    put_u32(w->res + 20, u.attempts);
    put_u32(w->res + 24, (uint32_t)u.prefix);
    put_u32(w->res + 28, (uint32_t)u.status);
    put_u32(w->res + 32, u.count);
    memcpy(w->res + 36, u.event_id, 32);
    s[0] = u.url;
    s[1] = u.sub_id;
    s[2] = u.text;
    s[3] = u.kind == SC_POOL_U_EVENT ? u.event_json : (sc_str){NULL, 0};
    for (i = 0; i < 4; i++) {
        put_u32(w->res + 68 + 4 * i, (uint32_t)s[i].len);
        total += s[i].len;
    }
    if ((out = scw_output(w, total)) == NULL) {
        return SC_ERR_NOMEM;
    }
    for (i = 0, total = 0; i < 4; i++) {
        if (s[i].len > 0) {
            memcpy(out + total, s[i].ptr, s[i].len);
        }
        total += s[i].len;
    }
    if (u.kind == SC_POOL_U_PUBLISH_DONE) {
        pub_done(g, u.pub);
    }
    return scw_result(w, total);
}

/* When the pool next needs a poll (ms; -1: nothing scheduled). */
SCW_EXPORT double scw_pool_wakeup(const scw_pool *g)
{
    int64_t t = sc_pool_wakeup(&g->p);

    return t == INT64_MAX ? -1.0 : (double)t;
}

SCW_EXPORT int scw_pool_auth_identity(scw_pool *g, const sc_identity *id)
{
    return sc_pool_auth_identity(&g->p, id);
}

/* Publishes a signed event (its JSON, parsed and verified here) to relays[0..n): the
 * publish's handle to res[0..4). The event's memory lives until SC_POOL_U_PUBLISH_DONE. */
SCW_EXPORT int scw_pool_publish(scw *w, scw_pool *g, const char *json, uint32_t len,
                                const uint32_t *relays, uint32_t n)
{
    size_t need = sc_event_parse_arena_max(len), used = 0, i;
    scw_ppub *slot = NULL;
    sc_event *ev;
    uint8_t *mem;
    uint32_t pub = 0;
    sc_status st;

    for (i = 0; slot == NULL && i < g->n_pubs; i++) {
        slot = g->pubs[i].handle == 0 && g->pubs[i].event == NULL ? &g->pubs[i] : NULL;
    }
    if (len > SCW_MAX_INPUT || need == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if (slot == NULL) {
        return SC_ERR_FULL;
    }
    if ((mem = malloc(sizeof(sc_event) + need)) == NULL) {
        return SC_ERR_NOMEM;
    }
    ev = (sc_event *)(void *)mem;
    st = sc_event_parse(ev, mem + sizeof(sc_event), need, &used, json, len, NULL);
    if (st == SC_OK) {
        st = sc_event_verify(w->ctx, ev);
    }
    if (st == SC_OK) {
        st = sc_pool_publish(&g->p, &pub, ev, relays, n, NULL);
    }
    if (st != SC_OK) {
        free(mem);
        return st;
    }
    slot->handle = pub;
    slot->event = mem;
    memcpy(w->res, &pub, 4);
    return SC_OK;
}

static scw_psub *find_sub(scw_pool *g, uint32_t sub)
{
    size_t i;

    for (i = 0; i <= g->n_subs; i++) {
        if (g->subs[i].handle == sub && sub != 0) {
            return &g->subs[i];
        }
    }
    return NULL;
}

static void sub_release(scw_psub *s)
{
    free(s->filters);
    sc_pool_cursor_clear(&s->cursor);
    free(s->cursor_mem);
    memset(s, 0, sizeof *s);
}

/* A cursor for s (max_ids ids), restored from saved[0..slen) when slen > 0. */
static sc_status cursor_make(scw_pool *g, scw_psub *s, uint32_t max_ids, const uint8_t *saved,
                             uint32_t slen)
{
    size_t n = sc_pool_cursor_mem_max(max_ids, g->max_relays, g->max_url);
    sc_status st;

    if (n == 0 || (s->cursor_mem = malloc(n)) == NULL) {
        return n == 0 ? SC_ERR_ARG : SC_ERR_NOMEM;
    }
    st = sc_pool_cursor_init(&s->cursor, s->cursor_mem, n, max_ids, g->max_relays, g->max_url);
    if (st == SC_OK && slen > 0) {
        st = sc_pool_cursor_load(&s->cursor, saved, slen);
    }
    return st;
}

/* Opens (or replaces) the subscription id[0..len) with the filters blob (scw_filters_parse)
 * on relays[0..n). opt: resume_slack (seconds), eose_timeout_ms, flags, cursor ids (0: no
 * cursor); saved[0..slen): a cursor's bytes to resume from. Handle to res[0..4). The new
 * filters and cursor go into a free slot first (the pool keeps their addresses); a replaced
 * subscription's old slot is released after. */
SCW_EXPORT int scw_pool_subscribe(scw *w, scw_pool *g, const char *id, uint32_t len,
                                  const uint8_t *blob, uint32_t blen, const uint32_t *relays,
                                  uint32_t n, const uint32_t *opt, const uint8_t *saved,
                                  uint32_t slen)
{
    scw_psub *s = NULL, *old;
    sc_pool_sub_opts o;
    sc_str sid = {id, len};
    size_t nf = 0, i;
    uint32_t sub = 0;
    sc_status st;

    for (i = 0; s == NULL && i <= g->n_subs; i++) {
        s = g->subs[i].handle == 0 && g->subs[i].filters == NULL ? &g->subs[i] : NULL;
    }
    if (s == NULL) {
        return SC_ERR_FULL;
    }
    memset(&o, 0, sizeof o);
    o.resume_slack = (int64_t)opt[0];
    o.eose_timeout_ms = opt[1];
    o.flags = opt[2];
    st = scw_filters_parse(&s->filters, &nf, blob, blen);
    if (st == SC_OK && opt[3] != 0) {
        st = cursor_make(g, s, opt[3], saved, slen);
        o.cursor = &s->cursor;
    }
    if (st == SC_OK) {
        st = sc_pool_subscribe(&g->p, &sub, sid, (const sc_relay_filter *)s->filters, nf, relays, n,
                               &o);
    }
    if (st != SC_OK) {
        sub_release(s);
        return st;
    }
    if ((old = find_sub(g, sub)) != NULL) { /* replaced: the old filters are unreferenced */
        sub_release(old);
    }
    s->handle = sub;
    memcpy(w->res, &sub, 4);
    return SC_OK;
}

/* Ends a subscription (where the pool still has it open) and frees its memory. */
SCW_EXPORT int scw_pool_unsubscribe(scw_pool *g, uint32_t sub)
{
    scw_psub *s = find_sub(g, sub);
    sc_status st = sc_pool_unsubscribe(&g->p, sub);

    if (s != NULL) {
        sub_release(s);
    }
    return st == SC_ERR_NOT_FOUND && s != NULL ? SC_OK : st;
}

/* A subscription's cursor as bytes: the result. */
SCW_EXPORT int scw_pool_cursor_save(scw *w, scw_pool *g, uint32_t sub)
{
    scw_psub *s = find_sub(g, sub);
    size_t n, got = 0;
    uint8_t *out;
    sc_status st;

    if (s == NULL || s->cursor_mem == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    n = sc_pool_cursor_save_len(&s->cursor);
    if (n == 0 || (out = scw_output(w, n)) == NULL) {
        return n == 0 ? SC_ERR_STATE : SC_ERR_NOMEM;
    }
    st = sc_pool_cursor_save(&s->cursor, out, n, &got);
    return st == SC_OK ? scw_result(w, got) : st;
}
