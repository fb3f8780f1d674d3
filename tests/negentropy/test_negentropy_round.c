/* Negentropy rounds in process: both roles of this library against each other, with and
 * without frame limits, the edges, version handling, malformed and hostile messages, and
 * the buffer contract. */
#include "test_negentropy.h"

#include <stdlib.h>
#include <string.h>

#include "negentropy/negentropy_internal.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void rand_item(uint64_t *s, sc_negentropy_item *it, uint64_t window)
{
    size_t k;

    it->timestamp = 1700000000u + next(s) % window;
    for (k = 0; k < 32; k += 8) {
        uint64_t v = next(s);

        memcpy(it->id + k, &v, 8);
    }
}

void neg_make_sets(uint64_t seed, size_t n, size_t unique, uint64_t window, sc_negentropy_item **a,
                   sc_negentropy_item **b)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
    size_t i;

    *a = (sc_negentropy_item *)vt_alloc((n + 1) * sizeof **a);
    *b = (sc_negentropy_item *)vt_alloc((n + 1) * sizeof **b);
    for (i = 0; i < n; i++) {
        rand_item(&s, &(*a)[i], window);
        if (i < n - unique) {
            (*b)[i] = (*a)[i];
        } else {
            rand_item(&s, &(*b)[i], window);
        }
    }
    assert_int_equal(sc_negentropy_sort(*a, n), SC_OK);
    assert_int_equal(sc_negentropy_sort(*b, n), SC_OK);
}

static int in_set(const sc_negentropy_item *v, size_t n, const uint8_t id[32])
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (memcmp(v[i].id, id, 32) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The difference found, as flags per record: seen_a[i] for a's records reported as have,
 * seen_b[i] for b's reported as need. */
size_t neg_reconcile_check(sc_ctx *ctx, const sc_negentropy_item *a, size_t na,
                           const sc_negentropy_item *b, size_t nb, size_t limit)
{
    sc_negentropy ia, rb;
    sc_negentropy_opts o;
    uint8_t *msg, *reply;
    size_t msg_len = 0, reply_len = 0, rounds = 0, cap, i;
    size_t *have = (size_t *)(void *)vt_alloc((na + 1) * sizeof *have);
    uint8_t *seen_a = vt_alloc(na + 1), *seen_b = vt_alloc(nb + 1);
    int dup = 0;

    memset(&o, 0, sizeof o);
    o.frame_limit = limit;
    VT_ASSERT_STATUS(sc_negentropy_init(&ia, a, na, &o), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_init(&rb, b, nb, &o), SC_OK);
    cap = sc_negentropy_initiate_max(&ia);
    msg = vt_alloc(cap);
    VT_ASSERT_STATUS(sc_negentropy_initiate(ctx, &ia, msg, cap, &msg_len), SC_OK);
    for (;;) {
        size_t hl = 0, nl = 0, need_cap;
        uint8_t(*need)[32];

        assert_true(limit == 0 || msg_len <= limit);
        cap = sc_negentropy_reconcile_max(&rb, msg_len);
        reply = vt_alloc(cap);
        VT_ASSERT_STATUS(sc_negentropy_reconcile(ctx, &rb, reply, cap, &reply_len, NULL, 0, &hl,
                                                 NULL, 0, &nl, msg, msg_len),
                         SC_OK);
        assert_true(reply_len >= 1);
        assert_true(limit == 0 || reply_len <= limit);
        assert_int_equal(hl + nl, 0);
        free(msg);
        need_cap = sc_negentropy_need_max(reply_len);
        need = (uint8_t(*)[32])vt_alloc((need_cap + 1) * 32);
        cap = sc_negentropy_reconcile_max(&ia, reply_len);
        msg = vt_alloc(cap);
        VT_ASSERT_STATUS(sc_negentropy_reconcile(ctx, &ia, msg, cap, &msg_len, have, na, &hl, need,
                                                 need_cap, &nl, reply, reply_len),
                         SC_OK);
        for (i = 0; i < hl; i++) {
            assert_true(have[i] < na);
            if (in_set(b, nb, a[have[i]].id)) {
                fail_msg("have reports a record the responder holds");
            }
            dup |= seen_a[have[i]];
            seen_a[have[i]] = 1;
        }
        for (i = 0; i < nl; i++) {
            size_t k;

            for (k = 0; k < nb && memcmp(b[k].id, need[i], 32) != 0; k++) {
            }
            if (k == nb || in_set(a, na, need[i])) {
                fail_msg("need reports an id the responder lacks or the initiator holds");
            }
            dup |= seen_b[k];
            seen_b[k] = 1;
        }
        free(need);
        free(reply);
        rounds++;
        assert_true(rounds < 100000);
        if (msg_len == 0) {
            break;
        }
    }
    for (i = 0; i < na; i++) {
        if (!seen_a[i] && !in_set(b, nb, a[i].id)) {
            fail_msg("a record only the initiator holds was not reported (%zu of %zu)", i, na);
        }
    }
    for (i = 0; i < nb; i++) {
        if (!seen_b[i] && !in_set(a, na, b[i].id)) {
            fail_msg("a record only the responder holds was not reported (%zu of %zu)", i, nb);
        }
    }
    if (limit == 0 && dup) {
        fail_msg("an id reported twice without a frame limit");
    }
    free(msg);
    free(have);
    free(seen_a);
    free(seen_b);
    return rounds;
}

void test_round_sizes(void **state)
{
    neg_env *e = *state;
    static const size_t sizes[] = {0, 1, 10, 31, 32, 33, 500, 3000};
    static const unsigned pct[] = {0, 1, 50, 100};
    size_t i, j;

    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (j = 0; j < sizeof pct / sizeof pct[0]; j++) {
            size_t n = sizes[i], u = (n * pct[j] + 99) / 100;
            sc_negentropy_item *a, *b;

            neg_make_sets(i * 10 + j, n, u, n / 3 + 1, &a, &b);
            (void)neg_reconcile_check(&e->ctx, a, n, b, n, 0);
            (void)neg_reconcile_check(&e->ctx, b, n, a, n, 0);
            free(a);
            free(b);
        }
    }
}

void test_round_limits(void **state)
{
    neg_env *e = *state;
    sc_negentropy_item *a, *b;
    size_t r_none, r_limit;

    /* disjoint sets: every id must travel; 4096-byte frames hold about 120 ids */
    neg_make_sets(77, 3000, 3000, 1000, &a, &b);
    r_none = neg_reconcile_check(&e->ctx, a, 3000, b, 3000, 0);
    r_limit = neg_reconcile_check(&e->ctx, a, 3000, b, 3000, SC_NEGENTROPY_FRAME_MIN);
    assert_true(r_limit > r_none);
    (void)neg_reconcile_check(&e->ctx, a, 3000, b, 3000, 10000);
    free(a);
    free(b);
    /* uneven: one side much larger, and one empty */
    neg_make_sets(78, 2000, 1990, 50, &a, &b);
    (void)neg_reconcile_check(&e->ctx, a, 20, b, 2000, SC_NEGENTROPY_FRAME_MIN);
    (void)neg_reconcile_check(&e->ctx, b, 2000, a, 20, SC_NEGENTROPY_FRAME_MIN);
    (void)neg_reconcile_check(&e->ctx, a, 0, b, 2000, SC_NEGENTROPY_FRAME_MIN);
    (void)neg_reconcile_check(&e->ctx, b, 2000, a, 0, 0);
    free(a);
    free(b);
}

void test_round_edges(void **state)
{
    neg_env *e = *state;
    sc_negentropy_item a[40], b[40];
    size_t i;

    /* every record at one timestamp (bounds are id prefixes), ids sharing long prefixes */
    memset(a, 0, sizeof a);
    for (i = 0; i < 40; i++) {
        a[i].timestamp = 0;
        memset(a[i].id, 0x42, 32);
        a[i].id[31] = (uint8_t)(i * 3);
        a[i].id[30] = (uint8_t)(i / 7);
        b[i] = a[i];
    }
    b[5].id[31] ^= 1;
    b[33].id[31] ^= 1;
    assert_int_equal(sc_negentropy_sort(a, 40), SC_OK);
    assert_int_equal(sc_negentropy_sort(b, 40), SC_OK);
    (void)neg_reconcile_check(&e->ctx, a, 40, b, 40, 0);
    (void)neg_reconcile_check(&e->ctx, b, 40, a, 40, 0);
    /* the largest timestamps below infinity */
    for (i = 0; i < 40; i++) {
        a[i].timestamp = UINT64_MAX - 40 + i;
        b[i].timestamp = UINT64_MAX - 40 + i;
    }
    b[7].id[0] ^= 0x80;
    assert_int_equal(sc_negentropy_sort(b, 40), SC_OK);
    (void)neg_reconcile_check(&e->ctx, a, 40, b, 40, 0);
}

void test_version(void **state)
{
    neg_env *e = *state;
    sc_negentropy resp, init;
    sc_negentropy_item it;
    uint8_t out[64], v2[3] = {0x62, 0x00, 0x00}, low[1] = {0x5f}, hi[1] = {0x70};
    uint8_t init_msg[64];
    size_t len = 0, hl = 0, nl = 0, have[1];
    uint8_t need[2][32];

    memset(&it, 0, sizeof it);
    VT_ASSERT_STATUS(sc_negentropy_init(&resp, &it, 1, NULL), SC_OK);
    /* a responder answers another version with its own version byte alone */
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &resp, out, sizeof out, &len, NULL, 0, &hl,
                                             NULL, 0, &nl, v2, sizeof v2),
                     SC_OK);
    assert_int_equal(len, 1);
    assert_int_equal(out[0], SC_NEGENTROPY_VERSION);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &resp, out, sizeof out, &len, NULL, 0, &hl,
                                             NULL, 0, &nl, low, 1),
                     SC_ERR_NEGENTROPY);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &resp, out, sizeof out, &len, NULL, 0, &hl,
                                             NULL, 0, &nl, hi, 1),
                     SC_ERR_NEGENTROPY);
    /* an initiator told another version fails with SC_ERR_NEG_VERSION */
    VT_ASSERT_STATUS(sc_negentropy_init(&init, &it, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &init, init_msg, sizeof init_msg, &len),
                     SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &init, out, sizeof out, &len, have, 1, &hl,
                                             need, 2, &nl, v2, 1),
                     SC_ERR_NEG_VERSION);
    assert_int_equal(len, 0);
    /* a bare version byte: nothing left to do */
    v2[0] = SC_NEGENTROPY_VERSION;
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &init, out, sizeof out, &len, have, 1, &hl,
                                             need, 2, &nl, v2, 1),
                     SC_OK);
    assert_int_equal(len, 0);
}

/* The responder's verdict on one hex message. */
static sc_status respond_hex(sc_ctx *ctx, const sc_negentropy_item *items, size_t n,
                             const char *hex)
{
    sc_negentropy neg;
    vt_bytes m;
    uint8_t *out;
    size_t len = 0, hl = 0, nl = 0, cap;
    sc_status st;

    assert_int_equal(sc_negentropy_init(&neg, items, n, NULL), SC_OK);
    assert_true(vt_hex_to_bytes(hex, &m));
    cap = sc_negentropy_reconcile_max(&neg, m.n);
    out = vt_alloc(cap);
    st = sc_negentropy_reconcile(ctx, &neg, out, cap, &len, NULL, 0, &hl, NULL, 0, &nl, m.p, m.n);
    if (st != SC_OK) {
        assert_int_equal(len, 0);
        assert_true(vt_all_zero(out, cap));
    }
    free(out);
    vt_bytes_free(&m);
    return st;
}

void test_malformed(void **state)
{
    neg_env *e = *state;
    static const char *const bad[] = {
        "6100",     /* a bound without its mode */
        "61000003", /* mode 3 */
        "610000"
        "01"
        "00112233", /* a fingerprint cut short */
        "610000"
        "02"
        "02"
        "00", /* an id list of 2 ids, none there */
        "610000"
        "02"
        "8000", /* a non-minimal count */
        "61"
        "020105"
        "00"
        "010103"
        "00", /* bounds that go down: (1, 05) then (1, 03) */
        "610200"
        "00"
        "0100"
        "00", /* two equal bounds (the second a delta of 0) */
        "610000"
        "00"
        "0000"
        "00", /* a range after infinity */
        "610000"
        "00"
        "ff", /* trailing bytes */
    };
    sc_negentropy_item it[3];
    size_t i;

    memset(it, 0, sizeof it);
    it[0].timestamp = 1;
    it[1].timestamp = 2;
    it[2].timestamp = 3;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sc_status st = respond_hex(&e->ctx, it, 3, bad[i]);

        if (st != SC_ERR_NEGENTROPY) {
            fail_msg("malformed message %s: %s", bad[i], sc_status_name(st));
        }
    }
    /* well-formed: a skip to infinity; a fingerprint range; an empty id list */
    VT_ASSERT_STATUS(respond_hex(&e->ctx, it, 3,
                                 "61"
                                 "0000"
                                 "00"),
                     SC_OK);
    VT_ASSERT_STATUS(respond_hex(&e->ctx, it, 3,
                                 "61"
                                 "0200"
                                 "00"
                                 "0000"
                                 "0200"),
                     SC_OK);
    VT_ASSERT_STATUS(respond_hex(&e->ctx, it, 3, "61"), SC_OK);
}

/* The message "(first_ts, ""): an empty id list; (skip_ts, skip_id): Skip; (infinity): an
 * empty id list", written with the library's own wire writers into m. Returns its length. */
static size_t skip_between_lists(uint8_t *m, size_t cap, uint64_t first_ts, uint64_t skip_ts,
                                 const uint8_t skip_id[32])
{
    static const uint8_t version = SC_NEGENTROPY_VERSION;
    sc_neg_out o;
    sc_neg_bound b;

    memset(&o, 0, sizeof o);
    o.out = m;
    o.cap = cap;
    sc_neg_put(&o, &version, 1);
    memset(&b, 0, sizeof b);
    b.ts = first_ts;
    sc_neg_put_bound(&o, &b);
    sc_neg_put_varint(&o, SC_NEG_MODE_IDLIST);
    sc_neg_put_varint(&o, 0);
    b.ts = skip_ts;
    b.len = 32;
    memcpy(b.id, skip_id, 32);
    sc_neg_put_bound(&o, &b);
    sc_neg_put_varint(&o, SC_NEG_MODE_SKIP);
    memset(&b, 0, sizeof b);
    b.ts = SC_NEG_INFINITY;
    sc_neg_put_bound(&o, &b);
    sc_neg_put_varint(&o, SC_NEG_MODE_IDLIST);
    sc_neg_put_varint(&o, 0);
    assert_false(o.over);
    return o.len;
}

/* The responder's reply to msg must be a message this library's initiator accepts (bounds
 * strictly increasing, nothing after infinity) and fit the frame. */
static void reply_accepted(neg_env *e, const sc_negentropy_item *it, size_t n, const uint8_t *msg,
                           size_t ml, const char *what, size_t case_no)
{
    static uint8_t out[8192], out2[1 << 16], need[512][32], first[8192];
    static size_t have[512];
    sc_negentropy_opts o;
    sc_negentropy resp, ini;
    size_t ol = 0, ol2 = 0, hl = 0, nl = 0, fl = 0;
    sc_status st;

    memset(&o, 0, sizeof o);
    o.frame_limit = 4096;
    VT_ASSERT_STATUS(sc_negentropy_init(&resp, it, n, &o), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &resp, out, sizeof out, &ol, NULL, 0, &hl,
                                             NULL, 0, &nl, msg, ml),
                     SC_OK);
    assert_true(ol <= 4096);
    VT_ASSERT_STATUS(sc_negentropy_init(&ini, it, n, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &ini, first, sizeof first, &fl), SC_OK);
    st = sc_negentropy_reconcile(&e->ctx, &ini, out2, sizeof out2, &ol2, have, 512, &hl, need, 512,
                                 &nl, out, ol);
    if (st != SC_OK) {
        fail_msg("%s, case %zu: the reply of %zu bytes is refused: %s", what, case_no, ol,
                 sc_status_name(st));
    }
}

/* A responder near its frame limit: an id list cut before its first id wrote the bound of
 * that id, which can equal the Skip bound before it; a list resolved at infinity was
 * followed by a remainder at infinity again. Both replies broke the protocol. */
void test_frame_edges(void **state)
{
    neg_env *e = *state;
    static sc_negentropy_item it[200];
    uint8_t m[200], aa[32];
    size_t n, i, l, cases = 0;
    int tsb, r1b;

    memset(aa, 0xaa, sizeof aa);
    for (n = 110; n <= 121; n++) {
        for (tsb = 0; tsb < 63; tsb += 7) {
            for (r1b = 8; r1b < 62; r1b += 7) {
                uint64_t r1 = (uint64_t)1 << r1b, skts = r1 + 1 + ((uint64_t)1 << tsb);

                memset(it, 0, sizeof it);
                for (i = 0; i < n; i++) {
                    it[i].timestamp = 1 + i;
                    it[i].id[0] = (uint8_t)(i + 1);
                }
                l = skip_between_lists(m, sizeof m, r1, skts, aa);
                reply_accepted(e, it, n, m, l, "second infinity", cases++);
            }
        }
    }
    for (n = 100; n <= 125; n++) {
        memset(it, 0, sizeof it);
        for (i = 0; i < n; i++) {
            it[i].timestamp = 1 + i;
            it[i].id[0] = (uint8_t)(i + 1);
            it[i].id[1] = 0x55;
        }
        it[n].timestamp = 1000;
        memset(it[n].id, 0xaa, 32);
        l = skip_between_lists(m, sizeof m, 500, 1000, it[n].id); /* the last record's bound */
        reply_accepted(e, it, n + 1, m, l, "equal bounds", n);
    }
}

void test_hostile_idlist(void **state)
{
    neg_env *e = *state;
    sc_negentropy_item *a, *b;
    sc_negentropy neg;
    uint8_t *msg, *out, first[2048], (*need)[32];
    size_t n = 4000, m = 4000, len = 0, hl = 0, nl = 0, i, ml, *have, lack;

    /* an initiator with 4000 records receives one id list of 4000 ids: 3999 copies of one
     * id it lacks plus one it holds. Work stays O((n + m) log), the copy is reported once. */
    neg_make_sets(99, n, 1, 4000, &a, &b);
    for (lack = 0; lack < n; lack++) { /* the record of b that a lacks */
        for (i = 0; i < n && memcmp(a[i].id, b[lack].id, 32) != 0; i++) {
        }
        if (i == n) {
            break;
        }
    }
    assert_true(lack < n);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, a, n, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &neg, first, sizeof first, &len), SC_OK);
    ml = 1 + 2 + 1 + 3 + 32 * m;
    msg = vt_alloc(ml);
    msg[0] = 0x61;
    msg[1] = 0;
    msg[2] = 0;
    msg[3] = 2;
    msg[4] = 0x9f; /* 4000 = 0x0fa0 -> 9f 20 */
    msg[5] = 0x20;
    ml = 6 + 32 * m;
    for (i = 0; i < m; i++) {
        memcpy(msg + 6 + 32 * i, i == 17 ? a[5].id : b[lack].id, 32);
    }
    have = (size_t *)(void *)vt_alloc(n * sizeof *have);
    need = (uint8_t(*)[32])vt_alloc(sc_negentropy_need_max(ml) * 32);
    out = vt_alloc(sc_negentropy_reconcile_max(&neg, ml));
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &neg, out,
                                             sc_negentropy_reconcile_max(&neg, ml), &len, have, n,
                                             &hl, need, sc_negentropy_need_max(ml), &nl, msg, ml),
                     SC_OK);
    assert_int_equal(len, 0); /* an id list answers everything */
    assert_int_equal(nl, 1);
    assert_memory_equal(need[0], b[lack].id, 32);
    assert_int_equal(hl, n - 1);
    free(out);
    free(need);
    free(have);
    free(msg);
    free(a);
    free(b);
}

void test_buffers(void **state)
{
    neg_env *e = *state;
    sc_negentropy_item *a, *b;
    sc_negentropy ia, rb;
    uint8_t *msg, *out;
    size_t len = 0, need_len = 0, hl = 0, nl = 0, exact, have[8];
    uint8_t need[8][32];

    neg_make_sets(5, 500, 50, 200, &a, &b);
    VT_ASSERT_STATUS(sc_negentropy_init(&ia, a, 500, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_init(&rb, b, 500, NULL), SC_OK);
    /* initiate: ask, then exactly that much */
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &ia, NULL, 0, &need_len),
                     SC_ERR_BUFFER_TOO_SMALL);
    msg = vt_alloc(need_len);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &ia, msg, need_len - 1, &len),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, need_len);
    assert_true(vt_all_zero(msg, need_len));
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &ia, msg, need_len, &len), SC_OK);
    assert_int_equal(len, need_len);
    /* reconcile: the exact need, and nothing left written below it */
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &rb, NULL, 0, &exact, NULL, 0, &hl, NULL, 0,
                                             &nl, msg, len),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_true(exact > 1 && exact <= sc_negentropy_reconcile_max(&rb, len));
    out = vt_alloc(exact);
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &rb, out, exact - 1, &len, NULL, 0, &hl, NULL,
                                             0, &nl, msg, need_len),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, exact);
    assert_true(vt_all_zero(out, exact));
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &rb, out, exact, &len, NULL, 0, &hl, NULL, 0,
                                             &nl, msg, need_len),
                     SC_OK);
    assert_int_equal(len, exact);
    /* the initiator needs have[] and need[] at their working sizes */
    free(msg);
    msg = vt_alloc(sc_negentropy_reconcile_max(&ia, exact));
    VT_ASSERT_STATUS(sc_negentropy_reconcile(&e->ctx, &ia, msg,
                                             sc_negentropy_reconcile_max(&ia, exact), &len, have, 8,
                                             &hl, need, 8, &nl, out, exact),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(hl, 500);
    assert_int_equal(nl, exact / 32);
    assert_int_equal(len, 0);
    free(out);
    free(msg);
    free(a);
    free(b);
}
