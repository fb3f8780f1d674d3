/* The one place the application learns everything: sc_pool_poll reports what the last
 * received message meant, then applies what time brought (AUTH answers by policy, OK and
 * AUTH deadlines, retries, EOSE deadlines) and reports the state's news, one update per
 * call, in a fixed order (removed relays, AUTH failures, AUTH wanted, CLOSED, PUBLISHED,
 * PUBLISH_DONE, EOSE, CONNECT, DROPPED) over the slots in order, so the same calls give the
 * same updates.
 * sc_pool_wakeup says when poll next has work without a socket. */
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"

static sc_str url_of(const sc_pl_relay *r)
{
    sc_str url;

    url.ptr = r->url;
    url.len = r->url_len;
    return url;
}

/* The update the last message meant; 0 when it no longer names anything (its subscription
 * ended since). */
static int report_pending(sc_pl_pool *pl, sc_pool_update *u)
{
    sc_pl_pending *q = &pl->pending;
    sc_pl_relay *r = &pl->relays[q->relay];

    q->full = 0;
    u->kind = q->kind;
    u->relay = sc_pl_handle(r->gen, q->relay);
    u->url = url_of(r);
    u->text = q->text;
    u->prefix = q->prefix;
    switch (q->kind) {
    case SC_POOL_U_EVENT:
    case SC_POOL_U_CLOSED:
        if (!pl->subs[q->sub].used || pl->subs[q->sub].gen != q->sub_gen) {
            memset(u, 0, sizeof *u);
            return 0;
        }
        sc_pl_sub_fill(pl, u, q->sub);
        if (q->kind == SC_POOL_U_EVENT) {
            u->event = &pl->msg.event;
            u->event_json = q->event_json;
            u->message = &pl->msg;
            u->text.ptr = "";
            u->text.len = 0;
        }
        return 1;
    case SC_POOL_U_PUBLISHED: {
        sc_str text = q->text;

        sc_pl_pub_fill(pl, u, q->pub, q->relay);
        u->text = text;
        return 1;
    }
    case SC_POOL_U_OTHER:
        u->message = &pl->msg;
        return 1;
    default:
        return 1;
    }
}

static int report_disconnect(sc_pl_pool *pl, sc_pool_update *u)
{
    size_t i;

    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];

        if (r->disconnect) {
            r->disconnect = 0;
            u->kind = SC_POOL_U_DISCONNECT;
            u->relay = sc_pl_handle(r->gen, i);
            u->url = url_of(r);
            return 1;
        }
    }
    return 0;
}

static int report_connect(sc_pl_pool *pl, sc_pool_update *u)
{
    size_t i;

    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];

        if (r->state != PL_RELAY_USED ||
            (r->link != SC_POOL_LINK_IDLE && r->link != SC_POOL_LINK_WAITING)) {
            continue;
        }
        if (!sc_pl_relay_wanted(pl, i)) {
            r->link = SC_POOL_LINK_IDLE;
            continue;
        }
        if (r->link == SC_POOL_LINK_WAITING && r->retry_at > pl->now) {
            continue;
        }
        r->link = SC_POOL_LINK_CONNECTING;
        u->kind = SC_POOL_U_CONNECT;
        u->relay = sc_pl_handle(r->gen, i);
        u->url = url_of(r);
        return 1;
    }
    return 0;
}

static int report_dropped(sc_pl_pool *pl, sc_pool_update *u)
{
    size_t i;

    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];

        if (r->state == PL_RELAY_USED && r->dropped > 0 &&
            sc_pl_after(r->dropped_at, 1000) <= pl->now) {
            u->kind = SC_POOL_U_DROPPED;
            u->relay = sc_pl_handle(r->gen, i);
            u->url = url_of(r);
            u->count = r->dropped;
            u->status = r->dropped_status;
            r->dropped = 0;
            r->dropped_at = pl->now;
            return 1;
        }
    }
    return 0;
}

/* The earliest time poll has work, when nothing is to be reported now. */
static int64_t next_due(const sc_pl_pool *pl)
{
    int64_t due = sc_pl_pubs_due(pl), t = sc_pl_subs_due(pl);
    size_t i;

    if (t < due) {
        due = t;
    }
    for (i = 0; i < pl->max_relays; i++) {
        const sc_pl_relay *r = &pl->relays[i];

        if (r->state != PL_RELAY_USED) {
            continue;
        }
        if (r->link == SC_POOL_LINK_WAITING && r->retry_at < due && sc_pl_relay_wanted(pl, i)) {
            due = r->retry_at;
        }
        if (r->dropped > 0 && (t = sc_pl_after(r->dropped_at, 1000)) < due) {
            due = t;
        }
    }
    return due;
}

sc_status sc_pool_poll(sc_pool *p, sc_ctx *ctx, int64_t now_ms, sc_pool_update *u)
{
    sc_pl_pool *pl;

    if (u != NULL) {
        memset(u, 0, sizeof *u);
    }
    if (p == NULL || ctx == NULL || u == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    sc_pl_time(pl, now_ms);
    if (pl->pending.full && report_pending(pl, u)) {
        return SC_OK;
    }
    if (!pl->dirty && pl->now < pl->next_due) {
        return SC_OK; /* nothing changed and nothing is due */
    }
    pl->dirty = 0;
    sc_pl_auth_tick(pl, ctx);
    sc_pl_pubs_tick(pl);
    sc_pl_subs_tick(pl);
    if (report_disconnect(pl, u) || sc_pl_auth_report(pl, u) || sc_pl_subs_report(pl, u) ||
        sc_pl_pubs_report(pl, u) || report_connect(pl, u) || report_dropped(pl, u)) {
        pl->dirty = 1; /* there may be more */
        return SC_OK;
    }
    pl->dirty = 0; /* the ticks' changes were all looked at by the reports above */
    pl->next_due = next_due(pl);
    return SC_OK;
}

int64_t sc_pool_wakeup(const sc_pool *p)
{
    const sc_pl_pool *pl = sc_pl_of(p);

    if (pl == NULL || pl->pending.full || pl->dirty) {
        return 0;
    }
    return pl->next_due;
}
