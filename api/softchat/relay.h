/* libsoftchat: the NIP-01 relay protocol, sans-IO: filters, client messages, a strict parser
 * of relay messages, NIP-42 authentication, and a per-relay session state machine.
 *
 * Who owns what. The application owns the socket (one WebSocket per relay), the clock and
 * the storage. The library owns none of them: it turns the application's intentions
 * (subscribe, publish, authenticate) into message texts the application sends, turns the
 * texts the application receives into verified, typed messages, and keeps the protocol
 * state of one relay connection in memory the application gives it. Nothing here reads a
 * clock (every time is an argument), opens a socket, or allocates.
 *
 * The loop (docs/api.md has it in full, docs/examples/relay_session.c runs it):
 *   sc_relay_session_init(&s, mem, cap, max_subs, max_pending, url, &opts);
 *   sc_relay_session_subscribe(&s, SC_STR("inbox"), filters, n);
 *   sc_relay_session_publish(&s, &event);
 *   on socket open:      sc_relay_session_connected(&s, now_ms);
 *   while sending:       sc_relay_session_next(&s, out, cap, &len) -> send out[0..len)
 *   on a text frame:     sc_relay_parse(ctx, &m, arena, ...); sc_relay_session_handle(&s, &u, &m)
 *                        u.kind: deliver an event, a publish accepted / refused, an AUTH
 *                        challenge, EOSE, CLOSED, ...
 *   on a challenge:      sc_relay_session_auth(&s, ctx, out, cap, &len, who, now) writes the
 *                        AUTH message to out: send it yourself, at once (next() does not
 *                        carry it)
 *   on socket close:     sc_relay_session_disconnected(&s, now_ms, &retry_at_ms), reconnect
 *                        then; the open subscriptions (since moved up past what was seen) and
 *                        the publishes not yet acknowledged come out of next() again.
 *
 * Times: now_ms is the wall clock in unix milliseconds (the backoff counts with it, and its
 * seconds cap resume points); AUTH and NIP-40 take unix seconds.
 *
 * Strings: sub ids are 1..SC_RELAY_SUB_ID_MAX bytes of UTF-8; filter tag values and texts
 * are UTF-8 with lengths (sc_str).
 *
 * A pool of sessions over many relays, with routing, retries and deduplication: pool.h.
 */
#ifndef SOFTCHAT_RELAY_H
#define SOFTCHAT_RELAY_H

#include "event.h"
#include "identity.h"

SC_BEGIN_DECLS

#define SC_RELAY_SUB_ID_MAX 64u   /* NIP-01: subscription ids are at most 64 characters */
#define SC_RELAY_KIND_AUTH 22242u /* NIP-42 */
#define SC_RELAY_AUTH_WINDOW 600  /* seconds: the default created_at window of AUTH events */

/* ---- filters ----------------------------------------------------------------------------- */

/** A "#<letter>" condition: events with a tag [letter, v, ...] for one of the values. */
typedef struct sc_relay_tag_filter {
    char letter;          /* a-z or A-Z */
    const sc_str *values; /* at least one */
    size_t n_values;
} sc_relay_tag_filter;

/** Which of since / until / limit a filter has. */
#define SC_RELAY_FILTER_SINCE 1u
#define SC_RELAY_FILTER_UNTIL 2u
#define SC_RELAY_FILTER_LIMIT 4u

/** A NIP-01 filter. Every condition present must hold (AND); a list holds when one of its
 *  entries does; a list with 0 entries is absent. */
typedef struct sc_relay_filter {
    const uint8_t (*ids)[SC_EVENT_ID_BYTES];
    size_t n_ids;
    const uint8_t (*authors)[SC_PUBKEY_BYTES];
    size_t n_authors;
    const uint32_t *kinds; /* each <= 65535 */
    size_t n_kinds;
    const sc_relay_tag_filter *tags;
    size_t n_tags;
    int64_t since;  /* >= 0, when has & SC_RELAY_FILTER_SINCE: created_at >= since */
    int64_t until;  /* >= 0, when has & SC_RELAY_FILTER_UNTIL: created_at <= until */
    uint64_t limit; /* when has & SC_RELAY_FILTER_LIMIT: the initial query's size (relays) */
    unsigned has;   /* SC_RELAY_FILTER_* */
} sc_relay_filter;

/** Whether ev matches one of filters[0..n_filters) (OR over filters, AND inside one), the
 *  rule relays apply to REQ; limit plays no part. An empty filter matches every event.
 *  Returns: SC_OK (a match); SC_ERR_NO_MATCH (none); SC_ERR_FILTER (a filter that would not
 *           be written: a tag letter outside a-z/A-Z or given twice, a tag condition
 *           without values, a NULL list with a count, a negative since / until, a kind
 *           above 65535); SC_ERR_ARG (ev NULL, filters NULL with n_filters > 0).
 *  In: filters[0..n_filters); ev (its id is compared as it is: verify it first).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_filter_match(const sc_relay_filter *filters,
                                                      size_t n_filters, const sc_event *ev);

/** Arena bytes that suffice for sc_relay_filter_parse of any text of json_len bytes, at any
 *  alignment. Returns: the bound; 0 when it does not fit size_t. */
SC_API size_t sc_relay_filter_parse_arena_max(size_t json_len);

/** Parses one filter object (strict: the keys ids, authors, kinds, #<letter>, since, until,
 *  limit, each at most once; lists non-empty; ids and authors exactly 64 lowercase hex
 *  characters; kinds 0..65535; since, until, limit non-negative integers; any other key is
 *  refused). Lists and strings go into the arena; f's views point there.
 *  Returns: SC_OK; SC_ERR_JSON; SC_ERR_UTF8; SC_ERR_FILTER (a shape error above);
 *           SC_ERR_TOO_LARGE (json_len over 1 MiB); SC_ERR_BUFFER_TOO_SMALL (*arena_used =
 *           the exact need at this arena address; arena NULL with arena_cap 0 asks);
 *           SC_ERR_ARG (f or arena_used NULL, json NULL with json_len > 0, arena NULL with
 *           arena_cap > 0).
 *  Out: f (zeroed on failure); arena; *arena_used (0 on failure but for
 *       SC_ERR_BUFFER_TOO_SMALL).
 *  In: json[0..json_len).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_filter_parse(sc_relay_filter *f, void *arena,
                                                      size_t arena_cap, size_t *arena_used,
                                                      const char *json, size_t json_len)
    SC_NONNULL(1, 4);

/* ---- client messages ------------------------------------------------------------------- */

/** The messages a client sends. */
typedef enum sc_relay_client_type {
    SC_RELAY_CLIENT_EVENT = 1,    /* ["EVENT", event] */
    SC_RELAY_CLIENT_REQ = 2,      /* ["REQ", sub_id, filter...] */
    SC_RELAY_CLIENT_CLOSE = 3,    /* ["CLOSE", sub_id] */
    SC_RELAY_CLIENT_AUTH = 4,     /* ["AUTH", event] (NIP-42) */
    SC_RELAY_CLIENT_COUNT = 5,    /* ["COUNT", sub_id, filter...] (NIP-45) */
    SC_RELAY_CLIENT_NEG_OPEN = 6, /* ["NEG-OPEN", sub_id, filter, hex] (NIP-77) */
    SC_RELAY_CLIENT_NEG_MSG = 7,  /* ["NEG-MSG", sub_id, hex] */
    SC_RELAY_CLIENT_NEG_CLOSE = 8 /* ["NEG-CLOSE", sub_id] */
} sc_relay_client_type;

/** One client message to write. */
typedef struct sc_relay_client_msg {
    sc_relay_client_type type;
    sc_str sub_id;                  /* REQ, CLOSE, COUNT, NEG-*: 1..64 bytes of UTF-8 */
    const sc_event *event;          /* EVENT, AUTH: a signed event (all seven fields) */
    const sc_relay_filter *filters; /* REQ, COUNT: at least one; NEG-OPEN: exactly one */
    size_t n_filters;
    const uint8_t *neg; /* NEG-OPEN, NEG-MSG: the Negentropy message, written as
                           lowercase hex */
    size_t neg_len;
} sc_relay_client_msg;

/** Exact length of sc_relay_msg_write's output for m. Returns: the length; 0 when m is
 *  invalid (the call then says why) or the length does not fit size_t. */
SC_API size_t sc_relay_msg_write_len(const sc_relay_client_msg *m);

/** Writes the JSON text of a client message (one line, no terminator). Events are written
 *  as objects with the escaping of sc_event_to_json; filters with their keys in the order
 *  ids, authors, kinds, #tags (as given), since, until, limit.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_relay_msg_write_len; out may be
 *           NULL with out_cap 0 to ask); SC_ERR_FLAGS (an unknown type); SC_ERR_EMPTY (a
 *           required sub id, filter list or Negentropy message missing); SC_ERR_TOO_LARGE
 *           (a sub id over SC_RELAY_SUB_ID_MAX bytes); SC_ERR_FILTER (as for
 *           sc_relay_filter_match; also NEG-OPEN with other than one filter); SC_ERR_UTF8;
 *           SC_ERR_EVENT_FIELD (an event without its id, pubkey or sig); the sc_event_check errors;
 *           SC_ERR_ARG
 *           (m or out_len NULL, out NULL with out_cap > 0, a NULL event where one is
 *           needed).
 *  Out: out[0..*out_len); nothing written on failure (*out_len 0, or the need).
 *  In: m.
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_msg_write(char *out, size_t out_cap, size_t *out_len,
                                                   const sc_relay_client_msg *m) SC_NONNULL(3, 4);

/* ---- relay messages ------------------------------------------------------------------------ */

/** The messages a relay sends. */
typedef enum sc_relay_type {
    SC_RELAY_EVENT = 1,   /* ["EVENT", sub_id, event] */
    SC_RELAY_OK = 2,      /* ["OK", event_id, accepted, message] */
    SC_RELAY_EOSE = 3,    /* ["EOSE", sub_id] */
    SC_RELAY_CLOSED = 4,  /* ["CLOSED", sub_id, message] */
    SC_RELAY_NOTICE = 5,  /* ["NOTICE", message] */
    SC_RELAY_AUTH = 6,    /* ["AUTH", challenge] */
    SC_RELAY_COUNT = 7,   /* ["COUNT", sub_id, {"count": n, ...}] */
    SC_RELAY_NEG_MSG = 8, /* ["NEG-MSG", sub_id, hex] */
    SC_RELAY_NEG_ERR = 9  /* ["NEG-ERR", sub_id, message] */
} sc_relay_type;

/** The machine-readable prefix of an OK, CLOSED or NEG-ERR message ("prefix: text"). */
typedef enum sc_relay_prefix {
    SC_RELAY_PREFIX_NONE = 0,  /* no "word:" at the start */
    SC_RELAY_PREFIX_OTHER = 1, /* a word this library does not know */
    SC_RELAY_PREFIX_DUPLICATE = 2,
    SC_RELAY_PREFIX_POW = 3,
    SC_RELAY_PREFIX_BLOCKED = 4,
    SC_RELAY_PREFIX_RATE_LIMITED = 5,
    SC_RELAY_PREFIX_INVALID = 6,
    SC_RELAY_PREFIX_RESTRICTED = 7,
    SC_RELAY_PREFIX_MUTE = 8,
    SC_RELAY_PREFIX_ERROR = 9,
    SC_RELAY_PREFIX_AUTH_REQUIRED = 10,
    SC_RELAY_PREFIX_CLOSED = 11 /* NIP-77 NEG-ERR */
} sc_relay_prefix;

/** A parsed relay message. Views point into the parse arena. */
typedef struct sc_relay_msg {
    sc_relay_type type;
    sc_str sub_id;                       /* EVENT, EOSE, CLOSED, COUNT, NEG-MSG, NEG-ERR */
    sc_event event;                      /* EVENT: parsed and verified (id and signature) */
    uint8_t event_id[SC_EVENT_ID_BYTES]; /* OK */
    int accepted;                        /* OK: 1 for true, 0 for false */
    sc_relay_prefix prefix;              /* OK, CLOSED, NEG-ERR */
    sc_str message;                      /* OK, CLOSED, NOTICE, NEG-ERR: the whole text; AUTH: the
                                            challenge */
    sc_str reason;                       /* OK, CLOSED, NEG-ERR: the text after "prefix:" and its
                                            spaces (the whole text without a prefix) */
    uint64_t count;                      /* COUNT */
    const uint8_t *neg;                  /* NEG-MSG: the decoded Negentropy message */
    size_t neg_len;
} sc_relay_msg;

/** Parse options. NULL means what a zero-initialised struct means. */
typedef struct sc_relay_parse_opts {
    size_t max_input;   /* longer texts are SC_ERR_TOO_LARGE; 0 = 1 MiB */
    unsigned max_depth; /* nesting allowed in unknown values (the event's, and extra array
                           elements); 0 = 32, at most SC_EVENT_PARSE_MAX_DEPTH */
} sc_relay_parse_opts;

/** Arena bytes that suffice for sc_relay_parse of any text of json_len bytes, at any
 *  alignment. Returns: the bound; 0 when it does not fit size_t. */
SC_API size_t sc_relay_parse_arena_max(size_t json_len);

/** Parses and checks one relay message (a JSON array whose first element names the type).
 *  Strict: each type has exactly its elements, of their JSON types (an OK's flag is true or
 *  false; its message and a CLOSED's are present, possibly empty; an AUTH's challenge is
 *  not empty; an EVENT's sub id is 1..64 bytes); an EVENT's event is parsed with sc_event_parse
 *  (all seven fields) and
 *  verified with sc_event_verify before it is handed out; a NEG-MSG's payload is lowercase
 *  hex, at least one byte; an OK's id 64 lowercase hex characters; a COUNT's object has an
 *  integer "count" of at most UINT64_MAX (other keys are skipped; their values may nest
 *  max_depth deep).
 *  Returns: SC_OK; SC_ERR_JSON / SC_ERR_UTF8 (the text); SC_ERR_RELAY_MESSAGE (the wrong
 *           shape: not an array, a missing, extra or ill-typed element, a bad id or hex);
 *           SC_ERR_RELAY_UNKNOWN (an array of any length whose first element is a string
 *           naming no type above: callers usually ignore it); an EVENT's event errors
 *           (SC_ERR_EVENT_FIELD, SC_ERR_EVENT_RANGE, ..., SC_ERR_ID_MISMATCH,
 *           SC_ERR_INVALID_SIG);
 *           SC_ERR_TOO_LARGE (json_len over opts->max_input; nesting over max_depth);
 *           SC_ERR_BUFFER_TOO_SMALL (*arena_used = the need at this arena address; NULL/0
 *           asks); SC_ERR_ARG (m, arena_used or ctx NULL, json NULL with json_len > 0,
 *           arena NULL with arena_cap > 0, max_depth over SC_EVENT_PARSE_MAX_DEPTH);
 *           SC_ERR_STATE / SC_ERR_UNSUPPORTED (ctx, to verify an EVENT).
 *  Out: m (zeroed on failure); arena; *arena_used (0 on failure but for
 *       SC_ERR_BUFFER_TOO_SMALL); arena bytes written by a failing parse are wiped.
 *  In: json[0..json_len); opts (may be NULL).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_parse(sc_ctx *ctx, sc_relay_msg *m, void *arena,
                                               size_t arena_cap, size_t *arena_used,
                                               const char *json, size_t json_len,
                                               const sc_relay_parse_opts *opts) SC_NONNULL(1, 2, 5);

/* ---- NIP-42 ---------------------------------------------------------------------------- */

/** Writes the normalised form of a relay URL, the form NIP-42 relay tags are compared in:
 *  scheme and host lowercase, the scheme's default port dropped (ws 80, wss 443), a path
 *  of "/" alone dropped, a longer path, query and fragment kept as written
 *  ("WSS://Relay.Example:443/" -> "wss://relay.example"). The host ends at the first ':',
 *  '/', '?' or '#', or is an IPv6 literal in brackets ("wss://[::1]:7777").
 *  Returns: SC_OK; SC_ERR_ENCODING (not ws:// or wss://, an empty host, a bracketed host
 *           other than hex digits, ':' and '.', a bad port);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = the exact size; it never exceeds url.len);
 *           SC_ERR_ARG (out_len NULL, out NULL with out_cap > 0, url.ptr NULL with a
 *           length).
 *  Out: out[0..*out_len), nothing written on failure.
 *  In: url.
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_url_normalize(char *out, size_t out_cap, size_t *out_len,
                                                       sc_str url) SC_NONNULL(3);

/** A kind 22242 AUTH event and the arrays it points into. It points into itself: do not
 *  copy it while the event is in use. */
typedef struct sc_relay_auth {
    sc_event event;
    sc_tag tags[2];
    sc_str items[4];
} sc_relay_auth;

/** Builds and signs the NIP-42 AUTH event for `challenge` on the relay at relay_url:
 *  kind 22242, tags [["relay", relay_url], ["challenge", challenge]], content "",
 *  created_at as given (the current time). The tag values are the caller's strings (the
 *  event points at them: keep them while using it). Aux randomness from the context RNG.
 *  Returns: SC_OK; SC_ERR_EMPTY (an empty url or challenge); SC_ERR_UTF8; SC_ERR_EVENT_RANGE
 *           (created_at < 0); SC_ERR_RNG; SC_ERR_STATE (ctx, who); SC_ERR_ARG (a NULL
 *           argument, a NULL string with a length); SC_ERR_UNSUPPORTED.
 *  Out: a (a->event signed; zeroed on failure).
 *  In: who; relay_url; challenge; created_at.
 *  Constant time: in the secret key. RNG: yes (SC_AUX_RAND_BYTES). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_auth_sign(sc_ctx *ctx, sc_relay_auth *a,
                                                   const sc_identity *who, sc_str relay_url,
                                                   sc_str challenge, int64_t created_at)
    SC_NONNULL(1, 2, 3);

/** As sc_relay_auth_sign with explicit aux randomness.
 *  Returns: as sc_relay_auth_sign without SC_ERR_RNG. Out: a. In: as sc_relay_auth_sign,
 *  plus aux: SC_AUX_RAND_BYTES. Constant time: in the secret key and aux. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_relay_auth_sign_with_rand(
    sc_ctx *ctx, sc_relay_auth *a, const sc_identity *who, sc_str relay_url, sc_str challenge,
    int64_t created_at, const uint8_t aux[SC_AUX_RAND_BYTES]) SC_NONNULL(1, 2, 3, 7);

/** Checks an AUTH event as a relay must (NIP-42), in this order: kind 22242
 *  (SC_ERR_AUTH_KIND); a challenge tag equal to `challenge`, the one most recently sent on
 *  this connection (SC_ERR_AUTH_CHALLENGE); a relay tag naming relay_url once both are
 *  normalised by sc_relay_url_normalize (SC_ERR_AUTH_RELAY, also for a tag that does not
 *  normalise; URLs of any length compare); |created_at - now| <= window seconds
 *  (0 = SC_RELAY_AUTH_WINDOW; a negative created_at or now fails it: SC_ERR_AUTH_TIME);
 *  then the id and signature (sc_event_verify's statuses). The signer is ev->pubkey.
 *  Returns: SC_OK; the statuses above; SC_ERR_ENCODING (relay_url itself does not
 *           normalise); SC_ERR_ARG (a NULL argument, a negative window).
 *  In: ev; relay_url; challenge; now (unix seconds); window.
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_auth_verify(sc_ctx *ctx, const sc_event *ev,
                                                     sc_str relay_url, sc_str challenge,
                                                     int64_t now, int64_t window) SC_NONNULL(1, 2);

/* ---- the session --------------------------------------------------------------------------- */

/** Session options. NULL means what a zero-initialised struct means. */
typedef struct sc_relay_session_opts {
    uint32_t backoff_min_ms; /* the first reconnect delay; 0 = 500 */
    uint32_t backoff_max_ms; /* the cap of the doubling delays; 0 = 30000 */
    int64_t resume_slack;    /* seconds: a resent REQ's since is the newest created_at seen
                                minus this (gift wraps are backdated up to 2 days: 172800
                                there); 0 = none */
    size_t max_challenge;    /* the longest AUTH challenge kept; 0 = 256 */
} sc_relay_session_opts;

/** A session: the protocol state of one relay connection, in caller memory. Opaque. */
typedef struct sc_relay_session {
    uint64_t opaque[16];
} sc_relay_session;

/** What sc_relay_session_handle learned from one relay message. */
typedef enum sc_relay_update_kind {
    SC_RELAY_U_NONE = 0,           /* nothing for the application (NOTICE, an ignored OK) */
    SC_RELAY_U_EVENT = 1,          /* m->event is for the application, on subscription sub_id */
    SC_RELAY_U_EOSE = 2,           /* sub_id's stored events are all in */
    SC_RELAY_U_CLOSED = 3,         /* the relay ended sub_id (m->prefix, m->reason); it is gone */
    SC_RELAY_U_ACCEPTED = 4,       /* the publish of event_id was accepted (also "duplicate:") */
    SC_RELAY_U_REJECTED = 5,       /* the publish of event_id was refused (m->prefix, reason) */
    SC_RELAY_U_AUTH_CHALLENGE = 6, /* a challenge arrived: sc_relay_session_auth answers it */
    SC_RELAY_U_AUTH_REQUIRED = 7,  /* a REQ or publish was refused with "auth-required:"; it is
                                      held and goes out again once authenticated */
    SC_RELAY_U_AUTHENTICATED = 8,  /* the relay accepted the AUTH: held messages are queued */
    SC_RELAY_U_AUTH_REFUSED = 9,   /* the relay refused the AUTH (m->reason) */
    SC_RELAY_U_NOTICE = 10,        /* m->message */
    SC_RELAY_U_OTHER = 11          /* COUNT, NEG-MSG, NEG-ERR: passed through, not tracked */
} sc_relay_update_kind;

/** The result of sc_relay_session_handle. */
typedef struct sc_relay_update {
    sc_relay_update_kind kind;
    sc_str sub_id;                       /* EVENT, EOSE, CLOSED, AUTH_REQUIRED (for a REQ) */
    uint8_t event_id[SC_EVENT_ID_BYTES]; /* ACCEPTED, REJECTED, AUTH_REQUIRED (a publish) */
} sc_relay_update;

/** Bytes of memory a session needs for max_subs subscriptions, max_pending unacknowledged
 *  publishes and a relay URL of url_len bytes (with opts' max_challenge; opts may be NULL),
 *  at any alignment.
 *  Returns: the size; 0 when it does not fit size_t. */
SC_API size_t sc_relay_session_mem_max(size_t max_subs, size_t max_pending, size_t url_len,
                                       const sc_relay_session_opts *opts);

/** Sets up a session in mem[0..mem_cap) for the relay at relay_url (copied in; used for the
 *  AUTH event's relay tag). It starts disconnected.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (mem_cap below sc_relay_session_mem_max);
 *           SC_ERR_EMPTY (an empty url); SC_ERR_UTF8; SC_ERR_FLAGS (backoff_min_ms above
 *           backoff_max_ms, a negative resume_slack); SC_ERR_ARG (s or mem NULL, url NULL
 *           with a length).
 *  Out: s; mem (zeroed first). On failure s is zeroed (later calls are SC_ERR_STATE).
 *  In: max_subs, max_pending (each may be 0); relay_url; opts (may be NULL).
 *  Constant time: no. RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_init(sc_relay_session *s, void *mem,
                                                      size_t mem_cap, size_t max_subs,
                                                      size_t max_pending, sc_str relay_url,
                                                      const sc_relay_session_opts *opts)
    SC_NONNULL(1);

/** Wipes the session and its memory (the challenge and every reference it held).
 *  In/Out: s (NULL allowed: nothing happens). Returns nothing. Constant time: n/a. RNG: no. */
SC_API void sc_relay_session_clear(sc_relay_session *s);

/** The socket is open: every open subscription and every publish not yet acknowledged is
 *  queued for sc_relay_session_next. A subscription that saw its EOSE before is resent with
 *  since raised to the newest created_at it delivered (never above now_ms's seconds: an
 *  event dated in the future cannot move a resume past the present, where it would hear
 *  nothing more), minus resume_slack, and without its limit (a resume wants everything
 *  since). Stored events come newest first, so since
 *  would skip older ones a cut connection never sent: events delivered before an EOSE
 *  count only once an EOSE comes, and a subscription that never saw one is resent as it
 *  was. Events the relay sends again (since is inclusive) are the application's to drop
 *  by id: it owns the store.
 *  Returns: SC_OK; SC_ERR_STATE (s not set up, or already connected); SC_ERR_ARG (s NULL).
 *  In/Out: s. In: now_ms (the wall clock, unix milliseconds; kept for the backoff).
 *  Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_connected(sc_relay_session *s, int64_t now_ms);

/** The socket closed (or failed to open): the AUTH state is dropped, nothing is queued, and
 *  *retry_at_ms says when to reconnect: now_ms plus the backoff delay (at most INT64_MAX),
 *  which doubles after each failed attempt from backoff_min_ms up to backoff_max_ms (a
 *  connection that lasted backoff_max_ms resets it).
 *  Returns: SC_OK; SC_ERR_STATE (s not set up); SC_ERR_ARG (s or retry_at_ms NULL).
 *  In/Out: s. Out: *retry_at_ms. In: now_ms.
 *  Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_disconnected(sc_relay_session *s, int64_t now_ms,
                                                              int64_t *retry_at_ms)
    SC_NONNULL(1, 3);

/** Opens (or replaces: NIP-01) a subscription. The filters are the caller's and must stay
 *  valid and unchanged until the subscription ends (sc_relay_session_unsubscribe, or a
 *  CLOSED); the REQ is queued when connected.
 *  Returns: SC_OK; SC_ERR_FULL (max_subs subscriptions are open); SC_ERR_EMPTY (no filter,
 *           empty sub id); SC_ERR_TOO_LARGE (sub id over 64 bytes); SC_ERR_FILTER;
 *           SC_ERR_UTF8; SC_ERR_STATE; SC_ERR_ARG (s NULL, filters NULL, sub_id.ptr NULL
 *           with a length).
 *  In/Out: s. In: sub_id (copied); filters[0..n_filters) (kept by reference).
 *  Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_subscribe(sc_relay_session *s, sc_str sub_id,
                                                           const sc_relay_filter *filters,
                                                           size_t n_filters) SC_NONNULL(1);

/** Ends a subscription: a CLOSE is queued when connected, and the filters are released.
 *  Returns: SC_OK; SC_ERR_SUBSCRIPTION (no such open subscription); SC_ERR_STATE; SC_ERR_ARG.
 *  In/Out: s. In: sub_id. Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_unsubscribe(sc_relay_session *s, sc_str sub_id)
    SC_NONNULL(1);

/** Queues a signed event for publishing; it stays pending (and is sent again after a
 *  reconnect or an AUTH) until the relay answers OK. The event is the caller's: keep it
 *  valid until SC_RELAY_U_ACCEPTED or SC_RELAY_U_REJECTED names it (or the session is
 *  cleared). Publishing an event already pending does nothing.
 *  Returns: SC_OK; SC_ERR_FULL (max_pending publishes pending); SC_ERR_EVENT_FIELD (not
 *           signed); the sc_event_check errors; SC_ERR_STATE; SC_ERR_ARG.
 *  In/Out: s. In: ev (kept by reference). Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_publish(sc_relay_session *s, const sc_event *ev)
    SC_NONNULL(1, 2);

/** The number of publishes awaiting OK.
 *  Returns: the count; 0 for NULL or a session not set up.
 *  In: s. Constant time: n/a. RNG: no. */
SC_API size_t sc_relay_session_pending(const sc_relay_session *s);

/** Exact length of the next message sc_relay_session_next would write.
 *  Returns: the length; 0 when there is nothing to send (or s is not usable). */
SC_API size_t sc_relay_session_next_len(const sc_relay_session *s);

/** Writes the next queued message to send (in this order: CLOSEs, REQs, EVENTs; the AUTH
 *  is written by sc_relay_session_auth) and marks it sent. *out_len == 0 (and SC_OK):
 *  nothing to send. Disconnected, nothing is queued.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_relay_session_next_len; nothing
 *           is marked sent); the sc_relay_msg_write errors for a filter or event the caller
 *           changed since (the entry is dropped); SC_ERR_STATE; SC_ERR_ARG (s or out_len
 *           NULL, out NULL with out_cap > 0).
 *  Out: out[0..*out_len). In/Out: s.
 *  Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_next(sc_relay_session *s, char *out,
                                                      size_t out_cap, size_t *out_len)
    SC_NONNULL(1, 4);

/** Applies one parsed relay message (from sc_relay_parse) to the session and says what it
 *  means for the application (see sc_relay_update_kind). An EVENT must name an open
 *  subscription and match its filters; it advances the newest created_at seen there (the
 *  resume point: see sc_relay_session_connected). An OK
 *  for a pending publish settles it (accepted, "duplicate:" included, or refused), but an
 *  "auth-required:" refusal, which holds it until the AUTH is accepted; a CLOSED with
 *  "auth-required:" likewise holds the REQ. An AUTH challenge is kept (replacing any
 *  earlier one); an empty one, which sc_relay_parse refuses, is SC_RELAY_U_NONE and changes
 *  nothing.
 *  Returns: SC_OK; SC_ERR_SUBSCRIPTION (an EVENT, EOSE or CLOSED for a subscription not
 *           open: drop it); SC_ERR_NO_MATCH (an EVENT its subscription's filters do not
 *           match: drop it); SC_ERR_FILTER (the subscription's filters were changed
 *           since into ones sc_relay_filter_match refuses); SC_ERR_TOO_LARGE (a challenge
 *           over max_challenge);
 *           SC_ERR_STATE (s not set up, or disconnected); SC_ERR_ARG (a NULL argument).
 *  Out: u (zeroed first; views into s and m). In/Out: s. In: m.
 *  Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_handle(sc_relay_session *s, sc_relay_update *u,
                                                        const sc_relay_msg *m) SC_NONNULL(1, 2, 3);

/** Answers the current AUTH challenge as `who`: signs the AUTH event (sc_relay_auth_sign
 *  with the session's relay URL) and writes ["AUTH", event] to out, for the caller to send
 *  at once (it is not queued for sc_relay_session_next); the session then waits for its OK
 *  (SC_RELAY_U_AUTHENTICATED / SC_RELAY_U_AUTH_REFUSED). Aux randomness from the context
 *  RNG.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no challenge on this connection); SC_ERR_BUFFER_TOO_SMALL
 *           (*out_len = the exact size; nothing signed is kept); sc_relay_auth_sign's
 *           statuses; SC_ERR_STATE (s disconnected or not set up); SC_ERR_ARG.
 *  Out: out[0..*out_len); bytes a failing call wrote are zeroed. In/Out: s. In: who; now
 *       (unix seconds).
 *  Constant time: in the secret key. RNG: yes (SC_AUX_RAND_BYTES). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_auth(sc_relay_session *s, sc_ctx *ctx, char *out,
                                                      size_t out_cap, size_t *out_len,
                                                      const sc_identity *who, int64_t now)
    SC_NONNULL(1, 2, 5, 6);

/** As sc_relay_session_auth with explicit aux randomness.
 *  Returns: as sc_relay_session_auth without SC_ERR_RNG. Out: as sc_relay_session_auth.
 *  In: as sc_relay_session_auth, plus aux. Constant time: in the secret key and aux. RNG: no. */
SC_API SC_WARN_UNUSED sc_status
sc_relay_session_auth_with_rand(sc_relay_session *s, sc_ctx *ctx, char *out, size_t out_cap,
                                size_t *out_len, const sc_identity *who, int64_t now,
                                const uint8_t aux[SC_AUX_RAND_BYTES]) SC_NONNULL(1, 2, 5, 6, 8);

/** The AUTH event to sign elsewhere (an external signer: signer.h) for the session's current
 *  challenge: kind 22242, the relay and challenge tags, created_at = now, content "", pubkey
 *  set to `pubkey`, no id or signature. Its strings point into a and the session: keep both
 *  unchanged while it is used. Then sc_event_sign_start over the signer, then
 *  sc_relay_session_auth_send.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no challenge on this connection); SC_ERR_EVENT_RANGE
 *           (now < 0); SC_ERR_STATE (s not set up, or not connected); SC_ERR_ARG (a NULL
 *           argument).
 *  Out: a (zeroed first, and on failure).
 *  In: s; pubkey: SC_PUBKEY_BYTES (the user's); now (unix seconds).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_auth_template(
    const sc_relay_session *s, sc_relay_auth *a, const uint8_t pubkey[SC_PUBKEY_BYTES], int64_t now)
    SC_NONNULL(1, 2, 3);

/** Answers the current challenge with an AUTH event signed elsewhere: checked first as the
 *  relay will check it (sc_relay_auth_verify against the session's URL and current
 *  challenge, within SC_RELAY_AUTH_WINDOW of now), so that a signer that returns anything
 *  else is refused here; then its AUTH message is written to out and its OK awaited, as
 *  sc_relay_session_auth does.
 *  Returns: SC_OK; sc_relay_auth_verify's statuses (SC_ERR_AUTH_KIND,
 *           SC_ERR_AUTH_CHALLENGE, SC_ERR_AUTH_RELAY, SC_ERR_AUTH_TIME, SC_ERR_ID_MISMATCH,
 *           SC_ERR_INVALID_SIG, ...); SC_ERR_NOT_FOUND (no challenge); SC_ERR_BUFFER_TOO_SMALL
 *           (*out_len = the exact size; nothing is awaited); SC_ERR_STATE (not connected);
 *           SC_ERR_ARG (s, ctx, ev or out_len NULL, out NULL with out_cap > 0).
 *  Out: out[0..*out_len) (zeroed on a failure to write it); *out_len (0 on failure, or the
 *       need). In/Out: s.
 *  In: ev (the signed AUTH event); now (unix seconds).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_relay_session_auth_send(sc_relay_session *s, sc_ctx *ctx,
                                                           char *out, size_t out_cap,
                                                           size_t *out_len, const sc_event *ev,
                                                           int64_t now) SC_NONNULL(1, 2, 5, 6);

SC_END_DECLS

#endif
