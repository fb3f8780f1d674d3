/* The session's subscriptions: opening and closing them, their REQ and its resume point (the
 * since a resent REQ starts from), and what EVENT, EOSE and CLOSED do to them. */
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "relay/session_internal.h"

static sc_sess_sub *find_sub(const sc_sess *t, sc_str id, int state)
{
    size_t i;

    for (i = 0; i < t->max_subs; i++) {
        sc_sess_sub *b = &t->subs[i];

        if (b->state == state && b->id_len == id.len && memcmp(b->id, id.ptr, id.len) == 0) {
            return b;
        }
    }
    return NULL;
}

sc_sess_sub *sc_sess_sub_find(sc_sess *t, sc_str id)
{
    return find_sub(t, id, SC_SESS_SUB_OPEN);
}

int sc_sess_sub_room(const sc_sess *t, sc_str id)
{
    size_t i;

    if (find_sub(t, id, SC_SESS_SUB_OPEN) != NULL || find_sub(t, id, SC_SESS_SUB_CLOSING) != NULL) {
        return 1;
    }
    for (i = 0; i < t->max_subs; i++) {
        if (t->subs[i].state == SC_SESS_SUB_FREE) {
            return 1;
        }
    }
    return 0;
}

void sc_sess_sub_resume(sc_sess_sub *b, int64_t newest, int64_t slack)
{
    b->newest = newest;
    b->slack = slack;
    b->resumable = newest >= 0;
}

sc_status sc_relay_session_subscribe(sc_relay_session *s, sc_str sub_id,
                                     const sc_relay_filter *filters, size_t n_filters)
{
    sc_sess *t;
    sc_sess_sub *b;
    size_t i;
    sc_status st;

    if (s == NULL || filters == NULL || (sub_id.ptr == NULL && sub_id.len > 0)) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL) {
        return SC_ERR_STATE;
    }
    if ((st = sc_relay_sub_id_check(sub_id)) != SC_OK) {
        return st;
    }
    if (n_filters == 0) {
        return SC_ERR_EMPTY;
    }
    for (i = 0; i < n_filters; i++) {
        if ((st = sc_relay_filter_check(&filters[i])) != SC_OK) {
            return st;
        }
    }
    b = find_sub(t, sub_id, SC_SESS_SUB_OPEN);
    if (b == NULL) {
        b = find_sub(t, sub_id, SC_SESS_SUB_CLOSING);
    }
    for (i = 0; b == NULL && i < t->max_subs; i++) {
        if (t->subs[i].state == SC_SESS_SUB_FREE) {
            b = &t->subs[i];
        }
    }
    if (b == NULL) {
        return SC_ERR_FULL;
    }
    memset(b, 0, sizeof *b);
    memcpy(b->id, sub_id.ptr, sub_id.len);
    b->id_len = sub_id.len;
    b->filters = filters;
    b->n_filters = n_filters;
    b->newest = -1;
    b->stored = -1;
    b->slack = t->resume_slack;
    b->state = SC_SESS_SUB_OPEN;
    b->queued = t->connected;
    return SC_OK;
}

sc_status sc_relay_session_unsubscribe(sc_relay_session *s, sc_str sub_id)
{
    sc_sess *t;
    sc_sess_sub *b;

    if (s == NULL || (sub_id.ptr == NULL && sub_id.len > 0)) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL) {
        return SC_ERR_STATE;
    }
    b = sub_id.len > 0 && sub_id.len <= SC_RELAY_SUB_ID_MAX ? find_sub(t, sub_id, SC_SESS_SUB_OPEN)
                                                            : NULL;
    if (b == NULL) {
        return SC_ERR_SUBSCRIPTION;
    }
    if (t->connected) {
        b->state = SC_SESS_SUB_CLOSING;
        b->queued = 1;
        b->filters = NULL;
        b->n_filters = 0;
    } else {
        memset(b, 0, sizeof *b);
    }
    return SC_OK;
}

void sc_sess_subs_reset(sc_sess *t, int queue)
{
    size_t i;

    for (i = 0; i < t->max_subs; i++) {
        sc_sess_sub *b = &t->subs[i];

        if (b->state == SC_SESS_SUB_CLOSING) {
            memset(b, 0, sizeof *b); /* a new connection has nothing to close */
        } else if (b->state == SC_SESS_SUB_OPEN) {
            b->queued = (uint8_t)queue;
            b->held = 0;
            b->eose = 0;
        }
    }
}

void sc_sess_subs_cap(sc_sess *t, int64_t now_s)
{
    size_t i;

    for (i = 0; i < t->max_subs; i++) {
        sc_sess_sub *b = &t->subs[i];

        if (b->newest > now_s) {
            b->newest = now_s;
        }
        if (b->stored > now_s) {
            b->stored = now_s;
        }
    }
}

void sc_sess_subs_release(sc_sess *t)
{
    size_t i;

    for (i = 0; i < t->max_subs; i++) {
        if (t->subs[i].state == SC_SESS_SUB_OPEN && t->subs[i].held) {
            t->subs[i].held = 0;
            t->subs[i].queued = 1;
        }
    }
}

/* The since floor of a resent REQ: the newest created_at seen, less the slack; -1 for none
 * (a subscription that never saw its EOSE asks for everything again). */
static int64_t since_floor(const sc_sess_sub *b)
{
    if (!b->resumable || b->newest < 0) {
        return -1;
    }
    return b->newest > b->slack ? b->newest - b->slack : 0;
}

sc_status sc_sess_sub_write(const sc_sess_sub *b, sc_jw *w)
{
    sc_relay_client_msg m;

    memset(&m, 0, sizeof m);
    m.sub_id.ptr = b->id;
    m.sub_id.len = b->id_len;
    if (b->state == SC_SESS_SUB_CLOSING) {
        m.type = SC_RELAY_CLIENT_CLOSE;
        return sc_relay_msg_emit(w, &m, -1);
    }
    m.type = SC_RELAY_CLIENT_REQ;
    m.filters = b->filters;
    m.n_filters = b->n_filters;
    return sc_relay_msg_emit(w, &m, since_floor(b));
}

/* An event delivered: it moves the resume point (see sc_sess_sub's newest and stored). */
static void on_event(sc_sess_sub *b, int64_t created_at)
{
    if (b->eose && created_at > b->newest) {
        b->newest = created_at;
    } else if (!b->eose && created_at > b->stored) {
        b->stored = created_at;
    }
}

/* EOSE: the stored events all came, so the newest of them counts. */
static void on_eose(sc_sess_sub *b)
{
    if (!b->eose && b->stored > b->newest) {
        b->newest = b->stored;
    }
    b->stored = -1;
    b->eose = 1;
    b->resumable = 1;
}

/* CLOSED: held for the AUTH when it asks for one, else the subscription ends. */
static void on_closed(sc_sess *t, sc_sess_sub *b, sc_relay_update *u, const sc_relay_msg *m)
{
    if (sc_sess_auth_holds(t, m->prefix)) {
        b->held = 1;
        b->queued = 0;
        u->kind = SC_RELAY_U_AUTH_REQUIRED;
        return;
    }
    memset(b, 0, sizeof *b);
    u->sub_id.ptr = m->sub_id.ptr; /* the slot's copy is gone */
    u->kind = SC_RELAY_U_CLOSED;
}

sc_status sc_sess_sub_handle(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m)
{
    sc_sess_sub *b = find_sub(t, m->sub_id, SC_SESS_SUB_OPEN);
    sc_status st;

    if (b == NULL) {
        return SC_ERR_SUBSCRIPTION;
    }
    u->sub_id.ptr = b->id;
    u->sub_id.len = b->id_len;
    if (m->type == SC_RELAY_EVENT) {
        st = sc_relay_filter_match(b->filters, b->n_filters, &m->event);
        if (st != SC_OK) {
            memset(u, 0, sizeof *u);
            return st;
        }
        on_event(b, m->event.created_at);
        u->kind = SC_RELAY_U_EVENT;
    } else if (m->type == SC_RELAY_EOSE) {
        on_eose(b);
        u->kind = SC_RELAY_U_EOSE;
    } else {
        on_closed(t, b, u, m);
    }
    return SC_OK;
}
