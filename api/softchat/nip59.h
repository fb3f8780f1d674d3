/* libsoftchat: NIP-59 gift wrap (rumor -> seal -> wrap) and authenticated unwrap.
 *
 * Rumor: an unsigned event (no sig) whose id is computed. Seal (kind 13): NIP-44 of the rumor
 * JSON under conv(author, recipient), signed by the author, tags [] unless an expiration is
 * asked for. Gift wrap (kind 1059, or the ephemeral kind 21059): NIP-44 of the seal JSON under
 * conv(one-time key, recipient), a ["p", recipient(, relay)] tag, signed by the one-time key.
 * Seal and wrap created_at are independently randomised up to two days into the past.
 *
 * Randomness is an input: sc_nip59_rand carries every random value (one-time key, NIP-44
 * nonces, BIP-340 aux, the two time offsets). sc_nip59_wrap draws it from the context's CSPRNG
 * and calls sc_nip59_wrap_with_rand, so vectors run the real code path.
 *
 * Size. NIP-44 needs its extended length prefix for plaintexts of 65536 bytes and more, and
 * deployed decoders are still u16-only, so a rumor JSON or seal JSON that large is refused
 * (SC_ERR_POLICY) unless opts->flags has SC_NIP44_EXTENDED. Because the seal JSON carries the rumor
 * twice over (base64 of the padded NIP-44 payload), this limits the rumor JSON to 40960 bytes.
 *
 * Unwrap authenticates every layer, in this order, each with its own status: wrap kind
 * (SC_ERR_WRAP_KIND), wrap id (SC_ERR_WRAP_ID), wrap signature (SC_ERR_WRAP_SIG), decryption
 * for this recipient (SC_ERR_WRAP_DECRYPT), seal is an event (SC_ERR_SEAL_JSON), seal kind 13
 * (SC_ERR_SEAL_KIND), seal id (SC_ERR_SEAL_ID), seal signature (SC_ERR_SEAL_SIG), seal
 * decryption (SC_ERR_SEAL_DECRYPT), rumor is an event without a signature (SC_ERR_RUMOR_JSON;
 * a rumor carrying "sig" is SC_ERR_RUMOR_SIGNED), rumor pubkey == seal pubkey
 * (SC_ERR_RUMOR_AUTHOR), rumor id present, recomputed and compared (SC_ERR_RUMOR_ID). Nothing
 * from an inner layer is returned when any check fails: the arena and outputs are zeroed.
 * Seals that carry tags (an expiration) are accepted.
 *
 * The sender and the lifted-key cache. A seal's signer is the real sender, hidden from
 * everyone but the recipient. Unwrap verifies the seal and derives the seal's conversation key
 * with the sender's public key, so the curve adapter keeps that key lifted in the context
 * (ctx.h: the last eight public keys a context used), and two things follow:
 *   - memory: until eight other keys replace it or sc_ctx_clear, the context's memory holds
 *     the public keys of the last senders it unwrapped. Whoever can read that memory can also
 *     read the recipient's sc_identity, held there to unwrap, and with it open every gift wrap
 *     the relays keep for the recipient, senders included: the cache adds nothing for that
 *     reader while the identity is loaded. When an account is locked, clear the context with
 *     the identity (sc_ctx_clear wipes the cache).
 *   - timing: an unwrap whose seal signer is in the cache skips one lift, about 5 us of 200
 *     (measured: 198.8 vs 203.8 us median, openssl; 228.1 vs 237.2 us, mbedtls). A probe needs
 *     a wrap whose seal claims the sender's key (the lift precedes the signature check, so no
 *     key is needed) and a clock on the recipient's unwrap with microsecond resolution: a
 *     process on the same machine, not a relay behind network jitter; and each probe puts the
 *     key in the cache itself. Accepted as such; a caller that must exclude it unwraps on a
 *     context kept for unwrapping and cleared between senders.
 *
 * No function here allocates: callers pass buffers sized by the size functions. The one clock
 * read of the library is here: opts->now == 0 means time(NULL). To send a NIP-17 message to
 * several receivers and the sender's own copy, use sc_nip17_send (nip17.h).
 */
#ifndef SOFTCHAT_NIP59_H
#define SOFTCHAT_NIP59_H

#include "event.h"
#include "identity.h"
#include "nip44.h"

SC_BEGIN_DECLS

#define SC_NIP59_KIND_SEAL 13u
#define SC_NIP59_KIND_WRAP 1059u
#define SC_NIP59_KIND_WRAP_EPHEMERAL 21059u
#define SC_NIP59_MAX_BACKDATE 172800 /* seconds: two days */

/** Wrap flags (with SC_NIP44_EXTENDED of nip44.h, the same flag as for sc_nip44_encrypt). */
#define SC_NIP59_EPHEMERAL 0x100u /* an ephemeral gift wrap: kind 21059 instead of 1059 */
#define SC_NIP59_EXPIRATION_WRAP_ONLY                                                              \
    0x200u /* with an expiration: on the wrap only, the
              seal's tags stay [] as NIP-59 demands */

/** Wrap options. NULL means what a zero-initialised struct means: kind 1059, no relay hint,
 *  no expiration, the current time, no extended prefix. */
typedef struct sc_nip59_opts {
    unsigned flags;     /* SC_NIP59_EPHEMERAL, SC_NIP44_EXTENDED (allow a rumor or seal
                           JSON of 65536 bytes and more: the NIP-44 extended prefix,
                           unreadable by u16-only receivers), SC_NIP59_EXPIRATION_WRAP_ONLY;
                           other bits: SC_ERR_FLAGS */
    sc_str relay;       /* relay hint for the wrap's p tag (UTF-8); none when len is 0 */
    int64_t expiration; /* > 0: an ["expiration", "<n>"] tag (NIP-40) on the wrap and, unless
                           SC_NIP59_EXPIRATION_WRAP_ONLY, on the seal; 0: none */
    int64_t now;        /* the current time (unix seconds, >= 0); 0 = time(NULL) */
} sc_nip59_opts;

/** Every random input of one gift wrap. */
typedef struct sc_nip59_rand {
    uint8_t wrap_seckey[SC_SECKEY_BYTES];     /* the one-time key (a valid secret key) */
    uint8_t seal_nonce[SC_NIP44_NONCE_BYTES]; /* NIP-44 nonce of the seal content */
    uint8_t wrap_nonce[SC_NIP44_NONCE_BYTES]; /* NIP-44 nonce of the wrap content */
    uint8_t seal_aux[SC_AUX_RAND_BYTES];      /* BIP-340 aux of the seal signature */
    uint8_t wrap_aux[SC_AUX_RAND_BYTES];      /* BIP-340 aux of the wrap signature */
    uint32_t seal_backdate; /* seconds subtracted from now, 0..SC_NIP59_MAX_BACKDATE */
    uint32_t wrap_backdate;
} sc_nip59_rand;

/** Makes ev a rumor of `author`: sets pubkey, computes the id, clears the signature.
 *  Returns: as sc_event_compute_id.
 *  In/Out: ev (on success pubkey and id set with their flags, sig zeroed and its flag
 *          cleared; on failure id and sig are zeroed and their flags cleared, the pubkey is
 *          left).
 *  In: author: SC_PUBKEY_BYTES.
 *  Constant time: no (a rumor's id covers its private content, which the payload length
 *  shows anyway). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_rumor(sc_ctx *ctx, sc_event *ev,
                                               const uint8_t author[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 3);

/** Bytes of scratch that suffice for sc_nip59_wrap of this rumor with these options (opts
 *  may be NULL). The sizes depend on the decimal width of the seal and wrap timestamps,
 *  which are at most opts->now (INT64_MAX when opts->now is 0): with opts->now set, this is
 *  the exact need whenever the backdated times keep the width of now (always, for any now
 *  from 1000172800 on).
 *  Returns: the size; 0 if the rumor (it must carry pubkey and id, no sig) or the options
 *  are invalid (the call then says why). */
SC_API size_t sc_nip59_wrap_scratch_max(const sc_event *rumor, const sc_nip59_opts *opts)
    SC_NONNULL(1);

/** Upper bound on the gift wrap JSON length for this rumor and options (same terms as
 *  sc_nip59_wrap_scratch_max). Returns: the bound; 0 if they are invalid. */
SC_API size_t sc_nip59_wrap_max(const sc_event *rumor, const sc_nip59_opts *opts) SC_NONNULL(1);

/** Seals and gift-wraps rumor for recipient, with all randomness from the context's CSPRNG
 *  (the one-time key is redrawn while invalid; each backdate is uniform in
 *  0..SC_NIP59_MAX_BACKDATE by rejection sampling). Writes the gift wrap as one line of JSON.
 *  rumor must carry its pubkey and a correct id and no sig, and its pubkey must be author's.
 *  Timestamps are now - backdate, at least 0.
 *  Checks run in this order: arguments, options, context and identity, rumor, policy,
 *  capacity (against the bounds of the size functions for this `now`), overlap; then the
 *  RNG is called.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument, out or scratch NULL with enough capacity, a
 *           relay NULL with a length); SC_ERR_FLAGS (an unknown flag, a negative
 *           expiration or now); SC_ERR_STATE (ctx, or author not imported / cleared);
 *           SC_ERR_RUMOR_SIGNED (rumor carries a signature); SC_ERR_EVENT_FIELD (rumor
 *           without pubkey or id: make it with sc_nip59_rumor); SC_ERR_RUMOR_AUTHOR (its
 *           pubkey is not author's); SC_ERR_ID_MISMATCH (its id is not its computed id); the
 *           sc_event_check errors; SC_ERR_UTF8 (relay); SC_ERR_POLICY (the extended prefix
 *           is needed and SC_NIP44_EXTENDED not given); SC_ERR_BUFFER_TOO_SMALL (scratch or
 *           out: *out_len = the size out needs; scratch's is sc_nip59_wrap_scratch_max);
 *           SC_ERR_OVERLAP (out, scratch, the rumor's strings, the relay, the author or the
 *           recipient share bytes); SC_ERR_INVALID_KEY (recipient not on the curve);
 *           SC_ERR_RNG; SC_ERR_UNSUPPORTED (clock unavailable with opts->now == 0, or a
 *           backend group missing).
 *  Out: out[0..*out_len); on failure nothing of out is left written and *out_len is 0 (but
 *       for SC_ERR_BUFFER_TOO_SMALL). Every byte of scratch the call wrote is wiped before
 *       it returns (on success too), and so are the keys it derived.
 *  In: rumor; author; recipient: SC_PUBKEY_BYTES; opts (may be NULL).
 *  Constant time: in the author's secret key, the one-time key, the derived keys and the
 *  rumor's bytes (not in its length). RNG: yes: the one-time key, two NIP-44 nonces, two
 *  BIP-340 aux values and two backdates. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_wrap(sc_ctx *ctx, char *out, size_t out_cap,
                                              size_t *out_len, void *scratch, size_t scratch_cap,
                                              const sc_event *rumor, const sc_identity *author,
                                              const uint8_t recipient[SC_PUBKEY_BYTES],
                                              const sc_nip59_opts *opts) SC_NONNULL(1, 4, 7, 8, 9);

/** As sc_nip59_wrap with explicit randomness (vectors). The capacities are checked against
 *  the exact needs for rnd (never above the size functions' bounds).
 *  Returns: as sc_nip59_wrap without SC_ERR_RNG, plus SC_ERR_ARG for a backdate above
 *           SC_NIP59_MAX_BACKDATE and SC_ERR_INVALID_KEY for an invalid rnd->wrap_seckey.
 *  Out: as sc_nip59_wrap.
 *  In: as sc_nip59_wrap, plus rnd.
 *  Constant time: as sc_nip59_wrap. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_wrap_with_rand(
    sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, void *scratch, size_t scratch_cap,
    const sc_event *rumor, const sc_identity *author, const uint8_t recipient[SC_PUBKEY_BYTES],
    const sc_nip59_opts *opts, const sc_nip59_rand *rnd) SC_NONNULL(1, 4, 7, 8, 9, 11);

/** What unwrap learned about the outer layers. */
typedef struct sc_nip59_info {
    uint8_t sender[SC_PUBKEY_BYTES];      /* the seal's (and rumor's) pubkey: the real author */
    uint8_t wrap_pubkey[SC_PUBKEY_BYTES]; /* the one-time key */
    uint8_t wrap_id[SC_EVENT_ID_BYTES];
    uint8_t seal_id[SC_EVENT_ID_BYTES];
    uint32_t wrap_kind; /* 1059 or 21059 */
    int64_t wrap_created_at;
    int64_t seal_created_at;
} sc_nip59_info;

/** Arena bytes that suffice for sc_nip59_unwrap of any gift wrap of wrap_len bytes, at any
 *  arena alignment (about 7.2 * wrap_len on 64-bit targets: a hostile wrap or rumor made of
 *  empty tags is the worst case).
 *  Returns: the size; 0 when it does not fit size_t. */
SC_API size_t sc_nip59_unwrap_arena_max(size_t wrap_len);

/** Unwraps and authenticates a gift wrap (JSON text) addressed to `recipient`. On success
 *  *rumor is the rumor, its views pointing into arena[0..*arena_used). The rumor content is
 *  private: wipe the arena when done with it.
 *  The arena (any alignment; must not overlap wrap_json) is the only working memory: the
 *  parsed layers and the decrypted seal and rumor JSON live there in turn, and everything but
 *  the final rumor is zeroed as soon as it is no longer needed. The wrap may be of any length
 *  (the caller decides what it accepts from a relay); the NIP-44 extended prefix is accepted.
 *  Returns: SC_OK; the per-check statuses listed at the top; SC_ERR_JSON / SC_ERR_EVENT_FIELD /
 *  SC_ERR_EVENT_RANGE / SC_ERR_UTF8 / SC_ERR_TOO_LARGE for a wrap that is not a valid event
 *  (all seven fields required); SC_ERR_BUFFER_TOO_SMALL (*arena_used = a capacity that
 *  suffices at this arena address: the exact need when the shortfall is the rumor's own
 *  parse, else sc_nip59_unwrap_arena_max(wrap_len); arena NULL with arena_cap 0 asks for
 *  it); SC_ERR_ARG; SC_ERR_STATE (ctx, erased recipient); SC_ERR_UNSUPPORTED.
 *  Out: rumor, info (may be NULL), arena; on failure rumor and info are zeroed, *arena_used is
 *  0 (but for SC_ERR_BUFFER_TOO_SMALL), and every arena byte the call wrote is zeroed (bytes
 *  it never wrote are left alone).
 *  In: wrap_json[0..wrap_len); recipient.
 *  Constant time: in the recipient's secret key and the derived keys; the MAC comparisons
 *  are constant time. Which check fails, and when, depends on the (public) wrap; the curve
 *  adapter's lifted-key cache makes a sender seen recently cheaper to verify and keeps its
 *  public key in the context (see "The sender and the lifted-key cache" above).
 *  RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_unwrap(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info,
                                                void *arena, size_t arena_cap, size_t *arena_used,
                                                const char *wrap_json, size_t wrap_len,
                                                const sc_identity *recipient)
    SC_NONNULL(1, 2, 6, 9);

/** As sc_nip59_unwrap, and NIP-40 at time now: right after the wrap's signature check, a
 *  wrap whose expiration is at or before now is refused with SC_ERR_WRAP_EXPIRED; right
 *  after the seal's, an expired seal with SC_ERR_SEAL_EXPIRED. An expiration tag that is
 *  not one decimal time (sc_nip40_expiration's SC_ERR_EVENT_FIELD) counts as expired: the
 *  sender meant the message to expire.
 *  Returns: as sc_nip59_unwrap, plus SC_ERR_WRAP_EXPIRED and SC_ERR_SEAL_EXPIRED, and
 *           SC_ERR_ARG for a negative now.
 *  Out: as sc_nip59_unwrap.
 *  In: wrap_json[0..wrap_len); recipient; now (unix seconds, the caller's clock).
 *  Constant time: as sc_nip59_unwrap. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_unwrap_at(sc_ctx *ctx, sc_event *rumor,
                                                   sc_nip59_info *info, void *arena,
                                                   size_t arena_cap, size_t *arena_used,
                                                   const char *wrap_json, size_t wrap_len,
                                                   const sc_identity *recipient, int64_t now)
    SC_NONNULL(1, 2, 6, 9);

/* ---- over a signer (signer.h) ------------------------------------------------------------ */

/** Starts sc_nip59_wrap as an operation over the author's signer (sc_signer_op_step drives
 *  it): a local identity wraps at the first step, exactly as sc_nip59_wrap (which is this
 *  operation run to its end). An external signer is asked twice: NIP44_ENCRYPT of the rumor
 *  JSON to the recipient (the seal's content; the text is scratch's first bytes, which hold
 *  the rumor in clear until the answer) and SIGN_EVENT of the kind 13 seal over that content.
 *  Each answer is verified (signer.h); the one-time key, the wrap's nonce and its signature
 *  are made here and never leave the library. Every check of sc_nip59_wrap runs here, in its
 *  order, and the randomness is drawn here once they pass.
 *  Returns: SC_OK (started); sc_nip59_wrap's statuses for its checks (SC_ERR_ARG also for op
 *           NULL; SC_ERR_STATE for a signer not set up; SC_ERR_BUFFER_TOO_SMALL with
 *           *out_len the need) and SC_ERR_RNG. Then the steps: SC_OK when done;
 *           SC_ERR_SIGNER_ANSWER, SC_ERR_SIGNER_REFUSED, SC_ERR_TIMEOUT; SC_ERR_INVALID_KEY
 *           (recipient not on the curve); SC_ERR_STATE; the backend's statuses.
 *  Out: op (started; cleared on failure); when done, out[0..*out_len) is the gift wrap; on a
 *       failure, here or later, nothing of out is left written and *out_len is 0 (but for
 *       SC_ERR_BUFFER_TOO_SMALL). Every byte of scratch the operation wrote is wiped when it
 *       ends (in success too), and so are the keys and randomness it held.
 *  In: rumor, out, scratch and opts's relay (kept by reference until the operation ends);
 *      author; recipient: SC_PUBKEY_BYTES (copied); opts (may be NULL).
 *  Constant time: as sc_nip59_wrap (local). RNG: yes, as sc_nip59_wrap, drawn here. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_wrap_start(sc_ctx *ctx, sc_signer_op *op, char *out,
                                                    size_t out_cap, size_t *out_len, void *scratch,
                                                    size_t scratch_cap, const sc_event *rumor,
                                                    const sc_signer *author,
                                                    const uint8_t recipient[SC_PUBKEY_BYTES],
                                                    const sc_nip59_opts *opts)
    SC_NONNULL(1, 2, 5, 8, 9, 10);

/** As sc_nip59_wrap_start with explicit randomness (vectors): rnd gives the one-time key,
 *  the nonces, the aux values and the backdates (an external signer draws the seal's own
 *  nonce and aux: rnd's seal_nonce and seal_aux are then unused).
 *  Returns: as sc_nip59_wrap_start without SC_ERR_RNG, plus SC_ERR_ARG for a backdate above
 *           SC_NIP59_MAX_BACKDATE and SC_ERR_INVALID_KEY for an invalid rnd->wrap_seckey.
 *  Out: as sc_nip59_wrap_start.
 *  In: as sc_nip59_wrap_start, plus rnd (copied).
 *  Constant time: as sc_nip59_wrap_start. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_wrap_start_with_rand(
    sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap, size_t *out_len, void *scratch,
    size_t scratch_cap, const sc_event *rumor, const sc_signer *author,
    const uint8_t recipient[SC_PUBKEY_BYTES], const sc_nip59_opts *opts, const sc_nip59_rand *rnd)
    SC_NONNULL(1, 2, 5, 8, 9, 10, 12);

/** Starts sc_nip59_unwrap as an operation over the recipient's signer: a local identity
 *  unwraps at the first step, exactly as sc_nip59_unwrap (or sc_nip59_unwrap_at for now >=
 *  0). An external signer is asked twice: NIP44_DECRYPT of the wrap's content from its
 *  one-time key, then of the seal's content from the seal's signer, each only once the
 *  layer around it has passed every check (a forged wrap never reaches the signer) and its
 *  payload every check that needs no key. Each plaintext answered is checked (UTF-8, the
 *  one length its payload's padding holds) and put where a local decryption would have put
 *  it, and the layer it holds must then pass every check of sc_nip59_unwrap, in its order,
 *  with the same statuses: a signer cannot make a forged seal or rumor pass.
 *  Returns: SC_OK (started); SC_ERR_ARG (as sc_nip59_unwrap, and op NULL); SC_ERR_STATE
 *           (ctx, or a signer not set up or over a cleared identity). Then the steps: SC_OK
 *           when done; every sc_nip59_unwrap_at status; SC_ERR_SIGNER_ANSWER,
 *           SC_ERR_SIGNER_REFUSED (for a wrap that is not the user's, an honest signer
 *           refuses to decrypt), SC_ERR_TIMEOUT.
 *  Out: op; rumor, info (may be NULL), arena and *arena_used as for sc_nip59_unwrap, when
 *       the operation is done; zeroed here, and on a failure as sc_nip59_unwrap says.
 *  In: wrap_json[0..wrap_len) and the arena (kept by reference until the operation ends);
 *      recipient; now: unix seconds for the NIP-40 checks of sc_nip59_unwrap_at, or a
 *      negative value for none.
 *  Constant time: as sc_nip59_unwrap (local). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip59_unwrap_start(sc_ctx *ctx, sc_signer_op *op,
                                                      sc_event *rumor, sc_nip59_info *info,
                                                      void *arena, size_t arena_cap,
                                                      size_t *arena_used, const char *wrap_json,
                                                      size_t wrap_len, const sc_signer *recipient,
                                                      int64_t now) SC_NONNULL(1, 2, 3, 7, 10);

SC_END_DECLS

#endif
