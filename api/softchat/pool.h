/* libsoftchat: a pool of relays, sans-IO: many relay connections driven as one.
 *
 * The pool holds one relay session (relay.h) per relay and adds what an application needs
 * on top of them: publishes routed to a set of relays and settled per relay (accepted,
 * refused with the relay's reason, or failed after retries), subscriptions across relays
 * whose events reach the application once (deduplicated by id), EOSE across relays with a
 * deadline, resume after a reconnect or a restart (a cursor the application saves), NIP-42
 * AUTH per relay, and the tolerance real relays need (below). It decides when a relay should
 * be connected and says so; it never opens a socket, reads a clock or allocates.
 *
 * Who owns what. The application owns the sockets (one WebSocket per relay), the clock and
 * the storage. The pool lives in memory the application gives it (sc_pool_mem_max); the
 * events it publishes and the filters it subscribes with stay the application's, kept by
 * reference, as in relay.h.
 *
 * The loop (docs/api.md, "The relay pool", has it in full):
 *   sc_pool_init(&p, mem, sc_pool_mem_max(&opts), &opts);
 *   sc_pool_relay_add(&p, &r, SC_STR("wss://inbox.example"));
 *   sc_pool_subscribe(&p, &sub, SC_STR("inbox"), filters, n, &r, 1, &sub_opts);
 *   sc_pool_publish(&p, &pub, &event, &r, 1, user);
 *   for (;;) {
 *       while (sc_pool_poll(&p, ctx, now_ms, &u) == SC_OK && u.kind != SC_POOL_U_NONE)
 *           SC_POOL_U_CONNECT: open a socket to u.url, then
 *                              sc_pool_connected(&p, u.relay, now_ms)
 *           SC_POOL_U_EVENT, _EOSE, _PUBLISHED, _AUTH, ...: the application's business
 *       for each connected relay r:
 *           while (sc_pool_next(&p, r, out, cap, &len) == SC_OK && len > 0) send out[0..len)
 *       wait for a socket, at most until sc_pool_wakeup(&p)
 *       a text frame from r:  sc_pool_receive(&p, ctx, r, text, len, now_ms, arena, cap)
 *       a socket closed or failed to open: sc_pool_disconnected(&p, r, now_ms)
 *   }
 * sc_pool_receive only takes a message in; what it means comes out of the next sc_pool_poll
 * calls, together with what time brought (deadlines, retries, reconnects), so there is one
 * place where the application learns everything. Poll after each receive: the update a
 * message means (an EVENT's event, a refusal's text) lies in the arena and the text given to
 * sc_pool_receive, so the next sc_pool_receive is refused (SC_ERR_STATE, nothing taken)
 * until sc_pool_poll has reported it.
 *
 * Times: now_ms is the wall clock in unix milliseconds. The pool counts its deadlines with
 * it, dates the AUTH events it signs with its seconds, and caps resume points at them.
 *
 * Publishing. A publish goes to each of its relays until the relay answers OK. Per relay it
 * ends ACCEPTED (OK true, or false with "duplicate:"), REFUSED (OK false with a reason
 * retrying cannot change: "blocked:", "invalid:", "pow:", "restricted:", "mute:", no prefix
 * or an unknown one; "auth-required:" once the AUTH was refused, or none was accepted
 * within opts.ok_timeout_ms of the refusal) or FAILED (no answer after opts.max_attempts
 * attempts: the connection failed or was lost before the OK, the OK did not come within
 * opts.ok_timeout_ms, or the relay kept answering "rate-limited:" or "error:"; or the relay
 * was removed). A connection that fails to open, or ends, while a publish waits to be sent
 * on it counts as one of its attempts: a relay that cannot be reached ends FAILED too. A
 * "rate-limited:" or "error:" refusal, a lost connection and a missing OK are retried after
 * a delay that doubles from opts.retry_min_ms up to opts.retry_max_ms; an OK that comes
 * after its attempt was given up on still settles the publish. One SC_POOL_U_PUBLISHED
 * update per relay says how it ended, with the relay's own text; SC_POOL_U_PUBLISH_DONE
 * follows the last one.
 *
 * Subscriptions. A subscription is opened with the same sub id on each of its relays. An
 * event reaches the application once per subscription (the first relay to deliver it wins;
 * the others' copies are counted, not delivered), after the relay session has checked its
 * id, signature and filters. SC_POOL_U_EOSE comes once, when every relay of the
 * subscription has sent EOSE, failed to connect, or let sub_opts.eose_timeout_ms pass
 * since it connected. After a reconnect a subscription is sent again with since raised to
 * the newest created_at that relay delivered (never above the local clock: an event dated
 * in the future cannot move a resume past the present) minus the subscription's
 * resume_slack (gift wraps are backdated up to two days: SC_POOL_SLACK_GIFT_WRAP). A relay
 * whose connection fails counts as done for the EOSE (it is down), and one that closes the
 * subscription (CLOSED) too.
 *
 * The cursor. A subscription may carry an sc_pool_cursor: the ids it has delivered and,
 * per relay URL, where it may resume. The pool reads it when the subscription opens
 * (already delivered ids are not delivered again; each relay's REQ resumes from the
 * cursor) and writes it as events arrive. sc_pool_cursor_save writes it to bytes and
 * sc_pool_cursor_load restores it, so an application that saves it in the same transaction
 * as what it did with the events receives each of them exactly once across restarts. A
 * cursor remembers at most max_ids ids (the oldest delivered are forgotten first): size it
 * for the events one resume window (resume_slack) can bring.
 *
 * AUTH (NIP-42). A relay's challenge is reported (SC_POOL_U_AUTH). The pool answers it
 * itself with the identity given to sc_pool_auth_identity, when the pool's auth policy
 * allows it (SC_POOL_AUTH_ON_DEMAND, the default: only once a REQ or an EVENT has been
 * refused with "auth-required:"; SC_POOL_AUTH_ALWAYS: at the first challenge); otherwise the
 * application answers with sc_pool_auth (a local identity) or sc_pool_auth_send (an AUTH
 * event signed elsewhere, checked before it is sent). When the policy would answer and the
 * pool has no identity, it says so once per connection (SC_POOL_U_AUTH_WANTED: the relay has
 * a challenge and, under ON_DEMAND, refused something with "auth-required:"): the moment an
 * application whose key is in an external signer signs (sc_pool_auth_template,
 * sc_event_sign_start and sc_signer_op_step over the signer, sc_pool_auth_send), so that it
 * reveals the user's key only to relays that asked for it. Under SC_POOL_AUTH_NEVER nothing
 * is wanted: the application decides at SC_POOL_U_AUTH. The pool signs at most one AUTH per
 * connection (a relay that sends challenge after challenge gets one signature), and none
 * after the relay refused one. What waited for the AUTH goes out again once the relay
 * accepts it; a refused AUTH, or none accepted within opts.ok_timeout_ms, ends it there
 * (a publish REFUSED, a REQ CLOSED, both with the "auth-required:" prefix). A subscription
 * so ended is not given up on that relay: its REQ goes out again if an AUTH is accepted
 * there after all (an OK that came late), and on the relay's next connection, which the
 * pool keeps asking for as it would for an open subscription.
 *
 * Tolerance. Real relays deviate from NIP-01; the pool takes what they say without losing
 * it and never waits silently:
 *   - an OK whose event id is empty or not 64 hex characters
 *     ("["OK","",false,"invalid: too old"]") settles the relay's one unanswered publish when
 *     only one is waiting; with several waiting it is kept, and settles the last of them left
 *     unanswered (or, at the OK deadline, each still waiting) with its text; with none
 *     waiting it is dropped (an OK naming an event of no publish of the pool is ignored);
 *   - a NOTICE is reported, and the latest one on a connection is the text of a publish
 *     that then times out (relays that answer a refused EVENT with a NOTICE instead of OK);
 *   - a CLOSED without a prefix is reported with its text, like any other;
 *   - a message that cannot be used (malformed, too large for its type, a forged or
 *     unmatched event, an unknown subscription) is dropped and reported as SC_POOL_U_DROPPED
 *     with its status, at most once per relay per second with the number dropped since.
 * Per-type limits bound the work one message can cause: an EVENT message is at most
 * opts.max_event_msg bytes, any other at most opts.max_other_msg; sc_pool_receive refuses
 * longer ones before parsing (SC_ERR_TOO_LARGE), so a transport can stop reading a frame
 * at sc_pool_message_max.
 *
 * Memory. sc_pool_mem_max(opts) is the whole of it, fixed at init: per relay one session
 * (relay.h: 2 * max_subs subscription slots, as a closed subscription holds one until its
 * CLOSE is sent, max_publishes publish slots, the URL, the AUTH challenge) plus the AUTH
 * message and three relay texts of SC_POOL_TEXT_MAX bytes (the last NOTICE, a kept OK, the
 * auth-required refusal); per subscription its relay states and a set of seen_per_sub ids
 * (used when no cursor is given); per publish a state per relay. docs/api.md gives the
 * formula and the figures for the defaults.
 *
 * Determinism. The pool keeps no state outside its memory and reads nothing but its
 * arguments: the same calls with the same arguments (times included) give the same
 * updates in the same order (slot order, then a fixed order of kinds), which is what lets a
 * simulator drive it.
 *
 * Threads: a pool is used by one thread at a time (it is the application's state). Strings
 * are UTF-8 with lengths; relay URLs are normalised (sc_relay_url_normalize) when added, and
 * the normalised form names the relay from then on.
 */
#ifndef SOFTCHAT_POOL_H
#define SOFTCHAT_POOL_H

#include "relay.h"

SC_BEGIN_DECLS

/* Relay texts the pool keeps are cut to this many bytes (at a UTF-8 boundary). */
#define SC_POOL_TEXT_MAX 256u
/* Seconds: NIP-59 backdates gift wraps up to two days. */
#define SC_POOL_SLACK_GIFT_WRAP 172800

/** Auth policies (sc_pool_opts.auth): answer a challenge once something was refused with
 *  "auth-required:" (ON_DEMAND); the first challenge of a connection at once (ALWAYS); never
 *  by itself, the application decides (NEVER). */
#define SC_POOL_AUTH_ON_DEMAND 0u
#define SC_POOL_AUTH_ALWAYS 1u
#define SC_POOL_AUTH_NEVER 2u

/** Pool options. NULL means what a zero-initialised struct means; every 0 is the default in
 *  brackets. */
typedef struct sc_pool_opts {
    uint32_t max_relays;           /* relays the pool holds at once [16] */
    uint32_t max_subs;             /* subscriptions open at once [8] */
    uint32_t max_publishes;        /* publishes in flight at once [64] */
    uint32_t max_url;              /* the longest relay URL, in bytes [256] */
    uint32_t seen_per_sub;         /* ids a subscription without a cursor remembers [4096] */
    uint32_t ok_timeout_ms;        /* an EVENT sent and not answered in this time is an attempt
                                      that failed [10000] */
    uint32_t max_attempts;         /* attempts per relay before a publish fails there [5] */
    uint32_t retry_min_ms;         /* the first retry delay of a publish [1000] */
    uint32_t retry_max_ms;         /* the cap of its doubling [60000] */
    uint32_t auth;                 /* SC_POOL_AUTH_* [SC_POOL_AUTH_ON_DEMAND] */
    uint32_t max_event_msg;        /* the longest EVENT message taken, in bytes [1 MiB] */
    uint32_t max_other_msg;        /* the longest message of any other type [64 KiB] */
    sc_relay_session_opts session; /* each relay's session: reconnect backoff, challenge size
                                      (its resume_slack is unused: see sc_pool_sub_opts) */
} sc_pool_opts;

/** The pool, in caller memory. Opaque: use the functions. */
typedef struct sc_pool {
    uint64_t opaque[8];
} sc_pool;

/** Bytes of memory a pool needs with opts (NULL allowed), at any alignment.
 *  Returns: the size; 0 when opts is invalid (sc_pool_init says why) or the size does not
 *  fit size_t. */
SC_API size_t sc_pool_mem_max(const sc_pool_opts *opts);

/** Sets up an empty pool in mem[0..mem_cap).
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (mem_cap below sc_pool_mem_max(opts));
 *           SC_ERR_FLAGS (an unknown auth policy, retry_min_ms above retry_max_ms, a
 *           max_event_msg or max_other_msg below 64 bytes, the session options refused by
 *           sc_relay_session_init); SC_ERR_TOO_LARGE (a count or max_url above 65535);
 *           SC_ERR_ARG (p or mem NULL).
 *  Out: p; mem (zeroed first). On failure p is zeroed (later calls are SC_ERR_STATE).
 *  In: opts (may be NULL).
 *  Constant time: no. RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_pool_init(sc_pool *p, void *mem, size_t mem_cap,
                                             const sc_pool_opts *opts) SC_NONNULL(1);

/** Wipes the pool and its memory (every session, challenge and identity reference); the
 *  cursors its subscriptions held are free for another subscription.
 *  In/Out: p (NULL allowed). Constant time: n/a. RNG: no. */
SC_API void sc_pool_clear(sc_pool *p);

/* ---- relays ------------------------------------------------------------------------------ */

/** Adds the relay at url (normalised first; a relay already in the pool is found, not added
 *  twice). A relay is connected only while it has something to do (a subscription or a
 *  publish): the pool then asks for it with SC_POOL_U_CONNECT.
 *  Returns: SC_OK; SC_ERR_FULL (max_relays relays; a removed relay's room is free once the
 *           updates that name it were reported); SC_ERR_ENCODING (not a ws:// or wss://
 *           URL sc_relay_url_normalize takes); SC_ERR_TOO_LARGE (over max_url bytes
 *           normalised); SC_ERR_EMPTY; SC_ERR_UTF8; SC_ERR_STATE; SC_ERR_ARG.
 *  Out: *relay (a handle, never 0; 0 on failure). In/Out: p. In: url.
 *  Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_relay_add(sc_pool *p, uint32_t *relay, sc_str url)
    SC_NONNULL(1, 2);

/** Finds a relay by URL (normalised first).
 *  Returns: SC_OK; SC_ERR_NOT_FOUND; sc_pool_relay_add's URL statuses; SC_ERR_STATE;
 *           SC_ERR_ARG.
 *  Out: *relay (0 on failure). In: p, url. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_relay_find(const sc_pool *p, uint32_t *relay, sc_str url)
    SC_NONNULL(1, 2);

/** Removes a relay: its publishes fail there (SC_POOL_U_PUBLISHED, FAILED, "relay removed"),
 *  its subscriptions go on without it, and a connected relay is reported with
 *  SC_POOL_U_DISCONNECT (close the socket; no further call takes the handle, and updates
 *  already due that name it are still reported).
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no such relay); SC_ERR_STATE; SC_ERR_ARG.
 *  In/Out: p. In: relay. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_relay_remove(sc_pool *p, uint32_t relay) SC_NONNULL(1);

/** A relay's connection state. */
typedef enum sc_pool_link {
    SC_POOL_LINK_IDLE = 0,       /* nothing to do: not wanted */
    SC_POOL_LINK_WAITING = 1,    /* wanted, waiting for retry_at_ms (a backoff) */
    SC_POOL_LINK_CONNECTING = 2, /* SC_POOL_U_CONNECT was given: the socket is opening */
    SC_POOL_LINK_CONNECTED = 3
} sc_pool_link;

/** What the pool knows of a relay. Views point into the pool. */
typedef struct sc_pool_relay_info {
    sc_str url; /* normalised */
    sc_pool_link link;
    int64_t retry_at_ms;  /* WAITING: when the pool asks to connect again */
    uint32_t failures;    /* connections lost or refused in a row */
    int authenticated;    /* 1 when an AUTH was accepted on this connection */
    size_t publishes;     /* publishes not settled on this relay */
    size_t subscriptions; /* subscriptions open on this relay */
    sc_str last_notice;   /* the latest NOTICE on this connection (cut to
                             SC_POOL_TEXT_MAX), empty when none */
} sc_pool_relay_info;

/** Describes a relay.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND; SC_ERR_STATE; SC_ERR_ARG.
 *  Out: info (zeroed on failure). In: p, relay. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_relay_info_get(const sc_pool *p, sc_pool_relay_info *info,
                                                       uint32_t relay) SC_NONNULL(1, 2);

/* ---- driving the connections ------------------------------------------------------------ */

/** The socket to relay opened (after SC_POOL_U_CONNECT): its subscriptions and the publishes
 *  waiting for it are queued for sc_pool_next.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND; SC_ERR_STATE (p not set up, or relay not connecting);
 *           SC_ERR_ARG.
 *  In/Out: p. In: relay, now_ms (the caller's clock, milliseconds). Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_connected(sc_pool *p, uint32_t relay, int64_t now_ms)
    SC_NONNULL(1);

/** The socket to relay closed, or failed to open: a publish sent and not answered, or
 *  waiting to be sent, failed an attempt and goes out again after its retry delay (on the
 *  next connection), a REQ goes out again on the next connection, and the pool asks to
 *  reconnect after the session's backoff if the relay still has something to do.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND; SC_ERR_STATE (p not set up, or relay neither connecting
 *           nor connected); SC_ERR_ARG.
 *  In/Out: p. In: relay, now_ms. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_disconnected(sc_pool *p, uint32_t relay, int64_t now_ms)
    SC_NONNULL(1);

/** Exact length of the next message sc_pool_next would write for relay.
 *  Returns: the length; 0 when there is nothing to send (or the arguments are unusable). */
SC_API size_t sc_pool_next_len(const sc_pool *p, uint32_t relay);

/** Writes the next message to send to relay (its AUTH first, then what its session has
 *  queued: CLOSEs, REQs, EVENTs) and marks it sent; an EVENT's OK deadline starts at the
 *  latest now_ms the pool was given. *out_len == 0 (and SC_OK): nothing to send (also
 *  while the relay is not connected).
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_pool_next_len; nothing marked);
 *           the sc_relay_msg_write errors of an event or filters the caller changed since
 *           it lent them (the publish fails there, the REQ is CLOSED there);
 *           SC_ERR_NOT_FOUND; SC_ERR_STATE; SC_ERR_ARG (p or out_len NULL, out NULL with
 *           out_cap > 0).
 *  Out: out[0..*out_len). In/Out: p. In: relay. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_next(sc_pool *p, uint32_t relay, char *out, size_t out_cap,
                                             size_t *out_len) SC_NONNULL(1, 5);

/** The longest text frame sc_pool_receive takes: a transport may stop reading (and drop) a
 *  longer frame. Returns: max(max_event_msg, max_other_msg); 0 for a pool not set up. */
SC_API size_t sc_pool_message_max(const sc_pool *p);

/** Arena bytes that suffice for sc_pool_receive of any text of text_len bytes.
 *  Returns: sc_relay_parse_arena_max(text_len). */
SC_API size_t sc_pool_receive_arena_max(size_t text_len);

/** Takes one text frame from relay in: parses and checks it (events verified), applies it to
 *  the relay's session and the pool, and queues what it means for sc_pool_poll. A message
 *  that cannot be used is counted for SC_POOL_U_DROPPED, and its status returned.
 *  Returns: SC_OK (taken); SC_ERR_TOO_LARGE (over its type's limit, or nesting);
 *           SC_ERR_BUFFER_TOO_SMALL (the arena: nothing taken; sc_pool_receive_arena_max
 *           suffices); the sc_relay_parse and sc_relay_session_handle statuses of a dropped
 *           message; SC_ERR_NOT_FOUND (no such relay); SC_ERR_STATE (relay not connected,
 *           p not set up, or the update of the previous message not yet reported by
 *           sc_pool_poll: nothing taken; poll, then give it again); SC_ERR_UNSUPPORTED
 *           (ctx cannot verify events: nothing taken); SC_ERR_ARG (a NULL argument, text
 *           NULL with text_len > 0).
 *  Out: arena (an EVENT update points into it until the next sc_pool_receive). In/Out: p.
 *  In: relay; text[0..text_len); now_ms.
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_pool_receive(sc_pool *p, sc_ctx *ctx, uint32_t relay,
                                                const char *text, size_t text_len, int64_t now_ms,
                                                void *arena, size_t arena_cap) SC_NONNULL(1, 2, 7);

/** What sc_pool_poll reports. */
typedef enum sc_pool_update_kind {
    SC_POOL_U_NONE = 0,          /* nothing now: wait for a socket or sc_pool_wakeup */
    SC_POOL_U_CONNECT = 1,       /* open a socket to url; then sc_pool_connected (or
                                    sc_pool_disconnected when it fails) */
    SC_POOL_U_DISCONNECT = 2,    /* close the socket to url (the relay was removed) */
    SC_POOL_U_EVENT = 3,         /* event on sub: delivered for the first time */
    SC_POOL_U_EOSE = 4,          /* sub: every relay sent EOSE, is down, or timed out */
    SC_POOL_U_CLOSED = 5,        /* relay ended sub there (prefix, text); it goes on elsewhere */
    SC_POOL_U_PUBLISHED = 6,     /* publish pub ended on relay: result, prefix, text, attempts */
    SC_POOL_U_PUBLISH_DONE = 7,  /* publish pub ended on every relay; its handle is free */
    SC_POOL_U_AUTH = 8,          /* relay sent an AUTH challenge (text); the pool answers it by
                                    its policy, else sc_pool_auth / sc_pool_auth_send */
    SC_POOL_U_AUTHENTICATED = 9, /* relay accepted the AUTH */
    SC_POOL_U_AUTH_REFUSED = 10, /* relay refused the AUTH (prefix, text) */
    SC_POOL_U_NOTICE = 11,       /* relay said text */
    SC_POOL_U_DROPPED = 12,      /* count messages from relay were dropped; status: the last
                                    one's reason */
    SC_POOL_U_OTHER = 13,        /* a COUNT, NEG-MSG or NEG-ERR for the application: message */
    SC_POOL_U_AUTH_WANTED = 14   /* relay's challenge is to be answered by the policy and the
                                    pool has no identity: answer with sc_pool_auth_send (or
                                    sc_pool_auth) while what waits for it waits (until
                                    opts.ok_timeout_ms after its refusal); text and prefix:
                                    the relay's "auth-required:" refusal (empty under ALWAYS
                                    before one). Once per connection */
} sc_pool_update_kind;

/** How a publish ended on one relay. */
typedef enum sc_pool_result {
    SC_POOL_PENDING = 0,  /* not yet */
    SC_POOL_ACCEPTED = 1, /* OK true, or false with "duplicate:" */
    SC_POOL_REFUSED = 2,  /* OK false, for a reason retrying does not change */
    SC_POOL_FAILED = 3    /* no usable answer after max_attempts attempts, or relay removed */
} sc_pool_result;

/** One update. Views point into the pool or the receive arena: valid until the next call
 *  on the pool. */
typedef struct sc_pool_update {
    sc_pool_update_kind kind;
    uint32_t relay; /* the relay concerned (0 for EOSE and PUBLISH_DONE) */
    sc_str url;     /* its normalised URL */
    uint32_t sub;   /* EVENT, EOSE, CLOSED: the subscription */
    sc_str sub_id;
    uint32_t pub;                        /* PUBLISHED, PUBLISH_DONE: the publish */
    void *user;                          /* the publish's or subscription's user pointer */
    const sc_event *event;               /* EVENT: verified and matched; points into the arena */
    sc_str event_json;                   /* EVENT: the event's JSON object as the relay sent it, a
                                            view into the text given to sc_pool_receive (what
                                            sc_nip17_receive takes: keep the text until then) */
    const sc_relay_msg *message;         /* EVENT and OTHER: the parsed message */
    uint8_t event_id[SC_EVENT_ID_BYTES]; /* PUBLISHED, PUBLISH_DONE: the event published */
    sc_pool_result result;               /* PUBLISHED */
    uint32_t attempts;      /* PUBLISHED: times it was sent to relay, or a connection to
                               send it on failed */
    sc_relay_prefix prefix; /* PUBLISHED (refused), CLOSED, AUTH_REFUSED, AUTH_WANTED */
    sc_str text;            /* the relay's words (refusal, CLOSED, NOTICE, AUTH
                               challenge, AUTH_WANTED's refusal) or the pool's ("no OK within 10000 ms", then
                               the relay's last NOTICE) */
    sc_status status;       /* DROPPED: why the last one was dropped; AUTH_REFUSED: why
                               the pool could not sign its AUTH (SC_OK when the relay
                               refused it) */
    uint32_t count;         /* DROPPED: how many since the last report; EVENT: copies
                               of this event seen so far on other relays (0) */
    uint64_t reserved_[4];  /* zero */
} sc_pool_update;

/** Reports the next update: what received messages meant, then what time brought (due
 *  reconnects, OK deadlines, retries, EOSE deadlines), one per call, oldest first.
 *  now_ms must not go back between calls (a smaller value counts as the latest one).
 *  Answers AUTH challenges by the pool's policy (signing with ctx), or reports
 *  SC_POOL_U_AUTH_WANTED when it has no identity to answer with.
 *  Returns: SC_OK (u->kind SC_POOL_U_NONE when there is nothing); SC_ERR_STATE;
 *           SC_ERR_ARG (a NULL argument).
 *  Out: u (zeroed first). In/Out: p. In: now_ms.
 *  Constant time: no. RNG: when it answers an AUTH (SC_AUX_RAND_BYTES). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_pool_poll(sc_pool *p, sc_ctx *ctx, int64_t now_ms,
                                             sc_pool_update *u) SC_NONNULL(1, 2, 4);

/** When the pool next needs sc_pool_poll without any socket activity: the earliest
 *  reconnect, OK or AUTH deadline, retry, EOSE deadline or DROPPED report.
 *  Returns: that time in ms; INT64_MAX when nothing is scheduled; 0 when an update may be
 *  waiting (the state changed since sc_pool_poll last reported nothing: poll), or p is
 *  unusable.
 *  In: p. Constant time: no. RNG: no. */
SC_API int64_t sc_pool_wakeup(const sc_pool *p);

/* ---- AUTH ------------------------------------------------------------------------------- */

/** The identity the pool answers AUTH challenges with, by its policy (NULL: none, the
 *  application answers). The identity is the caller's: keep it valid while set.
 *  Returns: SC_OK; SC_ERR_STATE; SC_ERR_ARG (p NULL).
 *  In/Out: p. In: who (may be NULL). Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_auth_identity(sc_pool *p, const sc_identity *who)
    SC_NONNULL(1);

/** Answers relay's current challenge as who: the AUTH event is signed and queued first for
 *  sc_pool_next. Aux randomness from the context RNG.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no such relay, or no challenge on its connection);
 *           sc_relay_auth_sign's statuses; SC_ERR_STATE (relay not connected); SC_ERR_ARG.
 *  In/Out: p. In: relay; who; now (unix seconds).
 *  Constant time: in the secret key. RNG: yes (SC_AUX_RAND_BYTES). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_pool_auth(sc_pool *p, sc_ctx *ctx, uint32_t relay,
                                             const sc_identity *who, int64_t now)
    SC_NONNULL(1, 2, 4);

/** The AUTH event to sign elsewhere (an external signer) for relay's current challenge:
 *  kind 22242, the relay and challenge tags, created_at = now, content "", pubkey set to
 *  `pubkey`, no id or signature. Its strings point into a (and the pool: keep both).
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no such relay, or no challenge); SC_ERR_EVENT_RANGE
 *           (now < 0); SC_ERR_STATE; SC_ERR_ARG.
 *  Out: a. In: p, relay, pubkey, now. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_auth_template(const sc_pool *p, sc_relay_auth *a,
                                                      uint32_t relay,
                                                      const uint8_t pubkey[SC_PUBKEY_BYTES],
                                                      int64_t now) SC_NONNULL(1, 2, 4);

/** Queues an AUTH event signed elsewhere for relay, after checking it as the relay will
 *  (sc_relay_auth_verify against the relay's URL and current challenge, within
 *  SC_RELAY_AUTH_WINDOW of now): a signer that returns something else is refused here.
 *  Returns: SC_OK; sc_relay_auth_verify's statuses; SC_ERR_TOO_LARGE (its AUTH message is
 *           longer than the AUTH of the relay's URL and challenge can be: extra tags or
 *           content); SC_ERR_NOT_FOUND (no such relay, or no challenge); SC_ERR_STATE
 *           (relay not connected); SC_ERR_ARG.
 *  In/Out: p. In: relay; ev (signed; copied); now (unix seconds).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_pool_auth_send(sc_pool *p, sc_ctx *ctx, uint32_t relay,
                                                  const sc_event *ev, int64_t now)
    SC_NONNULL(1, 2, 4);

/* ---- publishing ------------------------------------------------------------------------- */

/** Publishes a signed event to relays[0..n_relays) (duplicates ignored). The event is the
 *  caller's: keep it valid and unchanged until SC_POOL_U_PUBLISH_DONE names *pub.
 *  Returns: SC_OK; SC_ERR_FULL (max_publishes in flight, or a relay's session is full);
 *           SC_ERR_EMPTY (no relay); SC_ERR_NOT_FOUND (a relay not in the pool: nothing
 *           is published); SC_ERR_EVENT_FIELD (not signed); the sc_event_check errors;
 *           SC_ERR_STATE (p not set up, or an event with this id is in flight already);
 *           SC_ERR_ARG.
 *  Out: *pub (a handle, never 0; 0 on failure). In/Out: p.
 *  In: ev (kept by reference); relays[0..n_relays); user (returned in its updates).
 *  Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_publish(sc_pool *p, uint32_t *pub, const sc_event *ev,
                                                const uint32_t *relays, size_t n_relays, void *user)
    SC_NONNULL(1, 2, 3);

/** How a publish stands on one of its relays. */
typedef struct sc_pool_publish_state {
    uint32_t relay;
    sc_pool_result result;
    uint32_t attempts;
    int64_t retry_at_ms; /* 0, or when the next attempt is due */
} sc_pool_publish_state;

/** The state of a publish on each of its relays.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no such publish in flight); SC_ERR_BUFFER_TOO_SMALL
 *           (*out_len = its relay count); SC_ERR_STATE; SC_ERR_ARG.
 *  Out: out[0..*out_len). In: p, pub. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_publish_states(const sc_pool *p, sc_pool_publish_state *out,
                                                       size_t out_cap, size_t *out_len,
                                                       uint32_t pub) SC_NONNULL(1, 4);

/* ---- the cursor ------------------------------------------------------------------------- */

/** A subscription's memory across restarts, in caller memory. Opaque. */
typedef struct sc_pool_cursor {
    uint64_t opaque[4];
} sc_pool_cursor;

/** Bytes a cursor needs for max_ids ids and max_relays relay URLs of up to max_url bytes.
 *  Returns: the size; 0 when a count is 0 or above 2^24, or it does not fit size_t. */
SC_API size_t sc_pool_cursor_mem_max(size_t max_ids, size_t max_relays, size_t max_url);

/** Sets up an empty cursor in mem[0..mem_cap).
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL; SC_ERR_TOO_LARGE (a count above 2^24);
 *           SC_ERR_EMPTY (a count of 0); SC_ERR_ARG.
 *  Out: c; mem. On failure c is zeroed. In: the sizes. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_cursor_init(sc_pool_cursor *c, void *mem, size_t mem_cap,
                                                    size_t max_ids, size_t max_relays,
                                                    size_t max_url) SC_NONNULL(1);

/** Wipes a cursor. In/Out: c (NULL allowed). Constant time: n/a. RNG: no. */
SC_API void sc_pool_cursor_clear(sc_pool_cursor *c);

/** Exact length of sc_pool_cursor_save's output for c now. Returns: the length; 0 for an
 *  unusable c. */
SC_API size_t sc_pool_cursor_save_len(const sc_pool_cursor *c);

/** Writes c as bytes (a versioned format: its ids with their created_at, oldest first, and
 *  each relay's URL and resume point).
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = the exact size); SC_ERR_STATE;
 *           SC_ERR_ARG.
 *  Out: out[0..*out_len). In: c. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_cursor_save(const sc_pool_cursor *c, uint8_t *out,
                                                    size_t out_cap, size_t *out_len)
    SC_NONNULL(1, 4);

/** Restores c from bytes written by sc_pool_cursor_save (into a cursor of any capacity:
 *  beyond it, the oldest ids and the relays saved last are left out, and so are URLs over
 *  its max_url). The bytes end with a CRC-32 of the rest: storage damage is refused.
 *  Returns: SC_OK; SC_ERR_ENCODING (not a cursor, truncated, trailing bytes, an unknown
 *           version, a checksum that does not match, an id or a relay twice, a negative
 *           time, a URL that does not normalise); SC_ERR_STATE (c not set up, or in use by
 *           an open subscription); SC_ERR_ARG.
 *  Out: c (emptied first; empty on failure). In: in[0..in_len). Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_cursor_load(sc_pool_cursor *c, const uint8_t *in,
                                                    size_t in_len) SC_NONNULL(1);

/** Whether c has delivered the event with this id.
 *  Returns: SC_OK (seen); SC_ERR_NOT_FOUND; SC_ERR_STATE; SC_ERR_ARG.
 *  In: c, id. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_cursor_seen(const sc_pool_cursor *c,
                                                    const uint8_t id[SC_EVENT_ID_BYTES])
    SC_NONNULL(1, 2);

/** Where a subscription with c resumes on the relay at url: the newest created_at that relay
 *  delivered up to an EOSE or live after one (capped at the clock when it was recorded).
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (nothing recorded for that relay); the URL statuses of
 *           sc_relay_url_normalize; SC_ERR_STATE; SC_ERR_ARG.
 *  Out: *newest (-1 on failure). In: c, url. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_cursor_resume_point(const sc_pool_cursor *c,
                                                            int64_t *newest, sc_str url)
    SC_NONNULL(1, 2);

/* ---- subscriptions ---------------------------------------------------------------------- */

/** Subscription flags (sc_pool_sub_opts.flags). */
#define SC_POOL_SUB_ONCE 1u /* close the subscription after SC_POOL_U_EOSE (a fetch) */

/** Subscription options. NULL means what a zero-initialised struct means. */
typedef struct sc_pool_sub_opts {
    int64_t resume_slack;     /* seconds subtracted from a resume point (0: none; gift
                                 wraps: SC_POOL_SLACK_GIFT_WRAP) */
    uint32_t eose_timeout_ms; /* a connected relay without EOSE after this long counts as
                                 done for SC_POOL_U_EOSE [10000] */
    uint32_t flags;           /* SC_POOL_SUB_* */
    sc_pool_cursor *cursor;   /* the subscription's memory (NULL: the pool's own set of
                                 seen_per_sub ids, lost with the pool); the caller's, kept
                                 by reference until the subscription ends */
    void *user;               /* returned in its updates */
} sc_pool_sub_opts;

/** Opens a subscription with sub_id on relays[0..n_relays): its REQ goes to each of them
 *  (resuming from the cursor, when there is one). Opening sub_id again replaces it (NIP-01):
 *  the same handle comes back. The filters are the caller's, kept by reference until the
 *  subscription ends.
 *  Returns: SC_OK; SC_ERR_FULL (max_subs open, or a relay still holds max_subs CLOSEs to
 *           send); SC_ERR_EMPTY (no filter, no relay, an empty sub id); SC_ERR_NOT_FOUND (a
 *           relay not in the pool); SC_ERR_TOO_LARGE (sub id over 64 bytes); SC_ERR_FILTER;
 *           SC_ERR_UTF8; SC_ERR_FLAGS (unknown flags, a negative resume_slack); SC_ERR_STATE
 *           (p not set up; a cursor not set up, or another open subscription's);
 *           SC_ERR_ARG.
 *  Out: *sub (a handle, never 0; 0 on failure). In/Out: p.
 *  In: sub_id (copied); filters[0..n_filters); relays[0..n_relays); opts (may be NULL).
 *  Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_subscribe(sc_pool *p, uint32_t *sub, sc_str sub_id,
                                                  const sc_relay_filter *filters, size_t n_filters,
                                                  const uint32_t *relays, size_t n_relays,
                                                  const sc_pool_sub_opts *opts) SC_NONNULL(1, 2);

/** Ends a subscription on every relay (a CLOSE is queued where it is open) and releases its
 *  filters and cursor.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no such open subscription); SC_ERR_STATE; SC_ERR_ARG.
 *  In/Out: p. In: sub. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_pool_unsubscribe(sc_pool *p, uint32_t sub) SC_NONNULL(1);

SC_END_DECLS

#endif
