/* The relay session's state in the caller's memory, and the interface between the files that
 * keep it: session.c (the layout, the connection, the dispatch of relay messages),
 * session_sub.c (subscriptions and their resume point), session_pub.c (publishes and their
 * OK), session_auth.c (NIP-42: the challenge, the AUTH, what waits for it) and
 * session_outbox.c (what goes out next, and the reconnect backoff). */
#ifndef SOFTCHAT_CORE_RELAY_SESSION_INTERNAL_H
#define SOFTCHAT_CORE_RELAY_SESSION_INTERNAL_H

#include <softchat/relay.h>

#include "util/json_write.h"

enum {
    SC_SESS_SUB_FREE = 0,
    SC_SESS_SUB_OPEN = 1,
    SC_SESS_SUB_CLOSING = 2
};

/* A subscription. */
typedef struct sc_sess_sub {
    char id[SC_RELAY_SUB_ID_MAX];
    size_t id_len;
    const sc_relay_filter *filters;
    size_t n_filters;
    int64_t newest;    /* a resent REQ's floor: the newest created_at delivered up to an EOSE
                        or live after one, -1 for none */
    int64_t stored;    /* the newest delivered before the next EOSE, -1 for none: stored
                        events come newest first, so it counts only once an EOSE says that
                        the older ones came too (on this connection or a later one) */
    int64_t slack;     /* seconds a resent REQ's since stays below newest (the session's
                        resume_slack unless the pool sets its own) */
    uint8_t state;     /* SC_SESS_SUB_* */
    uint8_t queued;    /* its REQ (or CLOSE, when closing) is to be sent */
    uint8_t held;      /* refused with auth-required: waits for the AUTH */
    uint8_t eose;      /* EOSE seen on this connection */
    uint8_t resumable; /* EOSE seen once: a resent REQ may move since up */
} sc_sess_sub;

/* A publish awaiting its OK. */
typedef struct sc_sess_pend {
    const sc_event *ev;
    uint8_t id[SC_EVENT_ID_BYTES];
    uint8_t used, queued, held;
} sc_sess_pend;

typedef struct sc_sess {
    sc_sess_sub *subs;
    sc_sess_pend *pend;
    size_t max_subs, max_pending, n_pending;
    char *url;
    size_t url_len;
    char *challenge;
    size_t challenge_len, max_challenge;
    uint32_t backoff_min, backoff_max, attempts;
    int64_t connected_at, resume_slack;
    uint8_t auth_id[SC_EVENT_ID_BYTES];
    uint8_t connected, authed, auth_pending;
    void *mem;
    size_t mem_len;
} sc_sess;

/* ---- session.c ---- */

/* The state behind a session set up by sc_relay_session_init; NULL for NULL or another. */
sc_sess *sc_sess_of(const sc_relay_session *s);

/* ---- session_sub.c ---- */

/* A new connection: open subscriptions are to be sent again (queue 1) or wait for one
 * (queue 0), unheld, their EOSE unseen; closing ones are gone (nothing to close). */
void sc_sess_subs_reset(sc_sess *t, int queue);

/* The AUTH was accepted: subscriptions held for it are to be sent again. */
void sc_sess_subs_release(sc_sess *t);

/* A new connection at now_s (unix seconds): no resume point stays above it, so an event
 * dated in the future cannot move a resumed REQ's since past the present. */
void sc_sess_subs_cap(sc_sess *t, int64_t now_s);

/* Writes b's REQ (since moved up to its resume point) or, when closing, its CLOSE. */
sc_status sc_sess_sub_write(const sc_sess_sub *b, sc_jw *w);

/* EVENT, EOSE or CLOSED for an open subscription: SC_ERR_SUBSCRIPTION for any other; an
 * EVENT its filters do not match: sc_relay_filter_match's status (u zeroed). */
sc_status sc_sess_sub_handle(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m);

/* ---- session_pub.c ---- */

/* A new connection: publishes not yet acknowledged are to be sent again (queue 1) or wait
 * for one (queue 0), unheld. */
void sc_sess_pends_reset(sc_sess *t, int queue);

/* The AUTH was accepted: publishes held for it are to be sent again. */
void sc_sess_pends_release(sc_sess *t);

/* Forgets p (its event could not be written). */
void sc_sess_pend_drop(sc_sess *t, sc_sess_pend *p);

/* Writes p's ["EVENT", event]. */
sc_status sc_sess_pend_write(const sc_sess_pend *p, sc_jw *w);

/* An OK that is not the AUTH's: settles the publish it names (accepted, duplicate, refused),
 * or holds it when it asks for AUTH; SC_RELAY_U_NONE for an id not pending. */
sc_status sc_sess_pend_ok(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m);

/* ---- session_auth.c ---- */

/* A new connection or none: the challenge wiped, not authenticated, no AUTH awaiting OK. */
void sc_sess_auth_reset(sc_sess *t);

/* Whether a refusal with this prefix waits for the AUTH (auth-required while not
 * authenticated) rather than ending what it refused. */
int sc_sess_auth_holds(const sc_sess *t, sc_relay_prefix prefix);

/* An AUTH message: keeps its challenge for sc_relay_session_auth (SC_ERR_TOO_LARGE over
 * max_challenge; an empty one changes nothing). */
sc_status sc_sess_auth_challenge(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m);

/* 1 when the OK answers the AUTH awaiting it (accepted: everything held is released), with
 * u set; 0, u untouched, for any other OK. */
int sc_sess_auth_ok(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m);

/* ---- session_outbox.c ---- */

/* The connection (if any) ends at now_ms: when to connect again. The delay doubles from
 * backoff_min up to backoff_max with each attempt, and starts over after a connection that
 * held for backoff_max; the result saturates at INT64_MAX. Call before clearing connected. */
int64_t sc_sess_retry_at(sc_sess *t, int64_t now_ms);

/* ---- for the relay pool (core/pool/): one session per relay, driven from outside ---- */

/* The open subscription named id, or NULL. */
sc_sess_sub *sc_sess_sub_find(sc_sess *t, sc_str id);

/* Whether sc_relay_session_subscribe(id) would find a slot (an open or closing one with that
 * id, or a free one). */
int sc_sess_sub_room(const sc_sess *t, sc_str id);

/* Sets b's resume point: newest (-1: none) and the slack below it; a point >= 0 makes the
 * next REQ resume from it, as after an EOSE. */
void sc_sess_sub_resume(sc_sess_sub *b, int64_t newest, int64_t slack);

/* Forgets the pending publish of id (the pool retries it later); 0 when none was pending. */
int sc_sess_pend_cancel(sc_sess *t, const uint8_t id[SC_EVENT_ID_BYTES]);

/* An AUTH signed elsewhere, with this id, was sent: its OK is the AUTH's. */
void sc_sess_auth_expect(sc_sess *t, const uint8_t id[SC_EVENT_ID_BYTES]);

/* What sc_relay_session_next writes next. */
typedef enum sc_sess_next_kind {
    SC_SESS_NEXT_NONE = 0,
    SC_SESS_NEXT_CLOSE = 1,
    SC_SESS_NEXT_REQ = 2,
    SC_SESS_NEXT_EVENT = 3
} sc_sess_next_kind;

/* The kind of the next message, and its event id (EVENT) or sub id (REQ, CLOSE: a view into
 * the session); id and sub_id may be NULL. */
sc_sess_next_kind sc_sess_next_peek(sc_sess *t, uint8_t id[SC_EVENT_ID_BYTES], sc_str *sub_id);

#endif
