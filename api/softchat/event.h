/* libsoftchat: NIP-01 events.
 *
 * An sc_event is a view: its strings and tags point into memory the caller owns (a builder
 * buffer, a parse arena, or the caller's own arrays). Every string carries an explicit length,
 * so content containing U+0000 works. Strings are UTF-8.
 *
 * Canonical serialization (the bytes whose SHA-256 is the id) is exactly what JSON.stringify
 * writes for [0,pubkey,created_at,kind,tags,content], the de-facto rule of nostr-tools,
 * go-nostr and serde_json: no whitespace; in strings the seven short escapes \" \\ \n \r \t
 * \b \f, every other U+0000..U+001F as lowercase \u00xx, and everything else verbatim ('/',
 * U+007F, U+2028/U+2029, all other UTF-8). The id is computed by streaming that text into
 * SHA-256; no JSON library is in the path and nothing is allocated.
 *
 * Parsing accepts any valid JSON encoding of an event (escapes such as \u0041 and \/, any
 * key order, any whitespace; unknown fields of any JSON type are skipped) and never trusts
 * received bytes for the id: verification recomputes it from the parsed fields.
 */
#ifndef SOFTCHAT_EVENT_H
#define SOFTCHAT_EVENT_H

#include "backend.h"
#include "ctx.h"
#include "identity.h"
#include "signer.h"

SC_BEGIN_DECLS

#define SC_EVENT_ID_BYTES 32
#define SC_EVENT_KIND_MAX 65535u

/** A tag: a non-empty array of strings. */
typedef struct sc_tag {
    const sc_str *items;
    size_t n_items;
} sc_tag;

/** Which of an event's parts are present. id, pubkey and sig matter everywhere (an absent
 *  one is never read); the others are reported by sc_event_parse (an absent one reads as
 *  0 / no tags / empty content) and may be made optional through
 *  sc_event_parse_opts.optional. */
#define SC_EVENT_HAS_ID 1u          /* id[] is set */
#define SC_EVENT_HAS_PUBKEY 2u      /* pubkey[] is set */
#define SC_EVENT_HAS_SIG 4u         /* sig[] is set */
#define SC_EVENT_HAS_KIND 8u        /* "kind" was present (parse) */
#define SC_EVENT_HAS_CREATED_AT 16u /* "created_at" was present (parse) */
#define SC_EVENT_HAS_TAGS 32u       /* "tags" was present (parse) */
#define SC_EVENT_HAS_CONTENT 64u    /* "content" was present (parse) */
#define SC_EVENT_HAS_ALL 127u       /* all seven */
#define SC_EVENT_SIGNED 127u        /* all seven: a signed event */
#define SC_EVENT_RUMOR 123u         /* all but sig: an unsigned event with its id (NIP-59) */

/** An event (or a rumor: an event without a signature). */
typedef struct sc_event {
    uint8_t id[SC_EVENT_ID_BYTES];
    uint8_t pubkey[SC_PUBKEY_BYTES];
    uint8_t sig[SC_SIG_BYTES];
    int64_t created_at; /* seconds, >= 0 */
    uint32_t kind;      /* 0..65535 */
    const sc_tag *tags;
    size_t n_tags;
    sc_str content;
    uint32_t flags; /* SC_EVENT_HAS_* */
} sc_event;

/* ---- checking, id, signing, verification ----------------------------------------------- */

/** Checks the fields an id covers: kind <= 65535, created_at >= 0, every tag non-empty, all
 *  strings valid UTF-8 (U+0000 allowed; no overlong form, surrogate or value above
 *  U+10FFFF), no NULL pointer with a non-zero length. Flags are not looked at.
 *  Returns: SC_OK; SC_ERR_EVENT_RANGE (kind or created_at); SC_ERR_EVENT_FIELD (an empty
 *           tag); SC_ERR_UTF8; SC_ERR_ARG (ev NULL, or a NULL pointer with a non-zero
 *           count). The first failure in the order kind/created_at, tags, content is
 *           reported.
 *  In: ev.
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_check(const sc_event *ev) SC_NONNULL(1);

/** Computes the NIP-01 id from pubkey, created_at, kind, tags and content (ev->flags must
 *  have SC_EVENT_HAS_PUBKEY). Runs sc_event_check first. The canonical text is streamed into
 *  SHA-256 through a stack buffer that is wiped afterwards. id may alias ev->id.
 *  Returns: SC_OK; the sc_event_check errors; SC_ERR_EVENT_FIELD (no pubkey); SC_ERR_ARG
 *           (a NULL argument); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED (no hash group).
 *  Out: id: SC_EVENT_ID_BYTES, zeroed on failure.
 *  In: ev.
 *  Constant time: no (an id covers public data; a rumor's content is private but its
 *  length shows in the payload anyway). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_compute_id(sc_ctx *ctx, uint8_t id[SC_EVENT_ID_BYTES],
                                                    const sc_event *ev) SC_NONNULL(1, 2, 3);

/** Signs ev with identity `who`: sets pubkey, id and sig (and their flags). BIP-340 aux
 *  randomness comes from the context's RNG.
 *  Returns: SC_OK; the sc_event_check errors; SC_ERR_RNG; SC_ERR_ARG (a NULL argument);
 *           SC_ERR_STATE (ctx, or `who` not imported / cleared); SC_ERR_UNSUPPORTED.
 *  In/Out: ev: pubkey, id, sig and their flags set on success; on failure id and sig are
 *          zeroed and their flags cleared, and the pubkey is left as it was.
 *  In: who.
 *  Constant time: in the secret key. RNG: yes (SC_AUX_RAND_BYTES). No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_sign(sc_ctx *ctx, sc_event *ev, const sc_identity *who)
    SC_NONNULL(1, 2, 3);

/** As sc_event_sign with explicit aux randomness (vectors; deterministic).
 *  Returns: as sc_event_sign, without SC_ERR_RNG.
 *  In/Out: ev, as for sc_event_sign.
 *  In: who; aux: SC_AUX_RAND_BYTES.
 *  Constant time: in the secret key and aux. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_event_sign_with_rand(sc_ctx *ctx, sc_event *ev,
                                                        const sc_identity *who,
                                                        const uint8_t aux[SC_AUX_RAND_BYTES])
    SC_NONNULL(1, 2, 3, 4);

/** Starts signing ev as `who` (signer.h), the operation sc_signer_op_step drives: a local
 *  identity signs at the first step; an external signer is asked with a SIGN_EVENT request
 *  (ev, its pubkey set to the user's and its id computed), and its answer must be a
 *  signature over that id by the user's key (sc_signer_op_answer). The event's checks run
 *  here, in sc_event_sign's order; ev is kept by reference until the operation ends. A NIP-42
 *  AUTH event over an external signer: sc_pool_auth_template, this, sc_pool_auth_send.
 *  Returns: SC_OK (started); the sc_event_check errors; SC_ERR_ARG (a NULL argument);
 *           SC_ERR_STATE (ctx, or `who` not set up or its identity cleared). Then the steps:
 *           SC_OK when done; SC_ERR_SIGNER_ANSWER, SC_ERR_SIGNER_REFUSED, SC_ERR_TIMEOUT;
 *           SC_ERR_RNG (a local signature's aux); SC_ERR_STATE; SC_ERR_UNSUPPORTED.
 *  Out: op (started; cleared on failure).
 *  In/Out: ev: when the operation is done, pubkey, id, sig and their flags are set; on
 *          failure (here or later) id and sig are zeroed and their flags cleared, and the
 *          pubkey is left as it was.
 *  In: who.
 *  Constant time: in the secret key (local). RNG: yes, a local signature's aux
 *  (SC_AUX_RAND_BYTES), drawn by the step that signs. */
SC_API SC_WARN_UNUSED sc_status sc_event_sign_start(sc_ctx *ctx, sc_signer_op *op, sc_event *ev,
                                                    const sc_signer *who) SC_NONNULL(1, 2, 3, 4);

/** As sc_event_sign_start with explicit aux randomness for a local signature (an external
 *  signer makes its own).
 *  Returns: as sc_event_sign_start, without SC_ERR_RNG.
 *  Out: op. In/Out: ev, as for sc_event_sign_start. In: who; aux: SC_AUX_RAND_BYTES.
 *  Constant time: in the secret key and aux. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_event_sign_start_with_rand(sc_ctx *ctx, sc_signer_op *op,
                                                              sc_event *ev, const sc_signer *who,
                                                              const uint8_t aux[SC_AUX_RAND_BYTES])
    SC_NONNULL(1, 2, 3, 4, 5);

/** Verifies an event: recomputes the id from the fields (never from received bytes),
 *  compares it with ev->id, then checks the BIP-340 signature over it.
 *  Returns: in the order checked: SC_ERR_ARG (a NULL argument); SC_ERR_EVENT_FIELD (id,
 *           pubkey or sig absent from ev->flags); the sc_event_check errors; SC_ERR_STATE
 *           (ctx); SC_ERR_UNSUPPORTED; SC_ERR_ID_MISMATCH; SC_ERR_INVALID_SIG (also for a
 *           pubkey not on the curve); SC_OK.
 *  In: ev.
 *  Constant time: no (public data). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_verify(sc_ctx *ctx, const sc_event *ev) SC_NONNULL(1, 2);

/* ---- serialization ------------------------------------------------------------------------ */

/** Serialization flags. */
#define SC_EVENT_JSON_CANONICAL                                                                    \
    1u /* [0,pubkey,created_at,kind,tags,content]: the bytes an id
          hashes */
#define SC_EVENT_JSON_OBJECT                                                                       \
    0u /* {"id","pubkey","created_at","kind","tags","content","sig"}:
          id and sig are written when their flags are set */

/** Exact length of sc_event_to_json's output for ev under `flags` (no terminator).
 *  Returns: the length; 0 if ev fails sc_event_check, lacks the pubkey, or flags holds an
 *  unknown bit (the call then reports which). */
SC_API size_t sc_event_to_json_len(const sc_event *ev, unsigned flags) SC_NONNULL(1);

/** Writes the JSON of ev (one line, no terminator), escaped as described at the top.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = sc_event_to_json_len; out may be NULL
 *           with out_cap 0 to ask); the sc_event_check errors; SC_ERR_EVENT_FIELD (no
 *           pubkey); SC_ERR_FLAGS (an unknown flag); SC_ERR_ARG (out_len or ev NULL, out NULL
 *           with out_cap > 0).
 *  Out: out[0..*out_len). On any failure nothing is written to out (*out_len is 0, or the
 *       need for SC_ERR_BUFFER_TOO_SMALL).
 *  In: ev; flags: SC_EVENT_JSON_OBJECT or SC_EVENT_JSON_CANONICAL.
 *  Constant time: no (a rumor's private content is copied, not branched on, but escapes
 *  depend on it). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_to_json(char *out, size_t out_cap, size_t *out_len,
                                                 const sc_event *ev, unsigned flags)
    SC_NONNULL(3, 4);

/* ---- parsing ------------------------------------------------------------------------------ */

/** The largest sc_event_parse_opts.max_depth accepted. */
#define SC_EVENT_PARSE_MAX_DEPTH 1024u

/** Where a parse failed (see sc_event_parse_opts.error). */
typedef struct sc_event_parse_error {
    size_t offset;     /* byte offset in the JSON text: where the failing token or value starts
                          (for a missing field: the text's length; for SC_ERR_TOO_LARGE of the
                          whole input: 0) */
    const char *field; /* static name of the event field concerned ("id", "pubkey", "sig",
                          "kind", "created_at", "tags", "content"), or NULL (a syntax error,
                          or a text that is not an object) */
} sc_event_parse_error;

/** Parse options. NULL means what a zero-initialised struct means: defaults, and all seven
 *  fields required (a signed event). */
typedef struct sc_event_parse_opts {
    size_t max_input;   /* inputs longer than this are refused (SC_ERR_TOO_LARGE); 0 = 1 MiB */
    unsigned optional;  /* SC_EVENT_HAS_* that may be absent: 0 requires all seven;
                           SC_EVENT_HAS_SIG reads a rumor; SC_EVENT_HAS_ALL requires nothing */
    unsigned max_depth; /* nesting allowed in the value of an unknown field ("[]" and "{}"
                           are depth 1, [[]] depth 2; a scalar is 0); 0 = 32; at most
                           SC_EVENT_PARSE_MAX_DEPTH */
    sc_event_parse_error *error; /* optional: on failure, where it happened (zeroed first) */
} sc_event_parse_opts;

/** Arena bytes that suffice to parse any JSON text of json_len bytes, at any arena
 *  alignment (a bound of about 6.4 * json_len on 64-bit targets). The exact need for one
 *  text is cheap to learn: call sc_event_parse with arena NULL and arena_cap 0, and it
 *  returns SC_ERR_BUFFER_TOO_SMALL with *arena_used = the need at that arena address plus
 *  up to sizeof(void *) - 1 bytes of alignment.
 *  Returns: the bound; 0 when it does not fit size_t. */
SC_API size_t sc_event_parse_arena_max(size_t json_len);

/** Parses one JSON event object from json[0..json_len) (leading/trailing whitespace allowed,
 *  nothing else after the object; the text need not be NUL-terminated and nothing past
 *  json_len is read). Strings are unescaped into `arena`; ev's views point there (an empty
 *  string's view points to a static "", never NULL; with no tags, ev->tags is NULL).
 *  Accepts: any key order and whitespace, any valid escape (\uXXXX in either case,
 *  surrogate pairs, \/), unknown fields of any type (skipped after a full syntax check,
 *  duplicates included), keys written with escapes ("k\u0069nd" is "kind").
 *  Rejects:
 *   - SC_ERR_JSON: invalid JSON, including a raw byte < 0x20 inside a string, a leading zero
 *     ("01"), a bare "-", a byte order mark, or anything but whitespace after the object;
 *   - SC_ERR_UTF8: ill-formed UTF-8 anywhere in the text, or a \u escape leaving a lone
 *     surrogate;
 *   - SC_ERR_EVENT_FIELD: a required field missing; a known field repeated; a known field of
 *     the wrong JSON type (null included); tags that are not an array of non-empty arrays of
 *     strings; id / pubkey / sig that are not exactly 64 / 64 / 128 lowercase hex characters
 *     once unescaped; a well-formed text that is not an object;
 *   - SC_ERR_EVENT_RANGE: created_at or kind that is negative (also "-0"), has a fraction or
 *     an exponent (also "1.0", "1e3"), or exceeds INT64_MAX / 65535;
 *   - SC_ERR_TOO_LARGE: json_len over opts->max_input (checked before anything is read), or
 *     an unknown or ill-typed value nested deeper than max_depth.
 *  Precedence: errors of the text itself (JSON, UTF-8, depth) win over field errors, wherever
 *  they occur; among field errors the first in the text wins; a missing field comes last.
 *  opts->error, when set, receives the offset and field of the reported failure.
 *  The arena: any alignment (the sc_tag and sc_str arrays are aligned inside it); pass
 *  NULL/0 to learn the need. Layout: the sc_tag array, the sc_str array, the string bytes.
 *  It holds the unescaped content: wipe it after use when the content is private (a rumor).
 *  It must not overlap json.
 *  Returns: SC_OK; the errors above; SC_ERR_BUFFER_TOO_SMALL (*arena_used = the exact need
 *           at this arena address, including up to sizeof(void *) - 1 bytes of alignment
 *           padding when there are tags; arena untouched); SC_ERR_FLAGS (an unknown bit in
 *           opts->optional); SC_ERR_ARG (ev or arena_used NULL, json NULL with json_len > 0,
 *           arena NULL with arena_cap > 0, opts->max_depth over SC_EVENT_PARSE_MAX_DEPTH).
 *  Out: ev (zeroed on failure; ev->flags says which fields were present: an absent kind /
 *       created_at reads 0, absent tags none, absent content empty); arena; *arena_used =
 *       bytes of arena used (0 on failure other than SC_ERR_BUFFER_TOO_SMALL); bytes of the
 *       arena written by a failing parse are wiped.
 *  In: json[0..json_len); opts (may be NULL).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_parse(sc_event *ev, void *arena, size_t arena_cap,
                                               size_t *arena_used, const char *json,
                                               size_t json_len, const sc_event_parse_opts *opts)
    SC_NONNULL(1, 4);

/* ---- building ----------------------------------------------------------------------------- */

/** A builder of an event over a caller buffer: strings are copied in, so the caller's inputs
 *  may go away. String bytes and each tag's sc_str array are placed from the front of the
 *  buffer, the sc_tag array from the back. Errors are sticky: after the first failure every
 *  call is a no-op and sc_event_builder_final returns that failure, except running out of
 *  room (SC_ERR_BUFFER_TOO_SMALL), after which the builder keeps checking and counting so
 *  final can report the size a buffer needs (the two-pass form: build over NULL/0, then
 *  again over a buffer of that size). A change after final is the sticky error
 *  SC_ERR_STATE. Calls on a builder never initialised do nothing, and its final returns
 *  SC_ERR_STATE. Opaque; it holds no pointer into itself, so it may be copied. */
typedef struct sc_event_builder {
    uint64_t opaque[20];
} sc_event_builder;

/** Buffer bytes that suffice for a builder holding content of content_len bytes and the
 *  tags tags[0..n_tags), at any buffer alignment.
 *  Returns: the size; 0 when tags is NULL with n_tags > 0, a tag's items are NULL with
 *  n_items > 0, or the size does not fit size_t. */
SC_API size_t sc_event_builder_buf_max(size_t content_len, const sc_tag *tags, size_t n_tags);

/** Starts a builder over buf[0..cap) (aligned or not: the builder aligns; buf may be NULL
 *  with cap 0, to measure, or to build events without tags or content). Kind 1, created_at
 *  0, no tags, empty content until set.
 *  Returns: SC_OK; SC_ERR_ARG (b NULL, or buf NULL with cap > 0).
 *  Out: b (zeroed first).
 *  In: buf[0..cap): must stay valid while the built event is used.
 *  Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_builder_init(sc_event_builder *b, void *buf, size_t cap)
    SC_NONNULL(1);

/** Sets the kind (0..65535; otherwise the sticky error SC_ERR_EVENT_RANGE).
 *  In/Out: b. In: kind. Returns nothing: errors are reported by sc_event_builder_final.
 *  Constant time: n/a (public data). RNG: no. */
SC_API void sc_event_builder_kind(sc_event_builder *b, uint32_t kind) SC_NONNULL(1);

/** Sets created_at (>= 0; otherwise the sticky error SC_ERR_EVENT_RANGE).
 *  In/Out: b. In: created_at. Returns nothing: errors are reported by sc_event_builder_final.
 *  Constant time: n/a (public data). RNG: no. */
SC_API void sc_event_builder_created_at(sc_event_builder *b, int64_t created_at) SC_NONNULL(1);

/** Copies the content (UTF-8, explicit length). Setting it again replaces it, reusing its
 *  bytes when nothing was added after it.
 *  In/Out: b; sticky errors: SC_ERR_UTF8, SC_ERR_ARG (s NULL with len > 0),
 *          SC_ERR_BUFFER_TOO_SMALL (out of room: counted, see the type).
 *  In: s[0..len). Returns nothing: errors are reported by sc_event_builder_final.
 *  Constant time: no (the UTF-8 check branches on the bytes; a rumor's content length
 *  shows in its payload anyway). RNG: no. */
SC_API void sc_event_builder_content(sc_event_builder *b, const char *s, size_t len) SC_NONNULL(1);

/** Appends a tag of n >= 1 strings, copied.
 *  In/Out: b; sticky errors: SC_ERR_EVENT_FIELD (n == 0), SC_ERR_UTF8, SC_ERR_ARG (items
 *          NULL, or an item with a NULL pointer and a non-zero length),
 *          SC_ERR_BUFFER_TOO_SMALL (out of room: counted, see the type).
 *  In: items[0..n). Returns nothing: errors are reported by sc_event_builder_final.
 *  Constant time: no (as sc_event_builder_content). RNG: no. */
SC_API void sc_event_builder_tag(sc_event_builder *b, const sc_str *items, size_t n) SC_NONNULL(1);

/** Finishes: *ev is the built event (no pubkey, id or sig yet: sign it, or set the pubkey and
 *  compute the id for a rumor), with flags SC_EVENT_HAS_KIND | _CREATED_AT | _TAGS |
 *  _CONTENT. ev's views point into the builder's buffer. Finishing again gives the same
 *  event.
 *  Returns: SC_OK; the first error recorded; SC_ERR_BUFFER_TOO_SMALL (out of room: *buf_len
 *           = the bytes a buffer of any alignment needs for everything added);
 *           SC_ERR_ARG (b or ev NULL); SC_ERR_STATE (b never initialised).
 *  Out: ev, zeroed on failure; *buf_len (buf_len may be NULL): on SC_OK the bytes a buffer
 *       of any alignment needs for this event, on
 *       SC_ERR_BUFFER_TOO_SMALL the need, else 0.
 *  In/Out: b (finished: later changes are SC_ERR_STATE).
 *  Constant time: no. RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_event_builder_final(sc_event_builder *b, sc_event *ev,
                                                       size_t *buf_len) SC_NONNULL(1, 2);

SC_END_DECLS

#endif
