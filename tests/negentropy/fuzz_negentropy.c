/* NIP-77 Negentropy, driven by a peer that may say anything. Input: a mode byte (data[0] % 3),
 * a set description (see make_universe), then the mode's bytes.
 *   0 responder: the rest is a message from an initiator, answered by sc_negentropy_reconcile.
 *   1 initiator: after sc_negentropy_initiate, the rest is the responder's reply.
 *   2 round:     two sets drawn from one universe (each record in the first, the second or
 *                both), reconciled to the end, each side with or without a frame limit.
 * Checks: only the documented statuses (a first byte outside 0x60..0x6f is no version byte:
 * SC_ERR_NEGENTROPY); sc_negentropy_reconcile_max and initiate_max bound what is written (a
 * first try in at most 64 KiB that is short gets SC_ERR_BUFFER_TOO_SMALL with the exact size,
 * within the bound, nothing left written and the reconciliation unchanged), and the frame limit
 * holds; a failure
 * leaves out, have and need holding only zeroed or untouched bytes, every length 0; a
 * responder always answers (a message of another version with the single version byte) and
 * gives the same answer twice (a round is a pure function of the set and the message), an
 * answer an initiator takes (bounds that increase, nothing after infinity, within the frame),
 * and once it has answered it cannot initiate; an initiator's have indices lie in its set and
 * every count stays within its capacity (a hostile peer chooses the ranges, so which ids come
 * back is not checked there); a complete reconciliation between two honest sides reports
 * exactly the ids only the initiator has as have, and exactly those only the responder has as
 * need, in a bounded number of rounds. */
#include "fuzz_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 600
#define MAX_ROUNDS 200

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* The universe of records: count (small, or up to MAX_ITEMS), how many share a timestamp,
 * and how many leading id bytes they share (long common prefixes make long bounds), from 3
 * or 4 bytes of the input. Every id is distinct (its last 4 bytes are its index). Sorted.
 * Returns the count. */
static size_t make_universe(fz_in *in, sc_negentropy_item *u)
{
    uint8_t shape = fz_u8(in), seed = fz_u8(in);
    size_t n = (shape & 0x80) ? (size_t)fz_u16(in) % (MAX_ITEMS + 1) : fz_u8(in) % 100u;
    unsigned per_ts = 1u + (shape & 7u) * 3u, shared = (shape >> 3) & 0x0fu, k, i;
    size_t j;

    for (j = 0; j < n; j++) {
        u[j].timestamp = 1700000000u + (uint64_t)(j / per_ts) * (1u + (seed & 3u));
        for (k = 0; k < 32; k += 8) {
            uint64_t w = mix(((uint64_t)seed << 32) ^ (j * 4 + k / 8));

            for (i = 0; i < 8; i++) {
                u[j].id[k + i] = (uint8_t)(w >> (8 * i));
            }
        }
        memset(u[j].id, 0x42, (shared > 12 ? 12 : shared) * 2u); /* up to 24 shared bytes */
        for (i = 0; i < 4; i++) {
            u[j].id[28 + i] = (uint8_t)(j >> (24 - 8 * i));
        }
    }
    FZ_REQUIRE(sc_negentropy_sort(u, n) == SC_OK);
    return n;
}

/* The frame limit of selector 0 (none), 1 (the smallest) or 2 (1 KiB more). */
static size_t limit_of(unsigned limited)
{
    return limited ? SC_NEGENTROPY_FRAME_MIN + (limited - 1) * 1024u : 0;
}

static void init_neg(sc_negentropy *neg, const sc_negentropy_item *items, size_t n,
                     unsigned limited)
{
    sc_negentropy_opts o;

    memset(&o, 0, sizeof o);
    o.frame_limit = limit_of(limited);
    FZ_REQUIRE(sc_negentropy_init(neg, n != 0 ? items : NULL, n, &o) == SC_OK);
}

/* One reconcile call with buffers of exactly the documented capacities, checked. */
typedef struct call {
    uint8_t *out;
    size_t out_len, have_len, need_len;
    size_t *have;
    uint8_t (*need)[32];
} call;

/* The output capacity tried first: the documented bound is loose (every range of the message
 * could become 16), and filling megabytes with the canary would be most of the time spent. */
#define FIRST_CAP ((size_t)64 * 1024)

static sc_status reconcile(sc_ctx *ctx, sc_negentropy *neg, int initiator, size_t limit,
                           size_t n_items, const uint8_t *msg, size_t msg_len, call *c)
{
    size_t max = sc_negentropy_reconcile_max(neg, msg_len);
    size_t cap = max < FIRST_CAP ? max : FIRST_CAP;
    size_t have_cap = initiator ? sc_negentropy_have_max(neg) : 0;
    size_t need_cap = initiator ? sc_negentropy_need_max(msg_len) : 0;
    sc_negentropy before = *neg;
    sc_status st;

    FZ_REQUIRE(max != 0);
    FZ_REQUIRE(limit == 0 || max == limit);
    FZ_REQUIRE(have_cap == (initiator ? n_items : 0) && need_cap == (initiator ? msg_len / 32 : 0));
    c->have = (size_t *)(void *)fz_alloc(have_cap * sizeof *c->have);
    c->need = (uint8_t(*)[32])(void *)fz_alloc(need_cap * 32);
    for (;;) {
        c->out = fz_alloc(cap);
        c->out_len = c->have_len = c->need_len = 7;
        st = sc_negentropy_reconcile(
            ctx, neg, c->out, cap, &c->out_len, have_cap != 0 ? c->have : NULL, have_cap,
            &c->have_len, need_cap != 0 ? c->need : NULL, need_cap, &c->need_len, msg, msg_len);
        if (st != SC_ERR_BUFFER_TOO_SMALL) {
            break;
        }
        /* short of the bound: the exact size asked for (the retry in it must succeed),
         * nothing left written, neg unchanged */
        FZ_REQUIRE(cap < max && c->out_len > cap && c->out_len <= max);
        FZ_REQUIRE(fz_all_zero_or(c->out, cap, FZ_CANARY));
        FZ_REQUIRE(memcmp(&before, neg, sizeof before) == 0);
        free(c->out);
        cap = c->out_len;
    }
    if (st != SC_OK) {
        FZ_REQUIRE(c->out_len == 0 && c->have_len == 0 && c->need_len == 0);
        FZ_REQUIRE(fz_all_zero_or(c->out, cap, FZ_CANARY));
        FZ_REQUIRE(fz_all_zero_or(c->have, have_cap * sizeof *c->have, FZ_CANARY));
        FZ_REQUIRE(fz_all_zero_or(c->need, need_cap * 32, FZ_CANARY));
        return st;
    }
    FZ_REQUIRE(c->out_len <= cap && c->have_len <= have_cap && c->need_len <= need_cap);
    FZ_REQUIRE(c->out_len == 0 || c->out[0] == SC_NEGENTROPY_VERSION);
    if (!initiator) {
        FZ_REQUIRE(c->out_len >= 1 && c->have_len == 0 && c->need_len == 0);
    }
    return st;
}

static void initiate(sc_ctx *ctx, sc_negentropy *neg, size_t limit, uint8_t **out, size_t *len);

static void call_free(call *c)
{
    free(c->out);
    free(c->have);
    free(c->need);
}

static void mode_responder(sc_ctx *ctx, fz_in *in, const sc_negentropy_item *items, size_t n,
                           unsigned limited)
{
    sc_negentropy neg, fresh;
    size_t msg_len;
    const uint8_t *p = fz_take(in, in->n, &msg_len);
    uint8_t *msg = fz_dup(p, msg_len);
    call a, b;
    sc_status st, st2;

    init_neg(&neg, items, n, limited);
    fresh = neg;
    st = reconcile(ctx, &neg, 0, limit_of(limited), n, msg_len != 0 ? msg : NULL, msg_len, &a);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_NEGENTROPY, SC_ERR_EMPTY);
    FZ_REQUIRE((st == SC_ERR_EMPTY) == (msg_len == 0));
    if (msg_len != 0 && msg[0] != SC_NEGENTROPY_VERSION) {
        /* another version: the one it speaks, nothing else; not a version byte: malformed */
        FZ_REQUIRE(msg[0] >= 0x60 && msg[0] <= 0x6f ? st == SC_OK && a.out_len == 1
                                                    : st == SC_ERR_NEGENTROPY);
    }
    /* the same message to a new responder over the same set: the same answer */
    st2 = reconcile(ctx, &fresh, 0, limit_of(limited), n, msg_len != 0 ? msg : NULL, msg_len, &b);
    FZ_REQUIRE(st2 == st && b.out_len == a.out_len && memcmp(a.out, b.out, a.out_len) == 0);
    /* whatever it was asked, the answer is a well-formed message: an initiator takes it */
    if (st == SC_OK) {
        sc_negentropy ini;
        uint8_t *first = NULL;
        size_t first_len = 0;
        call c;

        init_neg(&ini, items, n, 0);
        initiate(ctx, &ini, 0, &first, &first_len);
        FZ_REQUIRE(reconcile(ctx, &ini, 1, 0, n, a.out, a.out_len, &c) == SC_OK);
        call_free(&c);
        free(first);
    }
    /* a responder that has answered stays one: it cannot initiate */
    if (st == SC_OK) {
        uint8_t tmp[8];
        size_t len = 7;

        FZ_REQUIRE(sc_negentropy_initiate(ctx, &neg, tmp, sizeof tmp, &len) == SC_ERR_STATE);
    }
    call_free(&a);
    call_free(&b);
    free(msg);
}

static void initiate(sc_ctx *ctx, sc_negentropy *neg, size_t limit, uint8_t **out, size_t *len)
{
    size_t cap = sc_negentropy_initiate_max(neg), need = 0;

    FZ_REQUIRE(cap != 0);
    FZ_REQUIRE(sc_negentropy_initiate(ctx, neg, NULL, 0, &need) == SC_ERR_BUFFER_TOO_SMALL);
    FZ_REQUIRE(need != 0 && need <= cap && (limit == 0 || need <= limit));
    *out = fz_alloc(cap);
    FZ_REQUIRE(sc_negentropy_initiate(ctx, neg, *out, cap, len) == SC_OK);
    FZ_REQUIRE(*len == need && (*out)[0] == SC_NEGENTROPY_VERSION);
}

static void mode_initiator(sc_ctx *ctx, fz_in *in, const sc_negentropy_item *items, size_t n,
                           unsigned limited)
{
    sc_negentropy neg;
    uint8_t *first = NULL, *msg;
    size_t first_len = 0, msg_len, i;
    const uint8_t *p;
    call c;
    sc_status st;

    init_neg(&neg, items, n, limited);
    initiate(ctx, &neg, limit_of(limited), &first, &first_len);
    p = fz_take(in, in->n, &msg_len);
    msg = fz_dup(p, msg_len);
    st = reconcile(ctx, &neg, 1, limit_of(limited), n, msg_len != 0 ? msg : NULL, msg_len, &c);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_NEGENTROPY, SC_ERR_NEG_VERSION, SC_ERR_EMPTY);
    FZ_REQUIRE((st == SC_ERR_EMPTY) == (msg_len == 0));
    FZ_REQUIRE((st == SC_ERR_NEG_VERSION) == (msg_len != 0 && msg[0] != SC_NEGENTROPY_VERSION &&
                                              msg[0] >= 0x60 && msg[0] <= 0x6f));
    for (i = 0; st == SC_OK && i < c.have_len; i++) {
        FZ_REQUIRE(c.have[i] < n);
    }
    call_free(&c);
    free(msg);
    free(first);
}

/* The universe index an id carries in its last 4 bytes (see make_universe). */
static size_t index_bytes(const uint8_t *id)
{
    return (size_t)id[28] << 24 | (size_t)id[29] << 16 | (size_t)id[30] << 8 | id[31];
}

/* That index, or SIZE_MAX when the id is no record of the universe. */
static size_t index_of(const sc_negentropy_item *u, size_t n_u, const uint8_t *id)
{
    size_t j = index_bytes(id);

    return j < n_u && memcmp(u[j].id, id, 32) == 0 ? j : SIZE_MAX;
}

static void mode_round(sc_ctx *ctx, fz_in *in, const sc_negentropy_item *u, size_t n_u,
                       unsigned limited)
{
    static sc_negentropy_item a[MAX_ITEMS], b[MAX_ITEMS];
    static uint8_t where[MAX_ITEMS], have_seen[MAX_ITEMS], need_seen[MAX_ITEMS];
    static sc_negentropy_item by_index[MAX_ITEMS];
    unsigned b_limited = fz_u8(in) % 3;
    size_t n_a = 0, n_b = 0, j, k, rounds = 0, msg_len = 0;
    sc_negentropy na, nb;
    uint8_t *msg = NULL;

    /* u is sorted by timestamp; by_index is it in the order of the ids' index bytes */
    for (j = 0; j < n_u; j++) {
        size_t i = index_bytes(u[j].id);

        FZ_REQUIRE(i < n_u);
        by_index[i] = u[j];
    }
    /* each record: 2 bits of the input (0 both, 1 a only, 2 b only, 3 both) */
    for (j = 0; j < n_u; j++) {
        unsigned w = (fz_u8(in) >> (2 * (j % 4))) & 3u;
        size_t i = index_of(by_index, n_u, u[j].id);

        if (in->n == 0) {
            w = (unsigned)(mix(j) & 3u);
        }
        w = w == 3 ? 0 : w;
        if (w != 2) {
            a[n_a++] = u[j];
        }
        if (w != 1) {
            b[n_b++] = u[j];
        }
        where[i] = (uint8_t)w;
        have_seen[i] = need_seen[i] = 0;
    }
    init_neg(&na, a, n_a, limited);
    init_neg(&nb, b, n_b, b_limited);
    initiate(ctx, &na, limit_of(limited), &msg, &msg_len);
    for (;;) {
        call rb, ra;

        FZ_REQUIRE(++rounds <= MAX_ROUNDS);
        FZ_REQUIRE(reconcile(ctx, &nb, 0, limit_of(b_limited), n_b, msg, msg_len, &rb) == SC_OK);
        free(msg);
        FZ_REQUIRE(reconcile(ctx, &na, 1, limit_of(limited), n_a, rb.out, rb.out_len, &ra) ==
                   SC_OK);
        for (k = 0; k < ra.have_len; k++) {
            size_t i;

            FZ_REQUIRE(ra.have[k] < n_a);
            i = index_of(by_index, n_u, a[ra.have[k]].id);
            FZ_REQUIRE(i != SIZE_MAX && where[i] == 1); /* only a has it */
            have_seen[i] = 1;
        }
        for (k = 0; k < ra.need_len; k++) {
            size_t i = index_of(by_index, n_u, ra.need[k]);

            FZ_REQUIRE(i != SIZE_MAX && where[i] == 2); /* only b has it */
            need_seen[i] = 1;
        }
        call_free(&rb);
        msg = ra.out;
        msg_len = ra.out_len;
        free(ra.have);
        free(ra.need);
        if (msg_len == 0) {
            break;
        }
    }
    free(msg);
    /* every record only one side holds was reported, on the right side */
    for (j = 0; j < n_u; j++) {
        FZ_REQUIRE(have_seen[j] == (where[j] == 1) && need_seen[j] == (where[j] == 2));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sc_negentropy_item u[MAX_ITEMS];
    fz_in in = {data, size};
    unsigned mode, limited;
    size_t n;
    sc_ctx *ctx;

    if (size == 0) {
        return 0;
    }
    mode = fz_u8(&in);
    limited = (mode >> 4) % 3; /* no limit, the smallest, or 1 KiB more */
    ctx = fz_ctx(size % fz_backends());
    n = make_universe(&in, u);
    switch (mode % 3) {
    case 0:
        mode_responder(ctx, &in, u, n, limited);
        break;
    case 1:
        mode_initiator(ctx, &in, u, n, limited);
        break;
    default:
        mode_round(ctx, &in, u, n, limited);
        break;
    }
    return 0;
}
