/* libsoftchat: NIP-17 delivery over a relay pool: where each receiver reads its messages
 * (inbox discovery from kind 10050 and NIP-65 kind 10002) and a delivery record per message
 * that survives the process.
 *
 * Inbox discovery. NIP-17 sends a receiver's gift wrap only to the relays of its kind 10050
 * list; a receiver without one "is not ready" for DMs. An sc_inboxes directory collects the
 * lists the application fetched (sc_inboxes_filter gives the filter: kinds 10050 and 10002
 * by the users' keys, on bootstrap relays and, once known, on each user's NIP-65 write
 * relays, where its own lists live), keeps the newest of each kind per user, and answers
 * sc_inboxes_get: the user's 10050 relays, or SC_ERR_NO_INBOX. Falling back to the user's
 * NIP-65 read relays is an explicit choice of the caller (SC_INBOXES_FALLBACK_READ), never
 * a default.
 *
 * The delivery record. sc_delivery_init takes the gift wraps of one message (the output of
 * sc_nip17_send) and the relays of each receiver, and copies both into the record's
 * memory: from then on the record holds everything needed to finish the delivery. Per
 * receiver and per relay it keeps how the publish stands (sc_pool_result, attempts, the
 * relay's last words); a receiver is DELIVERED once one of its relays accepted its wrap, and
 * the message is done when every receiver is. sc_delivery_save writes the record as bytes
 * and sc_delivery_load restores it: save it before the first send (the intent) and after
 * updates, and after a restart load it and call sc_delivery_start again; relays that
 * accepted are not asked again.
 *   sc_delivery_init(&d, mem, cap, ctx, wraps_json, wraps, n, routes);
 *   save(d);                      the intent
 *   sc_delivery_start(&d, &pool); its wraps are published through the pool
 *   for each pool update u: if (sc_delivery_apply(&d, &u) == SC_OK) save(d);
 *   until sc_delivery_outcome_get(&d) is not SC_DELIVERY_PENDING
 * The saved bytes end with a CRC-32 of the rest: storage damage is refused on load. The
 * receive side's memory across restarts is the pool's cursor (pool.h).
 */
#ifndef SOFTCHAT_DELIVERY_H
#define SOFTCHAT_DELIVERY_H

#include "nip17.h"
#include "pool.h"

SC_BEGIN_DECLS

#define SC_NIP65_KIND_RELAY_LIST 10002u

/* ---- inbox discovery -------------------------------------------------------------------- */

/** A directory of users' relay lists, in caller memory. Opaque. */
typedef struct sc_inboxes {
    uint64_t opaque[4];
} sc_inboxes;

/** Bytes a directory needs for max_users users with at most max_relays relays of up to
 *  max_url bytes in each list (longer lists keep their first max_relays).
 *  Returns: the size; 0 when a count is 0 or above 65535, or it does not fit size_t. */
SC_API size_t sc_inboxes_mem_max(size_t max_users, size_t max_relays, size_t max_url);

/** Sets up an empty directory.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL; SC_ERR_EMPTY (a count of 0); SC_ERR_TOO_LARGE (a
 *           count above 65535); SC_ERR_ARG.
 *  Out: b; mem. On failure b is zeroed. In: the sizes. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_inboxes_init(sc_inboxes *b, void *mem, size_t mem_cap,
                                                size_t max_users, size_t max_relays, size_t max_url)
    SC_NONNULL(1);

/** Wipes a directory. In/Out: b (NULL allowed). Constant time: n/a. RNG: no. */
SC_API void sc_inboxes_clear(sc_inboxes *b);

/** Fills f with the filter that fetches users' relay lists: kinds 10050 and 10002, authors
 *  users[0..n_users). f points at users and at a static kinds array.
 *  Returns: SC_OK; SC_ERR_EMPTY (no user); SC_ERR_ARG.
 *  Out: f (zeroed on failure). In: users. Constant time: no. RNG: no. No context. */
SC_API SC_WARN_UNUSED sc_status sc_inboxes_filter(sc_relay_filter *f,
                                                  const uint8_t (*users)[SC_PUBKEY_BYTES],
                                                  size_t n_users) SC_NONNULL(1);

/** Records a user's kind 10050 or 10002 event (verified by the caller: the pool's events
 *  are). A list older than the one held for that user and kind is ignored (SC_OK): a
 *  replaceable event's newest created_at wins, ties by the lowest id (NIP-01). Kind 10050
 *  lists ["relay", url] tags; kind 10002 ["r", url] (read and write), ["r", url, "read"] and
 *  ["r", url, "write"] (another marker: left out). Relays that do not normalise
 *  (sc_relay_url_normalize), exceed max_url, repeat one before or come after max_relays are
 *  left out.
 *  Returns: SC_OK; SC_ERR_MESSAGE (another kind); SC_ERR_EVENT_FIELD (no id or pubkey);
 *           SC_ERR_FULL (max_users users and this is a new one); the sc_nip17_inbox_parse
 *           statuses (a malformed list); SC_ERR_STATE; SC_ERR_ARG.
 *  In/Out: b. In: ev. Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_inboxes_add(sc_inboxes *b, const sc_event *ev) SC_NONNULL(1, 2);

/** sc_inboxes_get flags. */
#define SC_INBOXES_FALLBACK_READ 1u /* no 10050: use the user's NIP-65 read relays */
#define SC_INBOXES_WRITE                                                                           \
    2u /* the user's NIP-65 write relays (where its own lists
          and posts are), not its inbox */

/** Where a list came from. */
typedef enum sc_inbox_source {
    SC_INBOX_NONE = 0,
    SC_INBOX_DM_RELAYS = 1,  /* kind 10050 */
    SC_INBOX_NIP65_READ = 2, /* kind 10002, read (or unmarked) relays */
    SC_INBOX_NIP65_WRITE = 3 /* kind 10002, write (or unmarked) relays */
} sc_inbox_source;

/** The relays to send user's gift wraps to: its kind 10050 list (by flags, its NIP-65 read
 *  relays when it has none, or its write relays). Views point into the directory.
 *  Returns: SC_OK; SC_ERR_NO_INBOX (no kind 10050 with a relay known for user, and no
 *           fallback taken or none there; with SC_INBOXES_WRITE: no write relay known);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = the count; nothing written); SC_ERR_FLAGS (an
 *           unknown flag, or both flags); SC_ERR_STATE; SC_ERR_ARG.
 *  Out: out[0..*out_len); *source (may be NULL). In: b, user, flags.
 *  Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_inboxes_get(const sc_inboxes *b, sc_str *out, size_t out_cap,
                                               size_t *out_len, sc_inbox_source *source,
                                               const uint8_t user[SC_PUBKEY_BYTES], unsigned flags)
    SC_NONNULL(1, 4, 6);

/* ---- the delivery record ---------------------------------------------------------------- */

/** The relays of one gift wrap's receiver (wraps[i].recipient). */
typedef struct sc_delivery_route {
    const sc_str *relays; /* 1..n: URLs, normalised on the way in */
    size_t n_relays;
} sc_delivery_route;

/** A delivery record, in caller memory. Opaque. */
typedef struct sc_delivery {
    uint64_t opaque[4];
} sc_delivery;

/** How a receiver, or the whole message, stands. */
typedef enum sc_delivery_outcome {
    SC_DELIVERY_PENDING = 0,   /* not settled */
    SC_DELIVERY_DELIVERED = 1, /* accepted by at least one relay (the message: every
                                  receiver) */
    SC_DELIVERY_FAILED = 2     /* every relay refused or failed (the message: at least one
                                  receiver failed and none is pending) */
} sc_delivery_outcome;

/** Bytes a record needs for wraps of wraps_len bytes in all, n_wraps receivers and
 *  n_routes_relays relay URLs in all of total_url bytes.
 *  Returns: the size; 0 when a count is 0, a count above 65535, or it does not fit size_t. */
SC_API size_t sc_delivery_mem_max(size_t n_wraps, size_t wraps_len, size_t n_routes_relays,
                                  size_t total_url);

/** Sets up a record for one message: wraps[0..n_wraps) lie in wraps_json (sc_nip17_send's
 *  out) and routes[i] lists the relays of wraps[i].recipient. The wraps are copied and
 *  parsed (each must be a signed kind 1059 event whose p tag names its recipient, with no
 *  more than 16 tags), the URLs copied and normalised (a URL a route names twice counts
 *  once). Nothing is published yet.
 *  Returns: SC_OK; SC_ERR_EMPTY (no wrap, a route without relays, an empty URL: a receiver
 *           without an inbox is the caller's decision, see sc_inboxes_get); SC_ERR_MESSAGE
 *           (a wrap of another kind or recipient, or with more tags); the sc_event_parse
 *           statuses; the URL statuses of sc_relay_url_normalize; SC_ERR_BUFFER_TOO_SMALL
 *           (mem_cap below sc_delivery_mem_max); SC_ERR_TOO_LARGE (over 65535 wraps or
 *           relays); SC_ERR_ARG (a NULL argument, a wrap outside wraps_json).
 *  Out: d; mem. On failure d is zeroed and mem wiped.
 *  In: wraps_json[0..wraps_json_len); wraps[0..n_wraps); routes[0..n_wraps).
 *  Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_init(sc_delivery *d, void *mem, size_t mem_cap,
                                                 const char *wraps_json, size_t wraps_json_len,
                                                 const sc_nip17_wrap *wraps, size_t n_wraps,
                                                 const sc_delivery_route *routes) SC_NONNULL(1);

/** Wipes a record. In/Out: d (NULL allowed). Constant time: n/a. RNG: no. */
SC_API void sc_delivery_clear(sc_delivery *d);

/** Publishes every wrap not yet delivered through the pool, to each of its relays that has
 *  not settled (adding relays to the pool as needed); the record is the publishes' user
 *  pointer, and its wraps the events the pool keeps by reference: keep d until their
 *  SC_POOL_U_PUBLISH_DONE. Call it once after sc_delivery_init or sc_delivery_load. A
 *  record with nothing left pending publishes nothing.
 *  Returns: SC_OK; the sc_pool_relay_add and sc_pool_publish statuses (SC_ERR_FULL: what was
 *           published stays so; call again when the pool has room); SC_ERR_STATE (d or p
 *           not set up, or every pending wrap of d is published already); SC_ERR_ARG.
 *  In/Out: d, p. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_start(sc_delivery *d, sc_pool *p) SC_NONNULL(1, 2);

/** Applies a pool update to the record when it concerns one of its publishes
 *  (SC_POOL_U_PUBLISHED, SC_POOL_U_PUBLISH_DONE with u->user == d).
 *  Returns: SC_OK (the record changed: save it); SC_ERR_NOT_FOUND (not one of its
 *           publishes); SC_ERR_STATE; SC_ERR_ARG.
 *  In/Out: d. In: u. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_apply(sc_delivery *d, const sc_pool_update *u)
    SC_NONNULL(1, 2);

/** The message's outcome.
 *  Returns: DELIVERED when every receiver is, FAILED when none is pending and one failed,
 *  PENDING otherwise (also for an unusable d).
 *  In: d. Constant time: no. RNG: no. */
SC_API sc_delivery_outcome sc_delivery_outcome_get(const sc_delivery *d);

/** One receiver of a record. Views point into the record. */
typedef struct sc_delivery_receiver {
    uint8_t pubkey[SC_PUBKEY_BYTES];
    uint8_t wrap_id[SC_EVENT_ID_BYTES];
    sc_delivery_outcome outcome;
    size_t n_relays;
} sc_delivery_receiver;

/** One relay of a receiver. Views point into the record. */
typedef struct sc_delivery_relay {
    sc_str url;
    sc_pool_result result;
    uint32_t attempts;
    sc_relay_prefix prefix; /* REFUSED: the relay's prefix */
    sc_str text;            /* the relay's (or the pool's) last words, at most
                               SC_POOL_TEXT_MAX bytes */
} sc_delivery_relay;

/** The number of receivers in d.
 *  Returns: the count; 0 for an unusable d. In: d. Constant time: no. RNG: no. */
SC_API size_t sc_delivery_receivers(const sc_delivery *d);

/** Describes receiver i.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (i out of range); SC_ERR_STATE; SC_ERR_ARG.
 *  Out: r (zeroed on failure). In: d, i. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_receiver_get(const sc_delivery *d,
                                                         sc_delivery_receiver *r, size_t i)
    SC_NONNULL(1, 2);

/** Describes relay j of receiver i.
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (out of range); SC_ERR_STATE; SC_ERR_ARG.
 *  Out: r (zeroed on failure). In: d, i, j. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_relay_get(const sc_delivery *d, sc_delivery_relay *r,
                                                      size_t i, size_t j) SC_NONNULL(1, 2);

/** Exact length of sc_delivery_save's output for d now. Returns: the length; 0 for an
 *  unusable d. */
SC_API size_t sc_delivery_save_len(const sc_delivery *d);

/** Writes d as bytes (a versioned format holding the wraps, the routes and every relay's
 *  state).
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = the exact size); SC_ERR_STATE;
 *           SC_ERR_ARG.
 *  Out: out[0..*out_len). In: d. Constant time: no. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_save(const sc_delivery *d, uint8_t *out, size_t out_cap,
                                                 size_t *out_len) SC_NONNULL(1, 4);

/** Bytes sc_delivery_load needs for saved bytes of in_len. Returns: the size (at most
 *  sc_delivery_mem_max of what was saved); 0 when in is not a record. */
SC_API size_t sc_delivery_load_mem_max(const uint8_t *in, size_t in_len);

/** Restores a record from sc_delivery_save's bytes into mem: the wraps are parsed again,
 *  and publishes that were in flight when it was saved count as pending (not started).
 *  Returns: SC_OK; SC_ERR_ENCODING (not a record, truncated, trailing bytes, an unknown
 *           version, a checksum that does not match, a relay twice, a state out of range);
 *           the statuses of sc_delivery_init; SC_ERR_BUFFER_TOO_SMALL.
 *  Out: d; mem. On failure d is zeroed and mem wiped. In: in[0..in_len).
 *  Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_delivery_load(sc_delivery *d, void *mem, size_t mem_cap,
                                                 const uint8_t *in, size_t in_len) SC_NONNULL(1);

SC_END_DECLS

#endif
