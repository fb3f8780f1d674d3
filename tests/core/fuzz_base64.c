/* Base64, both kernels. The input is decoded as text and encoded as bytes by the portable
 * kernel, by the SSSE3 kernel (when the CPU has it) and by the public functions; all must agree
 * exactly (status, length, every byte of the buffer, including those they must not touch).
 * Then: decoding is canonical (encode(decode(s)) == s), encoding round-trips, the
 * SC_ERR_BUFFER_TOO_SMALL path reports the exact need and writes nothing, a SC_ERR_BASE64
 * failure leaves only zeroed or untouched bytes, and the bare SSSE3 block decoder agrees with
 * the portable decoder on the blocks it consumes. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

#include "util/base64_internal.h"

static int have_ssse3;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    have_ssse3 = sc_b64_best_kernel() == SC_B64_SSSE3;
    return 0;
}

typedef struct dec_result {
    sc_status st;
    size_t len;
    uint8_t *buf; /* cap bytes */
} dec_result;

static void decode_with(int kernel, dec_result *r, const char *s, size_t n, size_t cap)
{
    r->buf = fz_alloc(cap);
    r->len = (size_t)-1;
    if (kernel < 0) {
        r->st = sc_base64_decode(cap != 0 ? r->buf : NULL, cap, &r->len, s, n);
    } else {
        r->st =
            sc_b64_decode_with((sc_b64_kernel)kernel, cap != 0 ? r->buf : NULL, cap, &r->len, s, n);
    }
}

static void same_decode(const dec_result *a, const dec_result *b, size_t cap)
{
    FZ_REQUIRE(a->st == b->st);
    FZ_REQUIRE(a->len == b->len);
    FZ_REQUIRE(memcmp(a->buf, b->buf, cap != 0 ? cap : 1) == 0);
}

static void check_decode(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t cap = sc_base64_decode_max(size), enc_len, got = 0;
    dec_result port, simd, pub;
    char *enc;

    FZ_REQUIRE(cap == 3 * (size / 4));
    decode_with(SC_B64_PORTABLE, &port, s, size, cap);
    decode_with(-1, &pub, s, size, cap);
    same_decode(&port, &pub, cap);
    if (have_ssse3) {
        decode_with(SC_B64_SSSE3, &simd, s, size, cap);
        same_decode(&port, &simd, cap);
        free(simd.buf);
    }
    FZ_STATUS_IN(port.st, SC_OK, SC_ERR_BASE64);
    if (port.st == SC_ERR_BASE64) {
        FZ_REQUIRE(port.len == 0);
        FZ_REQUIRE(fz_all_zero_or(port.buf, cap, FZ_CANARY));
    } else {
        /* exactly the claimed length is written, the rest untouched */
        FZ_REQUIRE(port.len <= cap && port.len + 2 >= cap);
        FZ_REQUIRE(fz_all_equal(port.buf + port.len, cap - port.len, FZ_CANARY));
        /* canonical: the only accepted encoding of those bytes is the input */
        enc_len = sc_base64_encode_len(port.len);
        FZ_REQUIRE(enc_len == size);
        enc = (char *)fz_alloc(enc_len);
        FZ_REQUIRE(sc_base64_encode(enc, enc_len, &got, port.buf, port.len) == SC_OK);
        FZ_REQUIRE(got == size && memcmp(enc, s, size) == 0);
        free(enc);
        if (port.len > 0) {
            /* one byte short: the exact need is reported and nothing is written */
            int k;

            for (k = 0; k < 2; k++) {
                dec_result small;

                if (k == 1 && !have_ssse3) {
                    break;
                }
                decode_with(k == 0 ? SC_B64_PORTABLE : SC_B64_SSSE3, &small, s, size, port.len - 1);
                FZ_REQUIRE(small.st == SC_ERR_BUFFER_TOO_SMALL);
                FZ_REQUIRE(small.len == port.len);
                FZ_REQUIRE(
                    fz_all_equal(small.buf, port.len - 1 != 0 ? port.len - 1 : 1, FZ_CANARY));
                free(small.buf);
            }
        }
    }
    free(port.buf);
    free(pub.buf);
}

static void check_encode(const uint8_t *data, size_t size)
{
    size_t need = sc_base64_encode_len(size), l1 = 0, l2 = 0, l3 = 0, back = 0;
    char *e1 = (char *)fz_alloc(need + 1), *e2 = (char *)fz_alloc(need + 1),
         *e3 = (char *)fz_alloc(need + 1);
    uint8_t *dec;

    FZ_REQUIRE(need == 4 * ((size + 2) / 3));
    FZ_REQUIRE(sc_b64_encode_with(SC_B64_PORTABLE, e1, need + 1, &l1, data, size) == SC_OK);
    FZ_REQUIRE(sc_base64_encode(e3, need + 1, &l3, data, size) == SC_OK);
    FZ_REQUIRE(l1 == need && l3 == need && memcmp(e1, e3, need + 1) == 0);
    FZ_REQUIRE((uint8_t)e1[need] == FZ_CANARY);
    if (have_ssse3) {
        FZ_REQUIRE(sc_b64_encode_with(SC_B64_SSSE3, e2, need + 1, &l2, data, size) == SC_OK);
        FZ_REQUIRE(l2 == need && memcmp(e1, e2, need + 1) == 0);
    }
    if (need > 0) {
        size_t small_len = 0;
        char *small = (char *)fz_alloc(need - 1);

        FZ_REQUIRE(sc_b64_encode_with(SC_B64_PORTABLE, need - 1 != 0 ? small : NULL, need - 1,
                                      &small_len, data, size) == SC_ERR_BUFFER_TOO_SMALL);
        FZ_REQUIRE(small_len == need);
        FZ_REQUIRE(fz_all_equal(small, need - 1 != 0 ? need - 1 : 1, FZ_CANARY));
        free(small);
    }
    dec = fz_alloc(sc_base64_decode_max(need));
    FZ_REQUIRE(sc_base64_decode(dec, sc_base64_decode_max(need), &back, e1, need) == SC_OK);
    FZ_REQUIRE(back == size && (size == 0 || memcmp(dec, data, size) == 0));
    free(dec);
    free(e1);
    free(e2);
    free(e3);
}

/* The SSSE3 block decoder alone: on the blocks it consumes, "no bad character" must mean the
 * portable decoder accepts them and yields the same bytes. */
static void check_ssse3_blocks(const uint8_t *data, size_t size)
{
    size_t used, cap = 3 * (size / 4) + 16, plen = 0;
    uint8_t *a, *b;
    unsigned bad = 0;
    sc_status st;

    if (!have_ssse3) {
        return;
    }
    a = fz_alloc(cap);
    b = fz_alloc(cap);
    used = sc_b64_ssse3_decode(a, (const char *)data, size, &bad);
    FZ_REQUIRE(used % 16 == 0 && used <= size && size - used < 16);
    st = sc_b64_decode_with(SC_B64_PORTABLE, b, cap, &plen, (const char *)data, used);
    if (bad == 0) {
        FZ_REQUIRE(st == SC_OK && plen == used / 4 * 3);
        FZ_REQUIRE(used == 0 || memcmp(a, b, plen) == 0);
    } else if (used != 0 && memchr(data, '=', used) == NULL) {
        FZ_REQUIRE(st == SC_ERR_BASE64); /* '=' may be padding to the portable decoder */
    }
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_decode(data, size);
    check_encode(data, size);
    check_ssse3_blocks(data, size);
    return 0;
}
