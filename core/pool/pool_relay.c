/* The pool's relays: adding (by normalised URL), finding and removing them, what the pool
 * knows of each, and each relay's connection as the application reports it (connected,
 * disconnected) with the session's backoff deciding when to try again. */
#include <softchat/mem.h>
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"

size_t sc_pl_relay_slot(const sc_pl_pool *pl, const sc_pl_relay *r)
{
    return (size_t)(r - pl->relays);
}

int sc_pl_relay_wanted(const sc_pl_pool *pl, size_t slot)
{
    size_t i;

    for (i = 0; i < pl->max_subs; i++) {
        const sc_pl_member *m = &pl->subs[i].members[slot];

        if (pl->subs[i].used && m->in && (m->open || m->authwait)) {
            return 1; /* a subscription ended for want of an AUTH tries the next connection */
        }
    }
    for (i = 0; i < pl->max_pubs; i++) {
        uint8_t st = pl->pubs[i].prs[slot].state;

        if (pl->pubs[i].used && st != PL_PR_NONE && st != PL_PR_DONE) {
            return 1;
        }
    }
    return 0;
}

int sc_pl_relay_releasable(const sc_pl_pool *pl, size_t slot)
{
    size_t i;

    if (pl->relays[slot].disconnect || (pl->pending.full && pl->pending.relay == slot)) {
        return 0;
    }
    for (i = 0; i < pl->max_pubs; i++) {
        if (pl->pubs[i].used && pl->pubs[i].prs[slot].state != PL_PR_NONE) {
            return 0;
        }
    }
    return 1;
}

static sc_pl_relay *find_url(const sc_pl_pool *pl, sc_str url)
{
    size_t i;

    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];

        if (r->state == PL_RELAY_USED && r->url_len == url.len &&
            memcmp(r->url, url.ptr, url.len) == 0) {
            return r;
        }
    }
    return NULL;
}

sc_status sc_pool_relay_add(sc_pool *p, uint32_t *relay, sc_str url)
{
    sc_pl_pool *pl;
    sc_pl_relay *r = NULL;
    sc_str norm;
    size_t i;
    sc_status st;

    if (relay != NULL) {
        *relay = 0;
    }
    if (p == NULL || relay == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((st = sc_pl_normalize(pl, url, &norm)) != SC_OK) {
        return st;
    }
    if ((r = find_url(pl, norm)) != NULL) {
        *relay = sc_pl_handle(r->gen, sc_pl_relay_slot(pl, r));
        return SC_OK;
    }
    for (i = 0; i < pl->max_relays && r == NULL; i++) {
        if (pl->relays[i].state == PL_RELAY_FREE ||
            (pl->relays[i].state == PL_RELAY_GONE && sc_pl_relay_releasable(pl, i))) {
            r = &pl->relays[i];
        }
    }
    if (r == NULL) {
        return SC_ERR_FULL;
    }
    st = sc_relay_session_init(&r->sess, r->sess_mem, r->sess_cap, 2 * pl->max_subs, pl->max_pubs,
                               norm, &pl->sess_opts);
    if (st != SC_OK) {
        return st; /* cannot happen: the options were checked at init */
    }
    r->gen++;
    r->state = PL_RELAY_USED;
    r->link = SC_POOL_LINK_IDLE;
    r->disconnect = 0;
    r->retry_at = 0;
    r->failures = 0;
    r->dropped = 0;
    r->dropped_at = INT64_MIN;
    memcpy(r->url, norm.ptr, norm.len);
    r->url_len = norm.len;
    *relay = sc_pl_handle(r->gen, sc_pl_relay_slot(pl, r));
    sc_pl_touch(pl);
    return SC_OK;
}

sc_status sc_pool_relay_find(const sc_pool *p, uint32_t *relay, sc_str url)
{
    const sc_pl_pool *pl;
    sc_pl_relay *r;
    sc_str norm;
    sc_status st;

    if (relay != NULL) {
        *relay = 0;
    }
    if (p == NULL || relay == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((st = sc_pl_normalize(pl, url, &norm)) != SC_OK) {
        return st;
    }
    if ((r = find_url(pl, norm)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    *relay = sc_pl_handle(r->gen, sc_pl_relay_slot(pl, r));
    return SC_OK;
}

/* The per-connection state: nothing of the last connection's AUTH, NOTICE or kept OK. */
static void reset_connection(sc_pl_relay *r)
{
    sc_mem_wipe(r->auth, r->auth_len);
    r->auth_len = 0;
    r->auth_wanted = 0;
    r->auth_done = 0;
    r->auth_refused = 0;
    r->auth_failed = 0;
    r->auth_ask = 0;
    r->auth_asked = 0;
    r->kept = 0;
    r->kept_len = 0;
    r->authreq_len = 0;
}

sc_status sc_pool_relay_remove(sc_pool *p, uint32_t relay)
{
    sc_pl_pool *pl;
    sc_pl_relay *r;
    size_t slot;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    slot = sc_pl_relay_slot(pl, r);
    sc_pl_pubs_removed(pl, slot);
    sc_pl_subs_removed(pl, slot);
    r->disconnect = r->link == SC_POOL_LINK_CONNECTING || r->link == SC_POOL_LINK_CONNECTED;
    reset_connection(r);
    r->notice_len = 0;
    r->dropped = 0;
    sc_relay_session_clear(&r->sess);
    r->link = SC_POOL_LINK_IDLE;
    r->state = PL_RELAY_GONE; /* its URL stays for the updates still due */
    sc_pl_touch(pl);
    return SC_OK;
}

sc_status sc_pool_relay_info_get(const sc_pool *p, sc_pool_relay_info *info, uint32_t relay)
{
    const sc_pl_pool *pl;
    const sc_pl_relay *r;
    const sc_sess *t;
    size_t slot, i;

    if (info != NULL) {
        memset(info, 0, sizeof *info);
    }
    if (p == NULL || info == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    slot = sc_pl_relay_slot(pl, r);
    t = sc_sess_of(&r->sess);
    info->url.ptr = r->url;
    info->url.len = r->url_len;
    info->link = (sc_pool_link)r->link;
    info->retry_at_ms = r->link == SC_POOL_LINK_WAITING ? r->retry_at : 0;
    info->failures = r->failures;
    info->authenticated = t != NULL && t->authed;
    for (i = 0; i < pl->max_pubs; i++) {
        uint8_t st = pl->pubs[i].prs[slot].state;

        info->publishes += pl->pubs[i].used && st != PL_PR_NONE && st != PL_PR_DONE;
    }
    for (i = 0; i < pl->max_subs; i++) {
        info->subscriptions +=
            pl->subs[i].used && pl->subs[i].members[slot].in && pl->subs[i].members[slot].open;
    }
    info->last_notice.ptr = r->notice_len > 0 ? r->notice : "";
    info->last_notice.len = r->notice_len;
    return SC_OK;
}

sc_status sc_pool_connected(sc_pool *p, uint32_t relay, int64_t now_ms)
{
    sc_pl_pool *pl;
    sc_pl_relay *r;
    sc_status st;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    if (r->link != SC_POOL_LINK_CONNECTING) {
        return SC_ERR_STATE;
    }
    sc_pl_time(pl, now_ms);
    st = sc_relay_session_connected(&r->sess, pl->now);
    if (st != SC_OK) {
        return st;
    }
    r->link = SC_POOL_LINK_CONNECTED;
    r->connected_at = pl->now;
    reset_connection(r);
    r->notice_len = 0;
    sc_pl_subs_connected(pl, sc_pl_relay_slot(pl, r));
    sc_pl_touch(pl);
    return SC_OK;
}

sc_status sc_pool_disconnected(sc_pool *p, uint32_t relay, int64_t now_ms)
{
    sc_pl_pool *pl;
    sc_pl_relay *r;
    size_t slot;
    int64_t retry_at = 0;
    sc_status st;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    if (r->link != SC_POOL_LINK_CONNECTING && r->link != SC_POOL_LINK_CONNECTED) {
        return SC_ERR_STATE;
    }
    sc_pl_time(pl, now_ms);
    slot = sc_pl_relay_slot(pl, r);
    st = sc_relay_session_disconnected(&r->sess, pl->now, &retry_at);
    if (st != SC_OK) {
        return st;
    }
    sc_pl_pubs_lost(pl, slot);
    sc_pl_subs_lost(pl, slot);
    reset_connection(r);
    if (r->failures < UINT32_MAX) {
        r->failures++;
    }
    r->retry_at = retry_at;
    r->link = SC_POOL_LINK_WAITING;
    sc_pl_touch(pl);
    return SC_OK;
}
