/* The pool's subscriptions: one sub id opened on a set of relays (one session subscription
 * on each, resuming from the cursor), events delivered once per subscription (the first
 * relay wins, by the cursor's ids or the subscription's own set), resume points written to
 * the cursor, each relay's part in the one EOSE (sent, closed, down or timed out), CLOSED
 * per relay, the AUTH a refused REQ waits for, and the end of a subscription. */
#include <softchat/pool.h>

#include <stdio.h>
#include <string.h>

#include "pool/pool_internal.h"
#include "relay/relay_internal.h"

#define DEFAULT_EOSE_TIMEOUT 10000u

sc_pl_sub *sc_pl_sub_find(sc_pl_pool *pl, sc_str id)
{
    size_t i;

    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_sub *s = &pl->subs[i];

        if (s->used && s->id_len == id.len && memcmp(s->id, id.ptr, id.len) == 0) {
            return s;
        }
    }
    return NULL;
}

static sc_str sub_id(const sc_pl_sub *s)
{
    sc_str id;

    id.ptr = s->id;
    id.len = s->id_len;
    return id;
}

static sc_str url_of(const sc_pl_relay *r)
{
    sc_str url;

    url.ptr = r->url;
    url.len = r->url_len;
    return url;
}

static sc_sess *sess(sc_pl_pool *pl, size_t slot)
{
    return sc_sess_of(&pl->relays[slot].sess);
}

/* Closes id on relay slot's session (a CLOSE goes out when connected). */
static void leave(sc_pl_pool *pl, size_t slot, sc_str id)
{
    if (sc_relay_session_unsubscribe(&pl->relays[slot].sess, id) != SC_OK) {
        return; /* not open there any more (the relay closed it): nothing to close */
    }
}

/* The ids the subscription delivered: its cursor's, or its own. */
static sc_pl_seen *seen_of(sc_pl_sub *s)
{
    sc_pl_cursor *c = sc_pl_cursor_of(s->cursor);

    return c != NULL && c->owner == s ? &c->seen : &s->own;
}

void sc_pl_sub_end(sc_pl_pool *pl, size_t k)
{
    sc_pl_sub *s = &pl->subs[k];
    sc_pl_cursor *c = sc_pl_cursor_of(s->cursor);
    size_t slot;

    for (slot = 0; slot < pl->max_relays; slot++) {
        sc_pl_member *m = &s->members[slot];

        if (m->in && m->open && pl->relays[slot].state == PL_RELAY_USED) {
            leave(pl, slot, sub_id(s));
        }
        memset(m, 0, sizeof *m);
    }
    if (c != NULL && c->owner == s) {
        c->owner = NULL;
    }
    s->cursor = NULL;
    s->filters = NULL;
    s->n_filters = 0;
    s->user = NULL;
    s->used = 0;
    s->gen++; /* the id stays readable for an update already filled */
    sc_pl_touch(pl);
}

/* The checks of a subscription's arguments that need no slot: sc_pool_subscribe's statuses. */
static sc_status check_request(const sc_pl_pool *pl, sc_str id, const sc_relay_filter *filters,
                               size_t n_filters, const uint32_t *relays, size_t n_relays,
                               const sc_pool_sub_opts *opts)
{
    size_t i;
    sc_status st;

    if ((st = sc_relay_sub_id_check(id)) != SC_OK) {
        return st;
    }
    if (n_filters == 0 || n_relays == 0) {
        return SC_ERR_EMPTY;
    }
    for (i = 0; i < n_filters; i++) {
        if ((st = sc_relay_filter_check(&filters[i])) != SC_OK) {
            return st;
        }
    }
    if ((opts->flags & ~SC_POOL_SUB_ONCE) != 0 || opts->resume_slack < 0) {
        return SC_ERR_FLAGS;
    }
    for (i = 0; i < n_relays; i++) {
        if (sc_pl_relay_get(pl, relays[i]) == NULL) {
            return SC_ERR_NOT_FOUND;
        }
    }
    return SC_OK;
}

/* Marks the members s keeps and leaves the relays it no longer names (a CLOSE each). */
static void mark(sc_pl_pool *pl, sc_pl_sub *s, const uint32_t *relays, size_t n_relays)
{
    size_t i, slot;

    for (slot = 0; slot < pl->max_relays; slot++) {
        s->members[slot].mark = 0;
    }
    for (i = 0; i < n_relays; i++) {
        s->members[sc_pl_handle_slot(relays[i], pl->max_relays)].mark = 1;
    }
    for (slot = 0; slot < pl->max_relays; slot++) {
        sc_pl_member *m = &s->members[slot];

        if (m->in && !m->mark) {
            if (m->open) {
                leave(pl, slot, sub_id(s));
            }
            memset(m, 0, sizeof *m);
        }
    }
}

/* Opens s on each marked relay's session, resuming from the cursor c (may be NULL). */
static void join(sc_pl_pool *pl, sc_pl_sub *s, sc_pl_cursor *c)
{
    size_t slot;

    for (slot = 0; slot < pl->max_relays; slot++) {
        sc_pl_relay *r = &pl->relays[slot];
        sc_pl_member *m = &s->members[slot];
        sc_sess_sub *b;

        if (!m->mark) {
            continue;
        }
        memset(m, 0, sizeof *m);
        if (sc_relay_session_subscribe(&r->sess, sub_id(s), s->filters, s->n_filters) != SC_OK) {
            continue; /* cannot happen: the id, filters and room were checked */
        }
        b = sc_sess_sub_find(sess(pl, slot), sub_id(s));
        if (b != NULL) {
            sc_sess_sub_resume(b, c != NULL ? sc_pl_cursor_point(c, url_of(r)) : -1, s->slack);
        }
        m->in = 1;
        m->open = 1;
        m->since_ms = r->link == SC_POOL_LINK_CONNECTED ? pl->now : 0;
    }
}

sc_status sc_pool_subscribe(sc_pool *p, uint32_t *sub, sc_str id, const sc_relay_filter *filters,
                            size_t n_filters, const uint32_t *relays, size_t n_relays,
                            const sc_pool_sub_opts *opts)
{
    static const sc_pool_sub_opts zero;
    sc_pl_pool *pl;
    sc_pl_sub *s;
    sc_pl_cursor *c = NULL, *old;
    size_t i;
    sc_status st;

    if (sub != NULL) {
        *sub = 0;
    }
    if (p == NULL || sub == NULL || (filters == NULL && n_filters > 0) ||
        (relays == NULL && n_relays > 0) || (id.ptr == NULL && id.len > 0)) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if (opts == NULL) {
        opts = &zero;
    }
    st = check_request(pl, id, filters, n_filters, relays, n_relays, opts);
    if (st != SC_OK) {
        return st;
    }
    s = sc_pl_sub_find(pl, id);
    if (opts->cursor != NULL) {
        c = sc_pl_cursor_of(opts->cursor);
        if (c == NULL || (c->owner != NULL && c->owner != s)) {
            return SC_ERR_STATE; /* not set up, or another subscription's */
        }
    }
    for (i = 0; s == NULL && i < pl->max_subs; i++) {
        if (!pl->subs[i].used) {
            s = &pl->subs[i];
            memset(s->members, 0, pl->max_relays * sizeof(sc_pl_member));
            sc_pl_seen_reset(&s->own);
            s->copies = 0;
            s->cursor = NULL;
            memcpy(s->id, id.ptr, id.len);
            s->id_len = id.len;
        }
    }
    if (s == NULL) {
        return SC_ERR_FULL;
    }
    for (i = 0; i < n_relays; i++) {
        if (!sc_sess_sub_room(sess(pl, sc_pl_handle_slot(relays[i], pl->max_relays)), id)) {
            return SC_ERR_FULL; /* that relay still has CLOSEs to send */
        }
    }
    mark(pl, s, relays, n_relays);
    if ((old = sc_pl_cursor_of(s->cursor)) != NULL && old != c && old->owner == s) {
        old->owner = NULL;
    }
    s->used = 1;
    s->flags = opts->flags;
    s->filters = filters;
    s->n_filters = n_filters;
    s->slack = opts->resume_slack;
    s->eose_timeout = opts->eose_timeout_ms != 0 ? opts->eose_timeout_ms : DEFAULT_EOSE_TIMEOUT;
    s->cursor = opts->cursor;
    s->user = opts->user;
    s->eose_reported = 0;
    if (c != NULL) {
        c->owner = s;
    }
    join(pl, s, c);
    *sub = sc_pl_handle(s->gen, (size_t)(s - pl->subs));
    sc_pl_touch(pl);
    return SC_OK;
}

sc_status sc_pool_unsubscribe(sc_pool *p, uint32_t sub)
{
    sc_pl_pool *pl;
    sc_pl_sub *s;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((s = sc_pl_sub_get(pl, sub)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    sc_pl_sub_end(pl, (size_t)(s - pl->subs));
    return SC_OK;
}

/* ---- what relays say -------------------------------------------------------------------- */

/* The relay's resume point for s, as its session keeps it, into the cursor (capped at the
 * clock: an event dated in the future cannot move a resume past the present). */
static void record(sc_pl_pool *pl, sc_pl_sub *s, size_t slot)
{
    sc_pl_cursor *c = sc_pl_cursor_of(s->cursor);
    sc_sess_sub *b;
    int64_t now_s = sc_pl_seconds(pl->now);

    if (c == NULL || c->owner != s) {
        return;
    }
    b = sc_sess_sub_find(sess(pl, slot), sub_id(s));
    if (b != NULL && b->newest >= 0) {
        sc_pl_cursor_note(c, url_of(&pl->relays[slot]), b->newest < now_s ? b->newest : now_s);
    }
}

void sc_pl_sub_event(sc_pl_pool *pl, size_t slot, sc_str id, const sc_event *ev)
{
    sc_pl_sub *s = sc_pl_sub_find(pl, id);
    sc_pl_seen *seen;

    if (s == NULL || !s->members[slot].in) {
        return;
    }
    record(pl, s, slot);
    seen = seen_of(s);
    if (sc_pl_seen_has(seen, ev->id)) {
        s->copies++;
        return;
    }
    sc_pl_seen_add(seen, ev->id, ev->created_at);
    memset(&pl->pending, 0, sizeof pl->pending);
    pl->pending.full = 1;
    pl->pending.kind = SC_POOL_U_EVENT;
    pl->pending.relay = slot;
    pl->pending.sub = (size_t)(s - pl->subs);
    pl->pending.sub_gen = s->gen;
}

void sc_pl_sub_eose(sc_pl_pool *pl, size_t slot, sc_str id)
{
    sc_pl_sub *s = sc_pl_sub_find(pl, id);

    if (s == NULL || !s->members[slot].in) {
        return;
    }
    record(pl, s, slot);
    s->members[slot].done = 1;
    sc_pl_touch(pl);
}

void sc_pl_sub_closed(sc_pl_pool *pl, size_t slot, sc_str id, sc_relay_prefix prefix, sc_str text)
{
    sc_pl_sub *s = sc_pl_sub_find(pl, id);

    if (s == NULL || !s->members[slot].in) {
        return;
    }
    s->members[slot].open = 0;
    s->members[slot].done = 1;
    s->members[slot].held = 0;
    memset(&pl->pending, 0, sizeof pl->pending);
    pl->pending.full = 1;
    pl->pending.kind = SC_POOL_U_CLOSED;
    pl->pending.relay = slot;
    pl->pending.sub = (size_t)(s - pl->subs);
    pl->pending.sub_gen = s->gen;
    pl->pending.prefix = prefix;
    pl->pending.text = text;
    sc_pl_touch(pl);
}

void sc_pl_sub_held(sc_pl_pool *pl, size_t slot, sc_str id)
{
    sc_pl_sub *s = sc_pl_sub_find(pl, id);
    sc_pl_member *m;

    if (s == NULL || !s->members[slot].in) {
        return;
    }
    m = &s->members[slot];
    m->held = 1;
    m->held_at = sc_pl_after(pl->now, pl->ok_timeout);
    sc_pl_due(pl, m->held_at);
}

/* The relay will not answer member m's REQ for want of an AUTH: it ends there (reported
 * CLOSED) until an AUTH is accepted there after all, or the next connection (rejoin). */
static void refuse(sc_pl_pool *pl, sc_pl_sub *s, size_t slot)
{
    sc_pl_member *m = &s->members[slot];

    leave(pl, slot, sub_id(s));
    m->open = 0;
    m->held = 0;
    m->done = 1;
    m->authwait = 1;
    m->closed = 1;
    m->closed_prefix = SC_RELAY_PREFIX_AUTH_REQUIRED;
    m->closed_text = PL_TEXT_AUTHREQ;
    sc_pl_touch(pl);
}

/* Opens s again on relay slot where it ended for want of an AUTH (an AUTH that came too
 * late, or a new connection), resuming from its cursor. A session without room leaves it
 * for the next connection. */
static void rejoin(sc_pl_pool *pl, sc_pl_sub *s, size_t slot)
{
    sc_pl_relay *r = &pl->relays[slot];
    sc_pl_member *m = &s->members[slot];
    sc_pl_cursor *c = sc_pl_cursor_of(s->cursor);
    sc_sess_sub *b;

    if (sc_relay_session_subscribe(&r->sess, sub_id(s), s->filters, s->n_filters) != SC_OK) {
        return;
    }
    b = sc_sess_sub_find(sess(pl, slot), sub_id(s));
    if (b != NULL) {
        sc_sess_sub_resume(b, c != NULL && c->owner == s ? sc_pl_cursor_point(c, url_of(r)) : -1,
                           s->slack);
    }
    m->authwait = 0;
    m->open = 1;
    m->since_ms = r->link == SC_POOL_LINK_CONNECTED ? pl->now : 0;
    sc_pl_touch(pl);
}

void sc_pl_subs_auth(sc_pl_pool *pl, size_t slot, int accepted)
{
    size_t i;

    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_sub *s = &pl->subs[i];

        if (s->used && s->members[slot].in && s->members[slot].authwait && accepted) {
            rejoin(pl, s, slot);
            continue;
        }
        if (!s->used || !s->members[slot].in || !s->members[slot].held) {
            continue;
        }
        if (accepted) {
            s->members[slot].held = 0; /* the session sends the REQ again */
        } else {
            refuse(pl, s, slot);
        }
    }
}

void sc_pl_subs_connected(sc_pl_pool *pl, size_t slot)
{
    size_t i;

    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_member *m = &pl->subs[i].members[slot];

        if (pl->subs[i].used && m->in) {
            m->since_ms = pl->now;
            m->held = 0;
            if (m->authwait) {
                rejoin(pl, &pl->subs[i], slot);
            }
        }
    }
}

void sc_pl_subs_lost(sc_pl_pool *pl, size_t slot)
{
    size_t i;

    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_member *m = &pl->subs[i].members[slot];

        if (pl->subs[i].used && m->in) {
            m->done = 1; /* down: it counts for the EOSE; the REQ goes out again later */
            m->held = 0;
        }
    }
}

void sc_pl_subs_removed(sc_pl_pool *pl, size_t slot)
{
    size_t i;

    for (i = 0; i < pl->max_subs; i++) {
        memset(&pl->subs[i].members[slot], 0, sizeof(sc_pl_member));
    }
}

void sc_pl_sub_unwritable(sc_pl_pool *pl, size_t slot, sc_str id, sc_status st)
{
    sc_pl_sub *s = sc_pl_sub_find(pl, id);
    sc_pl_member *m;

    if (s == NULL || !s->members[slot].in) {
        return;
    }
    m = &s->members[slot];
    m->open = 0;
    m->held = 0;
    m->done = 1;
    m->closed = 1;
    m->closed_prefix = SC_RELAY_PREFIX_NONE;
    m->closed_text = PL_TEXT_WRITE;
    m->closed_status = st;
    sc_pl_touch(pl);
}

void sc_pl_subs_tick(sc_pl_pool *pl)
{
    size_t i, slot;

    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_sub *s = &pl->subs[i];

        if (!s->used) {
            continue;
        }
        for (slot = 0; slot < pl->max_relays; slot++) {
            sc_pl_member *m = &s->members[slot];

            if (!m->in || !m->open) {
                continue;
            }
            if (m->held && m->held_at <= pl->now) {
                refuse(pl, s, slot);
            } else if (!m->done && !s->eose_reported &&
                       pl->relays[slot].link == SC_POOL_LINK_CONNECTED &&
                       sc_pl_after(m->since_ms, s->eose_timeout) <= pl->now) {
                m->done = 1; /* no EOSE in time: it counts as done */
                sc_pl_touch(pl);
            }
        }
    }
}

int64_t sc_pl_subs_due(const sc_pl_pool *pl)
{
    int64_t due = INT64_MAX, t;
    size_t i, slot;

    for (i = 0; i < pl->max_subs; i++) {
        const sc_pl_sub *s = &pl->subs[i];

        if (!s->used) {
            continue;
        }
        for (slot = 0; slot < pl->max_relays; slot++) {
            const sc_pl_member *m = &s->members[slot];

            if (!m->in || !m->open) {
                continue;
            }
            if (m->held && m->held_at < due) {
                due = m->held_at;
            }
            if (!m->done && !s->eose_reported && pl->relays[slot].link == SC_POOL_LINK_CONNECTED &&
                (t = sc_pl_after(m->since_ms, s->eose_timeout)) < due) {
                due = t;
            }
        }
    }
    return due;
}

void sc_pl_sub_fill(const sc_pl_pool *pl, sc_pool_update *u, size_t k)
{
    const sc_pl_sub *s = &pl->subs[k];

    u->sub = sc_pl_handle(s->gen, k);
    u->sub_id.ptr = s->id;
    u->sub_id.len = s->id_len;
    u->user = s->user;
}

static sc_str closed_text(sc_pl_pool *pl, const sc_pl_member *m, size_t slot)
{
    const sc_pl_relay *r = &pl->relays[slot];
    sc_str t = {"", 0};
    int n;

    if (m->closed_text == PL_TEXT_AUTHREQ) {
        t.ptr = r->authreq_len > 0 ? r->authreq : "auth-required: no AUTH accepted";
        t.len = r->authreq_len > 0 ? r->authreq_len : strlen(t.ptr);
    } else if (m->closed_text == PL_TEXT_WRITE) {
        n = snprintf(pl->text, sizeof pl->text, "the filters cannot be written: %s",
                     sc_status_name(m->closed_status));
        t.ptr = pl->text;
        t.len = n > 0 ? (size_t)n : 0;
    }
    return t;
}

int sc_pl_subs_report(sc_pl_pool *pl, sc_pool_update *u)
{
    size_t i, slot;

    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_sub *s = &pl->subs[i];
        int all = 1;

        if (!s->used) {
            continue;
        }
        for (slot = 0; slot < pl->max_relays; slot++) {
            sc_pl_member *m = &s->members[slot];

            if (m->in && m->closed) {
                m->closed = 0;
                u->kind = SC_POOL_U_CLOSED;
                u->relay = sc_pl_handle(pl->relays[slot].gen, slot);
                u->url = url_of(&pl->relays[slot]);
                sc_pl_sub_fill(pl, u, i);
                u->prefix = m->closed_prefix;
                u->text = closed_text(pl, m, slot);
                return 1;
            }
            all &= !m->in || m->done;
        }
        if (all && !s->eose_reported) {
            s->eose_reported = 1;
            u->kind = SC_POOL_U_EOSE;
            sc_pl_sub_fill(pl, u, i);
            if (s->flags & SC_POOL_SUB_ONCE) {
                sc_pl_sub_end(pl, i);
            }
            return 1;
        }
    }
    return 0;
}
