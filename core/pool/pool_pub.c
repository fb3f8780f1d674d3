/* The pool's publishes: one event sent to a set of relays, and on each relay its state until
 * it settles (accepted; refused for a reason retrying cannot change; failed after
 * max_attempts attempts or when the relay is removed): attempts and their OK deadlines,
 * retries after a doubling delay (rate-limited:, error:, a lost connection, a missing OK),
 * the OK without a usable id, the AUTH a refusal waits for, and the PUBLISHED and
 * PUBLISH_DONE updates. */
#include <softchat/pool.h>

#include <stdio.h>
#include <string.h>

#include "pool/pool_internal.h"

/* what a signed event carries */
#define SIGNED_FLAGS (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)

static sc_pl_pub *find_id(sc_pl_pool *pl, const uint8_t id[SC_EVENT_ID_BYTES])
{
    size_t i;

    for (i = 0; i < pl->max_pubs; i++) {
        if (pl->pubs[i].used && memcmp(pl->pubs[i].id, id, SC_EVENT_ID_BYTES) == 0) {
            return &pl->pubs[i];
        }
    }
    return NULL;
}

sc_status sc_pool_publish(sc_pool *p, uint32_t *pub, const sc_event *ev, const uint32_t *relays,
                          size_t n_relays, void *user)
{
    sc_pl_pool *pl;
    sc_pl_pub *b = NULL;
    size_t i, k;
    sc_status st;

    if (pub != NULL) {
        *pub = 0;
    }
    if (p == NULL || pub == NULL || ev == NULL || (relays == NULL && n_relays > 0)) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if (n_relays == 0) {
        return SC_ERR_EMPTY;
    }
    for (i = 0; i < n_relays; i++) {
        if (sc_pl_relay_get(pl, relays[i]) == NULL) {
            return SC_ERR_NOT_FOUND;
        }
    }
    if ((ev->flags & SIGNED_FLAGS) != SIGNED_FLAGS) {
        return SC_ERR_EVENT_FIELD;
    }
    if ((st = sc_event_check(ev)) != SC_OK) {
        return st;
    }
    if (find_id(pl, ev->id) != NULL) {
        return SC_ERR_STATE; /* the same event is being published already */
    }
    for (k = 0; k < pl->max_pubs && b == NULL; k++) {
        if (!pl->pubs[k].used) {
            b = &pl->pubs[k];
        }
    }
    if (b == NULL) {
        return SC_ERR_FULL;
    }
    memset(b->prs, 0, pl->max_relays * sizeof(sc_pl_pr));
    for (i = 0; i < n_relays; i++) {
        size_t slot = sc_pl_handle_slot(relays[i], pl->max_relays);
        sc_pl_relay *r = &pl->relays[slot];

        if (b->prs[slot].state != PL_PR_NONE) {
            continue; /* named twice */
        }
        /* the session has room for every publish of the pool */
        st = sc_relay_session_publish(&r->sess, ev);
        if (st != SC_OK) {
            size_t j;

            for (j = 0; j < pl->max_relays; j++) {
                if (b->prs[j].state != PL_PR_NONE) {
                    (void)sc_sess_pend_cancel(sc_sess_of(&pl->relays[j].sess), ev->id);
                }
            }
            memset(b->prs, 0, pl->max_relays * sizeof(sc_pl_pr));
            return st == SC_ERR_FULL ? SC_ERR_FULL : st;
        }
        b->prs[slot].state = PL_PR_QUEUED;
    }
    b->used = 1;
    b->ev = ev;
    b->user = user;
    memcpy(b->id, ev->id, SC_EVENT_ID_BYTES);
    *pub = sc_pl_handle(b->gen, (size_t)(b - pl->pubs));
    sc_pl_touch(pl);
    return SC_OK;
}

sc_status sc_pool_publish_states(const sc_pool *p, sc_pool_publish_state *out, size_t out_cap,
                                 size_t *out_len, uint32_t pub)
{
    const sc_pl_pool *pl;
    const sc_pl_pub *b;
    size_t i, n = 0;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (p == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((b = sc_pl_pub_get(pl, pub)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    for (i = 0; i < pl->max_relays; i++) {
        n += b->prs[i].state != PL_PR_NONE;
    }
    if (n > out_cap) {
        *out_len = n;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    n = 0;
    for (i = 0; i < pl->max_relays; i++) {
        const sc_pl_pr *pr = &b->prs[i];

        if (pr->state == PL_PR_NONE) {
            continue;
        }
        memset(&out[n], 0, sizeof out[n]);
        out[n].relay = sc_pl_handle(pl->relays[i].gen, i);
        out[n].result = (sc_pool_result)pr->result;
        out[n].attempts = pr->attempts;
        out[n].retry_at_ms = pr->state == PL_PR_WAIT ? pr->at : 0;
        n++;
    }
    *out_len = n;
    return SC_OK;
}

/* ---- settling --------------------------------------------------------------------------- */

/* pr settles with result; its PUBLISHED goes in `pending` with text (via_msg) or is read off
 * the state with text kind `kind`. */
static void settle(sc_pl_pool *pl, sc_pl_pub *b, size_t slot, sc_pool_result result,
                   sc_relay_prefix prefix, int via_msg, sc_str text, uint8_t kind)
{
    sc_pl_pr *pr = &b->prs[slot];

    pr->state = PL_PR_DONE;
    pr->result = (uint8_t)result;
    pr->prefix = prefix;
    pr->text = kind;
    pr->at = 0;
    if (via_msg && !pl->pending.full) {
        memset(&pl->pending, 0, sizeof pl->pending);
        pl->pending.full = 1;
        pl->pending.kind = SC_POOL_U_PUBLISHED;
        pl->pending.relay = slot;
        pl->pending.pub = (size_t)(b - pl->pubs);
        pl->pending.pub_gen = b->gen;
        pl->pending.text = text;
        pr->in_msg = 1;
    }
    sc_pl_touch(pl);
}

/* An attempt failed: another after the delay, or FAILED after max_attempts. */
static void attempt_failed(sc_pl_pool *pl, sc_pl_pub *b, size_t slot, sc_relay_prefix prefix,
                           int via_msg, sc_str text, uint8_t kind)
{
    sc_pl_pr *pr = &b->prs[slot];
    uint64_t delay;
    uint32_t n = pr->attempts > 0 ? pr->attempts - 1 : 0;

    (void)sc_sess_pend_cancel(sc_sess_of(&pl->relays[slot].sess), b->id);
    if (pr->attempts >= pl->max_attempts) {
        settle(pl, b, slot, SC_POOL_FAILED, prefix, via_msg, text, kind);
        return;
    }
    delay = n >= 32 ? pl->retry_max : (uint64_t)pl->retry_min << n;
    if (delay > pl->retry_max) {
        delay = pl->retry_max;
    }
    pr->state = PL_PR_WAIT;
    pr->prefix = prefix;
    pr->at = sc_pl_after(pl->now, (int64_t)delay);
    sc_pl_due(pl, pr->at);
}

/* The relay's answer to one attempt. */
static void answer(sc_pl_pool *pl, sc_pl_pub *b, size_t slot, int accepted, sc_relay_prefix prefix,
                   int via_msg, sc_str text, uint8_t kind)
{
    (void)sc_sess_pend_cancel(sc_sess_of(&pl->relays[slot].sess), b->id);
    if (accepted || prefix == SC_RELAY_PREFIX_DUPLICATE) {
        settle(pl, b, slot, SC_POOL_ACCEPTED, prefix, via_msg, text, kind);
    } else if (prefix == SC_RELAY_PREFIX_RATE_LIMITED || prefix == SC_RELAY_PREFIX_ERROR) {
        attempt_failed(pl, b, slot, prefix, via_msg, text, kind);
    } else {
        settle(pl, b, slot, SC_POOL_REFUSED, prefix, via_msg, text, kind);
    }
}

/* The publishes sent on relay slot and not answered: how many, and the last one. */
static size_t waiting(sc_pl_pool *pl, size_t slot, sc_pl_pub **last)
{
    size_t i, n = 0;

    *last = NULL;
    for (i = 0; i < pl->max_pubs; i++) {
        if (pl->pubs[i].used && pl->pubs[i].prs[slot].state == PL_PR_SENT) {
            *last = &pl->pubs[i];
            n++;
        }
    }
    return n;
}

/* A kept OK settles the last publish left unanswered; it is forgotten when none is. */
static void resolve_kept(sc_pl_pool *pl, size_t slot)
{
    sc_pl_relay *r = &pl->relays[slot];
    sc_pl_pub *last;
    size_t n;
    sc_str none = {"", 0};

    if (!r->kept) {
        return;
    }
    n = waiting(pl, slot, &last);
    if (n <= 1) {
        r->kept = 0;
    }
    if (n == 1) {
        answer(pl, last, slot, r->kept_accepted, r->kept_prefix, 0, none, PL_TEXT_KEPT);
    }
}

int sc_pl_pub_ok(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES], int accepted,
                 sc_relay_prefix prefix, sc_str text)
{
    sc_pl_pub *b = find_id(pl, id);
    uint8_t st;

    if (b == NULL) {
        return 0;
    }
    st = b->prs[slot].state;
    if (st == PL_PR_NONE || st == PL_PR_DONE) {
        return 0; /* not sent there, or settled: a repeated OK */
    }
    /* a late answer to an attempt given up on (WAIT) counts as well */
    answer(pl, b, slot, accepted, prefix, 1, text, PL_TEXT_NONE);
    resolve_kept(pl, slot);
    return 1;
}

void sc_pl_pub_ok_unattributed(sc_pl_pool *pl, size_t slot, int accepted, sc_relay_prefix prefix,
                               sc_str text)
{
    sc_pl_relay *r = &pl->relays[slot];
    sc_pl_pub *last;
    size_t n = waiting(pl, slot, &last);

    if (n == 1) {
        answer(pl, last, slot, accepted, prefix, 1, text, PL_TEXT_NONE);
        return;
    }
    if (n == 0) {
        /* an answer to nothing: reported as dropped */
        if (r->dropped < UINT32_MAX) {
            r->dropped++;
        }
        r->dropped_status = SC_ERR_RELAY_MESSAGE;
        sc_pl_due(pl, sc_pl_after(r->dropped_at, 1000));
        return;
    }
    r->kept = 1;
    r->kept_accepted = (uint8_t)(accepted != 0);
    r->kept_prefix = prefix;
    sc_pl_keep(r->kept_text, &r->kept_len, text);
}

void sc_pl_pub_held(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES])
{
    sc_pl_pub *b = find_id(pl, id);
    sc_pl_pr *pr;

    if (b == NULL || b->prs[slot].state == PL_PR_NONE || b->prs[slot].state == PL_PR_DONE) {
        return;
    }
    pr = &b->prs[slot];
    pr->state = PL_PR_HELD;
    pr->at = sc_pl_after(pl->now, pl->ok_timeout);
    sc_pl_due(pl, pr->at);
    resolve_kept(pl, slot);
}

void sc_pl_pubs_auth(sc_pl_pool *pl, size_t slot, int accepted)
{
    size_t i;
    sc_str none = {"", 0};

    for (i = 0; i < pl->max_pubs; i++) {
        sc_pl_pub *b = &pl->pubs[i];

        if (!b->used || b->prs[slot].state != PL_PR_HELD) {
            continue;
        }
        if (accepted) {
            b->prs[slot].state = PL_PR_QUEUED; /* the session sends it again */
            b->prs[slot].at = 0;
        } else {
            (void)sc_sess_pend_cancel(sc_sess_of(&pl->relays[slot].sess), b->id);
            settle(pl, b, slot, SC_POOL_REFUSED, SC_RELAY_PREFIX_AUTH_REQUIRED, 0, none,
                   PL_TEXT_AUTHREQ);
        }
    }
    sc_pl_touch(pl);
}

void sc_pl_pub_sent(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES])
{
    sc_pl_pub *b = find_id(pl, id);
    sc_pl_pr *pr;

    if (b == NULL || b->prs[slot].state != PL_PR_QUEUED) {
        return;
    }
    pr = &b->prs[slot];
    pr->state = PL_PR_SENT;
    if (pr->attempts < UINT32_MAX) {
        pr->attempts++;
    }
    pr->at = sc_pl_after(pl->now, pl->ok_timeout);
    sc_pl_due(pl, pr->at);
}

void sc_pl_pub_unwritable(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES],
                          sc_status st)
{
    sc_pl_pub *b = find_id(pl, id);
    sc_str none = {"", 0};

    if (b == NULL || b->prs[slot].state == PL_PR_NONE || b->prs[slot].state == PL_PR_DONE) {
        return;
    }
    b->prs[slot].status = st;
    settle(pl, b, slot, SC_POOL_FAILED, SC_RELAY_PREFIX_NONE, 0, none, PL_TEXT_WRITE);
}

void sc_pl_pubs_lost(sc_pl_pool *pl, size_t slot)
{
    size_t i;
    sc_str none = {"", 0};

    for (i = 0; i < pl->max_pubs; i++) {
        sc_pl_pub *b = &pl->pubs[i];

        if (!b->used) {
            continue;
        }
        if (b->prs[slot].state == PL_PR_SENT) {
            attempt_failed(pl, b, slot, SC_RELAY_PREFIX_NONE, 0, none, PL_TEXT_LOST);
        } else if (b->prs[slot].state == PL_PR_QUEUED) {
            /* a relay that cannot be reached (or drops every connection at once) must not
             * keep a publish pending for ever: the connection counts as an attempt */
            if (b->prs[slot].attempts < UINT32_MAX) {
                b->prs[slot].attempts++;
            }
            attempt_failed(pl, b, slot, SC_RELAY_PREFIX_NONE, 0, none, PL_TEXT_UNSENT);
        } else if (b->prs[slot].state == PL_PR_HELD) {
            b->prs[slot].state = PL_PR_QUEUED; /* the session sends it on the next connection */
            b->prs[slot].at = 0;
        }
    }
    pl->relays[slot].kept = 0;
}

void sc_pl_pubs_removed(sc_pl_pool *pl, size_t slot)
{
    size_t i;
    sc_str none = {"", 0};

    for (i = 0; i < pl->max_pubs; i++) {
        sc_pl_pub *b = &pl->pubs[i];

        if (b->used && b->prs[slot].state != PL_PR_NONE && b->prs[slot].state != PL_PR_DONE) {
            settle(pl, b, slot, SC_POOL_FAILED, SC_RELAY_PREFIX_NONE, 0, none, PL_TEXT_REMOVED);
        }
    }
}

void sc_pl_pubs_tick(sc_pl_pool *pl)
{
    size_t i, slot;
    sc_str none = {"", 0};

    for (i = 0; i < pl->max_pubs; i++) {
        sc_pl_pub *b = &pl->pubs[i];

        if (!b->used) {
            continue;
        }
        for (slot = 0; slot < pl->max_relays; slot++) {
            sc_pl_pr *pr = &b->prs[slot];
            sc_pl_relay *r = &pl->relays[slot];

            if (pr->state == PL_PR_SENT && pr->at <= pl->now) {
                if (r->kept) { /* the kept OK answers each publish still waiting */
                    answer(pl, b, slot, r->kept_accepted, r->kept_prefix, 0, none, PL_TEXT_KEPT);
                } else {
                    attempt_failed(pl, b, slot, SC_RELAY_PREFIX_NONE, 0, none, PL_TEXT_TIMEOUT);
                }
            } else if (pr->state == PL_PR_HELD && pr->at <= pl->now) {
                (void)sc_sess_pend_cancel(sc_sess_of(&r->sess), b->id);
                settle(pl, b, slot, SC_POOL_REFUSED, SC_RELAY_PREFIX_AUTH_REQUIRED, 0, none,
                       PL_TEXT_AUTHREQ);
            } else if (pr->state == PL_PR_WAIT && pr->at <= pl->now && r->state == PL_RELAY_USED) {
                sc_status st = sc_relay_session_publish(&r->sess, b->ev);

                if (st == SC_OK) {
                    pr->state = PL_PR_QUEUED;
                    pr->at = 0;
                    sc_pl_touch(pl); /* a relay to connect, perhaps */
                } else {
                    pr->status = st;
                    settle(pl, b, slot, SC_POOL_FAILED, pr->prefix, 0, none, PL_TEXT_WRITE);
                }
            }
        }
    }
    for (slot = 0; slot < pl->max_relays; slot++) {
        sc_pl_pub *last;

        if (pl->relays[slot].kept && waiting(pl, slot, &last) == 0) {
            pl->relays[slot].kept = 0;
        }
    }
}

int64_t sc_pl_pubs_due(const sc_pl_pool *pl)
{
    int64_t due = INT64_MAX;
    size_t i, slot;

    for (i = 0; i < pl->max_pubs; i++) {
        const sc_pl_pub *b = &pl->pubs[i];

        if (!b->used) {
            continue;
        }
        for (slot = 0; slot < pl->max_relays; slot++) {
            uint8_t st = b->prs[slot].state;

            if ((st == PL_PR_SENT || st == PL_PR_HELD || st == PL_PR_WAIT) &&
                b->prs[slot].at < due) {
                due = b->prs[slot].at;
            }
        }
    }
    return due;
}

/* ---- reporting -------------------------------------------------------------------------- */

static sc_str text_of(sc_pl_pool *pl, const sc_pl_pr *pr, size_t slot)
{
    const sc_pl_relay *r = &pl->relays[slot];
    sc_str t = {"", 0};
    int n = 0;

    switch (pr->text) {
    case PL_TEXT_REMOVED:
        t.ptr = "relay removed";
        t.len = strlen(t.ptr);
        return t;
    case PL_TEXT_LOST:
        t.ptr = "connection lost before OK";
        t.len = strlen(t.ptr);
        return t;
    case PL_TEXT_UNSENT:
        t.ptr = "connection failed before the event went out";
        t.len = strlen(t.ptr);
        return t;
    case PL_TEXT_KEPT:
        t.ptr = r->kept_text;
        t.len = r->kept_len;
        return t;
    case PL_TEXT_AUTHREQ:
        t.ptr = r->authreq_len > 0 ? r->authreq : "auth-required: no AUTH accepted";
        t.len = r->authreq_len > 0 ? r->authreq_len : strlen(t.ptr);
        return t;
    case PL_TEXT_TIMEOUT:
        n = snprintf(pl->text, sizeof pl->text, "no OK within %lu ms",
                     (unsigned long)pl->ok_timeout);
        if (n > 0 && r->notice_len > 0 && (size_t)n + 15 + r->notice_len < sizeof pl->text) {
            memcpy(pl->text + n, "; last NOTICE: ", 15);
            memcpy(pl->text + n + 15, r->notice, r->notice_len);
            n += 15 + (int)r->notice_len;
        }
        break;
    case PL_TEXT_WRITE:
        n = snprintf(pl->text, sizeof pl->text, "the event cannot be written: %s",
                     sc_status_name(pr->status));
        break;
    default:
        return t;
    }
    pl->text_len = n > 0 ? (size_t)n : 0;
    t.ptr = pl->text;
    t.len = pl->text_len < sizeof pl->text ? pl->text_len : sizeof pl->text - 1;
    return t;
}

void sc_pl_pub_fill(sc_pl_pool *pl, sc_pool_update *u, size_t k, size_t slot)
{
    sc_pl_pub *b = &pl->pubs[k];
    sc_pl_pr *pr = &b->prs[slot];

    u->kind = SC_POOL_U_PUBLISHED;
    u->relay = sc_pl_handle(pl->relays[slot].gen, slot);
    u->url.ptr = pl->relays[slot].url;
    u->url.len = pl->relays[slot].url_len;
    u->pub = sc_pl_handle(b->gen, k);
    u->user = b->user;
    memcpy(u->event_id, b->id, SC_EVENT_ID_BYTES);
    u->result = (sc_pool_result)pr->result;
    u->attempts = pr->attempts;
    u->prefix = pr->prefix;
    u->text = text_of(pl, pr, slot);
    pr->reported = 1;
    pr->in_msg = 0;
}

int sc_pl_pubs_report(sc_pl_pool *pl, sc_pool_update *u)
{
    size_t i, slot;

    for (i = 0; i < pl->max_pubs; i++) {
        sc_pl_pub *b = &pl->pubs[i];
        int open = 0;

        if (!b->used) {
            continue;
        }
        for (slot = 0; slot < pl->max_relays; slot++) {
            sc_pl_pr *pr = &b->prs[slot];

            if (pr->state == PL_PR_DONE && !pr->reported && !pr->in_msg) {
                sc_pl_pub_fill(pl, u, i, slot);
                return 1;
            }
            open |= pr->state != PL_PR_NONE && !(pr->state == PL_PR_DONE && pr->reported);
        }
        if (!open) {
            u->kind = SC_POOL_U_PUBLISH_DONE;
            u->pub = sc_pl_handle(b->gen, i);
            u->user = b->user;
            memcpy(u->event_id, b->id, SC_EVENT_ID_BYTES);
            b->used = 0;
            b->gen++;
            b->ev = NULL;
            b->user = NULL;
            memset(b->prs, 0, pl->max_relays * sizeof(sc_pl_pr));
            return 1;
        }
    }
    return 0;
}
