/* libsoftchat: NIP-98 HTTP auth.
 *
 * A client proves to an HTTP server who sends a request with a signed kind 27235 event:
 * content "", tags ["u", <the absolute request URL, query included>], ["method", <the HTTP
 * method>] and, for a request with a body, ["payload", <the body's SHA-256, lowercase hex>];
 * created_at the time of the request. It travels base64-encoded in the request's header
 * `Authorization: Nostr <base64 of the event's JSON>`.
 *
 * sc_nip98_sign writes the header's value ("Nostr " and padded standard base64 of the event
 * object). A key held elsewhere (an external signer, signer.h) signs the same event:
 * sc_nip98_template, sc_event_sign_start over the signer, then sc_nip98_header, which
 * verifies the signed event before it writes its header. sc_nip98_verify checks one as NIP-98 asks a server to, one status per check, and
 * gives the signed event (the signer is its pubkey). It accepts the base64 padded or not (the
 * NIP's own example header is written without the padding some encoders leave out), the
 * scheme in any case (RFC 9110: auth schemes are case-insensitive), and spaces around the
 * value. The example event printed in NIP-98 itself does not verify: its tag was renamed from
 * "url" to "u" after it was signed, so its id is stale (SC_ERR_ID_MISMATCH); the example
 * header, which carries the event as signed, verifies but has no "u" tag (SC_ERR_NIP98_URL).
 *
 * Comparisons: the URL byte for byte (the NIP: exactly the request URL, query included: a
 * server passes the URL as the client addressed it, scheme and host included); the method
 * without regard to ASCII case, as nostr-tools compares it; the payload hash as hex in either
 * case. A tag the check reads must appear once: a second "u", "method" or "payload" tag (two
 * readers could pick different ones) fails that check.
 *
 * No allocation; sans-IO: the clock is an argument (now, created_at).
 */
#ifndef SOFTCHAT_NIP98_H
#define SOFTCHAT_NIP98_H

#include "event.h"

SC_BEGIN_DECLS

#define SC_NIP98_KIND 27235u
#define SC_NIP98_WINDOW_DEFAULT 60 /* seconds either side of now (the NIP's suggestion) */

/** The request an auth event authorises. */
typedef struct sc_nip98_request {
    sc_str url;                    /* the absolute request URL, query included (UTF-8, not empty) */
    sc_str method;                 /* the HTTP method: "GET", "POST", ... (UTF-8, not empty) */
    const uint8_t *payload_sha256; /* SC_SHA256_BYTES, the SHA-256 of the request body: signed
                                      as the "payload" tag, or required to match it; NULL for
                                      none (sign: no tag; verify: the tag is not checked) */
} sc_nip98_request;

/** Exact length of the header value sc_nip98_sign writes for req at created_at.
 *  Returns: the length; 0 when req is invalid (a NULL or empty url or method, text that is
 *  not UTF-8, a negative created_at) or the length does not fit size_t. */
SC_API size_t sc_nip98_sign_len(const sc_nip98_request *req, int64_t created_at) SC_NONNULL(1);

/** Signs a NIP-98 auth event for req and writes the Authorization header's value: "Nostr "
 *  and the padded standard base64 of the event's JSON object (SC_EVENT_JSON_OBJECT), not
 *  NUL-terminated. Aux randomness for the signature from the context's RNG.
 *  Returns: SC_OK; SC_ERR_EMPTY (an empty url or method); SC_ERR_UTF8 (url or method not
 *           UTF-8); SC_ERR_EVENT_RANGE (created_at < 0); SC_ERR_BUFFER_TOO_SMALL (*out_len =
 *           sc_nip98_sign_len; out may be NULL with out_cap 0 to ask); SC_ERR_RNG;
 *           SC_ERR_ARG (out_len, id or req NULL, a NULL string with a length, out NULL with
 *           out_cap > 0, a NULL ctx); SC_ERR_STATE (ctx, or id not imported or cleared);
 *           SC_ERR_UNSUPPORTED (no hash or curve group).
 *  Out: out[0..*out_len): the header value; zeroed on failure (but for SC_ERR_ARG and
 *       SC_ERR_BUFFER_TOO_SMALL, which leave it untouched); *out_len (0 on failure, or the
 *       need).
 *  In: id (the signer); req; created_at (unix seconds: the time of the request).
 *  Constant time: in the secret key. RNG: yes (SC_AUX_RAND_BYTES). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip98_sign(sc_ctx *ctx, char *out, size_t out_cap,
                                              size_t *out_len, const sc_identity *id,
                                              const sc_nip98_request *req, int64_t created_at)
    SC_NONNULL(1, 4, 5, 6);

/** As sc_nip98_sign with explicit aux randomness (vectors; deterministic).
 *  Returns: as sc_nip98_sign, without SC_ERR_RNG; SC_ERR_ARG also for a NULL aux.
 *  Out: as sc_nip98_sign.
 *  In: as sc_nip98_sign; aux: SC_AUX_RAND_BYTES.
 *  Constant time: in the secret key and aux. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip98_sign_with_rand(sc_ctx *ctx, char *out, size_t out_cap,
                                                        size_t *out_len, const sc_identity *id,
                                                        const sc_nip98_request *req,
                                                        int64_t created_at,
                                                        const uint8_t aux[SC_AUX_RAND_BYTES])
    SC_NONNULL(1, 4, 5, 6, 8);

/** A kind 27235 auth event and the arrays it points into (its tags, their items, the payload
 *  hash in hex), for an event signed elsewhere. It points into itself: do not copy it while
 *  the event is in use. */
typedef struct sc_nip98_auth {
    sc_event event;
    sc_tag tags[3];
    sc_str items[6];
    char payload_hex[64]; /* 2 * SC_SHA256_BYTES */
} sc_nip98_auth;

/** The auth event of req to sign elsewhere (an external signer: signer.h): kind 27235, the
 *  tags sc_nip98_sign signs (u, method and, with payload_sha256, payload), content "",
 *  created_at as given, pubkey set to `pubkey`, no id or signature. Its url and method point
 *  at req's strings: keep them unchanged while the event is used. Then sc_event_sign_start
 *  over the signer, sc_signer_op_step to its end, and sc_nip98_header of a->event.
 *  Returns: SC_OK; SC_ERR_EMPTY (an empty url or method); SC_ERR_UTF8 (url or method not
 *           UTF-8); SC_ERR_EVENT_RANGE (created_at < 0); SC_ERR_TOO_LARGE (its header would
 *           not fit size_t); SC_ERR_ARG (a, req or pubkey NULL, a NULL string with a
 *           length).
 *  Out: a (zeroed first, and on failure).
 *  In: req; created_at (unix seconds: the time of the request); pubkey: SC_PUBKEY_BYTES (the
 *      user's).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip98_template(sc_nip98_auth *a, const sc_nip98_request *req,
                                                  int64_t created_at,
                                                  const uint8_t pubkey[SC_PUBKEY_BYTES])
    SC_NONNULL(1, 2, 4);

/** Exact length of the header value sc_nip98_header writes for ev once signed (an id, a
 *  pubkey and a signature have fixed lengths: a template and its signed event measure the
 *  same). Nothing is verified here.
 *  Returns: the length; 0 when ev is NULL or fails sc_event_check, or the length does not
 *  fit size_t. */
SC_API size_t sc_nip98_header_len(const sc_event *ev);

/** Writes the Authorization header value of an auth event signed elsewhere: "Nostr " and the
 *  padded standard base64 of its JSON object, as sc_nip98_sign writes it, not NUL-terminated.
 *  A signer's answer is never trusted unverified: ev is checked first, in this order: id,
 *  pubkey and sig set (SC_ERR_EVENT_FIELD); sc_event_check; kind 27235 (SC_ERR_NIP98_KIND);
 *  one "u" tag with a value (SC_ERR_NIP98_URL); one "method" tag with a value (SC_ERR_NIP98_METHOD); at most
 *  one "payload" tag, 64 hex digits when present (SC_ERR_NIP98_PAYLOAD); then the id
 *  recomputed and the signature verified against its pubkey (sc_event_verify). The signer is
 *  ev->pubkey: the caller compares it with the user's key when it matters (an external
 *  signer's operation already has).
 *  Returns: SC_OK; the statuses above; the sc_event_check errors (SC_ERR_UTF8,
 *           SC_ERR_EVENT_RANGE, ...); SC_ERR_ID_MISMATCH; SC_ERR_INVALID_SIG;
 *           SC_ERR_TOO_LARGE (the length does not fit size_t); SC_ERR_BUFFER_TOO_SMALL (ev
 *           verified; *out_len = sc_nip98_header_len(ev); out may be NULL with out_cap 0 to
 *           ask); SC_ERR_ARG (out_len or ev NULL, out NULL with out_cap > 0, a NULL ctx);
 *           SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED (no hash or curve group).
 *  Out: out[0..*out_len): the header value; zeroed on failure (but for SC_ERR_ARG and
 *       SC_ERR_BUFFER_TOO_SMALL, which leave it untouched); *out_len (0 on failure, or the
 *       need).
 *  In: ev (the signed auth event: sc_nip98_template's, once signed).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip98_header(sc_ctx *ctx, char *out, size_t out_cap,
                                                size_t *out_len, const sc_event *ev)
    SC_NONNULL(1, 4, 5);

/** Scratch bytes that always suffice for sc_nip98_verify of a header value of header_len
 *  bytes: the decoded event text and the parse arena it needs.
 *  Returns: the bound; 0 when it does not fit size_t. */
SC_API size_t sc_nip98_verify_scratch_max(size_t header_len);

/** Checks an Authorization header value as NIP-98 asks a server to, in this order:
 *   1. the scheme "Nostr" (any case) and one or more spaces, then the token: otherwise
 *      SC_ERR_NIP98_SCHEME (a value of another scheme, "Bearer ...", or none);
 *   2. the token is standard base64, padded or not (SC_ERR_BASE64), of one JSON event object,
 *      parsed as sc_event_parse does (its statuses: SC_ERR_JSON, SC_ERR_UTF8,
 *      SC_ERR_EVENT_FIELD, SC_ERR_EVENT_RANGE, SC_ERR_TOO_LARGE over 1 MiB of JSON);
 *   3. kind 27235 (SC_ERR_NIP98_KIND);
 *   4. |created_at - now| <= window (SC_ERR_NIP98_TIME);
 *   5. one "u" tag, equal to req->url byte for byte (SC_ERR_NIP98_URL);
 *   6. one "method" tag, equal to req->method in ASCII case-folding (SC_ERR_NIP98_METHOD);
 *   7. when req->payload_sha256 is set: one "payload" tag, 64 hex digits (either case) that
 *      are that hash (SC_ERR_NIP98_PAYLOAD);
 *   8. the id and the signature (SC_ERR_ID_MISMATCH, SC_ERR_INVALID_SIG).
 *  Returns: SC_OK; the statuses above; SC_ERR_BUFFER_TOO_SMALL (scratch_cap below
 *           sc_nip98_verify_scratch_max(header_len): *scratch_used = that, scratch
 *           untouched);
 *           SC_ERR_ARG (ev, scratch_used or req NULL, header NULL with a length, scratch NULL
 *           with scratch_cap > 0, a NULL string in req with a length, an empty url or method,
 *           a negative window, a NULL ctx); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED (no hash
 *           or curve group).
 *  Out: ev: the authenticated event, its tags and content views into scratch (zeroed on
 *       failure); scratch (what a failing call wrote there is wiped); *scratch_used (the
 *       bytes of scratch in use; 0 on failure, or the need).
 *  In: header[0..header_len): the value of the Authorization header (after "Authorization:");
 *      req (the request the server received); now (unix seconds, the server's clock);
 *      window (seconds; 0 = SC_NIP98_WINDOW_DEFAULT).
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip98_verify(sc_ctx *ctx, sc_event *ev, void *scratch,
                                                size_t scratch_cap, size_t *scratch_used,
                                                const char *header, size_t header_len,
                                                const sc_nip98_request *req, int64_t now,
                                                int64_t window) SC_NONNULL(1, 2, 5, 8);

SC_END_DECLS

#endif
