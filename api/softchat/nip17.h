/* libsoftchat: NIP-17 private direct messages.
 *
 * A chat message (kind 14) or file message (kind 15) is a rumor: never signed, sealed and
 * gift-wrapped (NIP-59) separately for each receiver and for the sender's own copy (the caller
 * loops sc_nip59_wrap over the receivers and the sender; the sender's copy is addressed to the
 * sender). The room is the set {author} + every p tag; changing it makes a new room. Kind
 * 10050 lists the relays a user receives DMs on.
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
    sc_str subject;          /* {NULL, 0} for none; a non-NULL ptr with len 0 is an empty
                                subject (clears the room's title) */
    const sc_nip17_quote *quotes;
    size_t n_quotes;
    int64_t created_at;      /* the real time of the message */
} sc_nip17_chat;

/** Bytes of buf that suffice for sc_nip17_chat_rumor of m at any alignment (0 if m is NULL,
 *  SIZE_MAX if it does not fit size_t). */
SC_API size_t sc_nip17_chat_rumor_buf_max(const sc_nip17_chat *m);

/** Builds the kind 14 rumor of m from `sender` into buf (views point into buf): tags in the
 *  order p... (["p", hex, relay?]), e (["e", hex, relay?], no marker), subject, q...;
 *  pubkey set, id computed, no signature.
 *  Returns: SC_OK; SC_ERR_MESSAGE (no receiver, an empty q target, a q author that is not 64
 *           lowercase hex); SC_ERR_BUFFER_TOO_SMALL; SC_ERR_UTF8; SC_ERR_EVENT_RANGE;
 *           SC_ERR_ARG (NULL, or a NULL pointer with a non-zero length); SC_ERR_STATE.
 *  Out: rumor, zeroed on failure; buf, wiped on failure (it may hold the message). */
SC_API SC_WARN_UNUSED sc_status sc_nip17_chat_rumor(sc_ctx *ctx, sc_event *rumor, void *buf,
                                                    size_t cap, const sc_nip17_chat *m,
                                                    const uint8_t sender[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 5, 6);

/** A received message: the authenticated rumor plus its sender and room. */
typedef struct sc_nip17_received {
    sc_event rumor;                   /* kind 14 or 15; views point into the arena */
    sc_nip59_info wrap;               /* outer-layer facts (sender = seal signer) */
    const uint8_t (*room)[SC_PUBKEY_BYTES]; /* sender, then each distinct p tag pubkey */
    size_t n_room;
} sc_nip17_received;

/** Arena bytes that suffice for sc_nip17_receive of any gift wrap of wrap_len bytes:
 *  sc_nip59_unwrap_arena_max plus the room's working space (SIZE_MAX if it does not fit). */
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
 *  every arena byte the call wrote is zeroed, as for sc_nip59_unwrap. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_receive(sc_ctx *ctx, sc_nip17_received *msg, void *arena,
                                                 size_t arena_cap, size_t *arena_used,
                                                 const char *wrap_json, size_t wrap_len,
                                                 const sc_identity *me)
    SC_NONNULL(1, 2, 5, 8);

/* ---- kind 15 file messages -------------------------------------------------------------- */

#define SC_NIP17_NONCE_MIN 12 /* IV lengths accepted in decryption-nonce, in bytes */
#define SC_NIP17_NONCE_MAX 32

/** The attachment parameters of a kind 15 message. */
typedef struct sc_nip17_file {
    sc_str url;        /* content: where ciphertext||tag is stored; must not be empty */
    sc_str file_type;  /* MIME type of the plaintext; must not be empty */
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

/** Bytes of buf that suffice for sc_nip17_file_rumor of (m, f) at any alignment (0 if m or f
 *  is NULL, SIZE_MAX if it does not fit size_t). */
SC_API size_t sc_nip17_file_rumor_buf_max(const sc_nip17_chat *m, const sc_nip17_file *f);

/** Builds the kind 15 rumor for file f sent to m->to (m->content and m->quotes are ignored:
 *  the content is f->url). Tags: p..., e, subject, file-type, encryption-algorithm ("aes-gcm"),
 *  decryption-key, decryption-nonce (lowercase hex), x, ox (when has_ox), size (when > 0),
 *  dim, blurhash, thumb (when non-empty), fallback....
 *  Returns: as sc_nip17_chat_rumor, plus SC_ERR_MESSAGE for an empty url or file type and
 *           SC_ERR_ARG for a nonce_len out of range or has_ox not 0 or 1. */
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
 *  fallbacks are written to fb[0..fb_cap) (fb may be NULL with fb_cap 0).
 *  Returns: SC_OK; SC_ERR_MESSAGE (not kind 15, a required tag missing, a tag malformed or
 *           repeated, an encryption-algorithm other than aes-gcm); SC_ERR_BUFFER_TOO_SMALL
 *           (more fallback tags than fb_cap: f is zeroed but f->n_fallbacks = the number
 *           needed); SC_ERR_ARG.
 *  Out: f (zeroed on failure), fb[0..f->n_fallbacks). */
SC_API SC_WARN_UNUSED sc_status sc_nip17_file_parse(sc_nip17_file *f, sc_str *fb, size_t fb_cap,
                                                    const sc_event *rumor) SC_NONNULL(1, 4);

/* ---- kind 10050 inbox relays ------------------------------------------------------------ */

/** Bytes of buf that suffice for sc_nip17_inbox_build at any alignment (SIZE_MAX if
 *  it does not fit size_t). */
SC_API size_t sc_nip17_inbox_build_buf_max(const sc_str *relays, size_t n);

/** Builds the kind 10050 event (unsigned: sign it with sc_event_sign) listing relays as
 *  ["relay", url] tags, content "". n may be 0 (relays, and buf with cap 0, may then be
 *  NULL).
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL; SC_ERR_UTF8; SC_ERR_EVENT_RANGE (created_at < 0);
 *           SC_ERR_ARG (NULL, or an empty url).
 *  Out: ev, zeroed on failure; views point into buf. */
SC_API SC_WARN_UNUSED sc_status sc_nip17_inbox_build(sc_event *ev, void *buf, size_t cap,
                                                            const sc_str *relays, size_t n,
                                                            int64_t created_at)
    SC_NONNULL(1);

/** Lists the relay tags (["relay", url, ...] with a non-empty url) of a kind 10050 event into
 *  relays[0..cap); *n = how many there are. Other tags are ignored.
 *  Returns: SC_OK; SC_ERR_MESSAGE (not kind 10050); SC_ERR_BUFFER_TOO_SMALL (*n = need,
 *           relays untouched); SC_ERR_ARG (relays NULL with cap > 0). */
SC_API SC_WARN_UNUSED sc_status sc_nip17_inbox_parse(sc_str *relays, size_t cap, size_t *n,
                                                            const sc_event *ev) SC_NONNULL(3, 4);

SC_END_DECLS

#endif
