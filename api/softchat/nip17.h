/* libsoftchat: NIP-17 private direct messages.
 *
 * A chat message (kind 14) or file message (kind 15) is a rumor: never signed, sealed and
 * gift-wrapped (NIP-59) separately for each receiver and for the sender's own copy.
 * sc_nip17_send does exactly that. The self-copy rule: one gift wrap per distinct receiver
 * (the rumor's p tags, in order of first appearance, each wrap carrying its p tag's relay
 * hint), then one addressed to the sender, unless the sender is among the receivers (then
 * the receiver's copy is the sender's copy). The sender's copy lets the sender's other
 * devices read what was sent. The room is the set {author} + every p tag; changing it makes
 * a new room. Kind 10050 lists the relays a user receives DMs on.
 *
 * Kind 15 (file message) encodes the AES-256-GCM attachment parameters as tags:
 * file-type, encryption-algorithm ("aes-gcm"), decryption-key (64 lowercase hex),
 * decryption-nonce (lowercase hex of the IV: 32 characters for the 16-byte IVs this library
 * emits), x (sha256 of ciphertext||tag), ox (sha256 of the plaintext), size (bytes of
 * ciphertext||tag), and optional dim, blurhash, thumb, fallback. A thumbnail must be encrypted
 * with its own key and nonce (the spec's reuse of the file's key and nonce for a different
 * plaintext is nonce reuse under GCM); see api/softchat/file.h.
 *
 * Optional strings: an sc_str with len 0 means "absent" (relays, author, dim, ...), except
 * where a field says otherwise (subject).
 */
#ifndef SOFTCHAT_NIP17_H
#define SOFTCHAT_NIP17_H

#include "event.h"
#include "identity.h"
#include "nip59.h"

SC_BEGIN_DECLS

#define SC_NIP17_KIND_CHAT 14u
#define SC_NIP17_KIND_FILE 15u
#define SC_NIP17_KIND_INBOX_RELAYS 10050u

/** A receiver: pubkey and optional relay hint. */
typedef struct sc_nip17_peer {
    uint8_t pubkey[SC_PUBKEY_BYTES];
    sc_str relay; /* {NULL, 0} for none */
} sc_nip17_peer;

/** A citation (q tag): event id or address, relay, and the author for regular events.
 *  Written as ["q", target, relay] or ["q", target, relay, author] (the relay position is
 *  kept, empty when unknown, as NIP-18 lays the tag out). */
typedef struct sc_nip17_quote {
    sc_str target; /* hex id or kind:pubkey:d address; must not be empty */
    sc_str relay;
    sc_str author; /* 64 lowercase hex, or {NULL, 0} */
} sc_nip17_quote;

/** A kind 14 chat message to build. */
typedef struct sc_nip17_chat {
    sc_str content;
    const sc_nip17_peer *to; /* at least one receiver */
    size_t n_to;
    const uint8_t *reply_to; /* 32-byte parent id, or NULL */
    sc_str reply_relay;
    sc_str subject; /* {NULL, 0} for none; a non-NULL ptr with len 0 is an empty
                       subject (clears the room's title) */
    const sc_nip17_quote *quotes;
    size_t n_quotes;
    int64_t created_at; /* the real time of the message */
} sc_nip17_chat;

/** Bytes of buf that suffice for sc_nip17_chat_rumor of m at any alignment.
 *  Returns: the size; 0 if m is NULL or inconsistent, or the size does not fit size_t. */
SC_API size_t sc_nip17_chat_rumor_buf_max(const sc_nip17_chat *m);

/** Builds the kind 14 rumor of m from `sender` into buf (views point into buf): tags in the
 *  order p... (["p", hex, relay?]), e (["e", hex, relay?], no marker), subject, q...;
 *  pubkey set, id computed, no signature.
 *  Returns: SC_OK; SC_ERR_MESSAGE (no receiver, an empty q target, a q author that is not 64
 *           lowercase hex); SC_ERR_BUFFER_TOO_SMALL; SC_ERR_UTF8; SC_ERR_EVENT_RANGE;
 *           SC_ERR_ARG (NULL, or a NULL pointer with a non-zero length); SC_ERR_STATE.
 *  Out: rumor, zeroed on failure; buf, wiped on failure (it may hold the message).
 *  In: m; sender: SC_PUBKEY_BYTES (the author's public key).
 *  Constant time: no (the message is copied and its UTF-8 checked; its length shows in the
 *  payload anyway). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_chat_rumor(sc_ctx *ctx, sc_event *rumor, void *buf,
                                                    size_t cap, const sc_nip17_chat *m,
                                                    const uint8_t sender[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 5, 6);

/* ---- sending ------------------------------------------------------------------------------ */

/** One gift wrap made by sc_nip17_send: its recipient, and where its JSON lies in out. */
typedef struct sc_nip17_wrap {
    uint8_t recipient[SC_PUBKEY_BYTES];
    size_t offset; /* the wrap is out[offset..offset + len), one line of JSON */
    size_t len;
} sc_nip17_wrap;

/** Number of gift wraps sc_nip17_send makes of rumor from `sender` (its public key): the
 *  distinct receivers, plus one unless the sender is among them.
 *  Returns: the count; 0 when no wrap can be made (not a kind 14 or 15 rumor with a valid p
 *  tag, a signed or invalid rumor: sc_nip17_send says which). */
SC_API size_t sc_nip17_send_wraps_len(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES]);

/** Upper bound on the bytes of out that sc_nip17_send needs for rumor from `sender` with opts
 *  (NULL allowed): the sum of sc_nip59_wrap_max over its wraps.
 *  Returns: the bound; 0 when the rumor, the sender or the options are invalid (the call
 *  then says why). */
SC_API size_t sc_nip17_send_max(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES],
                                const sc_nip59_opts *opts);

/** Scratch bytes that suffice for sc_nip17_send (the largest sc_nip59_wrap_scratch_max of its
 *  wraps; the scratch is reused for every wrap). Returns: the size; 0 as sc_nip17_send_max. */
SC_API size_t sc_nip17_send_scratch_max(const sc_event *rumor,
                                        const uint8_t sender[SC_PUBKEY_BYTES],
                                        const sc_nip59_opts *opts);

/** Sends a NIP-17 message: gift-wraps rumor (kind 14 or 15, from sc_nip17_chat_rumor or
 *  sc_nip17_file_rumor) once for each distinct receiver and once for the sender's own copy,
 *  by the rule at the top of this file, writing the wraps one after the other into out and
 *  describing each in wraps[]. opts applies to every wrap (its relay hint to the sender's
 *  copy only: each receiver's wrap carries the relay of its p tag). Every check, for every
 *  wrap, runs before the first wrap is made.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument; wraps NULL with wraps_cap > 0; out or
 *           scratch NULL with enough capacity); SC_ERR_FLAGS (bad options); SC_ERR_STATE
 *           (ctx, or sender not imported / cleared); SC_ERR_MESSAGE (not kind 14 or 15, no
 *           receiver, a p tag that is not ["p", <64 lowercase hex>, ...]); the sc_nip59_wrap
 *           statuses for the rumor, its author, the relay hints and the policy;
 *           SC_ERR_TOO_LARGE (the wraps do not fit size_t); SC_ERR_BUFFER_TOO_SMALL (out,
 *           wraps or scratch: *out_len = sc_nip17_send_max, *wraps_len = the count; scratch
 *           needs sc_nip17_send_scratch_max); SC_ERR_OVERLAP (out, wraps and scratch share
 *           bytes, or an input lies in one of them); then, while wrapping, SC_ERR_INVALID_KEY
 *           (a receiver not on the curve), SC_ERR_RNG and backend failures.
 *  Out: out[0..*out_len): the wraps; wraps[0..*wraps_len). On failure while wrapping, every
 *       byte written to out and wraps is zeroed, *out_len is 0 and *wraps_len is the index
 *       of the wrap that failed (so the caller can name the receiver); on the other
 *       failures nothing is written and both are 0 (or the needs). The scratch is wiped
 *       after every wrap.
 *  In: rumor; sender (its public key must be the rumor's pubkey); opts (may be NULL).
 *  Constant time: as sc_nip59_wrap. RNG: yes, as sc_nip59_wrap, for every wrap. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_send(sc_ctx *ctx, char *out, size_t out_cap,
                                              size_t *out_len, sc_nip17_wrap *wraps,
                                              size_t wraps_cap, size_t *wraps_len, void *scratch,
                                              size_t scratch_cap, const sc_event *rumor,
                                              const sc_identity *sender, const sc_nip59_opts *opts)
    SC_NONNULL(1, 4, 7, 10, 11);

/* ---- receiving ---------------------------------------------------------------------------- */

/** A received message: the authenticated rumor plus its sender and room. */
typedef struct sc_nip17_received {
    sc_event rumor;                         /* kind 14 or 15; views point into the arena */
    sc_nip59_info wrap;                     /* outer-layer facts (sender = seal signer) */
    const uint8_t (*room)[SC_PUBKEY_BYTES]; /* sender, then each distinct p tag pubkey */
    size_t n_room;
} sc_nip17_received;

/** Arena bytes that suffice for sc_nip17_receive of any gift wrap of wrap_len bytes:
 *  sc_nip59_unwrap_arena_max plus the room's working space.
 *  Returns: the size; 0 when it does not fit size_t. */
SC_API size_t sc_nip17_receive_arena_max(size_t wrap_len);

/** Unwraps a gift wrap for `me` (sc_nip59_unwrap with every check) and requires a kind 14 or
 *  15 rumor with at least one p tag, each a valid ["p", <64 lowercase hex>, ...]; fills the
 *  room (in the arena, right after the rumor): the sender, then each distinct p pubkey in
 *  order of first appearance (a p tag naming the sender adds nothing). The room is built by
 *  sorting, in O(n log n), with 36 bytes of arena per candidate (the sender and each p tag)
 *  after the rumor; 32 per member remain.
 *  Returns: SC_OK; every sc_nip59_unwrap status; SC_ERR_MESSAGE (another kind, no p tag, or a
 *           malformed p tag); SC_ERR_BUFFER_TOO_SMALL (*arena_used as for sc_nip59_unwrap,
 *           or the exact need once the rumor is open).
 *  Out: msg, arena[0..*arena_used) (the rumor, then the room); on failure msg is zeroed and
 *  every arena byte the call wrote is zeroed, as for sc_nip59_unwrap.
 *  In: wrap_json[0..wrap_len); me.
 *  Constant time: as sc_nip59_unwrap. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_receive(sc_ctx *ctx, sc_nip17_received *msg, void *arena,
                                                 size_t arena_cap, size_t *arena_used,
                                                 const char *wrap_json, size_t wrap_len,
                                                 const sc_identity *me) SC_NONNULL(1, 2, 5, 8);

/** As sc_nip17_receive, with the NIP-40 checks of sc_nip59_unwrap_at at time now (an
 *  expired wrap or seal is refused: a disappearing message is not shown after its time).
 *  Returns: as sc_nip17_receive, plus SC_ERR_WRAP_EXPIRED, SC_ERR_SEAL_EXPIRED, and
 *           SC_ERR_ARG for a negative now.
 *  Out: as sc_nip17_receive.
 *  In: wrap_json[0..wrap_len); me; now (unix seconds).
 *  Constant time: as sc_nip59_unwrap. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_receive_at(sc_ctx *ctx, sc_nip17_received *msg,
                                                    void *arena, size_t arena_cap,
                                                    size_t *arena_used, const char *wrap_json,
                                                    size_t wrap_len, const sc_identity *me,
                                                    int64_t now) SC_NONNULL(1, 2, 5, 8);

/* ---- over a signer (signer.h) ------------------------------------------------------------ */

/** Starts sc_nip17_send as an operation over the sender's signer (sc_signer_op_step drives
 *  it): a local identity sends at the first step, exactly as sc_nip17_send (which is this
 *  operation run to its end). An external signer is asked, for each gift wrap in turn, the
 *  two requests of sc_nip59_wrap_start (the rumor encrypted to that receiver, then the seal
 *  signed), each answer verified; the one-time keys never leave the library. Every check
 *  of sc_nip17_send, for every wrap, runs here before anything is asked.
 *  Returns: SC_OK (started); sc_nip17_send's statuses for its checks (SC_ERR_ARG also for op
 *           NULL; SC_ERR_BUFFER_TOO_SMALL with *out_len and *wraps_len the needs). Then the
 *           steps: SC_OK when done; SC_ERR_SIGNER_ANSWER, SC_ERR_SIGNER_REFUSED,
 *           SC_ERR_TIMEOUT; while wrapping, SC_ERR_INVALID_KEY, SC_ERR_RNG and the backend's
 *           statuses.
 *  Out: op; when done, out[0..*out_len) and wraps[0..*wraps_len) as for sc_nip17_send; on
 *       a failure while wrapping (a refusal or a timeout included) every byte written to
 *       out and wraps is zeroed, *out_len is 0 and *wraps_len is the index of the wrap that
 *       failed. The scratch is wiped after every wrap.
 *  In: rumor, the buffers and opts's relay (kept by reference until the operation ends);
 *      sender; opts (may be NULL).
 *  Constant time: as sc_nip17_send (local). RNG: yes, as sc_nip17_send, each wrap's drawn by
 *  the step that starts it. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_send_start(
    sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap, size_t *out_len, sc_nip17_wrap *wraps,
    size_t wraps_cap, size_t *wraps_len, void *scratch, size_t scratch_cap, const sc_event *rumor,
    const sc_signer *sender, const sc_nip59_opts *opts) SC_NONNULL(1, 2, 5, 8, 11, 12);

/** As sc_nip17_send_start with explicit randomness: rnd[i] for the i-th wrap
 *  (sc_nip17_send_wraps_len of them, in sc_nip17_send's order).
 *  Returns: as sc_nip17_send_start without SC_ERR_RNG, plus SC_ERR_ARG for rnd NULL, n_rnd
 *           other than the number of wraps, or a backdate above SC_NIP59_MAX_BACKDATE.
 *  Out: as sc_nip17_send_start.
 *  In: as sc_nip17_send_start, plus rnd[0..n_rnd) (kept by reference).
 *  Constant time: as sc_nip17_send_start. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_send_start_with_rand(
    sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap, size_t *out_len, sc_nip17_wrap *wraps,
    size_t wraps_cap, size_t *wraps_len, void *scratch, size_t scratch_cap, const sc_event *rumor,
    const sc_signer *sender, const sc_nip59_opts *opts, const sc_nip59_rand *rnd, size_t n_rnd)
    SC_NONNULL(1, 2, 5, 8, 11, 12, 14);

/** Starts sc_nip17_receive as an operation over the receiver's signer: the unwrap of
 *  sc_nip59_unwrap_start (two NIP44_DECRYPT requests to an external signer), then the checks
 *  and the room of sc_nip17_receive.
 *  Returns: SC_OK (started); SC_ERR_ARG; SC_ERR_STATE. Then the steps: SC_OK when done;
 *           the statuses of sc_nip17_receive_at; SC_ERR_SIGNER_ANSWER,
 *           SC_ERR_SIGNER_REFUSED, SC_ERR_TIMEOUT.
 *  Out: op; msg, arena and *arena_used as for sc_nip17_receive when the operation is done;
 *       zeroed here, and on failure as sc_nip17_receive says.
 *  In: wrap_json[0..wrap_len) and the arena (kept by reference until the operation ends);
 *      me; now: unix seconds for the NIP-40 checks of sc_nip17_receive_at, or a negative
 *      value for none.
 *  Constant time: as sc_nip59_unwrap (local). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_receive_start(sc_ctx *ctx, sc_signer_op *op,
                                                       sc_nip17_received *msg, void *arena,
                                                       size_t arena_cap, size_t *arena_used,
                                                       const char *wrap_json, size_t wrap_len,
                                                       const sc_signer *me, int64_t now)
    SC_NONNULL(1, 2, 3, 6, 9);

/* ---- kind 15 file messages -------------------------------------------------------------- */

#define SC_NIP17_NONCE_MIN 12 /* IV lengths accepted in decryption-nonce, in bytes */
#define SC_NIP17_NONCE_MAX 32

/** The attachment parameters of a kind 15 message. */
typedef struct sc_nip17_file {
    sc_str url;       /* content: where ciphertext||tag is stored; must not be empty */
    sc_str file_type; /* MIME type of the plaintext; must not be empty */
    uint8_t key[32];
    uint8_t nonce[32]; /* the IV as decoded from hex (nonce_len bytes) */
    size_t nonce_len;  /* SC_NIP17_NONCE_MIN..SC_NIP17_NONCE_MAX (16 from sc_file_keygen) */
    sc_str nonce_text; /* parse: the decryption-nonce tag as written (for the legacy ASCII
                          IV, see sc_file_iv_candidates); ignored by build */
    uint8_t x[32];     /* sha256(ciphertext || tag) */
    uint8_t ox[32];    /* sha256(plaintext), when has_ox */
    int has_ox;        /* 0 or 1 */
    uint64_t size;     /* bytes of ciphertext || tag; 0 = absent */
    sc_str dim, blurhash, thumb; /* optional ("<w>x<h>", blurhash, thumbnail URL) */
    const sc_str *fallbacks;     /* optional further URLs of the same blob */
    size_t n_fallbacks;
} sc_nip17_file;

/** Bytes of buf that suffice for sc_nip17_file_rumor of (m, f) at any alignment.
 *  Returns: the size; 0 if m or f is NULL or inconsistent, or the size does not fit size_t. */
SC_API size_t sc_nip17_file_rumor_buf_max(const sc_nip17_chat *m, const sc_nip17_file *f);

/** Builds the kind 15 rumor for file f sent to m->to (m->content and m->quotes are ignored:
 *  the content is f->url). Tags: p..., e, subject, file-type, encryption-algorithm ("aes-gcm"),
 *  decryption-key, decryption-nonce (lowercase hex), x, ox (when has_ox), size (when > 0),
 *  dim, blurhash, thumb (when non-empty), fallback....
 *  Returns: as sc_nip17_chat_rumor, plus SC_ERR_MESSAGE for an empty url or file type and
 *           SC_ERR_ARG for a nonce_len out of range or has_ox not 0 or 1.
 *  Out: rumor, zeroed on failure; buf, wiped on failure (it holds the file key).
 *  In: m (its receivers, reply and subject); f; sender: SC_PUBKEY_BYTES.
 *  Constant time: in the key's hex digits. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_file_rumor(sc_ctx *ctx, sc_event *rumor, void *buf,
                                                    size_t cap, const sc_nip17_chat *m,
                                                    const sc_nip17_file *f,
                                                    const uint8_t sender[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 5, 6, 7);

/** Reads the attachment parameters of a kind 15 rumor (views point into the rumor).
 *  Required: a non-empty content (url), file-type, encryption-algorithm "aes-gcm",
 *  decryption-key (64 hex), decryption-nonce (hex of SC_NIP17_NONCE_MIN..MAX bytes), x (64
 *  hex). Optional: ox (64 hex), size (decimal), dim, blurhash, thumb, fallback.... Hex may be
 *  in either case. Each of these tags but fallback may appear once; other tags are ignored.
 *  The fallback URLs are written to fallbacks[0..fallbacks_cap) (NULL with 0 allowed), and
 *  f->fallbacks points there.
 *  Returns: SC_OK; SC_ERR_MESSAGE (not kind 15, a required tag missing, a tag malformed or
 *           repeated, an encryption-algorithm other than aes-gcm); SC_ERR_BUFFER_TOO_SMALL
 *           (more fallback tags than fallbacks_cap: *fallbacks_len = the number needed);
 *           SC_ERR_ARG (f, fallbacks_len or rumor NULL; fallbacks NULL with a capacity; a
 *           NULL tag array with a count).
 *  Out: f, zeroed on failure (it holds the file key: wipe it after use); fallbacks[0..
 *       *fallbacks_len), zeroed on failure; *fallbacks_len (0 on failure but for
 *       SC_ERR_BUFFER_TOO_SMALL).
 *  In: rumor.
 *  Constant time: in the key's hex digits. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_file_parse(sc_nip17_file *f, sc_str *fallbacks,
                                                    size_t fallbacks_cap, size_t *fallbacks_len,
                                                    const sc_event *rumor) SC_NONNULL(1, 4, 5);

/* ---- kind 10050 inbox relays ------------------------------------------------------------ */

/** Bytes of buf that suffice for sc_nip17_inbox_build at any alignment.
 *  Returns: the size; 0 when relays is NULL with n > 0 or the size does not fit size_t. */
SC_API size_t sc_nip17_inbox_build_buf_max(const sc_str *relays, size_t n);

/** Builds the kind 10050 event (unsigned: sign it with sc_event_sign) listing relays as
 *  ["relay", url] tags, content "".
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL; SC_ERR_UTF8; SC_ERR_EVENT_RANGE (created_at < 0);
 *           SC_ERR_ARG (ev NULL, buf NULL with cap > 0, relays NULL with n > 0, an empty
 *           url).
 *  Out: ev, zeroed on failure; its views point into buf.
 *  In: relays[0..n) (n may be 0: relays, and buf with cap 0, may then be NULL); created_at.
 *  Constant time: no (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_inbox_build(sc_event *ev, void *buf, size_t cap,
                                                     const sc_str *relays, size_t n,
                                                     int64_t created_at) SC_NONNULL(1);

/** Lists the relay tags (["relay", url, ...] with a non-empty url) of a kind 10050 event, in
 *  order. Other tags are ignored.
 *  Returns: SC_OK; SC_ERR_MESSAGE (not kind 10050); SC_ERR_BUFFER_TOO_SMALL (*relays_len =
 *           the number of relays; relays untouched); SC_ERR_ARG (relays_len or ev NULL,
 *           relays NULL with relays_cap > 0).
 *  Out: relays[0..*relays_len): views into ev's tags; *relays_len.
 *  In: ev.
 *  Constant time: no (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_inbox_parse(sc_str *relays, size_t relays_cap,
                                                     size_t *relays_len, const sc_event *ev)
    SC_NONNULL(3, 4);

SC_END_DECLS

#endif
