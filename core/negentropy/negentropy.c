/* NIP-77 Negentropy v1: setup, the first message, and one reconciliation round for either
 * role, over the caller's sorted records. Each round is a pure function of the records and
 * the message; the object remembers only the role. */
#include <softchat/mem.h>

#include <string.h>

#include "negentropy/negentropy_internal.h"
#include "util/range.h"

#define BUCKETS 16u
#define RANGE_MAX_BYTES 60u /* a bound (10 + 1 + 32), a mode, a fingerprint: <= 60 bytes */
#define FRAME_MARGIN 200u   /* the reference implementations' room kept below the limit */

static sc_neg_impl *impl_of(sc_negentropy *neg)
{
    sc_neg_impl *n = (sc_neg_impl *)(void *)neg;

    return (n != NULL && n->magic == SC_NEG_MAGIC) ? n : NULL;
}

static const sc_neg_impl *cimpl_of(const sc_negentropy *neg)
{
    const sc_neg_impl *n = (const sc_neg_impl *)(const void *)neg;

    return (n != NULL && n->magic == SC_NEG_MAGIC) ? n : NULL;
}

sc_status sc_negentropy_init(sc_negentropy *neg, const sc_negentropy_item *items, size_t n_items,
                             const sc_negentropy_opts *opts)
{
    sc_neg_impl *n;
    size_t i, limit = opts != NULL ? opts->frame_limit : 0;

    if (neg == NULL) {
        return SC_ERR_ARG;
    }
    memset(neg, 0, sizeof *neg);
    if (items == NULL && n_items > 0) {
        return SC_ERR_ARG;
    }
    if (limit != 0 && limit < SC_NEGENTROPY_FRAME_MIN) {
        return SC_ERR_FLAGS;
    }
    for (i = 0; i < n_items; i++) {
        if (items[i].timestamp == SC_NEG_INFINITY) {
            return SC_ERR_ARG;
        }
        if (i > 0 && (items[i - 1].timestamp > items[i].timestamp ||
                      (items[i - 1].timestamp == items[i].timestamp &&
                       memcmp(items[i - 1].id, items[i].id, SC_NEGENTROPY_ID_BYTES) >= 0))) {
            return SC_ERR_UNSORTED;
        }
    }
    n = (sc_neg_impl *)(void *)neg;
    n->items = items;
    n->n = n_items;
    n->frame_limit = limit;
    n->role = SC_NEG_ROLE_NONE;
    n->magic = SC_NEG_MAGIC;
    return SC_OK;
}

/* Writes the ranges covering items[lo..hi) up to `upper`: one id list under 32 records, else
 * 16 fingerprinted buckets separated by minimal bounds. */
static sc_status split_range(sc_ctx *ctx, const sc_neg_impl *n, sc_neg_out *o, size_t lo, size_t hi,
                             const sc_neg_bound *upper)
{
    size_t count = hi - lo, i;

    if (count < 2 * BUCKETS) {
        sc_neg_put_bound(o, upper);
        sc_neg_put_varint(o, SC_NEG_MODE_IDLIST);
        sc_neg_put_varint(o, count);
        for (i = lo; i < hi; i++) {
            sc_neg_put(o, n->items[i].id, SC_NEGENTROPY_ID_BYTES);
        }
        return SC_OK;
    } else {
        size_t per = count / BUCKETS, extra = count % BUCKETS, curr = lo;

        for (i = 0; i < BUCKETS; i++) {
            uint8_t fp[SC_NEGENTROPY_FINGERPRINT_BYTES];
            size_t size = per + (i < extra ? 1 : 0);
            sc_neg_bound next;
            sc_status st = sc_neg_fingerprint(ctx, fp, n->items, curr, curr + size);

            if (st != SC_OK) {
                return st;
            }
            curr += size;
            if (curr == hi) {
                next = *upper;
            } else {
                sc_neg_minimal_bound(&next, &n->items[curr - 1], &n->items[curr]);
            }
            sc_neg_put_bound(o, &next);
            sc_neg_put_varint(o, SC_NEG_MODE_FINGERPRINT);
            sc_neg_put(o, fp, sizeof fp);
        }
        return SC_OK;
    }
}

size_t sc_negentropy_initiate_max(const sc_negentropy *neg)
{
    const sc_neg_impl *n = cimpl_of(neg);

    if (n == NULL) {
        return 0;
    }
    if (n->n < 2 * BUCKETS) {
        return 1 + 3 + 1 + SC_NEGENTROPY_ID_BYTES * n->n; /* infinity bound, mode, count */
    }
    return 1 + BUCKETS * RANGE_MAX_BYTES;
}

sc_status sc_negentropy_initiate(sc_ctx *ctx, sc_negentropy *neg, uint8_t *out, size_t out_cap,
                                 size_t *out_len)
{
    sc_neg_impl *n;
    sc_neg_out o;
    sc_neg_bound inf;
    uint8_t version = SC_NEGENTROPY_VERSION;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (ctx == NULL || neg == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    n = impl_of(neg);
    if (n == NULL || n->role != SC_NEG_ROLE_NONE) {
        return SC_ERR_STATE;
    }
    memset(&o, 0, sizeof o);
    o.out = out;
    o.cap = out_cap;
    memset(&inf, 0, sizeof inf);
    inf.ts = SC_NEG_INFINITY;
    sc_neg_put(&o, &version, 1);
    st = split_range(ctx, n, &o, 0, n->n, &inf);
    if (st == SC_OK && o.over) {
        st = SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st != SC_OK) {
        size_t need = o.len; /* counted past the capacity too: the exact size */

        sc_neg_truncate(&o, 0, 0);
        *out_len = st == SC_ERR_BUFFER_TOO_SMALL ? need : 0;
        return st;
    }
    n->role = SC_NEG_ROLE_INITIATOR;
    *out_len = o.len;
    return SC_OK;
}

size_t sc_negentropy_reconcile_max(const sc_negentropy *neg, size_t msg_len)
{
    const sc_neg_impl *n = cimpl_of(neg);
    size_t ranges, b;

    if (n == NULL) {
        return 0;
    }
    if (n->frame_limit != 0) {
        return n->frame_limit;
    }
    /* every range of the message takes at least 3 bytes; per range at most a skip, 16
     * fingerprints or an id-list header; every record's id at most once; the final
     * remainder fingerprint */
    ranges = msg_len / 3 + 1;
    b = sc_size_mul(ranges, RANGE_MAX_BYTES + BUCKETS * RANGE_MAX_BYTES);
    b = sc_size_add(b, sc_size_mul(n->n, SC_NEGENTROPY_ID_BYTES));
    b = sc_size_add(b, 1 + RANGE_MAX_BYTES);
    return sc_size_public(b);
}

size_t sc_negentropy_have_max(const sc_negentropy *neg)
{
    const sc_neg_impl *n = cimpl_of(neg);

    return n == NULL ? 0 : n->n;
}

size_t sc_negentropy_need_max(size_t msg_len)
{
    return msg_len / SC_NEGENTROPY_ID_BYTES;
}

/* The state of one round. */
typedef struct round {
    sc_ctx *ctx;
    const sc_neg_impl *n;
    int initiator;
    sc_neg_out o;
    sc_neg_in in;
    size_t *have;
    size_t n_have;
    uint8_t (*need)[SC_NEGENTROPY_ID_BYTES];
    size_t n_need;
    sc_neg_bound prev; /* the bound that ended the previous range of the message */
    size_t prev_index; /* our first record at or above it */
    size_t emitted;    /* where the last range written to the reply ends in our records */
    int skip;          /* ranges that needed nothing since: a Skip is owed before the next
                          range written */
} round;

/* One range of the message: our records [lo, hi) below its bound, and where the reply stood
 * before it was answered. */
typedef struct range {
    sc_neg_bound bound;
    size_t lo, hi;
    size_t mark;
    uint64_t mark_ts;
    int cut;  /* an id list cut at the frame limit: the reply ends with this range */
    int keep; /* when the reply ends with this range, what it wrote stays */
} range;

static int frame_exceeded(const round *r, size_t len)
{
    return r->n->frame_limit != 0 && len > r->n->frame_limit - FRAME_MARGIN;
}

/* Initiator: the records of [lo, hi) against the peer's ids (count of them at the cursor):
 * both lists sorted by id in the output arrays (their working memory), then merged in
 * place: ours only -> have, theirs only -> need (duplicates of the peer's once). */
static void compare_ids(round *r, size_t lo, size_t hi, size_t count)
{
    /* have is NULL for an initiator without records, need for a message too short to hold
     * an id (capacity 0, as the header allows): no offset is applied to a NULL pointer */
    size_t *ours = r->have != NULL ? r->have + r->n_have : NULL;
    uint8_t(*theirs)[SC_NEGENTROPY_ID_BYTES] = r->need != NULL ? r->need + r->n_need : NULL;
    const sc_negentropy_item *items = r->n->items;
    size_t n_ours = hi - lo, n_theirs = count, i, j, wh = 0, wn = 0;

    for (i = 0; i < n_ours; i++) {
        ours[i] = lo + i;
    }
    if (count != 0) {
        memcpy(theirs, r->in.p + r->in.pos, count * SC_NEGENTROPY_ID_BYTES);
    }
    sc_neg_sort_indices(ours, n_ours, items);
    sc_neg_sort_ids(theirs, n_theirs);
    i = 0;
    j = 0;
    while (i < n_ours || j < n_theirs) {
        int c;

        if (j > 0 && j < n_theirs &&
            memcmp(theirs[j], theirs[j - 1], SC_NEGENTROPY_ID_BYTES) == 0) {
            j++; /* a repeated id of the peer */
            continue;
        }
        if (i == n_ours) {
            c = 1;
        } else if (j == n_theirs) {
            c = -1;
        } else {
            c = memcmp(items[ours[i]].id, theirs[j], SC_NEGENTROPY_ID_BYTES);
        }
        if (c < 0) {
            ours[wh++] = ours[i++];
        } else if (c > 0) {
            if (wn != j) {
                memcpy(theirs[wn], theirs[j], SC_NEGENTROPY_ID_BYTES);
            }
            wn++;
            j++;
        } else {
            i++;
            j++;
        }
    }
    for (i = wh; i < n_ours; i++) {
        ours[i] = 0;
    }
    if (wn < n_theirs) {
        memset(theirs[wn], 0, (n_theirs - wn) * SC_NEGENTROPY_ID_BYTES);
    }
    r->n_have += wh;
    r->n_need += wn;
}

/* Responder: our ids of [lo, *hi) as one id list, cut where the frame would overflow (the
 * list then ends at the first record left out, *hi moves there, and it returns 1: the rest
 * of the message must then be one remainder fingerprint). */
static int respond_ids(round *r, size_t lo, size_t *hi, const sc_neg_bound *upper)
{
    const sc_negentropy_item *items = r->n->items;
    size_t i, end = *hi;
    sc_neg_bound b = *upper;

    for (i = lo; i < *hi; i++) {
        if (frame_exceeded(r, r->o.len + (i - lo) * SC_NEGENTROPY_ID_BYTES + RANGE_MAX_BYTES)) {
            sc_neg_item_bound(&b, &items[i]);
            end = i;
            break;
        }
    }
    sc_neg_put_bound(&r->o, &b);
    sc_neg_put_varint(&r->o, SC_NEG_MODE_IDLIST);
    sc_neg_put_varint(&r->o, end - lo);
    for (i = lo; i < end; i++) {
        sc_neg_put(&r->o, items[i].id, SC_NEGENTROPY_ID_BYTES);
    }
    i = end != *hi;
    *hi = end;
    return (int)i;
}

/* The Skip owed, written before a range (see round.skip). */
static void put_skip(round *r)
{
    if (r->skip) {
        r->skip = 0;
        sc_neg_put_bound(&r->o, &r->prev);
        sc_neg_put_varint(&r->o, SC_NEG_MODE_SKIP);
    }
}

/* A fingerprint range: equal to ours, it needs nothing; else it is split into smaller ones. */
static sc_status answer_fingerprint(round *r, const range *g)
{
    uint8_t ours[SC_NEGENTROPY_FINGERPRINT_BYTES];
    const uint8_t *theirs = r->in.p + r->in.pos;
    sc_status st;

    if (r->in.len - r->in.pos < SC_NEGENTROPY_FINGERPRINT_BYTES) {
        return SC_ERR_NEGENTROPY;
    }
    r->in.pos += SC_NEGENTROPY_FINGERPRINT_BYTES;
    st = sc_neg_fingerprint(r->ctx, ours, r->n->items, g->lo, g->hi);
    if (st != SC_OK) {
        return st;
    }
    if (memcmp(ours, theirs, sizeof ours) == 0) {
        r->skip = 1;
        return SC_OK;
    }
    put_skip(r);
    return split_range(r->ctx, r->n, &r->o, g->lo, g->hi, &g->bound);
}

/* An id list: the initiator compares it with ours (the reply needs nothing), the responder
 * answers with our ids of the range, cut where the frame fills. */
static sc_status answer_ids(round *r, range *g)
{
    uint64_t count;
    sc_status st = sc_neg_get_varint(&r->in, &count);

    if (st != SC_OK) {
        return st;
    }
    if (count > (r->in.len - r->in.pos) / SC_NEGENTROPY_ID_BYTES) {
        return SC_ERR_NEGENTROPY;
    }
    if (r->initiator) {
        compare_ids(r, g->lo, g->hi, (size_t)count);
        r->skip = 1;
    } else {
        put_skip(r);
        g->cut = respond_ids(r, g->lo, &g->hi, &g->bound);
        /* kept even when the frame is full; but a list cut before its first id resolves
         * nothing, and its bound (that id's) could equal the Skip's: both are dropped and
         * the remainder starts where the last range written ended */
        g->keep = g->hi > g->lo || !g->cut;
    }
    r->in.pos += (size_t)count * SC_NEGENTROPY_ID_BYTES;
    return SC_OK;
}

/* Reads the next range's bound and mode and answers it. */
static sc_status answer_range(round *r, range *g)
{
    uint64_t mode;
    sc_status st;

    memset(g, 0, sizeof *g);
    g->mark = r->o.len;
    g->mark_ts = r->o.last_ts;
    st = sc_neg_get_bound(&r->in, &g->bound);
    if (st == SC_OK) {
        st = sc_neg_get_varint(&r->in, &mode);
    }
    if (st != SC_OK) {
        return st;
    }
    if (sc_neg_bound_cmp(&g->bound, &r->prev) <= 0) {
        return SC_ERR_NEGENTROPY; /* bounds must increase */
    }
    g->lo = r->prev_index;
    g->hi = sc_neg_lower_bound(r->n->items, r->prev_index, r->n->n, &g->bound);
    switch (mode) {
    case SC_NEG_MODE_SKIP:
        r->skip = 1;
        return SC_OK;
    case SC_NEG_MODE_FINGERPRINT:
        return answer_fingerprint(r, g);
    case SC_NEG_MODE_IDLIST:
        return answer_ids(r, g);
    default:
        return SC_ERR_NEGENTROPY;
    }
}

/* The frame is full (or an id list was cut) after range g: g's output stays when it resolved
 * something, else it goes, and one fingerprint of every record above the last range written
 * ends the reply (the peer reads it as starting at that range's bound). */
static sc_status end_reply(round *r, const range *g)
{
    uint8_t fp[SC_NEGENTROPY_FINGERPRINT_BYTES];
    sc_neg_bound inf;
    sc_status st;

    if (g->keep) {
        r->emitted = g->hi;
        if (!g->cut && g->bound.ts == SC_NEG_INFINITY) {
            return SC_OK; /* nothing is left for a remainder (a second infinity) */
        }
    } else {
        sc_neg_truncate(&r->o, g->mark, g->mark_ts);
    }
    st = sc_neg_fingerprint(r->ctx, fp, r->n->items, r->emitted, r->n->n);
    if (st != SC_OK) {
        return st;
    }
    memset(&inf, 0, sizeof inf);
    inf.ts = SC_NEG_INFINITY;
    sc_neg_put_bound(&r->o, &inf);
    sc_neg_put_varint(&r->o, SC_NEG_MODE_FINGERPRINT);
    sc_neg_put(&r->o, fp, sizeof fp);
    return SC_OK;
}

/* The ranges of the message, after its version byte. */
static sc_status run_ranges(round *r)
{
    range g;
    sc_status st;

    while (r->in.pos < r->in.len) {
        st = answer_range(r, &g);
        if (st != SC_OK) {
            return st;
        }
        if (g.cut || frame_exceeded(r, r->o.len)) {
            return end_reply(r, &g);
        }
        if (r->o.len != g.mark) {
            r->emitted = g.hi; /* the range wrote to the reply */
        }
        r->prev_index = g.hi;
        r->prev = g.bound;
    }
    return SC_OK;
}

/* The reply to the message: our version byte, then the answers to its ranges. A responder
 * answers a version it does not speak with that byte alone; an initiator gives up. */
static sc_status run_round(round *r)
{
    uint8_t version = SC_NEGENTROPY_VERSION;
    sc_status st = SC_OK;

    sc_neg_put(&r->o, &version, 1);
    if (r->in.p[0] == SC_NEGENTROPY_VERSION) {
        st = run_ranges(r);
    } else if (r->initiator) {
        return SC_ERR_NEG_VERSION;
    }
    return st == SC_OK && r->o.over ? SC_ERR_BUFFER_TOO_SMALL : st;
}

/* A failed round leaves nothing: the reply and the ids it found are wiped. */
static void wipe_round(round *r)
{
    sc_neg_truncate(&r->o, 0, 0);
    if (r->n_have > 0) {
        sc_mem_wipe(r->have, r->n_have * sizeof *r->have);
    }
    if (r->n_need > 0) {
        sc_mem_wipe(r->need, r->n_need * sizeof *r->need);
    }
}

sc_status sc_negentropy_reconcile(sc_ctx *ctx, sc_negentropy *neg, uint8_t *out, size_t out_cap,
                                  size_t *out_len, size_t *have, size_t have_cap, size_t *have_len,
                                  uint8_t (*need)[SC_NEGENTROPY_ID_BYTES], size_t need_cap,
                                  size_t *need_len, const uint8_t *msg, size_t msg_len)
{
    sc_neg_impl *n;
    round r;
    int initiator;
    sc_status st;

    if (out_len == NULL || have_len == NULL || need_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = *have_len = *need_len = 0;
    if (ctx == NULL || neg == NULL || (out == NULL && out_cap > 0) ||
        (msg == NULL && msg_len > 0) || (have == NULL && have_cap > 0) ||
        (need == NULL && need_cap > 0)) {
        return SC_ERR_ARG;
    }
    n = impl_of(neg);
    if (n == NULL) {
        return SC_ERR_STATE;
    }
    if (msg_len == 0) {
        return SC_ERR_EMPTY;
    }
    initiator = n->role == SC_NEG_ROLE_INITIATOR;
    if (sc_range_overlap(msg, msg_len, out, out_cap) ||
        (initiator &&
         (sc_range_overlap(msg, msg_len, have, sc_size_mul(have_cap, sizeof *have)) ||
          sc_range_overlap(msg, msg_len, need, sc_size_mul(need_cap, sizeof *need))))) {
        return SC_ERR_OVERLAP;
    }
    if (initiator && (have_cap < n->n || need_cap < sc_negentropy_need_max(msg_len))) {
        *have_len = n->n;
        *need_len = sc_negentropy_need_max(msg_len);
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (msg[0] < 0x60 || msg[0] > 0x6f) {
        return SC_ERR_NEGENTROPY;
    }
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.n = n;
    r.initiator = initiator;
    r.o.out = out;
    r.o.cap = out_cap;
    r.in.p = msg;
    r.in.len = msg_len;
    r.in.pos = 1;
    r.have = have;
    r.need = need;
    st = run_round(&r);
    if (st != SC_OK) {
        *out_len = st == SC_ERR_BUFFER_TOO_SMALL ? r.o.len : 0;
        wipe_round(&r);
        return st;
    }
    if (n->role == SC_NEG_ROLE_NONE) {
        n->role = SC_NEG_ROLE_RESPONDER;
    }
    *out_len = (initiator && r.o.len == 1) ? 0 : r.o.len;
    if (*out_len == 0) {
        sc_neg_truncate(&r.o, 0, 0);
    }
    *have_len = r.n_have;
    *need_len = r.n_need;
    return SC_OK;
}
