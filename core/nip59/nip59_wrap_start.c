/* Starting a gift wrap: the checks of every input and buffer in sc_nip59_wrap's order, the
 * randomness, the operation of nip59.h (sc_nip59_wrap_start and its _with_rand twin) and the
 * synchronous sc_nip59_wrap / sc_nip59_wrap_with_rand, which are that operation over the
 * author's identity run to its end in one call. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/nip59.h>

#include <string.h>
#include <time.h>

#include "ctx/ctx_internal.h"
#include "nip59/nip59_internal.h"
#include "signer/signer_internal.h"

sc_status sc_nip59_wrap_check(sc_nip59_wrap_op *w, sc_ctx *ctx, const sc_event *rumor,
                              const sc_signer *author, const uint8_t *recipient,
                              const sc_nip59_opts *opts)
{
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_status st;

    memset(w, 0, sizeof *w);
    if (ctx == NULL || rumor == NULL || sc_signer_check(author) == SC_ERR_ARG ||
        recipient == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_nip59_check_opts(opts);
    if (st != SC_OK) {
        return st;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    st = sc_signer_pubkey(w->author, author);
    if (st != SC_OK) {
        return st; /* SC_ERR_STATE: erased or never imported */
    }
    st = sc_nip59_check_rumor(rumor);
    if (st != SC_OK) {
        return st;
    }
    if (memcmp(rumor->pubkey, w->author, SC_PUBKEY_BYTES) != 0) {
        return SC_ERR_RUMOR_AUTHOR; /* receivers refuse a seal signed by anyone else */
    }
    /* a wrong id would only be found by every receiver (SC_ERR_RUMOR_ID) */
    st = sc_event_compute_id(ctx, id, rumor);
    if (st != SC_OK) {
        return st;
    }
    if (memcmp(id, rumor->id, SC_EVENT_ID_BYTES) != 0) {
        return SC_ERR_ID_MISMATCH;
    }
    w->rumor = rumor;
    memcpy(w->recipient, recipient, SC_PUBKEY_BYTES);
    if (opts != NULL) {
        w->o = *opts;
    }
    if (w->o.now == 0) {
        time_t t = time(NULL); /* the library's only clock read */

        if (t == (time_t)-1 || t <= 0) {
            return SC_ERR_UNSUPPORTED;
        }
        w->o.now = (int64_t)t;
    }
    return SC_OK;
}

/* 1 when the rumor's strings lie outside b[0..len). */
static int rumor_apart(const sc_event *ev, const void *b, size_t len)
{
    size_t t, i;

    if (sc_range_overlap(ev->content.ptr, ev->content.len, b, len) ||
        sc_range_overlap(ev->tags, ev->n_tags * sizeof(sc_tag), b, len)) {
        return 0;
    }
    for (t = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        if (sc_range_overlap(tag->items, tag->n_items * sizeof(sc_str), b, len)) {
            return 0;
        }
        for (i = 0; i < tag->n_items; i++) {
            if (sc_range_overlap(tag->items[i].ptr, tag->items[i].len, b, len)) {
                return 0;
            }
        }
    }
    return 1;
}

sc_status sc_nip59_wrap_buffers(const sc_nip59_wrap_op *w, const sc_nip59_plan *p, char *out,
                                size_t out_cap, size_t *out_len, void *scratch, size_t scratch_cap,
                                const sc_signer *author, const uint8_t *recipient_ptr)
{
    const sc_identity *id = sc_signer_identity(author);
    const void *bufs[2];
    size_t lens[2], k;

    if (p->extended && (w->o.flags & SC_NIP44_EXTENDED) == 0) {
        return SC_ERR_POLICY; /* u16-only decoders, still widely deployed, cannot read it */
    }
    if (scratch_cap < p->scratch || out_cap < p->wrap_json) {
        *out_len = p->wrap_json;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL || scratch == NULL) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, p->wrap_json, scratch, p->scratch)) {
        return SC_ERR_OVERLAP;
    }
    /* the inputs are read while the buffers are being written */
    bufs[0] = out;
    lens[0] = p->wrap_json;
    bufs[1] = scratch;
    lens[1] = p->scratch;
    for (k = 0; k < 2; k++) {
        if (!rumor_apart(w->rumor, bufs[k], lens[k]) ||
            sc_range_overlap(w->o.relay.ptr, w->o.relay.len, bufs[k], lens[k]) ||
            sc_range_overlap(id, id != NULL ? sizeof(sc_identity) : 0, bufs[k], lens[k]) ||
            sc_range_overlap(recipient_ptr, SC_PUBKEY_BYTES, bufs[k], lens[k])) {
            return SC_ERR_OVERLAP;
        }
    }
    return SC_OK;
}

/* A backdate uniform in 0..SC_NIP59_MAX_BACKDATE: 32-bit draws at or above the largest
 * multiple of the range are redrawn, so no value is favoured. */
static sc_status draw_backdate(sc_ctx *ctx, uint32_t *out)
{
    const uint32_t range = (uint32_t)SC_NIP59_MAX_BACKDATE + 1u;
    const uint32_t limit = range * (UINT32_MAX / range);
    uint8_t b[4];
    uint32_t v;
    int tries;
    sc_status st;

    for (tries = 0; tries < 64; tries++) {
        st = sc_crypto_rng_fill(ctx, b, sizeof b);
        if (st != SC_OK) {
            return st;
        }
        v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
        if (v < limit) {
            *out = v % range;
            return SC_OK;
        }
    }
    return SC_ERR_RNG; /* 64 rejections in a row (probability ~2^-930): a broken generator */
}

/* Every random input, in this order: the one-time key (redrawn while it is not a valid secret
 * key; kept imported), the seal and wrap nonces, the seal and wrap aux, the seal and wrap
 * backdates. */
sc_status sc_nip59_wrap_draw(sc_nip59_wrap_op *w, sc_ctx *ctx)
{
    sc_nip59_rand *r = &w->rnd;
    sc_status st = SC_ERR_INVALID_KEY;
    int tries;

    /* a uniform 256-bit value is out of range with probability about 2^-128 per try */
    for (tries = 0; tries < 8 && st == SC_ERR_INVALID_KEY; tries++) {
        st = sc_crypto_rng_fill(ctx, r->wrap_seckey, sizeof r->wrap_seckey);
        if (st == SC_OK) {
            st = sc_identity_import(ctx, &w->one, r->wrap_seckey);
        }
    }
    if (st == SC_ERR_INVALID_KEY) {
        st = SC_ERR_RNG;
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, r->seal_nonce, sizeof r->seal_nonce);
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, r->wrap_nonce, sizeof r->wrap_nonce);
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, r->seal_aux, sizeof r->seal_aux);
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, r->wrap_aux, sizeof r->wrap_aux);
    }
    if (st == SC_OK) {
        st = draw_backdate(ctx, &r->seal_backdate);
    }
    if (st == SC_OK) {
        st = draw_backdate(ctx, &r->wrap_backdate);
    }
    w->has_one = st == SC_OK;
    if (st != SC_OK) {
        sc_mem_wipe(r, sizeof *r);
        sc_identity_clear(&w->one);
    }
    return st;
}

/* ---- the operation ------------------------------------------------------------------------- */

static sc_status wrap_step(sc_signer_op *op, sc_ctx *ctx)
{
    return sc_nip59_wrap_run((sc_nip59_wrap_op *)sc_op_body(op), ctx, op);
}

static sc_status wrap_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    return sc_nip59_wrap_answer((sc_nip59_wrap_op *)sc_op_body(op), ctx, text, len);
}

static void wrap_fail(sc_signer_op *op, sc_status st)
{
    (void)st;
    sc_nip59_wrap_abort((sc_nip59_wrap_op *)sc_op_body(op));
}

static const sc_op_vt wrap_vt = {wrap_step, wrap_answer, wrap_fail};

typedef char wrap_op_fits[(sizeof(sc_nip59_wrap_op) <= SC_OP_BODY_BYTES) ? 1 : -1];

sc_status sc_nip59_wrap_prepare(sc_nip59_wrap_op *w, sc_ctx *ctx, char *out, size_t out_cap,
                                size_t *out_len, void *scratch, size_t scratch_cap,
                                const sc_event *rumor, const sc_signer *author,
                                const uint8_t *recipient, const sc_nip59_opts *opts,
                                const sc_nip59_rand *rnd)
{
    sc_nip59_plan bound;
    sc_status st;

    st = sc_nip59_wrap_check(w, ctx, rumor, author, recipient, opts);
    /* the exact sizes for the caller's randomness; before drawing, the sizes for any backdate
     * (the timestamps are at most now) */
    if (st == SC_OK) {
        st = sc_nip59_plan_sizes(
            &bound, rumor, &w->o,
            rnd != NULL ? sc_nip59_backdated(w->o.now, rnd->seal_backdate) : w->o.now,
            rnd != NULL ? sc_nip59_backdated(w->o.now, rnd->wrap_backdate) : w->o.now);
    }
    if (st == SC_OK) {
        st = sc_nip59_wrap_buffers(w, &bound, out, out_cap, out_len, scratch, scratch_cap, author,
                                   recipient);
    }
    if (st == SC_OK && rnd == NULL) {
        st = sc_nip59_wrap_draw(w, ctx);
    } else if (st == SC_OK) {
        st = sc_identity_import(ctx, &w->one, rnd->wrap_seckey); /* SC_ERR_INVALID_KEY */
        w->has_one = st == SC_OK;
    }
    if (st == SC_OK) {
        st = sc_nip59_wrap_begin(w, rnd != NULL ? rnd : &w->rnd, out, out_len, scratch);
    }
    if (st != SC_OK) {
        sc_mem_wipe(&w->rnd, sizeof w->rnd);
        sc_identity_clear(&w->one);
        w->has_one = 0;
    }
    return st;
}

/* sc_nip59_wrap_start with the caller's randomness (rnd), or with randomness drawn once every
 * check has passed (rnd NULL). The checks write straight into the operation's body. */
static sc_status wrap_start(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                            size_t *out_len, void *scratch, size_t scratch_cap,
                            const sc_event *rumor, const sc_signer *author,
                            const uint8_t *recipient, const sc_nip59_opts *opts,
                            const sc_nip59_rand *rnd)
{
    sc_nip59_wrap_op *w = NULL;
    sc_status st;

    if (op != NULL && author != NULL) {
        w = (sc_nip59_wrap_op *)sc_op_start(op, author, &wrap_vt);
    }
    st = w == NULL ? SC_ERR_ARG
                   : sc_nip59_wrap_prepare(w, ctx, out, out_cap, out_len, scratch, scratch_cap,
                                           rumor, author, recipient, opts, rnd);
    if (st != SC_OK) {
        sc_op_drop(op); /* the body, and the randomness in it */
    }
    return st;
}

sc_status sc_nip59_wrap_start(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                              size_t *out_len, void *scratch, size_t scratch_cap,
                              const sc_event *rumor, const sc_signer *author,
                              const uint8_t recipient[SC_PUBKEY_BYTES], const sc_nip59_opts *opts)
{
    if (out_len == NULL) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    *out_len = 0;
    return wrap_start(ctx, op, out, out_cap, out_len, scratch, scratch_cap, rumor, author,
                      recipient, opts, NULL);
}

sc_status sc_nip59_wrap_start_with_rand(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                                        size_t *out_len, void *scratch, size_t scratch_cap,
                                        const sc_event *rumor, const sc_signer *author,
                                        const uint8_t recipient[SC_PUBKEY_BYTES],
                                        const sc_nip59_opts *opts, const sc_nip59_rand *rnd)
{
    if (out_len == NULL) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (rnd == NULL || rnd->seal_backdate > SC_NIP59_MAX_BACKDATE ||
        rnd->wrap_backdate > SC_NIP59_MAX_BACKDATE) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    return wrap_start(ctx, op, out, out_cap, out_len, scratch, scratch_cap, rumor, author,
                      recipient, opts, rnd);
}

/* ---- over an identity, in one call ------------------------------------------------------- */

sc_status sc_nip59_wrap_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                  void *scratch, size_t scratch_cap, const sc_event *rumor,
                                  const sc_identity *author,
                                  const uint8_t recipient[SC_PUBKEY_BYTES],
                                  const sc_nip59_opts *opts, const sc_nip59_rand *rnd)
{
    sc_signer s;
    sc_signer_op op;
    sc_status st;

    sc_signer_set_local(&s, author);
    st = sc_nip59_wrap_start_with_rand(ctx, &op, out, out_cap, out_len, scratch, scratch_cap, rumor,
                                       &s, recipient, opts, rnd);
    return sc_op_run_local(&op, ctx, st);
}

sc_status sc_nip59_wrap(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, void *scratch,
                        size_t scratch_cap, const sc_event *rumor, const sc_identity *author,
                        const uint8_t recipient[SC_PUBKEY_BYTES], const sc_nip59_opts *opts)
{
    sc_signer s;
    sc_signer_op op;
    sc_status st;

    sc_signer_set_local(&s, author);
    st = sc_nip59_wrap_start(ctx, &op, out, out_cap, out_len, scratch, scratch_cap, rumor, &s,
                             recipient, opts);
    return sc_op_run_local(&op, ctx, st);
}
