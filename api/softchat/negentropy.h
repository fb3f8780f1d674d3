/* libsoftchat: NIP-77 Negentropy set reconciliation, protocol version 1 (0x61).
 *
 * Two parties each hold a set of records (timestamp, 32-byte id); they exchange messages
 * until the initiator knows which ids only it has ("have") and which only the other side has
 * ("need"). Only ids are learned: the events themselves then move with EVENT / REQ.
 *
 * The records are the caller's: a sorted array of sc_negentropy_item (timestamp ascending,
 * then id bytewise ascending, no duplicates, no timestamp UINT64_MAX, which the protocol
 * reserves as infinity). A reconciliation object holds a pointer to that array and the
 * role; it allocates nothing and keeps nothing between rounds but the role (each message is
 * self-contained), so a round is a pure function of the array and the message. Fingerprints
 * are the first 16 bytes of SHA-256(sum of ids mod 2^256, little-endian || varint(count)),
 * hashed by the context's backend.
 *
 * A round (the initiator's view):
 *   sc_negentropy_init(&neg, items, n, &opts);
 *   sc_negentropy_initiate(ctx, &neg, msg, cap, &len)           -> NEG-OPEN
 *   loop: reply = the peer's NEG-MSG (decoded from hex)
 *         sc_negentropy_reconcile(ctx, &neg, msg, cap, &len, have..., need..., reply)
 *         use have[] / need[]; len == 0: done (send NEG-CLOSE), else send msg as NEG-MSG
 * The responder calls sc_negentropy_reconcile on every message it receives and always has a
 * reply (at least the version byte).
 *
 * Frame-size limit (opts.frame_limit): every message this side writes is at most that many
 * bytes; the reconciliation then takes more rounds, and an id may be reported in more than
 * one round. 0 means no limit; otherwise at least SC_NEGENTROPY_FRAME_MIN.
 *
 * Messages are parsed strictly: a first byte outside 0x60..0x6f (no protocol version at all;
 * a version byte other than 0x61 is answered, see sc_negentropy_reconcile), truncated data, a
 * varint that is not minimal or exceeds 64 bits, an id prefix longer than 32, bounds that do
 * not increase, an unknown mode or bytes after the last range are SC_ERR_NEGENTROPY; the work
 * a hostile message can cause is O((n + m) log(n + m)) for n records and m ids in the
 * message.
 */
#ifndef SOFTCHAT_NEGENTROPY_H
#define SOFTCHAT_NEGENTROPY_H

#include "ctx.h"
#include "status.h"

SC_BEGIN_DECLS

#define SC_NEGENTROPY_VERSION 0x61 /* the protocol version byte of v1 */
#define SC_NEGENTROPY_ID_BYTES 32
#define SC_NEGENTROPY_FINGERPRINT_BYTES 16
#define SC_NEGENTROPY_FRAME_MIN 4096u /* the smallest frame-size limit accepted */

/** A record: the event's created_at and its id. */
typedef struct sc_negentropy_item {
    uint64_t timestamp; /* < UINT64_MAX */
    uint8_t id[SC_NEGENTROPY_ID_BYTES];
} sc_negentropy_item;

/** Options. NULL means what a zero-initialised struct means: no frame-size limit. */
typedef struct sc_negentropy_opts {
    size_t frame_limit; /* 0: none; else >= SC_NEGENTROPY_FRAME_MIN: no message written is
                           longer */
} sc_negentropy_opts;

/** A reconciliation: the caller's records, the frame limit and the role. Opaque; it holds a
 *  pointer to the records (they must stay valid and unchanged while it is used) and no
 *  pointer into itself, so it may be copied. */
typedef struct sc_negentropy {
    uint64_t opaque[4];
} sc_negentropy;

/** Sets up a reconciliation over items[0..n_items) (n_items may be 0, items then NULL), and
 *  checks the order in O(n).
 *  Returns: SC_OK; SC_ERR_UNSORTED (items not strictly ascending by (timestamp, id): a
 *           duplicate or out-of-order record); SC_ERR_ARG (neg NULL, items NULL with
 *           n_items > 0, a timestamp of UINT64_MAX); SC_ERR_FLAGS (a frame_limit between 1
 *           and SC_NEGENTROPY_FRAME_MIN - 1).
 *  Out: neg (zeroed on failure: later calls on it are SC_ERR_STATE).
 *  In: items[0..n_items); opts (may be NULL).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_negentropy_init(sc_negentropy *neg,
                                                   const sc_negentropy_item *items, size_t n_items,
                                                   const sc_negentropy_opts *opts) SC_NONNULL(1);

/** Upper bound on the bytes of the message sc_negentropy_initiate writes for neg: 1 + 16
 *  fingerprint ranges, or one id list when there are fewer than 32 records.
 *  Returns: the bound; 0 when neg is NULL or not set up. */
SC_API size_t sc_negentropy_initiate_max(const sc_negentropy *neg);

/** Writes the first message (for NEG-OPEN) and makes neg the initiator.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = the exact size; out may be NULL with
 *           out_cap 0 to ask; neg unchanged); SC_ERR_STATE (neg not set up, or already an
 *           initiator or a responder); SC_ERR_ARG (a NULL argument, out NULL with
 *           out_cap > 0); SC_ERR_UNSUPPORTED (no hash group); the SHA-256 statuses.
 *  Out: out[0..*out_len) (raw bytes: hex-encode them for the relay message); nothing is
 *       left written on failure, *out_len is 0 but for SC_ERR_BUFFER_TOO_SMALL.
 *  In/Out: neg (the initiator role on success).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_negentropy_initiate(sc_ctx *ctx, sc_negentropy *neg,
                                                       uint8_t *out, size_t out_cap,
                                                       size_t *out_len) SC_NONNULL(1, 2, 5);

/** Upper bound on the bytes sc_negentropy_reconcile writes for a message of msg_len bytes:
 *  opts.frame_limit when one is set, else a bound from the number of ranges msg_len can
 *  hold and the records (every record at most once, 16 fingerprints per range).
 *  Returns: the bound; 0 when neg is NULL or not set up, or it does not fit size_t. */
SC_API size_t sc_negentropy_reconcile_max(const sc_negentropy *neg, size_t msg_len);

/** Capacity of have[] that sc_negentropy_reconcile needs from an initiator: the number of
 *  records (the array is also its working memory). Returns: n_items of neg; 0 when neg is
 *  NULL or not set up. */
SC_API size_t sc_negentropy_have_max(const sc_negentropy *neg);

/** Capacity of need[] that sc_negentropy_reconcile needs from an initiator for a message of
 *  msg_len bytes: msg_len / 32 (the array is also its working memory). Returns: that
 *  count (0 for a message shorter than one id). */
SC_API size_t sc_negentropy_need_max(size_t msg_len);

/** Processes one message of the peer and writes the reply.
 *  A responder (neg never initiated; the first call fixes the role) answers every message:
 *  a message of another protocol version gets the one-byte reply SC_NEGENTROPY_VERSION (the
 *  highest version supported), as the protocol says; have and need are not used (NULL with
 *  capacity 0 allowed) and *have_len, *need_len are 0.
 *  An initiator learns, for each range both sides have listed, the indices into items of
 *  the records only it has (have, ascending by id within a range) and the ids only the peer
 *  has (need); *out_len == 0 means the reconciliation is complete (nothing more to send).
 *  have[] needs sc_negentropy_have_max(neg) entries and need[] sc_negentropy_need_max
 *  (msg_len): both arrays are working memory of the call beyond what it reports.
 *  Returns: SC_OK; SC_ERR_NEGENTROPY (a malformed message: see the top of this file);
 *           SC_ERR_NEG_VERSION (initiator: the peer answered with another protocol version;
 *           its byte is msg[0]); SC_ERR_EMPTY (msg_len 0); SC_ERR_BUFFER_TOO_SMALL (out:
 *           *out_len = the exact size, at most sc_negentropy_reconcile_max(neg, msg_len);
 *           have or need below the
 *           capacities above: *have_len and *need_len = those capacities; nothing written,
 *           neg unchanged); SC_ERR_STATE (neg not set up); SC_ERR_ARG (a NULL argument
 *           other than those allowed, msg NULL with msg_len > 0); SC_ERR_OVERLAP (msg lies
 *           in out, have or need); SC_ERR_UNSUPPORTED; the SHA-256 statuses.
 *  Out: out[0..*out_len) (raw bytes); have[0..*have_len); need[0..*need_len). On failure
 *       *out_len, *have_len and *need_len are 0 (but for SC_ERR_BUFFER_TOO_SMALL) and the
 *       bytes written to out, have and need are zeroed.
 *  In/Out: neg (the responder role after the first call of a never-initiated neg).
 *  In: msg[0..msg_len) (raw bytes, hex-decoded from NEG-MSG / NEG-OPEN).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_negentropy_reconcile(
    sc_ctx *ctx, sc_negentropy *neg, uint8_t *out, size_t out_cap, size_t *out_len, size_t *have,
    size_t have_cap, size_t *have_len, uint8_t (*need)[SC_NEGENTROPY_ID_BYTES], size_t need_cap,
    size_t *need_len, const uint8_t *msg, size_t msg_len) SC_NONNULL(1, 2, 5, 8, 11);

/** Sorts items[0..n_items) into the order sc_negentropy_init requires (timestamp, then id),
 *  in place, in O(n log n) without allocation (heap sort). Duplicates are left adjacent:
 *  sc_negentropy_init reports them.
 *  Returns: SC_OK; SC_ERR_ARG (items NULL with n_items > 0).
 *  In/Out: items[0..n_items).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_negentropy_sort(sc_negentropy_item *items, size_t n_items);

SC_END_DECLS

#endif
