/* The session's outbox: what goes out next on the connection (CLOSEs, then REQs, then
 * EVENTs; nothing held for the AUTH), written for sc_relay_session_next, and the reconnect
 * backoff (when to connect again after a connection ends). */
#include <softchat/relay.h>

#include <string.h>

#include "relay/session_internal.h"

int64_t sc_sess_retry_at(sc_sess *t, int64_t now_ms)
{
    uint64_t delay;

    /* the difference in unsigned arithmetic: exact when now_ms >= connected_at, any clocks */
    if (t->connected && now_ms >= t->connected_at &&
        (uint64_t)now_ms - (uint64_t)t->connected_at >= (uint64_t)t->backoff_max) {
        t->attempts = 0; /* it held long enough: start over */
    }
    delay = t->attempts >= 32 ? t->backoff_max : (uint64_t)t->backoff_min << t->attempts;
    if (delay > t->backoff_max) {
        delay = t->backoff_max;
    }
    if (t->attempts < 64) {
        t->attempts++;
    }
    return now_ms > INT64_MAX - (int64_t)delay ? INT64_MAX : now_ms + (int64_t)delay;
}

/* The next queued item: a sub slot (REQ or CLOSE) or a pending publish. */
typedef struct item {
    sc_sess_sub *sub;
    sc_sess_pend *pend;
} item;

static int next_item(sc_sess *t, item *it)
{
    size_t i;

    it->sub = NULL;
    it->pend = NULL;
    if (!t->connected) {
        return 0;
    }
    for (i = 0; i < t->max_subs; i++) {
        if (t->subs[i].state == SC_SESS_SUB_CLOSING && t->subs[i].queued) {
            it->sub = &t->subs[i];
            return 1;
        }
    }
    for (i = 0; i < t->max_subs; i++) {
        if (t->subs[i].state == SC_SESS_SUB_OPEN && t->subs[i].queued && !t->subs[i].held) {
            it->sub = &t->subs[i];
            return 1;
        }
    }
    for (i = 0; i < t->max_pending; i++) {
        if (t->pend[i].used && t->pend[i].queued && !t->pend[i].held) {
            it->pend = &t->pend[i];
            return 1;
        }
    }
    return 0;
}

static sc_status emit_item(const item *it, sc_jw *w)
{
    return it->sub != NULL ? sc_sess_sub_write(it->sub, w) : sc_sess_pend_write(it->pend, w);
}

sc_sess_next_kind sc_sess_next_peek(sc_sess *t, uint8_t id[SC_EVENT_ID_BYTES], sc_str *sub_id)
{
    item it;

    if (!next_item(t, &it)) {
        return SC_SESS_NEXT_NONE;
    }
    if (it.pend != NULL) {
        if (id != NULL) {
            memcpy(id, it.pend->id, SC_EVENT_ID_BYTES);
        }
        return SC_SESS_NEXT_EVENT;
    }
    if (sub_id != NULL) {
        sub_id->ptr = it.sub->id;
        sub_id->len = it.sub->id_len;
    }
    return it.sub->state == SC_SESS_SUB_CLOSING ? SC_SESS_NEXT_CLOSE : SC_SESS_NEXT_REQ;
}

size_t sc_relay_session_next_len(const sc_relay_session *s)
{
    sc_sess *t = sc_sess_of(s);
    item it;
    sc_jw w;

    if (t == NULL || !next_item(t, &it)) {
        return 0;
    }
    sc_jw_init_buf(&w, NULL, 0);
    return emit_item(&it, &w) == SC_OK ? w.len : 0;
}

/* The item was sent: clear its queue mark (a CLOSE frees its slot). */
static void mark_sent(const item *it)
{
    if (it->pend != NULL) {
        it->pend->queued = 0;
    } else if (it->sub->state == SC_SESS_SUB_CLOSING) {
        memset(it->sub, 0, sizeof *it->sub);
    } else {
        it->sub->queued = 0;
    }
}

/* The item cannot be written (its filters or event changed since): forget it. */
static void drop_item(sc_sess *t, const item *it)
{
    if (it->pend != NULL) {
        sc_sess_pend_drop(t, it->pend);
    } else {
        memset(it->sub, 0, sizeof *it->sub);
    }
}

sc_status sc_relay_session_next(sc_relay_session *s, char *out, size_t out_cap, size_t *out_len)
{
    sc_sess *t;
    item it;
    sc_jw w;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (s == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL) {
        return SC_ERR_STATE;
    }
    if (!next_item(t, &it)) {
        return SC_OK;
    }
    sc_jw_init_buf(&w, NULL, 0);
    st = emit_item(&it, &w);
    if (st != SC_OK) {
        drop_item(t, &it);
        return st;
    }
    if (w.len > out_cap) {
        *out_len = w.len;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    sc_jw_init_buf(&w, out, out_cap);
    st = emit_item(&it, &w);
    if (st != SC_OK) {
        return st;
    }
    *out_len = w.len;
    mark_sent(&it);
    return SC_OK;
}
