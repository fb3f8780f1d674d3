/* The relay pool's state in the caller's memory, and the interface between the files that
 * keep it: pool.c (the layout, options, handles and texts), pool_relay.c (relays and their
 * connections), pool_out.c (what goes out), pool_recv.c (what comes in), pool_pub.c
 * (publishes), pool_sub.c (subscriptions), pool_auth.c (NIP-42), pool_poll.c (the updates,
 * and what time brings), pool_seen.c (sets of event ids), pool_cursor.c (the cursor) and
 * pool_bytes.c (the saved forms' writer, reader and checksum).
 *
 * Everything lives in the memory given to sc_pool_init; relays, subscriptions and publishes
 * are slots of fixed arrays, named outside by handles (generation << 16 | slot + 1). A
 * publish keeps one state per relay slot, a subscription one member per relay slot. The one
 * update a received message means waits in `pending` (its texts and event in the caller's
 * arena) until sc_pool_poll reports it; everything else is read off the state by poll. */
#ifndef SOFTCHAT_CORE_POOL_INTERNAL_H
#define SOFTCHAT_CORE_POOL_INTERNAL_H

#include <softchat/pool.h>

#include "relay/session_internal.h"

#define PL_TEXT_BUF (SC_POOL_TEXT_MAX + 96u) /* a text the pool composes */

/* ---- the set of event ids (pool_seen.c) ---- */

/* Ids in delivery order (a ring: the oldest is forgotten first when it is full) with an
 * open-addressed index over them (linear probing, positions + 1, 0 empty). */
typedef struct sc_pl_seen {
    uint8_t (*ids)[SC_EVENT_ID_BYTES];
    int64_t *times; /* created_at of each, or NULL when not kept */
    uint32_t *index;
    size_t cap, mask, head, n;
} sc_pl_seen;

/* Bytes of a set of cap ids (with their times or not), 8-byte multiples. */
size_t sc_pl_seen_mem(size_t cap, int times);
/* Lays a set over mem (zeroed, sc_pl_seen_mem bytes, 8-byte aligned). */
void sc_pl_seen_init(sc_pl_seen *s, void *mem, size_t cap, int times);
/* Empties it. */
void sc_pl_seen_reset(sc_pl_seen *s);
int sc_pl_seen_has(const sc_pl_seen *s, const uint8_t id[SC_EVENT_ID_BYTES]);
/* Adds id (not in the set), forgetting the oldest when full. */
void sc_pl_seen_add(sc_pl_seen *s, const uint8_t id[SC_EVENT_ID_BYTES], int64_t created_at);
/* The k-th oldest (k < n). */
const uint8_t *sc_pl_seen_at(const sc_pl_seen *s, size_t k, int64_t *created_at);

/* ---- the cursor (pool_cursor.c) ---- */

typedef struct sc_pl_cursor {
    sc_pl_seen seen;
    size_t max_relays, max_url, n_relays;
    uint32_t *url_len;
    int64_t *point;
    char *urls;        /* max_relays * max_url */
    char *scratch;     /* max_url: a URL being normalised */
    const void *owner; /* the subscription reading and writing it, or NULL */
    void *mem;
    size_t mem_len;
} sc_pl_cursor;

/* The state behind a cursor set up by sc_pool_cursor_init; NULL for NULL or another. */
sc_pl_cursor *sc_pl_cursor_of(const sc_pool_cursor *c);
/* The resume point kept for the relay whose normalised URL is url, or -1. */
int64_t sc_pl_cursor_point(const sc_pl_cursor *c, sc_str url);
/* Raises the resume point of url (normalised) to point; a new relay is recorded while
 * there is room (one beyond it is left out). */
void sc_pl_cursor_note(sc_pl_cursor *c, sc_str url, int64_t point);

/* ---- the saved forms (pool_bytes.c) ---- */

/* Big-endian fields into p[0..cap) (p NULL: counts only); len counts every byte. */
typedef struct sc_pl_wr {
    uint8_t *p;
    size_t cap, len;
} sc_pl_wr;
void sc_pl_wr_bytes(sc_pl_wr *w, const void *b, size_t n);
void sc_pl_wr_u8(sc_pl_wr *w, uint8_t v);
void sc_pl_wr_u16(sc_pl_wr *w, uint16_t v);
void sc_pl_wr_u32(sc_pl_wr *w, uint32_t v);
void sc_pl_wr_i64(sc_pl_wr *w, int64_t v);
/* The header (magic, version) of a saved form, and its trailer: the CRC-32 of the bytes
 * before it. */
void sc_pl_wr_head(sc_pl_wr *w, const char magic[4], uint8_t version);
void sc_pl_wr_seal(sc_pl_wr *w);

/* Reads the same; a read past the end sets bad and gives zeros. */
typedef struct sc_pl_rd {
    const uint8_t *p;
    size_t len, pos;
    int bad;
} sc_pl_rd;
const uint8_t *sc_pl_rd_view(sc_pl_rd *r, size_t n);
uint8_t sc_pl_rd_u8(sc_pl_rd *r);
uint16_t sc_pl_rd_u16(sc_pl_rd *r);
uint32_t sc_pl_rd_u32(sc_pl_rd *r);
int64_t sc_pl_rd_i64(sc_pl_rd *r);
/* A reader over a saved form's body: SC_OK when in has the magic and version and its
 * trailer matches; SC_ERR_ENCODING otherwise. */
sc_status sc_pl_rd_open(sc_pl_rd *r, const uint8_t *in, size_t in_len, const char magic[4],
                        uint8_t version);
/* Whether the body was read exactly to its end. */
int sc_pl_rd_done(const sc_pl_rd *r);

/* ---- the pool ---- */

enum {
    PL_RELAY_FREE = 0,
    PL_RELAY_USED = 1,
    PL_RELAY_GONE = 2 /* removed; updates due */
};

typedef struct sc_pl_relay {
    uint16_t gen;
    uint8_t state;        /* PL_RELAY_* */
    uint8_t link;         /* sc_pool_link */
    uint8_t disconnect;   /* SC_POOL_U_DISCONNECT to report */
    uint8_t auth_wanted;  /* something was refused with auth-required on this connection */
    uint8_t auth_done;    /* an AUTH was answered on this connection (by the pool or not) */
    uint8_t auth_refused; /* the relay refused it, or the pool could not sign it */
    uint8_t auth_failed;  /* the pool could not sign: AUTH_REFUSED to report (auth_status) */
    uint8_t auth_ask;     /* AUTH_WANTED to report: the pool would answer, without identity */
    uint8_t auth_asked;   /* AUTH_WANTED was due once on this connection */
    uint8_t kept;         /* an OK without a usable id is kept (kept_text) */
    uint8_t kept_accepted;
    sc_relay_prefix kept_prefix;
    sc_status auth_status;
    int64_t retry_at, connected_at;
    uint32_t failures;
    uint32_t dropped; /* messages dropped since the last report */
    sc_status dropped_status;
    int64_t dropped_at; /* when the last DROPPED was reported */
    size_t url_len, auth_len, auth_cap, notice_len, kept_len, authreq_len;
    char *url, *auth, *notice, *kept_text, *authreq;
    sc_relay_session sess;
    void *sess_mem;
    size_t sess_cap;
} sc_pl_relay;

/* A publish's state on one relay. */
enum {
    PL_PR_NONE = 0,   /* not a relay of this publish */
    PL_PR_QUEUED = 1, /* in the relay's session, not sent on this connection */
    PL_PR_SENT = 2,   /* sent: its OK is due by `at` */
    PL_PR_HELD = 3,   /* refused with auth-required: waits for an AUTH until `at` */
    PL_PR_WAIT = 4,   /* an attempt failed: published again at `at` */
    PL_PR_DONE = 5    /* settled (result) */
};

/* Where the text of a PUBLISHED read off the state comes from. */
enum {
    PL_TEXT_NONE = 0,
    PL_TEXT_REMOVED = 1, /* "relay removed" */
    PL_TEXT_TIMEOUT = 2, /* "no OK within N ms", then the relay's last NOTICE */
    PL_TEXT_LOST = 3,    /* "connection lost before OK" */
    PL_TEXT_KEPT = 4,    /* the kept OK's text */
    PL_TEXT_AUTHREQ = 5, /* the relay's auth-required text */
    PL_TEXT_WRITE = 6,   /* "the event cannot be written: STATUS" */
    PL_TEXT_UNSENT = 7   /* "connection failed before the event went out" */
};

typedef struct sc_pl_pr {
    uint8_t state;    /* PL_PR_* */
    uint8_t result;   /* sc_pool_result */
    uint8_t reported; /* PUBLISHED was reported */
    uint8_t in_msg;   /* PUBLISHED waits in `pending` */
    uint8_t text;     /* PL_TEXT_* */
    sc_relay_prefix prefix;
    sc_status status; /* PL_TEXT_WRITE */
    uint32_t attempts;
    int64_t at;
} sc_pl_pr;

typedef struct sc_pl_pub {
    uint16_t gen;
    uint8_t used;
    const sc_event *ev;
    void *user;
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_pl_pr *prs; /* per relay slot */
} sc_pl_pub;

/* A subscription's state on one relay. */
typedef struct sc_pl_member {
    uint8_t in;     /* a relay of the subscription */
    uint8_t open;   /* open in the relay's session */
    uint8_t done;   /* counts for SC_POOL_U_EOSE: EOSE, closed, down or timed out */
    uint8_t held;   /* refused with auth-required: waits for an AUTH until held_at */
    uint8_t closed; /* SC_POOL_U_CLOSED to report (closed_prefix, text PL_TEXT_*) */
    uint8_t closed_text;
    uint8_t mark;     /* scratch of sc_pool_subscribe: named by the call */
    uint8_t authwait; /* ended there for want of an AUTH: opened again once an AUTH is
                         accepted there, or on the next connection */
    sc_relay_prefix closed_prefix;
    sc_status closed_status;
    int64_t since_ms; /* when its REQ could first be answered on this connection */
    int64_t held_at;
} sc_pl_member;

typedef struct sc_pl_sub {
    uint16_t gen;
    uint8_t used;
    uint8_t eose_reported;
    uint32_t flags;
    char id[SC_RELAY_SUB_ID_MAX];
    size_t id_len;
    const sc_relay_filter *filters;
    size_t n_filters;
    int64_t slack;
    uint32_t eose_timeout;
    sc_pool_cursor *cursor;
    void *user;
    uint64_t copies;       /* events delivered again by another relay, not reported */
    sc_pl_member *members; /* per relay slot */
    sc_pl_seen own;        /* the ids it delivered, without a cursor */
} sc_pl_sub;

/* The update a received message means, until poll reports it. */
typedef struct sc_pl_pending {
    uint8_t full;
    sc_pool_update_kind kind;
    size_t relay, sub, pub; /* slots */
    uint16_t sub_gen, pub_gen;
    sc_str text;
    sc_str event_json; /* EVENT: the event object in the caller's text */
    sc_relay_prefix prefix;
    sc_pool_result result;
    uint32_t attempts;
} sc_pl_pending;

typedef struct sc_pl_pool {
    /* the options, defaults applied */
    size_t max_relays, max_subs, max_pubs, max_url, seen_per_sub, max_challenge;
    uint32_t ok_timeout, max_attempts, retry_min, retry_max, auth;
    size_t max_event_msg, max_other_msg;
    sc_relay_session_opts sess_opts;

    sc_pl_relay *relays;
    sc_pl_sub *subs;
    sc_pl_pub *pubs;
    char *scratch; /* max_url: a URL being normalised */
    const sc_identity *who;
    int64_t now;      /* the latest now_ms */
    uint8_t dirty;    /* the state changed since poll last found nothing to report */
    int64_t next_due; /* when !dirty: the earliest time poll has work */
    sc_pl_pending pending;
    sc_relay_msg msg; /* the last message received (views into the caller's arena) */
    char text[PL_TEXT_BUF];
    size_t text_len;
    void *mem;
    size_t mem_len;
} sc_pl_pool;

/* ---- pool.c ---- */

/* The state behind a pool set up by sc_pool_init; NULL for NULL or another. */
sc_pl_pool *sc_pl_of(const sc_pool *p);
uint32_t sc_pl_handle(uint16_t gen, size_t slot);
/* The slot a handle names in a table of n entries (n when it names none of them). */
size_t sc_pl_handle_slot(uint32_t h, size_t n);
/* The used relay, subscription or publish a handle names, or NULL. */
sc_pl_relay *sc_pl_relay_get(const sc_pl_pool *pl, uint32_t h);
sc_pl_sub *sc_pl_sub_get(const sc_pl_pool *pl, uint32_t h);
sc_pl_pub *sc_pl_pub_get(const sc_pl_pool *pl, uint32_t h);
/* The latest clock reading (it never goes back). */
void sc_pl_time(sc_pl_pool *pl, int64_t now_ms);
/* now_ms + d, saturating. */
int64_t sc_pl_after(int64_t now_ms, int64_t d);
/* now_ms's unix seconds (0 before 1970). */
int64_t sc_pl_seconds(int64_t now_ms);
/* Something changed that poll must look at; something is due at t. */
void sc_pl_touch(sc_pl_pool *pl);
void sc_pl_due(sc_pl_pool *pl, int64_t t);
/* Length of text cut to max bytes at a UTF-8 boundary. */
size_t sc_pl_cut(const char *text, size_t len, size_t max);
/* Keeps text (cut to SC_POOL_TEXT_MAX) in dst. */
void sc_pl_keep(char *dst, size_t *dst_len, sc_str text);
/* Normalises url into pl->scratch: SC_OK with *norm, or sc_pool_relay_add's URL statuses. */
sc_status sc_pl_normalize(const sc_pl_pool *pl, sc_str url, sc_str *norm);

/* ---- pool_relay.c ---- */

size_t sc_pl_relay_slot(const sc_pl_pool *pl, const sc_pl_relay *r);
/* Whether the relay has something to do: an open subscription or an unsettled publish. */
int sc_pl_relay_wanted(const sc_pl_pool *pl, size_t slot);
/* A removed relay whose updates are all reported becomes free. */
int sc_pl_relay_releasable(const sc_pl_pool *pl, size_t slot);

/* ---- pool_pub.c ---- */

/* An OK for the publish of id on relay slot: settles it (or retries it); via_msg: its
 * PUBLISHED goes in `pending` with text. 0 when no publish of the pool matched. */
int sc_pl_pub_ok(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES], int accepted,
                 sc_relay_prefix prefix, sc_str text);
/* An OK whose id is not usable (the tolerance rule of pool.h). */
void sc_pl_pub_ok_unattributed(sc_pl_pool *pl, size_t slot, int accepted, sc_relay_prefix prefix,
                               sc_str text);
/* The publish of id on relay slot was refused with auth-required: held for an AUTH. */
void sc_pl_pub_held(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES]);
/* The AUTH on relay slot was accepted (1: what was held goes out again) or refused (0:
 * what was held is refused). */
void sc_pl_pubs_auth(sc_pl_pool *pl, size_t slot, int accepted);
/* The EVENT of id went out on relay slot. */
void sc_pl_pub_sent(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES]);
/* The session could not write the EVENT of id (status st): the publish fails there. */
void sc_pl_pub_unwritable(sc_pl_pool *pl, size_t slot, const uint8_t id[SC_EVENT_ID_BYTES],
                          sc_status st);
/* Relay slot's connection ended (or failed to open): what was sent and not answered, and
 * what waited to be sent on it, failed an attempt. */
void sc_pl_pubs_lost(sc_pl_pool *pl, size_t slot);
/* Relay slot was removed: what is not settled fails there. */
void sc_pl_pubs_removed(sc_pl_pool *pl, size_t slot);
/* Time: OK and AUTH deadlines, retries due. */
void sc_pl_pubs_tick(sc_pl_pool *pl);
/* The next PUBLISHED or PUBLISH_DONE to report, into u; 0 when none. */
int sc_pl_pubs_report(sc_pl_pool *pl, sc_pool_update *u);
/* The earliest time a publish needs poll (INT64_MAX for none). */
int64_t sc_pl_pubs_due(const sc_pl_pool *pl);
/* Fills a PUBLISHED update from publish slot k's state on relay slot. */
void sc_pl_pub_fill(sc_pl_pool *pl, sc_pool_update *u, size_t k, size_t slot);

/* ---- pool_sub.c ---- */

sc_pl_sub *sc_pl_sub_find(sc_pl_pool *pl, sc_str id);
/* An EVENT the relay's session took for sub id (deduplicated; recorded in the cursor). */
void sc_pl_sub_event(sc_pl_pool *pl, size_t slot, sc_str id, const sc_event *ev);
void sc_pl_sub_eose(sc_pl_pool *pl, size_t slot, sc_str id);
/* The relay closed sub id (the session forgot it). */
void sc_pl_sub_closed(sc_pl_pool *pl, size_t slot, sc_str id, sc_relay_prefix prefix, sc_str text);
void sc_pl_sub_held(sc_pl_pool *pl, size_t slot, sc_str id);
void sc_pl_subs_auth(sc_pl_pool *pl, size_t slot, int accepted);
/* Relay slot connected at now_ms / lost its connection / was removed. */
void sc_pl_subs_connected(sc_pl_pool *pl, size_t slot);
void sc_pl_subs_lost(sc_pl_pool *pl, size_t slot);
void sc_pl_subs_removed(sc_pl_pool *pl, size_t slot);
/* The session could not write the REQ of sub id: it is closed there. */
void sc_pl_sub_unwritable(sc_pl_pool *pl, size_t slot, sc_str id, sc_status st);
void sc_pl_subs_tick(sc_pl_pool *pl);
int sc_pl_subs_report(sc_pl_pool *pl, sc_pool_update *u);
int64_t sc_pl_subs_due(const sc_pl_pool *pl);
/* Fills the sub fields of an update. */
void sc_pl_sub_fill(const sc_pl_pool *pl, sc_pool_update *u, size_t k);
/* The subscription slot k ends (on every relay). */
void sc_pl_sub_end(sc_pl_pool *pl, size_t k);

/* ---- pool_auth.c ---- */

/* Answers challenges by the pool's policy (signing with ctx); one that could not be signed
 * is to be reported (AUTH_REFUSED), and one the pool would answer without an identity to
 * answer with is to be reported once per connection (AUTH_WANTED). */
void sc_pl_auth_tick(sc_pl_pool *pl, sc_ctx *ctx);
/* The AUTH of relay slot was refused (or could not be signed): what waited for it is refused. */
void sc_pl_auth_refused(sc_pl_pool *pl, size_t slot);
/* The next AUTH_REFUSED (the pool could not sign) or AUTH_WANTED to report, into u; 0 when
 * none. */
int sc_pl_auth_report(sc_pl_pool *pl, sc_pool_update *u);

#endif
