/* Negentropy wire format and fingerprints. The expected bytes were computed independently
 * (Python: int.from_bytes(..., 'little') sums and hashlib), not with this library. */
#include "test_negentropy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "negentropy/negentropy_internal.h"

static void hex32(uint8_t out[32], const char *hex)
{
    vt_bytes b;

    assert_true(vt_hex_to_bytes(hex, &b));
    assert_int_equal(b.n, 32);
    memcpy(out, b.p, 32);
    vt_bytes_free(&b);
}

void test_varint(void **state)
{
    static const struct {
        uint64_t v;
        const char *hex;
    } cases[] = {
        {0, "00"},       {127, "7f"},       {128, "8100"},
        {16383, "ff7f"}, {16384, "818000"}, {UINT64_MAX, "81ffffffffffffffff7f"},
    };
    static const char *const bad[] = {
        "", "80", "8000", "8001", "ff", "82ffffffffffffffff7f", "81ffffffffffffffffff7f",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t buf[16];
        sc_neg_out o;
        sc_neg_in in;
        uint64_t v = 0;

        memset(&o, 0, sizeof o);
        o.out = buf;
        o.cap = sizeof buf;
        sc_neg_put_varint(&o, cases[i].v);
        assert_false(o.over);
        assert_true(vt_hex_is(buf, o.len, cases[i].hex));
        memset(&in, 0, sizeof in);
        in.p = buf;
        in.len = o.len;
        VT_ASSERT_STATUS(sc_neg_get_varint(&in, &v), SC_OK);
        assert_true(v == cases[i].v);
        assert_int_equal(in.pos, o.len);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        vt_bytes b;
        sc_neg_in in;
        uint64_t v;

        assert_true(vt_hex_to_bytes(bad[i], &b));
        memset(&in, 0, sizeof in);
        in.p = b.p;
        in.len = b.n;
        if (sc_neg_get_varint(&in, &v) != SC_ERR_NEGENTROPY) {
            fail_msg("varint %s was accepted", bad[i]);
        }
        vt_bytes_free(&b);
    }
}

void test_bounds(void **state)
{
    /* three bounds in one message: ts 1000 prefix ab, ts 1000 prefix abcd, infinity; the
     * timestamps are deltas: 1 + 1000, 1 + 0, 0 */
    sc_neg_bound b[3], got;
    sc_neg_out o;
    sc_neg_in in;
    uint8_t buf[64];
    vt_bytes want, bad;
    int i;

    (void)state;
    memset(b, 0, sizeof b);
    b[0].ts = 1000;
    b[0].len = 1;
    b[0].id[0] = 0xab;
    b[1].ts = 1000;
    b[1].len = 2;
    b[1].id[0] = 0xab;
    b[1].id[1] = 0xcd;
    b[2].ts = UINT64_MAX;
    memset(&o, 0, sizeof o);
    o.out = buf;
    o.cap = sizeof buf;
    for (i = 0; i < 3; i++) {
        sc_neg_put_bound(&o, &b[i]);
    }
    /* 1001 = 0x3e9 -> 87 69 */
    assert_true(vt_hex_to_bytes("876901ab0102abcd0000", &want));
    assert_memory_equal(buf, want.p, want.n);
    assert_int_equal(o.len, want.n);
    memset(&in, 0, sizeof in);
    in.p = want.p;
    in.len = want.n;
    for (i = 0; i < 3; i++) {
        VT_ASSERT_STATUS(sc_neg_get_bound(&in, &got), SC_OK);
        assert_int_equal(sc_neg_bound_cmp(&got, &b[i]), 0);
        assert_int_equal(got.len, b[i].len);
    }
    assert_true(sc_neg_bound_cmp(&b[0], &b[1]) < 0);
    assert_true(sc_neg_bound_cmp(&b[2], &b[1]) > 0);
    vt_bytes_free(&want);
    /* a prefix of 33 bytes; a prefix longer than the message; a finite timestamp that
     * reaches infinity; a bound after infinity */
    {
        static const char *const rejects[] = {
            "0121"
            "000000000000000000000000000000000000000000000000000000000000000000",
            "0105ab",
            "0200"
            "81ffffffffffffffff7f00",
            "0000"
            "0100",
        };
        size_t k;

        for (k = 0; k < sizeof rejects / sizeof rejects[0]; k++) {
            sc_status st = SC_OK;

            assert_true(vt_hex_to_bytes(rejects[k], &bad));
            memset(&in, 0, sizeof in);
            in.p = bad.p;
            in.len = bad.n;
            while (st == SC_OK && in.pos < in.len) {
                st = sc_neg_get_bound(&in, &got);
            }
            if (st != SC_ERR_NEGENTROPY) {
                fail_msg("bound %s accepted", rejects[k]);
            }
            vt_bytes_free(&bad);
        }
    }
}

void test_fingerprint(void **state)
{
    neg_env *e = *state;
    sc_negentropy_item items[200];
    uint8_t fp[16];
    size_t i;

    memset(items, 0, sizeof items);
    VT_ASSERT_STATUS(sc_neg_fingerprint(&e->ctx, fp, items, 0, 0), SC_OK);
    assert_true(vt_hex_is(fp, 16, "7f9c9e31ac8256ca2f258583df262dbc"));
    /* 2^256 - 1 + 1 wraps to 0, count 2 */
    memset(items[0].id, 0xff, 32);
    items[1].id[0] = 1;
    VT_ASSERT_STATUS(sc_neg_fingerprint(&e->ctx, fp, items, 0, 2), SC_OK);
    assert_true(vt_hex_is(fp, 16, "58cc2f44d3a27866874701fbad573da9"));
    /* sha256("id<i>") for i < 200: the count takes a two-byte varint (200 = 81 48) */
    for (i = 0; i < 200; i++) {
        char s[8];
        int n = snprintf(s, sizeof s, "id%u", (unsigned)i);

        VT_ASSERT_STATUS(sc_crypto_sha256(&e->ctx, items[i].id, (const uint8_t *)s, (size_t)n),
                         SC_OK);
    }
    {
        uint8_t id0[32];

        hex32(id0, "a5c77cca2bcc94aba60bc403b1c265017313683a2fb4d58fbb6b2607f42d190e");
        assert_memory_equal(items[0].id, id0, 32);
    }
    VT_ASSERT_STATUS(sc_neg_fingerprint(&e->ctx, fp, items, 0, 200), SC_OK);
    assert_true(vt_hex_is(fp, 16, "5e4c5d978dc07c23ed2cd6c77aacbef0"));
}

void test_initiate_shape(void **state)
{
    neg_env *e = *state;
    sc_negentropy_item *a, *b;
    sc_negentropy neg;
    uint8_t out[2048];
    size_t len = 0;

    /* fewer than 32 records: one id list to infinity */
    neg_make_sets(1, 31, 0, 100, &a, &b);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, a, 31, NULL), SC_OK);
    assert_true(sc_negentropy_initiate_max(&neg) <= sizeof out);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &neg, out, sizeof out, &len), SC_OK);
    assert_int_equal(len, 1 + 2 + 1 + 1 + 31 * 32);
    assert_true(vt_hex_is(out, 5, "610000021f"));
    assert_memory_equal(out + 5, a[0].id, 32);
    assert_true(len <= sc_negentropy_initiate_max(&neg));
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &neg, out, sizeof out, &len), SC_ERR_STATE);
    free(a);
    free(b);
    /* 32 and more: 16 fingerprint ranges, the last to infinity */
    neg_make_sets(2, 1000, 0, 300, &a, &b);
    VT_ASSERT_STATUS(sc_negentropy_init(&neg, a, 1000, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_negentropy_initiate(&e->ctx, &neg, out, sizeof out, &len), SC_OK);
    assert_true(len <= sc_negentropy_initiate_max(&neg));
    assert_int_equal(out[0], 0x61);
    assert_true(vt_hex_is(out + len - 19, 3, "000001")); /* infinity, no prefix, mode 1 */
    free(a);
    free(b);
}
