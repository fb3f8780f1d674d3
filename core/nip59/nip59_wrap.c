/* NIP-59 sealing and gift wrapping over caller buffers.
 *
 * The scratch is two regions: X (the first seal_json bytes) holds the rumor JSON and then the
 * seal JSON, Y (the next wrap_payload bytes) the seal content and then the wrap content. Each
 * NIP-44 step reads one region and writes the other, so plaintext and payload never share
 * bytes; X is wiped as soon as its plaintext has been encrypted, and the whole scratch, the
 * conversation keys and the one-time identity are wiped on every path. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/nip44.h>
#include <softchat/nip59.h>

#include <string.h>
#include <time.h>

#include "ctx/ctx_internal.h"
#include "nip44/nip44_internal.h"
#include "nip59/nip59_internal.h"

/* The checked inputs of one wrap. */
typedef struct wrap_in {
    sc_ctx *ctx;
    const sc_event *rumor;
    const sc_identity *author;
    const uint8_t *recipient;
    sc_nip59_opts o; /* a copy with `now` resolved */
} wrap_in;

/* Arguments, context, identity and rumor, in that order; resolves the clock. */
static sc_status check_inputs(wrap_in *in, sc_ctx *ctx, const sc_event *rumor,
                              const sc_identity *author, const uint8_t *recipient,
                              const sc_nip59_opts *opts)
{
    uint8_t pub[SC_PUBKEY_BYTES], id[SC_EVENT_ID_BYTES];
    sc_status st;

    memset(in, 0, sizeof *in);
    if (ctx == NULL || rumor == NULL || author == NULL || recipient == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_nip59_check_opts(opts);
    if (st != SC_OK) {
        return st;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    st = sc_identity_pubkey(pub, author);
    if (st != SC_OK) {
        return st; /* SC_ERR_STATE: erased or never imported */
    }
    st = sc_nip59_check_rumor(rumor);
    if (st != SC_OK) {
        return st;
    }
    if (memcmp(rumor->pubkey, pub, SC_PUBKEY_BYTES) != 0) {
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
    in->ctx = ctx;
    in->rumor = rumor;
    in->author = author;
    in->recipient = recipient;
    if (opts != NULL) {
        in->o = *opts;
    }
    if (in->o.now == 0) {
        time_t t = time(NULL); /* the library's only clock read */

        if (t == (time_t)-1 || t <= 0) {
            return SC_ERR_UNSUPPORTED;
        }
        in->o.now = (int64_t)t;
    }
    return SC_OK;
}

/* now - backdate, never before the epoch. */
static int64_t backdated(int64_t now, uint32_t backdate)
{
    return now > (int64_t)backdate ? now - (int64_t)backdate : 0;
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

/* Policy, capacity and aliasing for plan p. */
static sc_status check_buffers(const wrap_in *in, const sc_nip59_plan *p, char *out, size_t out_cap,
                               size_t *out_len, void *scratch, size_t scratch_cap)
{
    const void *bufs[2];
    size_t lens[2], k;

    if (p->extended && (in->o.flags & SC_NIP44_EXTENDED) == 0) {
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
        if (!rumor_apart(in->rumor, bufs[k], lens[k]) ||
            sc_range_overlap(in->o.relay.ptr, in->o.relay.len, bufs[k], lens[k]) ||
            sc_range_overlap(in->author, sizeof(sc_identity), bufs[k], lens[k]) ||
            sc_range_overlap(in->recipient, SC_PUBKEY_BYTES, bufs[k], lens[k])) {
            return SC_ERR_OVERLAP;
        }
    }
    return SC_OK;
}

/* The seal of the rumor, written as JSON to x; y receives the seal content. */
static sc_status seal(const wrap_in *in, const sc_nip59_plan *p, const sc_nip59_rand *rnd, char *x,
                      char *y)
{
    unsigned flags = in->o.flags & SC_NIP44_EXTENDED;
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_nip59_tags tags;
    sc_event ev;
    size_t n = 0;
    sc_status st;

    st = sc_event_to_json(x, p->rumor_json, &n, in->rumor, SC_EVENT_JSON_OBJECT);
    if (st == SC_OK && n != p->rumor_json) {
        st = SC_ERR_INTERNAL;
    }
    if (st == SC_OK) {
        st = sc_nip44_identity_key(in->ctx, ck, in->author, in->recipient);
    }
    if (st == SC_OK) {
        st = sc_nip44_encrypt_with_rand(in->ctx, y, p->seal_payload, &n, ck, rnd->seal_nonce,
                                        (const uint8_t *)x, p->rumor_json, flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    sc_mem_wipe(x, p->rumor_json); /* the rumor in clear */
    if (st == SC_OK && n != p->seal_payload) {
        st = SC_ERR_INTERNAL;
    }
    if (st != SC_OK) {
        return st;
    }
    sc_nip59_tags_init(&tags, NULL, &in->o);
    memset(&ev, 0, sizeof ev);
    ev.kind = SC_NIP59_KIND_SEAL;
    ev.created_at = backdated(in->o.now, rnd->seal_backdate);
    ev.tags = tags.n != 0 ? tags.tags : NULL;
    ev.n_tags = tags.n;
    ev.content.ptr = y;
    ev.content.len = p->seal_payload;
    st = sc_event_sign_with_rand(in->ctx, &ev, in->author, rnd->seal_aux);
    if (st == SC_OK) {
        st = sc_event_to_json(x, p->seal_json, &n, &ev, SC_EVENT_JSON_OBJECT);
    }
    if (st == SC_OK && n != p->seal_json) {
        st = SC_ERR_INTERNAL; /* the plan and the writer disagree: cannot happen */
    }
    return st;
}

/* The gift wrap of the seal JSON in x, signed by `one`, written to out; y receives the wrap
 * content. */
static sc_status wrap(const wrap_in *in, const sc_nip59_plan *p, const sc_nip59_rand *rnd,
                      const sc_identity *one, char *x, char *y, char *out, size_t *out_len)
{
    unsigned flags = in->o.flags & SC_NIP44_EXTENDED;
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_nip59_tags tags;
    sc_event ev;
    size_t n = 0;
    sc_status st;

    st = sc_nip44_identity_key(in->ctx, ck, one, in->recipient);
    if (st == SC_OK) {
        st = sc_nip44_encrypt_with_rand(in->ctx, y, p->wrap_payload, &n, ck, rnd->wrap_nonce,
                                        (const uint8_t *)x, p->seal_json, flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    sc_mem_wipe(x, p->seal_json); /* the seal names the sender */
    if (st == SC_OK && n != p->wrap_payload) {
        st = SC_ERR_INTERNAL;
    }
    if (st != SC_OK) {
        return st;
    }
    sc_nip59_tags_init(&tags, in->recipient, &in->o);
    memset(&ev, 0, sizeof ev);
    ev.kind =
        (in->o.flags & SC_NIP59_EPHEMERAL) != 0 ? SC_NIP59_KIND_WRAP_EPHEMERAL : SC_NIP59_KIND_WRAP;
    ev.created_at = backdated(in->o.now, rnd->wrap_backdate);
    ev.tags = tags.tags;
    ev.n_tags = tags.n;
    ev.content.ptr = y;
    ev.content.len = p->wrap_payload;
    st = sc_event_sign_with_rand(in->ctx, &ev, one, rnd->wrap_aux);
    if (st == SC_OK) {
        st = sc_event_to_json(out, p->wrap_json, out_len, &ev, SC_EVENT_JSON_OBJECT);
    }
    if (st == SC_OK && *out_len != p->wrap_json) {
        sc_mem_wipe(out, *out_len); /* the plan and the writer disagree: cannot happen */
        st = SC_ERR_INTERNAL;
    }
    return st;
}

/* Seal, then wrap, with every buffer checked; `one` is the imported one-time key. */
static sc_status seal_and_wrap(const wrap_in *in, const sc_nip59_plan *p, const sc_nip59_rand *rnd,
                               const sc_identity *one, char *out, size_t *out_len, void *scratch)
{
    char *x = (char *)scratch, *y = x + p->seal_json;
    sc_status st;

    st = seal(in, p, rnd, x, y);
    if (st == SC_OK) {
        st = wrap(in, p, rnd, one, x, y, out, out_len);
    }
    sc_mem_wipe(scratch, p->scratch);
    if (st != SC_OK) {
        *out_len = 0; /* out is written by the last step only, and never when it fails */
    }
    return st;
}

sc_status sc_nip59_wrap_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                  void *scratch, size_t scratch_cap, const sc_event *rumor,
                                  const sc_identity *author,
                                  const uint8_t recipient[SC_PUBKEY_BYTES],
                                  const sc_nip59_opts *opts, const sc_nip59_rand *rnd)
{
    sc_identity one;
    sc_nip59_plan p;
    wrap_in in;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (rnd == NULL || rnd->seal_backdate > SC_NIP59_MAX_BACKDATE ||
        rnd->wrap_backdate > SC_NIP59_MAX_BACKDATE) {
        return SC_ERR_ARG;
    }
    st = check_inputs(&in, ctx, rumor, author, recipient, opts);
    if (st == SC_OK) {
        st = sc_nip59_plan_sizes(&p, rumor, &in.o, backdated(in.o.now, rnd->seal_backdate),
                                 backdated(in.o.now, rnd->wrap_backdate));
    }
    if (st == SC_OK) {
        st = check_buffers(&in, &p, out, out_cap, out_len, scratch, scratch_cap);
    }
    if (st != SC_OK) {
        return st;
    }
    st = sc_identity_import(ctx, &one, rnd->wrap_seckey);
    if (st == SC_OK) {
        st = seal_and_wrap(&in, &p, rnd, &one, out, out_len, scratch);
    }
    sc_identity_clear(&one);
    return st;
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

/* Draws every random input, in this order: the one-time key (redrawn while it is not a valid
 * secret key; imported into one), the seal and wrap nonces, the seal and wrap aux, the seal
 * and wrap backdates. */
static sc_status draw_rand(sc_ctx *ctx, sc_nip59_rand *r, sc_identity *one)
{
    sc_status st = SC_ERR_INVALID_KEY;
    int tries;

    /* a uniform 256-bit value is out of range with probability about 2^-128 per try */
    for (tries = 0; tries < 8 && st == SC_ERR_INVALID_KEY; tries++) {
        st = sc_crypto_rng_fill(ctx, r->wrap_seckey, sizeof r->wrap_seckey);
        if (st == SC_OK) {
            st = sc_identity_import(ctx, one, r->wrap_seckey);
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
    return st;
}

sc_status sc_nip59_wrap(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, void *scratch,
                        size_t scratch_cap, const sc_event *rumor, const sc_identity *author,
                        const uint8_t recipient[SC_PUBKEY_BYTES], const sc_nip59_opts *opts)
{
    sc_nip59_rand rnd;
    sc_nip59_plan bound, p;
    sc_identity one;
    wrap_in in;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    memset(&one, 0, sizeof one);
    memset(&rnd, 0, sizeof rnd);
    st = check_inputs(&in, ctx, rumor, author, recipient, opts);
    /* before the RNG runs: the sizes for any backdate (the timestamps are at most now) */
    if (st == SC_OK) {
        st = sc_nip59_plan_sizes(&bound, rumor, &in.o, in.o.now, in.o.now);
    }
    if (st == SC_OK) {
        st = check_buffers(&in, &bound, out, out_cap, out_len, scratch, scratch_cap);
    }
    if (st != SC_OK) {
        return st;
    }
    st = draw_rand(ctx, &rnd, &one);
    if (st == SC_OK) {
        st = sc_nip59_plan_sizes(&p, rumor, &in.o, backdated(in.o.now, rnd.seal_backdate),
                                 backdated(in.o.now, rnd.wrap_backdate));
    }
    if (st == SC_OK) {
        st = seal_and_wrap(&in, &p, &rnd, &one, out, out_len, scratch);
    }
    sc_mem_wipe(&rnd, sizeof rnd);
    sc_identity_clear(&one);
    return st;
}
