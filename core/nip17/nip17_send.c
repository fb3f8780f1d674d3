/* NIP-17 sending: one gift wrap per distinct receiver of a kind 14 or 15 rumor (its p tags,
 * in order of first appearance) and one for the sender's own copy unless the sender is among
 * them, all written into one caller buffer. The rule lives here once, for the CLI, the
 * bindings and every app. */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip17.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "nip17/nip17_internal.h"
#include "nip59/nip59_internal.h"

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

/* The wraps of rumor in order, one call of `each` per wrap with its recipient and options
 * (opts with the receiver's relay hint, or opts as given for the sender's copy). */
typedef sc_status (*wrap_fn)(void *user, const uint8_t to[SC_PUBKEY_BYTES], const sc_nip59_opts *o);

static sc_status for_each_wrap(const sc_event *rumor, const uint8_t sender[SC_PUBKEY_BYTES],
                               const sc_nip59_opts *opts, wrap_fn each, void *user)
{
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_nip59_opts o;
    int self = 0, any = 0;
    sc_status st;
    size_t k;

    if (rumor->kind != SC_NIP17_KIND_CHAT && rumor->kind != SC_NIP17_KIND_FILE) {
        return SC_ERR_MESSAGE;
    }
    if (opts != NULL) {
        o = *opts;
    } else {
        memset(&o, 0, sizeof o);
    }
    for (k = 0; k < rumor->n_tags; k++) {
        sc_nip59_opts per = o;

        if (!p_tag(&rumor->tags[k], pub, &per.relay, &st)) {
            if (st != SC_OK) {
                return st;
            }
            continue;
        }
        any = 1;
        if (seen_before(rumor, k, pub)) {
            continue;
        }
        self |= memcmp(pub, sender, SC_PUBKEY_BYTES) == 0;
        st = each(user, pub, &per);
        if (st != SC_OK) {
            return st;
        }
    }
    if (!any) {
        return SC_ERR_MESSAGE; /* a message with no receiver */
    }
    return self ? SC_OK : each(user, sender, &o);
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

typedef struct sender_run {
    sc_ctx *ctx;
    const sc_event *rumor;
    const sc_identity *author;
    char *out;
    size_t out_cap, used;
    void *scratch;
    size_t scratch_cap;
    sc_nip17_wrap *wraps;
    size_t n;
} sender_run;

static sc_status wrap_one(void *user, const uint8_t to[SC_PUBKEY_BYTES], const sc_nip59_opts *o)
{
    sender_run *r = (sender_run *)user;
    size_t len = 0;
    sc_status st;

    st = sc_nip59_wrap(r->ctx, r->out + r->used, r->out_cap - r->used, &len, r->scratch,
                       r->scratch_cap, r->rumor, r->author, to, o);
    if (st != SC_OK) {
        return st;
    }
    memcpy(r->wraps[r->n].recipient, to, SC_PUBKEY_BYTES);
    r->wraps[r->n].offset = r->used;
    r->wraps[r->n].len = len;
    r->used += len;
    r->n++;
    return SC_OK;
}

sc_status sc_nip17_send(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                        sc_nip17_wrap *wraps, size_t wraps_cap, size_t *wraps_len, void *scratch,
                        size_t scratch_cap, const sc_event *rumor, const sc_identity *sender,
                        const sc_nip59_opts *opts)
{
    uint8_t pub[SC_PUBKEY_BYTES];
    sender_run r;
    sizes z;
    sc_status st;

    if (out_len == NULL || wraps_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    *wraps_len = 0;
    if (ctx == NULL || rumor == NULL || sender == NULL || (wraps == NULL && wraps_cap != 0)) {
        return SC_ERR_ARG;
    }
    st = sc_nip59_check_opts(opts);
    if (st != SC_OK) {
        return st;
    }
    if (sc_identity_pubkey(pub, sender) != SC_OK) {
        return SC_ERR_STATE; /* erased or never imported (sender is not NULL) */
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    /* every check of the wraps runs before any wrap is made: the receivers, then one dry run
     * of sc_nip59_wrap (the rumor, its author, the options) */
    st = measure_into(&z, rumor, pub, opts);
    if (st == SC_ERR_MESSAGE || st == SC_ERR_TOO_LARGE) {
        return st;
    }
    {
        size_t len = 0;
        sc_status dry =
            sc_nip59_wrap(ctx, NULL, 0, &len, NULL, 0, rumor, sender, z.first_to, &z.first_opts);

        if (dry != SC_ERR_BUFFER_TOO_SMALL) {
            return dry;
        }
        if (st != SC_OK) {
            return SC_ERR_TOO_LARGE; /* a wrap passes its checks but has no size */
        }
    }
    if (out_cap < z.out || wraps_cap < z.n || scratch_cap < z.scratch) {
        *out_len = z.out;
        *wraps_len = z.n;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL || scratch == NULL) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, z.out, scratch, z.scratch) ||
        sc_range_overlap(wraps, z.n * sizeof *wraps, out, z.out) ||
        sc_range_overlap(wraps, z.n * sizeof *wraps, scratch, z.scratch)) {
        return SC_ERR_OVERLAP;
    }
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.rumor = rumor;
    r.author = sender;
    r.out = out;
    r.out_cap = out_cap;
    r.scratch = scratch;
    r.scratch_cap = scratch_cap;
    r.wraps = wraps;
    st = for_each_wrap(rumor, pub, opts, wrap_one, &r);
    if (st != SC_OK) {
        sc_mem_wipe(out, r.used);
        memset(wraps, 0, r.n * sizeof *wraps);
        *wraps_len = r.n; /* the index of the wrap that failed */
        return st;
    }
    *out_len = r.used;
    *wraps_len = r.n;
    return SC_OK;
}
