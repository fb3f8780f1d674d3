/* libsoftchat: the signer, who signs and decrypts for the user, and operations over it.
 *
 * What the user's secret key does for the protocol is one of three things: a BIP-340
 * signature over an event id, NIP-44 encryption of a text to a peer, NIP-44 decryption of a
 * payload from a peer. An sc_signer is where those come from:
 *   - a local identity (sc_signer_init_local): the key is an sc_identity in this process;
 *   - an external signer (sc_signer_init_external): the key is elsewhere, and only the user's
 *     public key is here: a NIP-46 remote signer (a "bunker"), a browser extension
 *     (NIP-07's window.nostr), an Android signer app (NIP-55). It answers asynchronously, in
 *     seconds, or never.
 *
 * Operations. Whatever needs the user's key runs as an operation (sc_signer_op): a small
 * state machine in caller memory, started by one of the _start functions of the protocol's
 * header and driven by sc_signer_op_step:
 *   sc_event_sign_start        a NIP-01 event (and so a NIP-42 AUTH event: pool.h's
 *                              sc_pool_auth_template, then sc_pool_auth_send; and a
 *                              NIP-98 auth event: nip98.h's sc_nip98_template, then
 *                              sc_nip98_header)
 *   sc_nip44_encrypt_start     NIP-44 to a peer;  sc_nip44_decrypt_start  from a peer
 *   sc_nip59_wrap_start        a gift wrap;        sc_nip59_unwrap_start   its unwrap
 *   sc_nip17_send_start        a NIP-17 message;   sc_nip17_receive_start  one received
 * Over a local identity sc_signer_op_step completes the operation at once. Over an external
 * signer it stops at each point where the user's key is needed and hands out a request
 * (sc_signer_req: "sign this event", "encrypt this text to P", "decrypt this payload from P");
 * the application carries it to the signer and gives the answer back with
 * sc_signer_op_answer (or sc_signer_op_refuse), then steps again:
 *   sc_nip17_send_start(ctx, &op, &signer, out, ...);
 *   while ((st = sc_signer_op_step(&op, ctx, now_ms, &req)) == SC_OK &&
 *          req.kind != SC_SIGNER_REQ_NONE) {
 *       ...carry req to the signer; when its answer comes (before req.deadline_ms):
 *       sc_signer_op_answer(&op, ctx, answer, answer_len);
 *   }
 *   sc_signer_op_clear(&op);
 * The synchronous calls that take an sc_identity (sc_nip59_wrap, sc_nip17_receive, ...) are
 * these operations over a local identity, run to the end in one call: every path is the
 * same code whichever signer stands behind it.
 *
 * What a NIP-17 message needs from the user's key, and nothing more: to send, the NIP-44
 * encryption of the rumor to each receiver (and to the user's own copy) and the signature of
 * each kind 13 seal; to receive, the NIP-44 decryption of the gift wrap's content (from its
 * one-time key) and of the seal's (from the sender). The one-time key of each gift wrap is
 * drawn, used and wiped here: it never goes to the signer.
 *
 * Everything an external signer returns is verified before it is used (a signer that lies
 * is refused with SC_ERR_SIGNER_ANSWER and the operation fails; nothing it said is used):
 *   - a signature: it must verify against the user's public key over the id the library
 *     computed for the event it asked to sign (an answer that is a signed event is read
 *     for its signature, and its pubkey and id, when present, must be the user's and that
 *     id: a signer that signed anything else is caught);
 *   - a NIP-44 payload: its length must be exactly the one NIP-44 gives the plaintext's
 *     length, its base64 strict and canonical, its version byte 2 (the encryption itself
 *     cannot be checked without the key: a payload that does not decrypt fails at the
 *     receiver, never passes);
 *   - a plaintext: valid UTF-8, of a length the payload's padded size holds exactly (NIP-44
 *     pads each length to one size), and, inside an unwrap, a seal or a rumor that passes
 *     every check of nip59.h.
 * What no check can catch is what the key itself allows: a signer holds the user's key and
 * can sign what the user could. The library guarantees that what it accepts was signed or
 * decrypted by the key of the user's public key, and that no answer makes it accept a
 * message that does not verify.
 *
 * Deadlines. Each request is due by its deadline_ms: the now_ms given to the sc_signer_op_step
 * that issued it plus the signer's timeout. A step at or after the deadline without an answer
 * fails the operation with SC_ERR_TIMEOUT. Time is an input: nothing here reads a clock.
 *
 * Memory and secrets. An operation keeps, by reference, every buffer and input given to its
 * _start function (and the signer's identity) until it ends: keep them valid and unchanged,
 * and do not copy or move the sc_signer_op itself, until it is done, failed or cleared. While
 * it waits for an answer the operation holds the secrets it drew (a gift wrap's one-time key
 * and nonces) and the caller's buffers may hold plaintext (the rumor the signer is asked to
 * encrypt): an operation that ends, in success or failure, wipes them, and so does
 * sc_signer_op_clear on one abandoned midway. Nothing here allocates.
 *
 * Threads: an sc_signer is read-only after init (shareable, like the identity behind it); an
 * operation belongs to one thread at a time.
 */
#ifndef SOFTCHAT_SIGNER_H
#define SOFTCHAT_SIGNER_H

#include "ctx.h"
#include "identity.h"

SC_BEGIN_DECLS

struct sc_event;

/** The timeout of an external signer's requests when 0 is given: 30 s. */
#define SC_SIGNER_TIMEOUT_DEFAULT_MS 30000u

/** A signer in caller memory: a local identity or an external signer. Opaque. */
typedef struct sc_signer {
    uint64_t opaque[8];
} sc_signer;

/** Size of sc_signer in bytes, for bindings. Returns: sizeof(sc_signer). */
SC_API size_t sc_signer_bytes(void);

/** A signer over the local identity id, kept by reference (keep it imported and valid while
 *  the signer is used; clearing the identity makes every later operation SC_ERR_STATE).
 *  Returns: SC_OK; SC_ERR_ARG (s or id NULL); SC_ERR_STATE (id not imported, or cleared).
 *  Out: s (zeroed on failure).
 *  In: id.
 *  Constant time: yes (nothing secret is read). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_signer_init_local(sc_signer *s, const sc_identity *id)
    SC_NONNULL(1, 2);

/** A signer that holds no key: every use of the user's key becomes a request for the
 *  application to carry to the real signer. user is the user's public key (for NIP-46 the
 *  answer of get_public_key, which may differ from the remote signer's own key): every
 *  signature the signer returns is verified against it.
 *  Returns: SC_OK; SC_ERR_ARG (s or user NULL).
 *  Out: s (zeroed on failure).
 *  In: user: SC_PUBKEY_BYTES (x-only; a key that is not on the curve makes every signature
 *      answer fail verification); timeout_ms: each request's time to answer (0 =
 *      SC_SIGNER_TIMEOUT_DEFAULT_MS).
 *  Constant time: n/a (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_signer_init_external(sc_signer *s,
                                                        const uint8_t user[SC_PUBKEY_BYTES],
                                                        uint32_t timeout_ms) SC_NONNULL(1, 2);

/** The user's public key: the local identity's, or the one the external signer was set up
 *  with.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument); SC_ERR_STATE (s not set up or cleared, or
 *           its local identity cleared).
 *  Out: pub: SC_PUBKEY_BYTES, untouched on failure.
 *  In: s.
 *  Constant time: n/a (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_signer_pubkey(uint8_t pub[SC_PUBKEY_BYTES], const sc_signer *s)
    SC_NONNULL(1, 2);

/** Whether s is an external signer.
 *  Returns: 1 (external); 0 (a local identity, or s NULL or not set up).
 *  In: s. Constant time: n/a. RNG: no. */
SC_API int sc_signer_is_external(const sc_signer *s);

/** Wipes the signer (it holds no secret: the identity behind a local one is the caller's).
 *  In/Out: s; NULL is accepted (no-op). Constant time: yes. RNG: no. */
SC_API void sc_signer_clear(sc_signer *s);

/* ---- operations ------------------------------------------------------------------------ */

/** An operation over a signer, in caller memory (started by a protocol header's _start
 *  function). Opaque; it points into itself: do not copy or move it while it runs. */
typedef struct sc_signer_op {
    uint64_t opaque[192];
} sc_signer_op;

/** Size of sc_signer_op in bytes, for bindings. Returns: sizeof(sc_signer_op). */
SC_API size_t sc_signer_op_bytes(void);

/** What an operation asks of the signer. */
typedef enum sc_signer_req_kind {
    SC_SIGNER_REQ_NONE = 0,          /* nothing: the operation is done */
    SC_SIGNER_REQ_SIGN_EVENT = 1,    /* sign `event` (NIP-46 sign_event; NIP-07 signEvent):
                                        answer with the signed event's JSON object, or the
                                        128 hex characters of its signature */
    SC_SIGNER_REQ_NIP44_ENCRYPT = 2, /* NIP-44-encrypt `text` to `peer` (NIP-46
                                        nip44_encrypt): answer with the payload */
    SC_SIGNER_REQ_NIP44_DECRYPT = 3  /* NIP-44-decrypt the payload `text` from `peer` (NIP-46
                                        nip44_decrypt): answer with the plaintext */
} sc_signer_req_kind;

/** One request of an operation. Views point into the operation and the buffers given to its
 *  _start function: valid until the next call on the operation. */
typedef struct sc_signer_req {
    sc_signer_req_kind kind;
    uint32_t seq;                  /* 1, 2, ...: the request's number in its operation (a
                                      step that returns the same seq repeats a request already
                                      handed out) */
    int64_t deadline_ms;           /* the answer is due before this time */
    uint8_t peer[SC_PUBKEY_BYTES]; /* NIP44_ENCRYPT, NIP44_DECRYPT: the other party */
    sc_str text;                   /* NIP44_ENCRYPT: the plaintext (UTF-8); NIP44_DECRYPT: the
                                      payload (base64) */
    const struct sc_event *event;  /* SIGN_EVENT: the event to sign: its pubkey is the user's
                                      and its id is set (the signature must be over that id);
                                      no sig */
    uint64_t reserved_[2];         /* zero */
} sc_signer_req;

/** Runs the operation as far as it can go. Over a local identity it runs to the end. Over an
 *  external signer it stops where the user's key is needed and describes the request in
 *  *req (a request already handed out and not yet answered is described again, with the
 *  same seq and deadline); a request unanswered at now_ms >= its deadline fails the
 *  operation with SC_ERR_TIMEOUT.
 *  Returns: SC_OK with req->kind SC_SIGNER_REQ_NONE: the operation is done and its outputs
 *           are written (as its _start function describes); SC_OK with another kind: a
 *           request to answer (sc_signer_op_answer, sc_signer_op_refuse);
 *           on failure the operation's status, which every later step returns again:
 *           SC_ERR_TIMEOUT; SC_ERR_SIGNER_ANSWER and SC_ERR_SIGNER_REFUSED (from an
 *           earlier answer or refusal); the statuses of the operation's own work (listed by
 *           its _start function: SC_ERR_SEAL_SIG, SC_ERR_RNG, SC_ERR_INVALID_KEY, ...);
 *           SC_ERR_STATE (op not started, or cleared; the signer's identity cleared
 *           meanwhile); SC_ERR_ARG (op or req NULL; ctx NULL or not usable: nothing is
 *           done, the operation goes on).
 *  Out: req (zeroed first). In/Out: op. In: now_ms (the caller's clock, milliseconds; only
 *       deadlines use it).
 *  Constant time: as the operation (its _start function says). RNG: as the operation (a
 *  local signature's aux randomness, drawn here when the _start function did not get it). */
SC_API SC_WARN_UNUSED sc_status sc_signer_op_step(sc_signer_op *op, sc_ctx *ctx, int64_t now_ms,
                                                  sc_signer_req *req) SC_NONNULL(1, 2, 4);

/** Gives the answer to the request the last step handed out, and verifies it (signer.h's
 *  top lists what is checked). A verified answer is kept and the next step goes on from it;
 *  one that fails verification ends the operation.
 *  Returns: SC_OK (taken: step again); SC_ERR_SIGNER_ANSWER (the answer failed
 *           verification: the operation failed, its outputs are wiped, and every later step
 *           returns this); SC_ERR_STATE (no request is waiting for an answer, or the
 *           operation ended; nothing changes); SC_ERR_ARG (op or ctx NULL, text NULL with
 *           len > 0: nothing changes); the context's statuses (SC_ERR_UNSUPPORTED,
 *           SC_ERR_STATE) while verifying, which end the operation.
 *  In/Out: op. In: text[0..len): the answer as the signer gave it (a JSON string's value,
 *      unescaped).
 *  Constant time: no: a plaintext answer is checked for UTF-8 and length (it is copied
 *  without branching on its bytes otherwise). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_signer_op_answer(sc_signer_op *op, sc_ctx *ctx, const char *text,
                                                    size_t len) SC_NONNULL(1, 2);

/** The signer declined the request, answered with an error, or cannot be reached: the
 *  operation fails with SC_ERR_SIGNER_REFUSED (its outputs wiped, as on any failure).
 *  Returns: SC_OK (the operation has failed); SC_ERR_STATE (no request is waiting, or the
 *           operation ended); SC_ERR_ARG (op NULL).
 *  In/Out: op. Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_signer_op_refuse(sc_signer_op *op) SC_NONNULL(1);

/** Ends an operation wherever it stands: one still running fails (its outputs are wiped as
 *  its _start function says for a failure), and the operation's state, the secrets it held
 *  included, is wiped. Later use gives SC_ERR_STATE.
 *  In/Out: op; NULL is accepted (no-op). Constant time: yes. RNG: no. */
SC_API void sc_signer_op_clear(sc_signer_op *op);

SC_END_DECLS

#endif
