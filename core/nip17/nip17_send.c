/* NIP-17 sending: one gift wrap per distinct receiver of a kind 14 or 15 rumor (its p tags,
 * in order of first appearance) and one for the sender's own copy unless the sender is among
 * them, all written into one caller buffer. The rule lives here once, for the CLI, the
 * bindings and every app. Sending is an operation over the sender's signer (signer.h): the
 * gift wraps one after the other, each asking the signer for its seal; sc_nip17_send is that
 * operation over an identity, run to its end in one call. */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip17.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "nip17/nip17_internal.h"
#include "nip59/nip59_internal.h"
#include "signer/signer_internal.h"

/* The p tag t's receiver into pub and its relay hint into relay; 0 if t is not a p tag. */
static int p_tag(const sc_tag *t, uint8_t pub[SC_PUBKEY_BYTES], sc_str *relay, sc_status *st)
{
    *st = SC_OK;
    if (t->n_items == 0 || t->items[0].len != 1 || t->items[0].ptr[0] != 'p') {
        return 0;
    }
    if (t->n_items < 2 || sc_hex_decode_fixed(pub, SC_PUBKEY_BYTES, t->items[1].ptr,
                                              t->items[1].len, SC_HEX_LOWER_ONLY) != SC_OK) {
        *st = SC_ERR_MESSAGE;
        return 0;
    }
    relay->ptr = t->n_items >= 3 ? t->items[2].ptr : NULL;
    relay->len = t->n_items >= 3 ? t->items[2].len : 0;
    return 1;
}

/* Whether tag k's receiver already appeared in an earlier p tag. */
static int seen_before(const sc_event *rumor, size_t k, const uint8_t pub[SC_PUBKEY_BYTES])
{
    uint8_t other[SC_PUBKEY_BYTES];
    sc_str relay;
    sc_status st;
    size_t j;

    for (j = 0; j < k; j++) {
        if (p_tag(&rumor->tags[j], other, &relay, &st) &&
            memcmp(other, pub, SC_PUBKEY_BYTES) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Walking the wraps of a rumor in order: each distinct receiver (opts with the receiver's
 * relay hint), then the sender's copy (opts as given) unless the sender is a receiver. */
#define T_ANY 1       /* a p tag was seen */
#define T_SELF 2      /* the sender is among the receivers */
#define T_SELF_DONE 4 /* the sender's copy was given */

typedef struct targets {
    const sc_event *rumor;
    const uint8_t *sender;
    sc_nip59_opts o;
    size_t k; /* the next tag */
    int flags;
} targets;

static sc_status targets_init(targets *t, const sc_event *rumor, const uint8_t *sender,
                              const sc_nip59_opts *opts)
{
    memset(t, 0, sizeof *t);
    if (rumor->kind != SC_NIP17_KIND_CHAT && rumor->kind != SC_NIP17_KIND_FILE) {
        return SC_ERR_MESSAGE;
    }
    t->rumor = rumor;
    t->sender = sender;
    if (opts != NULL) {
        t->o = *opts;
    }
    return SC_OK;
}

/* The next wrap's recipient and options: 1; 0 at the end (*st SC_OK) or on a malformed p tag
 * or a rumor without receivers (*st SC_ERR_MESSAGE). */
static int targets_next(targets *t, uint8_t to[SC_PUBKEY_BYTES], sc_nip59_opts *per, sc_status *st)
{
    *st = SC_OK;
    while (t->k < t->rumor->n_tags) {
        size_t at = t->k++;

        *per = t->o;
        if (!p_tag(&t->rumor->tags[at], to, &per->relay, st)) {
            if (*st != SC_OK) {
                return 0;
            }
            continue;
        }
        t->flags |= T_ANY;
        if (seen_before(t->rumor, at, to)) {
            continue;
        }
        t->flags |= memcmp(to, t->sender, SC_PUBKEY_BYTES) == 0 ? T_SELF : 0;
        return 1;
    }
    if ((t->flags & T_ANY) == 0) {
        *st = SC_ERR_MESSAGE; /* a message with no receiver */
        return 0;
    }
    if ((t->flags & (T_SELF | T_SELF_DONE)) != 0) {
        return 0;
    }
    t->flags |= T_SELF_DONE;
    memcpy(to, t->sender, SC_PUBKEY_BYTES);
    *per = t->o;
    return 1;
}

/* One call of `each` per wrap of rumor, in order. */
typedef sc_status (*wrap_fn)(void *user, const uint8_t to[SC_PUBKEY_BYTES], const sc_nip59_opts *o);

static sc_status for_each_wrap(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES],
                               const sc_nip59_opts *opts, wrap_fn each, void *user)
{
    uint8_t to[SC_PUBKEY_BYTES];
    sc_nip59_opts per;
    targets t;
    sc_status st = targets_init(&t, rumor, sender, opts);

    while (st == SC_OK && targets_next(&t, to, &per, &st)) {
        st = each(user, to, &per);
    }
    return st;
}

/* ---- sizes ----------------------------------------------------------------------------- */

typedef struct sizes {
    const sc_event *rumor;
    size_t n, out, scratch;
    uint8_t first_to[SC_PUBKEY_BYTES]; /* the first wrap, or the one that has no size */
    sc_nip59_opts first_opts;
} sizes;

static sc_status add_size(void *user, const uint8_t to[SC_PUBKEY_BYTES], const sc_nip59_opts *o)
{
    sizes *z = (sizes *)user;
    size_t w = sc_nip59_wrap_max(z->rumor, o), s = sc_nip59_wrap_scratch_max(z->rumor, o);

    if (z->n == 0 || w == 0 || s == 0) {
        memcpy(z->first_to, to, SC_PUBKEY_BYTES);
        z->first_opts = *o;
    }
    if (w == 0 || s == 0) {
        return SC_ERR_ARG; /* the rumor or the options are invalid: sc_nip59_wrap says how */
    }
    z->n++;
    z->out = sc_size_add(z->out, w);
    z->scratch = s > z->scratch ? s : z->scratch;
    return SC_OK;
}

/* The sizes for sending rumor from sender into *z: SC_OK; SC_ERR_MESSAGE (no receiver, a
 * malformed p tag, another kind); SC_ERR_ARG (a wrap has no size: z->first_* names it). */
static sc_status measure_into(sizes *z, const sc_event *rumor,
                              const uint8_t sender[SC_PUBKEY_BYTES], const sc_nip59_opts *opts)
{
    sc_status st;

    memset(z, 0, sizeof *z);
    z->rumor = rumor;
    st = for_each_wrap(rumor, sender, opts, add_size, z);
    if (st == SC_OK && z->out == SC_SIZE_SAT) {
        st = SC_ERR_TOO_LARGE;
    }
    return st;
}

/* The sizes, or 0 in every field when sending is impossible. */
static sizes measure(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES],
                     const sc_nip59_opts *opts)
{
    sizes z;

    if (measure_into(&z, rumor, sender, opts) != SC_OK) {
        memset(&z, 0, sizeof z);
    }
    return z;
}

size_t sc_nip17_send_max(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES],
                         const sc_nip59_opts *opts)
{
    return rumor == NULL || sender == NULL ? 0 : measure(rumor, sender, opts).out;
}

size_t sc_nip17_send_scratch_max(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES],
                                 const sc_nip59_opts *opts)
{
    return rumor == NULL || sender == NULL ? 0 : measure(rumor, sender, opts).scratch;
}

size_t sc_nip17_send_wraps_len(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES])
{
    return rumor == NULL || sender == NULL ? 0 : measure(rumor, sender, NULL).n;
}

/* ---- sending ----------------------------------------------------------------------------- */

typedef struct send_op {
    sc_nip59_wrap_op w; /* the wrap being made */
    targets t;
    char *out;
    size_t out_cap, *out_len, used, wlen;
    sc_nip17_wrap *wraps;
    size_t *wraps_len, n;
    void *scratch;
    size_t scratch_cap;
    const sc_nip59_rand *rnd; /* the caller's randomness, one per wrap, or NULL: drawn */
    uint8_t to[SC_PUBKEY_BYTES];
    uint8_t sender[SC_PUBKEY_BYTES]; /* the user's key, which t points at */
    int in_wrap;
} send_op;

typedef char send_op_fits[(sizeof(send_op) <= SC_OP_BODY_BYTES) ? 1 : -1];

/* Prepares the next wrap (1), or says there is none (0, *st SC_OK) or why not. */
static int next_wrap(send_op *b, sc_ctx *ctx, const sc_signer *s, sc_status *st)
{
    sc_nip59_opts per;

    if (!targets_next(&b->t, b->to, &per, st)) {
        return 0;
    }
    *st = sc_nip59_wrap_prepare(&b->w, ctx, b->out + b->used, b->out_cap - b->used, &b->wlen,
                                b->scratch, b->scratch_cap, b->t.rumor, s, b->to, &per,
                                b->rnd != NULL ? &b->rnd[b->n] : NULL);
    return *st == SC_OK;
}

static sc_status send_step(sc_signer_op *op, sc_ctx *ctx)
{
    send_op *b = (send_op *)sc_op_body(op);
    sc_status st = SC_OK;

    for (;;) {
        if (!b->in_wrap) {
            if (!next_wrap(b, ctx, sc_op_signer(op), &st)) {
                break; /* the last wrap was made, or the next could not be */
            }
            b->in_wrap = 1;
        }
        st = sc_nip59_wrap_run(&b->w, ctx, op);
        if (st != SC_OK) {
            return st; /* a request, or the failure of this wrap */
        }
        memcpy(b->wraps[b->n].recipient, b->to, SC_PUBKEY_BYTES);
        b->wraps[b->n].offset = b->used;
        b->wraps[b->n].len = b->wlen;
        b->used += b->wlen;
        b->n++;
        b->in_wrap = 0;
    }
    if (st == SC_OK) {
        *b->out_len = b->used;
        *b->wraps_len = b->n;
    }
    return st;
}

static sc_status send_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    send_op *b = (send_op *)sc_op_body(op);

    return sc_nip59_wrap_answer(&b->w, ctx, text, len);
}

static void send_fail(sc_signer_op *op, sc_status st)
{
    send_op *b = (send_op *)sc_op_body(op);

    (void)st;
    sc_nip59_wrap_abort(&b->w);
    sc_mem_wipe(b->out, b->used);
    memset(b->wraps, 0, b->n * sizeof *b->wraps);
    *b->out_len = 0;
    *b->wraps_len = b->n; /* the index of the wrap that failed */
}

static const sc_op_vt send_vt = {send_step, send_answer, send_fail};

/* Every check of sc_nip17_send before the first wrap, in its order: the receivers and their
 * sizes into *z, one dry run of the wrap checks (the rumor, its author, the options), the
 * capacities and the aliasing. */
static sc_status send_checks(sc_ctx *ctx, sizes *z, char *out, size_t out_cap, size_t *out_len,
                             const sc_nip17_wrap *wraps, size_t wraps_cap, size_t *wraps_len,
                             void *scratch, size_t scratch_cap, const sc_event *rumor,
                             const sc_signer *sender, const uint8_t *pub, const sc_nip59_opts *opts,
                             size_t n_rnd)
{
    sc_nip59_wrap_op dry;
    size_t len = 0;
    sc_status st = measure_into(z, rumor, pub, opts), d;

    if (st == SC_ERR_MESSAGE || st == SC_ERR_TOO_LARGE) {
        return st;
    }
    d = sc_nip59_wrap_prepare(&dry, ctx, NULL, 0, &len, NULL, 0, rumor, sender, z->first_to,
                              &z->first_opts, NULL);
    sc_mem_wipe(&dry, sizeof dry);
    if (d != SC_ERR_BUFFER_TOO_SMALL) {
        return d == SC_OK ? SC_ERR_INTERNAL : d;
    }
    if (st != SC_OK) {
        return SC_ERR_TOO_LARGE; /* a wrap passes its checks but has no size */
    }
    if (n_rnd != (size_t)-1 && n_rnd != z->n) {
        return SC_ERR_ARG; /* one sc_nip59_rand per wrap */
    }
    if (out_cap < z->out || wraps_cap < z->n || scratch_cap < z->scratch) {
        *out_len = z->out;
        *wraps_len = z->n;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL || scratch == NULL) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, z->out, scratch, z->scratch) ||
        sc_range_overlap(wraps, z->n * sizeof *wraps, out, z->out) ||
        sc_range_overlap(wraps, z->n * sizeof *wraps, scratch, z->scratch)) {
        return SC_ERR_OVERLAP;
    }
    return SC_OK;
}

/* The arguments, before anything is measured. */
static sc_status send_args(sc_ctx *ctx, sc_signer_op *op, const sc_nip17_wrap *wraps,
                           size_t wraps_cap, const sc_event *rumor, const sc_signer *sender,
                           const sc_nip59_opts *opts, uint8_t pub[SC_PUBKEY_BYTES])
{
    sc_status st;

    if (ctx == NULL || op == NULL || rumor == NULL || sc_signer_check(sender) == SC_ERR_ARG ||
        (wraps == NULL && wraps_cap != 0)) {
        return SC_ERR_ARG;
    }
    st = sc_nip59_check_opts(opts);
    if (st != SC_OK) {
        return st;
    }
    if (sc_signer_pubkey(pub, sender) != SC_OK) {
        return SC_ERR_STATE; /* erased or never imported (sender is not NULL) */
    }
    return sc_ctx_impl_get(ctx) == NULL ? SC_ERR_STATE : SC_OK;
}

/* sc_nip17_send_start, with one sc_nip59_rand per wrap (n_rnd) or none (rnd NULL and n_rnd
 * (size_t)-1: drawn per wrap). */
static sc_status send_start(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                            size_t *out_len, sc_nip17_wrap *wraps, size_t wraps_cap,
                            size_t *wraps_len, void *scratch, size_t scratch_cap,
                            const sc_event *rumor, const sc_signer *sender,
                            const sc_nip59_opts *opts, const sc_nip59_rand *rnd, size_t n_rnd)
{
    uint8_t pub[SC_PUBKEY_BYTES];
    send_op *b;
    sizes z;
    sc_status st;

    st = send_args(ctx, op, wraps, wraps_cap, rumor, sender, opts, pub);
    if (st == SC_OK) {
        st = send_checks(ctx, &z, out, out_cap, out_len, wraps, wraps_cap, wraps_len, scratch,
                         scratch_cap, rumor, sender, pub, opts, n_rnd);
    }
    if (st != SC_OK) {
        sc_op_drop(op);
        return st;
    }
    b = (send_op *)sc_op_start(op, sender, &send_vt);
    memcpy(b->sender, pub, SC_PUBKEY_BYTES);
    (void)targets_init(&b->t, rumor, b->sender, opts); /* measure_into checked the kind */
    b->out = out;
    b->out_cap = out_cap;
    b->out_len = out_len;
    b->wraps = wraps;
    b->wraps_len = wraps_len;
    b->scratch = scratch;
    b->scratch_cap = scratch_cap;
    b->rnd = rnd;
    return SC_OK;
}

sc_status sc_nip17_send_start(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                              size_t *out_len, sc_nip17_wrap *wraps, size_t wraps_cap,
                              size_t *wraps_len, void *scratch, size_t scratch_cap,
                              const sc_event *rumor, const sc_signer *sender,
                              const sc_nip59_opts *opts)
{
    if (out_len == NULL || wraps_len == NULL) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    *out_len = 0;
    *wraps_len = 0;
    return send_start(ctx, op, out, out_cap, out_len, wraps, wraps_cap, wraps_len, scratch,
                      scratch_cap, rumor, sender, opts, NULL, (size_t)-1);
}

sc_status sc_nip17_send_start_with_rand(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                                        size_t *out_len, sc_nip17_wrap *wraps, size_t wraps_cap,
                                        size_t *wraps_len, void *scratch, size_t scratch_cap,
                                        const sc_event *rumor, const sc_signer *sender,
                                        const sc_nip59_opts *opts, const sc_nip59_rand *rnd,
                                        size_t n_rnd)
{
    size_t i;

    if (out_len == NULL || wraps_len == NULL) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    *out_len = 0;
    *wraps_len = 0;
    for (i = 0; rnd != NULL && i < n_rnd; i++) {
        if (rnd[i].seal_backdate > SC_NIP59_MAX_BACKDATE ||
            rnd[i].wrap_backdate > SC_NIP59_MAX_BACKDATE) {
            break;
        }
    }
    if (rnd == NULL || n_rnd == (size_t)-1 || i != n_rnd) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    return send_start(ctx, op, out, out_cap, out_len, wraps, wraps_cap, wraps_len, scratch,
                      scratch_cap, rumor, sender, opts, rnd, n_rnd);
}

sc_status sc_nip17_send(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                        sc_nip17_wrap *wraps, size_t wraps_cap, size_t *wraps_len, void *scratch,
                        size_t scratch_cap, const sc_event *rumor, const sc_identity *sender,
                        const sc_nip59_opts *opts)
{
    sc_signer s;
    sc_signer_op op;
    sc_status st;

    sc_signer_set_local(&s, sender);
    st = sc_nip17_send_start(ctx, &op, out, out_cap, out_len, wraps, wraps_cap, wraps_len, scratch,
                             scratch_cap, rumor, &s, opts);
    return sc_op_run_local(&op, ctx, st);
}
