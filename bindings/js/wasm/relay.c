/* The per-relay session (relay.h) for the TypeScript RelaySession, which owns the WebSocket.
 * The session keeps references to its subscriptions' filters and to the events it publishes
 * until they are settled; this file owns that memory: one block per subscription (its
 * parsed filters) and one per pending publish (its parsed event), freed when the
 * subscription ends or the relay answers the publish. */
#include "exports.h"

#include <stdlib.h>
#include <string.h>

typedef struct scw_sub {
    char id[SC_RELAY_SUB_ID_MAX];
    size_t id_len;
    void *mem; /* the filters and their arena; NULL: the slot is free */
} scw_sub;

typedef struct scw_pub {
    uint8_t id[32];
    void *mem; /* the sc_event and its arena; NULL: free */
} scw_pub;

struct scw_relay {
    sc_relay_session s;
    void *mem;
    scw_sub *subs;
    size_t max_subs;
    scw_pub *pubs;
    size_t max_pending;
};

SCW_EXPORT void scw_relay_free(scw_relay *r)
{
    size_t i;

    if (r == NULL) {
        return;
    }
    sc_relay_session_clear(&r->s);
    for (i = 0; r->subs != NULL && i < r->max_subs; i++) {
        free(r->subs[i].mem);
    }
    for (i = 0; r->pubs != NULL && i < r->max_pending; i++) {
        free(r->pubs[i].mem);
    }
    free(r->subs);
    free(r->pubs);
    free(r->mem);
    free(r);
}

/* A session for the relay at url[0..len): handle to res[0..4). */
SCW_EXPORT int scw_relay_new(scw *w, const char *url, uint32_t len, uint32_t max_subs,
                             uint32_t max_pending, double resume_slack)
{
    scw_relay *r = calloc(1, sizeof *r);
    sc_relay_session_opts o;
    sc_str u = {url, len};
    size_t need;
    sc_status st = SC_ERR_NOMEM;
    uint32_t h;

    memset(&o, 0, sizeof o);
    if (!scw_time(resume_slack, &o.resume_slack)) {
        free(r);
        return SC_ERR_ARG;
    }
    need = sc_relay_session_mem_max(max_subs, max_pending, len, &o);
    if (r != NULL && need != 0 && (r->mem = malloc(need)) != NULL &&
        (r->subs = calloc(max_subs + 1, sizeof(scw_sub))) != NULL &&
        (r->pubs = calloc(max_pending + 1, sizeof(scw_pub))) != NULL) {
        r->max_subs = max_subs;
        r->max_pending = max_pending;
        st = sc_relay_session_init(&r->s, r->mem, need, max_subs, max_pending, u, &o);
    }
    if (st != SC_OK) {
        scw_relay_free(r);
        return st;
    }
    h = (uint32_t)(uintptr_t)r;
    memcpy(w->res, &h, 4);
    return SC_OK;
}

SCW_EXPORT int scw_relay_connected(scw_relay *r, double now_ms)
{
    int64_t t;

    return scw_time(now_ms, &t) ? sc_relay_session_connected(&r->s, t) : SC_ERR_ARG;
}

/* The socket closed: res[0..8) = when to reconnect (ms, a double). */
SCW_EXPORT int scw_relay_disconnected(scw *w, scw_relay *r, double now_ms)
{
    int64_t t, at = 0;
    sc_status st = scw_time(now_ms, &t) ? sc_relay_session_disconnected(&r->s, t, &at) : SC_ERR_ARG;
    double d = (double)at;

    memcpy(w->res, &d, 8);
    return st;
}

static scw_sub *find_sub(scw_relay *r, const char *id, size_t len)
{
    size_t i;

    for (i = 0; i < r->max_subs; i++) {
        if (r->subs[i].mem != NULL && r->subs[i].id_len == len &&
            memcmp(r->subs[i].id, id, len) == 0) {
            return &r->subs[i];
        }
    }
    return NULL;
}

sc_status scw_filters_parse(void **mem, size_t *n_out, const uint8_t *b, size_t blen)
{
    uint32_t n = 0, l, i;
    size_t need, off = 4, used;
    uint8_t *p;
    sc_relay_filter *f;
    sc_status st = SC_OK;

    if (blen < 4 || (memcpy(&n, b, 4), n == 0 || n > 64)) {
        return n == 0 ? SC_ERR_EMPTY : SC_ERR_FILTER;
    }
    need = (size_t)n * sizeof(sc_relay_filter);
    for (i = 0; i < n; i++) {
        if (off + 4 > blen || (memcpy(&l, b + off, 4), l > blen - off - 4) ||
            !scw_add(&need, need, sc_relay_filter_parse_arena_max(l))) {
            return SC_ERR_ARG;
        }
        off += 4 + l;
    }
    if ((p = malloc(need)) == NULL) {
        return SC_ERR_NOMEM;
    }
    f = (sc_relay_filter *)(void *)p;
    used = (size_t)n * sizeof(sc_relay_filter);
    for (i = 0, off = 4; i < n && st == SC_OK; i++) {
        size_t got = 0;
        memcpy(&l, b + off, 4);
        st =
            sc_relay_filter_parse(&f[i], p + used, need - used, &got, (const char *)b + off + 4, l);
        used += got;
        off += 4 + l;
    }
    if (st != SC_OK) {
        free(p);
        return st;
    }
    *mem = p;
    *n_out = n;
    return SC_OK;
}

/* Opens (or replaces) the subscription id[0..len) with the filters blob. */
SCW_EXPORT int scw_relay_subscribe(scw_relay *r, const char *id, uint32_t len, const uint8_t *b,
                                   uint32_t blen)
{
    scw_sub *s = len <= SC_RELAY_SUB_ID_MAX ? find_sub(r, id, len) : NULL;
    sc_str sid = {id, len};
    void *mem = NULL;
    size_t n = 0, i;
    sc_status st;

    if (len == 0 || len > SC_RELAY_SUB_ID_MAX) {
        return len == 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE;
    }
    for (i = 0; s == NULL && i < r->max_subs; i++) {
        s = r->subs[i].mem == NULL ? &r->subs[i] : NULL;
    }
    if (s == NULL) {
        return SC_ERR_FULL;
    }
    if ((st = scw_filters_parse(&mem, &n, b, blen)) != SC_OK) {
        return st;
    }
    st = sc_relay_session_subscribe(&r->s, sid, (const sc_relay_filter *)mem, n);
    if (st != SC_OK) {
        free(mem);
        return st;
    }
    free(s->mem); /* a replaced subscription's old filters: no longer referenced */
    s->mem = mem;
    memcpy(s->id, id, len);
    s->id_len = len;
    return SC_OK;
}

SCW_EXPORT int scw_relay_unsubscribe(scw_relay *r, const char *id, uint32_t len)
{
    sc_str sid = {id, len};
    sc_status st = sc_relay_session_unsubscribe(&r->s, sid);
    scw_sub *s = len <= SC_RELAY_SUB_ID_MAX ? find_sub(r, id, len) : NULL;

    if (st == SC_OK && s != NULL) {
        free(s->mem);
        s->mem = NULL;
    }
    return st;
}

/* Queues a signed event (its JSON, parsed and verified here) for publishing: the event's
 * memory lives until the relay answers. */
SCW_EXPORT int scw_relay_publish(scw *w, scw_relay *r, const char *json, uint32_t len)
{
    size_t need = sc_event_parse_arena_max(len), used = 0, i;
    scw_pub *p = NULL;
    sc_event *ev;
    uint8_t *mem;
    sc_status st;

    (void)w;
    for (i = 0; p == NULL && i < r->max_pending; i++) {
        p = r->pubs[i].mem == NULL ? &r->pubs[i] : NULL;
    }
    if (len > SCW_MAX_INPUT || need == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if (p == NULL) {
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
        st = sc_relay_session_publish(&r->s, ev);
    }
    if (st != SC_OK) {
        free(mem);
        return st;
    }
    memcpy(p->id, ev->id, 32);
    p->mem = mem;
    return SC_OK;
}

SCW_EXPORT uint32_t scw_relay_pending(scw_relay *r)
{
    return (uint32_t)sc_relay_session_pending(&r->s);
}

/* The next message to send: the result (empty: nothing to send). */
SCW_EXPORT int scw_relay_next(scw *w, scw_relay *r)
{
    size_t n = sc_relay_session_next_len(&r->s), got = 0;
    uint8_t *out;
    sc_status st;

    if (n == 0) {
        return scw_result(w, 0);
    }
    if ((out = scw_output(w, n)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_relay_session_next(&r->s, (char *)out, n, &got);
    return st == SC_OK ? scw_result(w, got) : st;
}

/* Frees a settled publish. */
static void settle(scw_relay *r, const uint8_t id[32])
{
    size_t i;

    for (i = 0; i < r->max_pending; i++) {
        if (r->pubs[i].mem != NULL && memcmp(r->pubs[i].id, id, 32) == 0) {
            free(r->pubs[i].mem);
            r->pubs[i].mem = NULL;
        }
    }
}

/* Writes the update: res = u32 kind, u32 sub id length, sub id (64 bytes) at 8, event id at
 * 72, u32 relay prefix at 104, u32 message type at 108; the result is the event's JSON
 * (EVENT), the reason (CLOSED, REJECTED, AUTH_REFUSED), the message (NOTICE) or the raw
 * Negentropy message (NEG-MSG). */
static sc_status update_out(scw *w, scw_relay *r, const sc_relay_update *u, const sc_relay_msg *m)
{
    uint32_t v = (uint32_t)u->kind, l = (uint32_t)u->sub_id.len;
    const void *text = NULL;
    size_t tl = 0;
    uint8_t *out;

    memcpy(w->res, &v, 4);
    memcpy(w->res + 4, &l, 4);
    if (l > 0 && l <= 64) {
        memcpy(w->res + 8, u->sub_id.ptr, l);
    }
    memcpy(w->res + 72, u->event_id, 32);
    v = (uint32_t)m->prefix;
    memcpy(w->res + 104, &v, 4);
    v = (uint32_t)m->type;
    memcpy(w->res + 108, &v, 4);
    if (u->kind == SC_RELAY_U_ACCEPTED || u->kind == SC_RELAY_U_REJECTED) {
        settle(r, u->event_id);
    }
    if (u->kind == SC_RELAY_U_CLOSED) {
        scw_sub *s = find_sub(r, u->sub_id.ptr, u->sub_id.len);
        if (s != NULL) {
            free(s->mem);
            s->mem = NULL;
        }
    }
    if (u->kind == SC_RELAY_U_EVENT) {
        return scw_event_out(w, &m->event, 0, NULL);
    }
    if (m->type == SC_RELAY_NEG_MSG) {
        text = m->neg;
        tl = m->neg_len;
    } else if (u->kind == SC_RELAY_U_NOTICE || m->type == SC_RELAY_NEG_ERR) {
        text = m->message.ptr;
        tl = m->message.len;
    } else {
        text = m->reason.ptr;
        tl = m->reason.len;
    }
    if ((out = scw_output(w, tl)) == NULL) {
        return SC_ERR_NOMEM;
    }
    if (tl > 0) {
        memcpy(out, text, tl);
    }
    return scw_result(w, tl);
}

/* One text frame from the relay: parsed, verified and applied. */
SCW_EXPORT int scw_relay_handle(scw *w, scw_relay *r, const char *json, uint32_t len)
{
    size_t need = sc_relay_parse_arena_max(len), used = 0;
    sc_relay_msg m;
    sc_relay_update u;
    uint8_t *arena;
    sc_status st;

    if (len > SCW_MAX_INPUT || need == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if ((arena = scw_scratch(w, need)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_relay_parse(w->ctx, &m, arena, need, &used, json, len, NULL);
    if (st == SC_OK) {
        st = sc_relay_session_handle(&r->s, &u, &m);
    }
    return st == SC_OK ? update_out(w, r, &u, &m) : st;
}

/* Answers the AUTH challenge as id at now (unix seconds): the result is the AUTH message. */
SCW_EXPORT int scw_relay_auth(scw *w, scw_relay *r, const sc_identity *id, double now)
{
    size_t got = 0;
    int64_t t;
    uint8_t *out;
    sc_status st;

    if (!scw_time(now, &t)) {
        return SC_ERR_ARG;
    }
    st = sc_relay_session_auth(&r->s, w->ctx, NULL, 0, &got, id, t);
    if (st != SC_ERR_BUFFER_TOO_SMALL) {
        return st == SC_OK ? SC_ERR_INTERNAL : st;
    }
    if ((out = scw_output(w, got)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_relay_session_auth(&r->s, w->ctx, (char *)out, got, &got, id, t);
    return st == SC_OK ? scw_result(w, got) : st;
}
