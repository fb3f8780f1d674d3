/* Internal pieces of NIP-59 shared by core/nip59/ and core/nip17/: the size plan of one
 * gift wrap, the tags of the seal and the wrap, and a wrap and an unwrap as parts of an
 * operation over a signer (signer.h), which NIP-17's operations run inside their own (the
 * unwrap also reports its peak arena use, for the room NIP-17 appends after the rumor). */
#ifndef SOFTCHAT_CORE_NIP59_INTERNAL_H
#define SOFTCHAT_CORE_NIP59_INTERNAL_H

#include <softchat/nip59.h>
#include <softchat/signer.h>
#include "util/range.h"

/* Characters of the decimal form of any uint64_t. */
#define SC_NIP59_DEC_MAX 20

/* The sizes of one gift wrap. The scratch holds the rumor JSON and then the seal JSON in its
 * first seal_json bytes, and the seal content and then the wrap content after them. */
typedef struct sc_nip59_plan {
    size_t rumor_json;   /* R: the rumor as a JSON object (id, no sig) */
    size_t seal_payload; /* NIP-44 payload of R */
    size_t seal_json;    /* S: the signed seal as a JSON object */
    size_t wrap_payload; /* NIP-44 payload of S */
    size_t wrap_json;    /* the signed gift wrap as a JSON object */
    size_t scratch;      /* seal_json + wrap_payload */
    int extended;        /* R or S needs the NIP-44 extended prefix */
} sc_nip59_plan;

/* The tags of a seal (an optional expiration) or of a wrap (p, then an optional expiration),
 * with their strings held in the struct itself. Not to be copied once initialised. */
typedef struct sc_nip59_tags {
    char p_hex[2 * SC_PUBKEY_BYTES];
    char exp_dec[SC_NIP59_DEC_MAX];
    sc_str p_items[3];
    sc_str exp_items[2];
    sc_tag tags[2];
    size_t n;
} sc_nip59_tags;

/* Writes v in decimal to out (no terminator) and returns the number of characters. */
size_t sc_nip59_dec(char out[SC_NIP59_DEC_MAX], uint64_t v);

/* Fills t: the wrap's tags when recipient is non-NULL (its p tag carries opts' relay), the
 * seal's otherwise. opts must have been checked (sc_nip59_check_opts). */
void sc_nip59_tags_init(sc_nip59_tags *t, const uint8_t *recipient, const sc_nip59_opts *opts);

/* Checks the option values (not the relay's UTF-8, which the plan checks).
 * Returns: SC_OK; SC_ERR_ARG. */
sc_status sc_nip59_check_opts(const sc_nip59_opts *opts);

/* Checks that rumor is a rumor: pubkey and id flags, no sig, sc_event_check.
 * Returns: SC_OK; SC_ERR_EVENT_FIELD; the sc_event_check errors. */
sc_status sc_nip59_check_rumor(const sc_event *rumor);

/* The sizes for rumor (checked), opts (checked; NULL = defaults) and the seal and wrap
 * timestamps (exact values, or bounds of their decimal width).
 * Returns: SC_OK; SC_ERR_UTF8 (relay); SC_ERR_TOO_LARGE (a size overflows). */
sc_status sc_nip59_plan_sizes(sc_nip59_plan *p, const sc_event *rumor, const sc_nip59_opts *opts,
                              int64_t seal_at, int64_t wrap_at);

/* ---- a gift wrap as (part of) an operation: core/nip59/nip59_wrap.c, nip59_wrap_start.c ---- */

/* One gift wrap: its checked inputs, sizes and randomness, the caller's buffers, and where it
 * stands (the seal encrypted to the recipient and signed by the author's signer, then the
 * wrap made with the one-time key). Lives in an operation's body. */
typedef struct sc_nip59_wrap_op {
    const sc_event *rumor;
    uint8_t recipient[SC_PUBKEY_BYTES];
    uint8_t author[SC_PUBKEY_BYTES]; /* the signer's user key: the rumor's pubkey */
    sc_nip59_opts o;                 /* a copy with `now` resolved */
    sc_nip59_plan p;
    sc_nip59_rand rnd;
    sc_identity one; /* the one-time key, when drawn (has_one) */
    int has_one;
    char *out;
    size_t *out_len;
    char *x, *y; /* the scratch's two regions */
    int stage;
    sc_nip59_tags tags; /* the seal's */
    sc_event seal;
} sc_nip59_wrap_op;

/* Arguments, options, context, the author's signer and the rumor, in sc_nip59_wrap's order;
 * resolves the clock (the library's only read of it). recipient is copied.
 * Returns: SC_OK; the statuses sc_nip59_wrap lists for them. */
sc_status sc_nip59_wrap_check(sc_nip59_wrap_op *w, sc_ctx *ctx, const sc_event *rumor,
                              const sc_signer *author, const uint8_t *recipient,
                              const sc_nip59_opts *opts);

/* Policy, capacity and aliasing of out and scratch for plan p (the exact plan, or the bound
 * one before the randomness is drawn), with the rumor, relay, recipient (recipient_ptr, the
 * caller's) and a local author's identity.
 * Returns: SC_OK; SC_ERR_POLICY; SC_ERR_BUFFER_TOO_SMALL (*out_len = p->wrap_json);
 * SC_ERR_ARG; SC_ERR_OVERLAP. */
sc_status sc_nip59_wrap_buffers(const sc_nip59_wrap_op *w, const sc_nip59_plan *p, char *out,
                                size_t out_cap, size_t *out_len, void *scratch, size_t scratch_cap,
                                const sc_signer *author, const uint8_t *recipient_ptr);

/* Draws every random input of one gift wrap from the context's RNG into w->rnd (the one-time
 * key redrawn while invalid, and kept imported in w->one). On failure both are wiped.
 * Returns: SC_OK; SC_ERR_RNG; the context's statuses. */
sc_status sc_nip59_wrap_draw(sc_nip59_wrap_op *w, sc_ctx *ctx);

/* now - backdate, never before the epoch. */
int64_t sc_nip59_backdated(int64_t now, uint32_t backdate);

/* The exact plan for rnd (w->rnd itself, once drawn, or the caller's, copied in), and w
 * made ready to run over out and scratch (checked against a plan at least as large).
 * Returns: SC_OK; as sc_nip59_plan_sizes. */
sc_status sc_nip59_wrap_begin(sc_nip59_wrap_op *w, const sc_nip59_rand *rnd, char *out,
                              size_t *out_len, void *scratch);

/* Runs the wrap from where it stands: SC_OK (the gift wrap is out[0..*out_len), the scratch
 * wiped); SC_OP_YIELD (a request of the author's signer was posted on op); or the failure. */
sc_status sc_nip59_wrap_run(sc_nip59_wrap_op *w, sc_ctx *ctx, sc_signer_op *op);

/* The answer to the request the wrap posted. Returns: SC_OK; SC_ERR_SIGNER_ANSWER; the
 * context's statuses. */
sc_status sc_nip59_wrap_answer(sc_nip59_wrap_op *w, sc_ctx *ctx, const char *text, size_t len);

/* Everything a gift wrap needs before it runs, into w: sc_nip59_wrap_check, the capacity
 * and aliasing of out and scratch (sc_nip59_wrap_buffers), the randomness (rnd, or drawn
 * when it is NULL) and sc_nip59_wrap_begin. On failure w holds no secret.
 * Returns: SC_OK; sc_nip59_wrap_start_with_rand's statuses (sc_nip59_wrap_start's for a NULL
 * rnd) but those of its own arguments. */
sc_status sc_nip59_wrap_prepare(sc_nip59_wrap_op *w, sc_ctx *ctx, char *out, size_t out_cap,
                                size_t *out_len, void *scratch, size_t scratch_cap,
                                const sc_event *rumor, const sc_signer *author,
                                const uint8_t *recipient, const sc_nip59_opts *opts,
                                const sc_nip59_rand *rnd);

/* A failed wrap: the scratch, the randomness and the one-time key wiped, *out_len 0 (out is
 * only ever written whole, by the last stage). */
void sc_nip59_wrap_abort(sc_nip59_wrap_op *w);

/* ---- an unwrap as (part of) an operation: core/nip59/nip59_unwrap.c --------------------- */

/* One unwrap: the arena's layout so far, what it learned, the caller's outputs, and where it
 * stands (wrap opened, its content decrypted as the recipient's signer, seal opened, its
 * content decrypted, rumor opened). Lives in an operation's body. */
typedef struct sc_nip59_unwrap_op {
    uint8_t *base; /* the arena (NULL when arena_cap is 0) */
    size_t cap;
    size_t front_hi; /* bytes written from the start, at most */
    size_t back_lo;  /* lowest offset written from the end (cap when none) */
    size_t peak;     /* the largest front + back use so far */
    size_t need;     /* for SC_ERR_BUFFER_TOO_SMALL */
    int64_t now;     /* >= 0: the NIP-40 checks at this time */
    sc_nip59_info info;
    sc_event *rumor; /* the caller's outputs */
    sc_nip59_info *info_out;
    size_t *arena_used;
    const char *wrap_json;
    size_t wrap_len;
    int stage;
    size_t at, len; /* the text the next stage parses: base[at..at + len) */
    size_t used;    /* the rumor's parse */
    /* the decryption a signer was asked for */
    size_t front;  /* the front use while it runs */
    size_t padded; /* the payload's padded part */
} sc_nip59_unwrap_op;

/* The checks of sc_nip59_unwrap in its order (outputs zeroed first), and u made ready; now >=
 * 0 adds the NIP-40 checks of sc_nip59_unwrap_at. Returns: SC_OK; SC_ERR_ARG; SC_ERR_STATE. */
sc_status sc_nip59_unwrap_begin(sc_nip59_unwrap_op *u, sc_ctx *ctx, sc_event *rumor,
                                sc_nip59_info *info, void *arena, size_t arena_cap,
                                size_t *arena_used, const char *wrap_json, size_t wrap_len,
                                const sc_signer *recipient, int64_t now);

/* Runs the unwrap from where it stands: SC_OK (the rumor and info out, *arena_used set,
 * u->peak = the arena bytes it needed from the start); SC_OP_YIELD (a decryption was asked of
 * the recipient's signer on op); or the failure. */
sc_status sc_nip59_unwrap_run(sc_nip59_unwrap_op *u, sc_ctx *ctx, sc_signer_op *op);

/* The plaintext the signer answered. Returns: SC_OK; SC_ERR_SIGNER_ANSWER. */
sc_status sc_nip59_unwrap_answer(sc_nip59_unwrap_op *u, const char *text, size_t len);

/* A failed unwrap (st): every arena byte it wrote zeroed, rumor and info zeroed, *arena_used
 * the need for SC_ERR_BUFFER_TOO_SMALL and 0 otherwise. */
void sc_nip59_unwrap_abort(sc_nip59_unwrap_op *u, sc_status st);

#endif
