/* The session's publishes: the signed events awaiting their OK, the EVENT message that
 * carries each, and what an OK settles. */
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "relay/session_internal.h"

/* what a signed event carries (the other flags only say what a parse found) */
#define SIGNED_FLAGS (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)

static sc_sess_pend *find_pending(sc_sess *t, const uint8_t id[SC_EVENT_ID_BYTES])
{
    size_t i;

    for (i = 0; i < t->max_pending; i++) {
        if (t->pend[i].used && memcmp(t->pend[i].id, id, SC_EVENT_ID_BYTES) == 0) {
            return &t->pend[i];
        }
    }
    return NULL;
}

sc_status sc_relay_session_publish(sc_relay_session *s, const sc_event *ev)
{
    sc_sess *t;
    size_t i;
    sc_status st;

    if (s == NULL || ev == NULL) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL) {
        return SC_ERR_STATE;
    }
    if ((ev->flags & SIGNED_FLAGS) != SIGNED_FLAGS) {
        return SC_ERR_EVENT_FIELD;
    }
    if ((st = sc_event_check(ev)) != SC_OK) {
        return st;
    }
    if (find_pending(t, ev->id) != NULL) {
        return SC_OK;
    }
    for (i = 0; i < t->max_pending; i++) {
        sc_sess_pend *p = &t->pend[i];

        if (!p->used) {
            p->used = 1;
            p->ev = ev;
            memcpy(p->id, ev->id, SC_EVENT_ID_BYTES);
            p->queued = t->connected;
            p->held = 0;
            t->n_pending++;
            return SC_OK;
        }
    }
    return SC_ERR_FULL;
}

size_t sc_relay_session_pending(const sc_relay_session *s)
{
    const sc_sess *t = sc_sess_of(s);

    return t != NULL ? t->n_pending : 0;
}

void sc_sess_pends_reset(sc_sess *t, int queue)
{
    size_t i;

    for (i = 0; i < t->max_pending; i++) {
        if (t->pend[i].used) {
            t->pend[i].queued = (uint8_t)queue;
            t->pend[i].held = 0;
        }
    }
}

void sc_sess_pends_release(sc_sess *t)
{
    size_t i;

    for (i = 0; i < t->max_pending; i++) {
        if (t->pend[i].used && t->pend[i].held) {
            t->pend[i].held = 0;
            t->pend[i].queued = 1;
        }
    }
}

void sc_sess_pend_drop(sc_sess *t, sc_sess_pend *p)
{
    memset(p, 0, sizeof *p);
    t->n_pending--;
}

int sc_sess_pend_cancel(sc_sess *t, const uint8_t id[SC_EVENT_ID_BYTES])
{
    sc_sess_pend *p = find_pending(t, id);

    if (p == NULL) {
        return 0;
    }
    sc_sess_pend_drop(t, p);
    return 1;
}

sc_status sc_sess_pend_write(const sc_sess_pend *p, sc_jw *w)
{
    sc_relay_client_msg m;

    memset(&m, 0, sizeof m);
    m.type = SC_RELAY_CLIENT_EVENT;
    m.event = p->ev;
    return sc_relay_msg_emit(w, &m, -1);
}

sc_status sc_sess_pend_ok(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m)
{
    sc_sess_pend *p = find_pending(t, m->event_id);

    if (p == NULL) {
        u->kind = SC_RELAY_U_NONE; /* not ours, or settled already */
        return SC_OK;
    }
    memcpy(u->event_id, p->id, SC_EVENT_ID_BYTES);
    if (!m->accepted && sc_sess_auth_holds(t, m->prefix)) {
        p->held = 1;
        p->queued = 0;
        u->kind = SC_RELAY_U_AUTH_REQUIRED;
        return SC_OK;
    }
    u->kind = (m->accepted || m->prefix == SC_RELAY_PREFIX_DUPLICATE) ? SC_RELAY_U_ACCEPTED
                                                                      : SC_RELAY_U_REJECTED;
    sc_sess_pend_drop(t, p);
    return SC_OK;
}
