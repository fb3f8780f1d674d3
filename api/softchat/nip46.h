/* libsoftchat: NIP-46 remote signing ("Nostr Connect", a "bunker").
 *
 * The model. A remote signer (the bunker) holds the user's key; a client holds only a key of
 * its own (the client key, often ephemeral) and the user's public key. Each use of the user's
 * key that signer.h turns into a request (sc_signer_req: sign this event, NIP-44-encrypt this
 * to P, NIP-44-decrypt this from P) travels as a kind 24133 event from the client to the
 * bunker, and its answer as a kind 24133 event back. Each event's content is the NIP-44
 * encryption (conversation key between the client key and the bunker key) of a JSON-RPC
 * object:
 *   request   {"id":"<id>","method":"<name>","params":["<string>",...]}, tagged ["p", bunker]
 *   response  {"id":"<id>","result":"<string>","error":"<string>"}, tagged ["p", client]
 * The bunker key (the remote-signer pubkey) may differ from the user's key (get_public_key
 * tells the user's).
 *
 * This header is the sans-IO core of both ends; relays, clocks and randomness are the
 * caller's:
 *   - URIs: bunker:// (from the bunker to the client) and nostrconnect:// (from the client
 *     to the bunker) parsed and built (sc_nip46_uri_parse, sc_nip46_uri_build);
 *   - the client: sc_nip46_call_from_req makes a signer.h request a NIP-46 call,
 *     sc_nip46_request_build seals a call into a signed kind 24133 event,
 *     sc_nip46_response_open checks and opens the bunker's answer; its result is the text
 *     sc_signer_op_answer takes, as is (sign_event's signed event JSON, nip44_encrypt's
 *     payload, nip44_decrypt's plaintext): the signer seam verifies it;
 *   - the bunker: sc_nip46_request_open checks and opens a request, sc_nip46_bunker_handle
 *     checks it against a permission policy and runs it with the user's identity,
 *     sc_nip46_response_build seals the result or the refusal. A refusal is a response with
 *     an error, never a silence.
 *
 * Methods handled by the bunker side: connect, ping, get_public_key, sign_event,
 * nip44_encrypt, nip44_decrypt. nip04_encrypt / nip04_decrypt are refused with an error
 * response: NIP-04 is deprecated and unauthenticated (no MAC: a ciphertext can be altered
 * unnoticed), and this library does not implement it. switch_relays is answered "null" (no
 * other relays: the relays are the application's; no grant needed, it reveals nothing); any
 * other method with the error "unsupported method".
 *
 * Worked example (the client side; docs/api.md has it in full):
 *   sc_nip46_call c;   sc_nip46_call_from_req(&c, buf, cap, &used, &req);
 *   sc_nip46_request_build(ctx, ev, ev_cap, &ev_len, &client, bunker_pub, rnd, &c, now_s,
 *                          id_hex);            ...publish ev, wait for a kind 24133 reply
 *   sc_nip46_response_open(ctx, &resp, scratch, cap, &used, &client, bunker_pub,
 *                          SC_STR(id_hex), json, json_len);
 *   sc_signer_op_answer(&op, ctx, resp.result.ptr, resp.result.len);
 *
 * Replays: sc_nip46_request_open does not judge created_at (the caller's clock is not here);
 * a bunker that must not run one request twice keeps the event ids it answered.
 *
 * No allocation; nothing reads a clock or draws randomness but where a contract says RNG.
 */
#ifndef SOFTCHAT_NIP46_H
#define SOFTCHAT_NIP46_H

#include "event.h"
#include "signer.h"

SC_BEGIN_DECLS

#define SC_NIP46_KIND 24133u
#define SC_NIP46_URI_MAX_RELAYS 8u       /* relays one URI may carry */
#define SC_NIP46_URI_MAX_LEN 8192u       /* the longest URI parsed (SC_ERR_TOO_LARGE beyond) */
#define SC_NIP46_URI_MAX_RELAY_LEN 1024u /* the longest relay URL, decoded */
#define SC_NIP46_MAX_PARAMS 4u           /* params of a request (connect has three) */
#define SC_NIP46_ID_RAND_BYTES 16u       /* random bytes of a request id */
#define SC_NIP46_ID_CHARS 32u            /* a request id: their lowercase hex */

/* ---- URIs -------------------------------------------------------------------------------- */

/** Which URI. */
typedef enum sc_nip46_uri_kind {
    SC_NIP46_URI_BUNKER = 1,      /* bunker://<remote-signer pubkey>?relay=...&secret=... */
    SC_NIP46_URI_NOSTRCONNECT = 2 /* nostrconnect://<client pubkey>?relay=...&secret=...
                                     &perms=...&name=...&url=...&image=... */
} sc_nip46_uri_kind;

/** A parsed URI (or one to build). Strings are percent-decoded UTF-8; an absent parameter is
 *  empty. */
typedef struct sc_nip46_uri {
    sc_nip46_uri_kind kind;
    uint8_t pubkey[SC_PUBKEY_BYTES];        /* bunker: the remote signer's key;
                                                  nostrconnect: the client's key */
    sc_str relays[SC_NIP46_URI_MAX_RELAYS]; /* normalised (sc_relay_url_normalize) */
    size_t n_relays;                        /* 1 .. SC_NIP46_URI_MAX_RELAYS */
    sc_str secret;                          /* optional for bunker, required for
                                                  nostrconnect */
    sc_str perms, name, url, image;         /* nostrconnect only */
} sc_nip46_uri;

/** Parses a bunker:// or nostrconnect:// URI. The scheme is matched in any ASCII case; the
 *  key is 64 hex digits (either case); the query is name=value pairs split on '&'. Values are
 *  percent-decoded strictly ('%' and two hex digits; '+' reads as a space, as
 *  URLSearchParams reads it) and must then be UTF-8; raw bytes other than printable ASCII,
 *  and a '#' anywhere, are refused. Each relay is normalised; relay may repeat (the same
 *  relay twice is kept once), every other known parameter appears at most once; unknown
 *  parameters are skipped. At least one relay is required, and for nostrconnect a non-empty
 *  secret.
 *  Returns: SC_OK; SC_ERR_NIP46_URI (another scheme, a bad key, a bad escape or raw byte, a
 *           repeated parameter, no relay, a relay that does not normalise); SC_ERR_UTF8 (a
 *           decoded value that is not UTF-8); SC_ERR_NIP46_SECRET (nostrconnect without a
 *           secret); SC_ERR_TOO_LARGE (over SC_NIP46_URI_MAX_LEN bytes, or more than
 *           SC_NIP46_URI_MAX_RELAYS distinct relays, a relay decoded over
 *           SC_NIP46_URI_MAX_RELAY_LEN bytes); SC_ERR_BUFFER_TOO_SMALL (buf_cap below
 *           uri_len, which always suffices: *buf_used = uri_len); SC_ERR_ARG (u or buf_used
 *           NULL, uri NULL with a length, buf NULL with buf_cap > 0).
 *  Out: u (its strings point into buf; zeroed on failure); buf; *buf_used (bytes of buf in
 *       use; 0 on failure, or the need). A failing parse wipes what it wrote to buf.
 *  In: uri[0..uri_len).
 *  Constant time: no (the secret is copied with branches on its bytes: keep URIs out of
 *  reach of timing observers). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_uri_parse(sc_nip46_uri *u, char *buf, size_t buf_cap,
                                                   size_t *buf_used, const char *uri,
                                                   size_t uri_len) SC_NONNULL(1, 4);

/** Writes the URI of u: the scheme of u->kind, the key in lowercase hex, then relay= for each
 *  relay, then secret, and for nostrconnect perms, name, url and image, each only when not
 *  empty; values percent-encoded (all but A-Z a-z 0-9 - . _ ~ as %XX, uppercase). Relays are
 *  written as given (normalise them first to get what sc_nip46_uri_parse returns).
 *  Returns: SC_OK; SC_ERR_NIP46_URI (an unknown kind, no relay, or more than
 *           SC_NIP46_URI_MAX_RELAYS); SC_ERR_NIP46_SECRET (nostrconnect without a secret);
 *           SC_ERR_UTF8 (a string that is not UTF-8); SC_ERR_BUFFER_TOO_SMALL (*out_len = the
 *           exact length; out may be NULL with out_cap 0 to ask); SC_ERR_ARG (out_len or u
 *           NULL, out NULL with out_cap > 0, a NULL string with a length).
 *  Out: out[0..*out_len), not NUL-terminated; nothing written on failure.
 *  In: u. Constant time: no. RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_uri_build(char *out, size_t out_cap, size_t *out_len,
                                                   const sc_nip46_uri *u) SC_NONNULL(3, 4);

/* ---- messages ----------------------------------------------------------------------------- */

/** A call: a method and its string params (the JSON-RPC request without its id). */
typedef struct sc_nip46_call {
    sc_str method;
    sc_str params[SC_NIP46_MAX_PARAMS];
    size_t n_params;
} sc_nip46_call;

/** The NIP-46 call that carries a signer.h request: SIGN_EVENT as sign_event with the event
 *  as a JSON object (kind, content, tags, created_at, pubkey; no id, no sig), NIP44_ENCRYPT
 *  as nip44_encrypt [peer hex, plaintext], NIP44_DECRYPT as nip44_decrypt [peer hex,
 *  payload]. The response's result is what sc_signer_op_answer takes, as is.
 *  Returns: SC_OK; SC_ERR_STATE (req->kind is SC_SIGNER_REQ_NONE or unknown, or a SIGN_EVENT
 *           without its event); the statuses of sc_event_to_json (the event's JSON);
 *           SC_ERR_BUFFER_TOO_SMALL (*buf_used = the need; buf may be NULL with buf_cap 0
 *           to ask); SC_ERR_ARG (call, buf_used or req NULL, buf NULL with buf_cap > 0).
 *  Out: call (its strings point into buf, req->text, and static text; zeroed on failure);
 *       buf[0..*buf_used) (the peer's hex, the event's JSON).
 *  In: req (keep it, and what it points to, while call is used).
 *  Constant time: no (a plaintext to encrypt is pointed to, not read). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_call_from_req(sc_nip46_call *call, char *buf,
                                                       size_t buf_cap, size_t *buf_used,
                                                       const sc_signer_req *req)
    SC_NONNULL(1, 4, 5);

/** Builds a request event: the JSON-RPC request {"id","method","params"} NIP-44-encrypted
 *  from the client key to the bunker key, in a kind 24133 event tagged ["p", bunker hex],
 *  signed by the client key, written as a JSON object (SC_EVENT_JSON_OBJECT). The id is
 *  the lowercase hex of rnd (written to id_out, SC_NIP46_ID_CHARS, no terminator). The NIP-44
 *  nonce and the signature's aux randomness come from the context's RNG.
 *  out is also the work area: out_cap must be at least the need this call reports with
 *  SC_ERR_BUFFER_TOO_SMALL (the event's length plus the plaintext's and the payload's);
 *  *out_len is the event's length. What follows the event in out is wiped.
 *  Returns: SC_OK; SC_ERR_EMPTY (an empty method); SC_ERR_UTF8; SC_ERR_TOO_LARGE (more than
 *           SC_NIP46_MAX_PARAMS params, or a plaintext NIP-44 cannot hold);
 *           SC_ERR_EVENT_RANGE (created_at < 0); SC_ERR_INVALID_KEY (bunker not on the
 *           curve); SC_ERR_BUFFER_TOO_SMALL (*out_len = the need); SC_ERR_RNG; SC_ERR_ARG (a
 *           NULL argument, a NULL string with a length, out NULL with out_cap > 0);
 *           SC_ERR_STATE (ctx, or client not imported); SC_ERR_UNSUPPORTED.
 *  Out: out[0..*out_len): the event; id_out (on SC_OK); out is wiped on failure (but for
 *       SC_ERR_ARG and SC_ERR_BUFFER_TOO_SMALL).
 *  In: client (the client key); bunker: SC_PUBKEY_BYTES; rnd: SC_NIP46_ID_RAND_BYTES; call;
 *      created_at (unix seconds).
 *  Constant time: in the keys; not in the params (JSON escaping branches on their bytes, and
 *  their length shows in the payload's). RNG: yes. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_request_build(
    sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, const sc_identity *client,
    const uint8_t bunker[SC_PUBKEY_BYTES], const uint8_t rnd[SC_NIP46_ID_RAND_BYTES],
    const sc_nip46_call *call, int64_t created_at, char id_out[SC_NIP46_ID_CHARS])
    SC_NONNULL(1, 4, 5, 6, 7, 8, 10);

/** Builds a response event: {"id","result"} (and "error" when error is not empty)
 *  NIP-44-encrypted from the bunker key to the client key, kind 24133, tagged ["p", client
 *  hex], signed by the bunker key. A refusal (an empty result with an error) is written with
 *  the result "error": a client that reads the result by its method before the error
 *  (rust-nostr's nostr-connect: an empty result is no public key, no event, no "ack") then
 *  reports the error's text, and every reader that wants a string result gets one.
 *  out is the work area as for sc_nip46_request_build.
 *  Returns: as sc_nip46_request_build, SC_ERR_EMPTY for an empty id; SC_ERR_INVALID_KEY
 *           (client not on the curve).
 *  Out: out[0..*out_len): the event.
 *  In: bunker (the remote signer's key); client: SC_PUBKEY_BYTES; id (the request's);
 *      result; error (empty: none); created_at.
 *  Constant time: in the keys; not in the result and error (as sc_nip46_request_build).
 *  RNG: yes. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_response_build(sc_ctx *ctx, char *out, size_t out_cap,
                                                        size_t *out_len, const sc_identity *bunker,
                                                        const uint8_t client[SC_PUBKEY_BYTES],
                                                        sc_str id, sc_str result, sc_str error,
                                                        int64_t created_at) SC_NONNULL(1, 4, 5, 6);

/** An opened request (bunker side). Views point into the scratch of sc_nip46_request_open. */
typedef struct sc_nip46_request {
    uint8_t client[SC_PUBKEY_BYTES]; /* the client key: the event's author */
    sc_str id;
    sc_nip46_call call;
} sc_nip46_request;

/** An opened response (client side). Views point into the scratch of
 *  sc_nip46_response_open. */
typedef struct sc_nip46_response {
    sc_str id;
    sc_str result; /* "auth_url" for an auth challenge */
    sc_str error;  /* the error text, or the URL of an auth challenge; empty: none */
} sc_nip46_response;

/** Scratch bytes that always suffice to open a NIP-46 event of json_len bytes (the parsed
 *  event, its decrypted content and the unescaped JSON-RPC strings).
 *  Returns: the bound; 0 when it does not fit size_t. */
SC_API size_t sc_nip46_open_scratch_max(size_t json_len);

/** Opens a request event addressed to the bunker key, checking in this order: it parses as
 *  a signed event (sc_event_parse's statuses); kind 24133 (SC_ERR_NIP46); a p tag naming
 *  the bunker key (SC_ERR_NIP46_SENDER); id and signature (sc_event_verify's statuses); the
 *  content decrypts from the author (NIP-44 statuses); it is a JSON object with a string
 *  "id", a non-empty string "method" and "params" an array of at most SC_NIP46_MAX_PARAMS
 *  strings (SC_ERR_NIP46; SC_ERR_UTF8 for text that is not UTF-8; SC_ERR_TOO_LARGE for
 *  more params, or an unknown member nested over 32 deep; unknown members skipped).
 *  Returns: SC_OK; the statuses above; SC_ERR_BUFFER_TOO_SMALL (scratch_cap below
 *           sc_nip46_open_scratch_max(json_len): *scratch_used = that); SC_ERR_ARG (a NULL
 *           argument, json NULL with a length, scratch NULL with scratch_cap > 0);
 *           SC_ERR_STATE (ctx, or bunker not imported); SC_ERR_UNSUPPORTED.
 *  Out: r (zeroed on failure); scratch (wiped on failure: it holds the plaintext);
 *       *scratch_used.
 *  In: bunker (the remote signer's key); json[0..json_len).
 *  Constant time: in the key; not in the decrypted content (the JSON-RPC reader branches on
 *  it). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_request_open(sc_ctx *ctx, sc_nip46_request *r,
                                                      void *scratch, size_t scratch_cap,
                                                      size_t *scratch_used,
                                                      const sc_identity *bunker, const char *json,
                                                      size_t json_len) SC_NONNULL(1, 2, 5, 6);

/** Opens the bunker's response to a request, checking in this order: a signed event
 *  (sc_event_parse's statuses); kind 24133 (SC_ERR_NIP46); its author is the bunker key and
 *  a p tag names the client key (SC_ERR_NIP46_SENDER); id and signature (sc_event_verify's
 *  statuses); the content decrypts (NIP-44 statuses); a JSON object with a string "id", no
 *  "method", and a string "result" ("error", when present, a string or null), or else a
 *  non-empty string "error" with "result" null or absent (a refusal as rust-nostr's signer
 *  writes it; r->result is then empty) (SC_ERR_NIP46, SC_ERR_UTF8, SC_ERR_TOO_LARGE as for
 *  sc_nip46_request_open); the id is
 *  expect_id, unless expect_id is empty (SC_ERR_NIP46_ID; an empty expect_id takes any id:
 *  the nostrconnect:// flow, whose first response answers no request: its result must then
 *  be the URI's secret, compared by the caller with sc_mem_ct_compare); then the outcome: result "auth_url" is
 *  SC_ERR_NIP46_AUTH_URL (r->error holds the URL: show it to the user and wait for the
 *  real response to the same id); a non-empty error is SC_ERR_SIGNER_REFUSED (r->error
 *  holds its text: refuse the operation with sc_signer_op_refuse); otherwise SC_OK.
 *  Returns: SC_OK; the statuses above; SC_ERR_BUFFER_TOO_SMALL, SC_ERR_ARG, SC_ERR_STATE,
 *           SC_ERR_UNSUPPORTED as sc_nip46_request_open.
 *  Out: r (set for SC_OK, SC_ERR_NIP46_AUTH_URL and SC_ERR_SIGNER_REFUSED; zeroed on any
 *       other failure); scratch (wiped on those failures); *scratch_used.
 *  In: client (the client key); bunker: SC_PUBKEY_BYTES; expect_id; json[0..json_len).
 *  Constant time: in the key; not in the decrypted content (as sc_nip46_request_open).
 *  RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_response_open(
    sc_ctx *ctx, sc_nip46_response *r, void *scratch, size_t scratch_cap, size_t *scratch_used,
    const sc_identity *client, const uint8_t bunker[SC_PUBKEY_BYTES], sc_str expect_id,
    const char *json, size_t json_len) SC_NONNULL(1, 2, 5, 6, 7);

/* ---- the bunker ---------------------------------------------------------------------------- */

/** A bunker's permission policy. A grant is a method name ("ping", "connect",
 *  "get_public_key", "nip44_encrypt", "nip44_decrypt", "sign_event") or "sign_event:<kind>"
 *  (signing of that kind only, decimal). connect additionally needs the secret when one is
 *  set (compared in constant time).
 *  With a secret, only a connected client gets more than connect: one of clients, which the
 *  bunker keeps (add a request's client key when sc_nip46_bunker_handle returns SC_OK for its
 *  connect). Any other method from any other client is refused ("not connected"), so a client
 *  that knows the bunker key and its relays but not the secret gets nothing, and a bunker
 *  whose key is the user's, public by nature, serves only the clients that connected. Without
 *  a secret every client is served as far as the grants go. */
typedef struct sc_nip46_policy {
    const sc_str *grants;
    size_t n_grants;
    sc_str secret; /* empty: connect needs no secret, and every client is connected */
    const uint8_t (*clients)[SC_PUBKEY_BYTES]; /* the connected clients' keys */
    size_t n_clients;
} sc_nip46_policy;

/** Bytes of out that always suffice for sc_nip46_bunker_handle of r.
 *  Returns: the bound; 0 when it does not fit size_t. */
SC_API size_t sc_nip46_bunker_result_max(const sc_nip46_request *r) SC_NONNULL(1);

/** Runs an opened request with the user's identity, if the policy grants it: connect ->
 *  "ack" (its first param, the remote-signer key the client names, is not compared), ping -> "pong", get_public_key -> the user's key in hex, sign_event -> the signed
 *  event's JSON object (the param is an unsigned event: kind, content, tags, created_at; a
 *  pubkey, id or sig in it are ignored: the user's key signs), nip44_encrypt [peer hex,
 *  plaintext] -> payload, nip44_decrypt [peer hex, payload] -> plaintext.
 *  On a refusal *error is a static text to send back as the response's error (with an empty
 *  result, which sc_nip46_response_build writes as "error"): build the response with
 *  sc_nip46_response_build either way.
 *  Returns: SC_OK (out holds the result); refusals: SC_ERR_SIGNER_REFUSED (not granted by the
 *           policy, or a method other than connect from a client not connected while the
 *           policy has a secret), SC_ERR_NIP46_SECRET (connect without the secret, or another),
 *           SC_ERR_UNSUPPORTED (nip04_*, an unknown method), SC_ERR_NIP46
 *           (missing or malformed params), the statuses of the work (sc_event_parse's,
 *           NIP-44's); SC_ERR_BUFFER_TOO_SMALL (out_cap below
 *           sc_nip46_bunker_result_max(r): *out_len = that); SC_ERR_ARG (a NULL argument,
 *           out NULL with out_cap > 0, clients NULL with n_clients > 0); SC_ERR_STATE (ctx,
 *           user not imported).
 *  Out: out[0..*out_len) (wiped on failure); *error (NULL on SC_OK).
 *  In: user (the user's key, which may differ from the bunker key); policy; r.
 *  Constant time: in the keys, and in the connect secret's bytes (its length is not hidden:
 *  a secret of another length fails at once). Not in the params (parsed and escaped). RNG:
 *  yes (a signature's aux randomness, a NIP-44 nonce). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip46_bunker_handle(sc_ctx *ctx, char *out, size_t out_cap,
                                                       size_t *out_len, const char **error,
                                                       const sc_identity *user,
                                                       const sc_nip46_policy *policy,
                                                       const sc_nip46_request *r)
    SC_NONNULL(1, 4, 5, 6, 7, 8);

SC_END_DECLS

#endif
