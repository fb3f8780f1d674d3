/* NIP-44 v2 decryption (payload and conversation key). Input: one mode byte, then the rest.
 * The low 2 bits of the mode choose the case; bits 2..4 the backend; bit 6 adds the checks of
 * the short-buffer path and of the held-conversation form to every decryption; bit 7 a
 * variant.
 *  0 raw      the rest is a payload, decrypted under a fixed key (bit 7: max_payload one
 *             below its length). Almost always stops at the MAC.
 *  1 forged   the rest is [version switch][version][nonce 32][buffer]: the buffer (length
 *             prefix, plaintext and padding, any bytes) is encrypted and MACed with the
 *             library's primitives, so decryption gets past the MAC and the padding and length
 *             checks see fuzzer bytes. An independent model of the spec gives the expected
 *             status and plaintext.
 *  2 valid    the rest is [nonce 32][padding fill][plaintext]: properly padded (padding bytes
 *             are not checked, so they are fuzzer-chosen); without fill it must equal
 *             sc_nip44_encrypt_with_rand's payload; it must decrypt to the plaintext (bit 7:
 *             also through sc_nip44_decrypt_from, one ECDH). A plaintext starting ff ff ff fe
 *             is repeated to 65536 bytes and more (the extended prefix).
 *  3 keys     the rest is [sec 32][pub 32]: conversation_key statuses, zeroing, symmetry, and
 *             agreement with sc_nip44_conversation_init and sc_identity_import.
 * Every decryption is checked against the header's contract: the documented statuses, out_len,
 * which bytes of out are written, zeroed or never touched (with bit 6: one byte short of the
 * bound is SC_ERR_BUFFER_TOO_SMALL and writes nothing, and the held-conversation form gives
 * the same result). */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

/* ---- an independent model of the spec's padding ------------------------------------------- */

static uint64_t model_padded_len(uint64_t len)
{
    uint64_t next = 1, chunk;

    if (len <= 32) {
        return 32;
    }
    while (next < len) { /* 1 << (floor(log2(len - 1)) + 1) */
        next <<= 1;
    }
    chunk = next <= 256 ? 32 : next / 8;
    return chunk * ((len - 1) / chunk + 1);
}

/* The expected outcome of decrypting a payload whose MAC verifies and whose decrypted buffer is
 * p[0..n): SC_OK with the plaintext at p + *off, *len bytes, or SC_ERR_PADDING. */
static sc_status model_unpad(const uint8_t *p, size_t n, size_t *off, size_t *len)
{
    uint64_t l;
    size_t pre = 2;

    if (n < 2) {
        return SC_ERR_PADDING;
    }
    l = ((uint64_t)p[0] << 8) | p[1];
    if (l == 0) {
        if (n < 6) {
            return SC_ERR_PADDING;
        }
        l = ((uint64_t)p[2] << 24) | ((uint64_t)p[3] << 16) | ((uint64_t)p[4] << 8) | p[5];
        pre = 6;
        if (l < 65536) {
            return SC_ERR_PADDING;
        }
    }
    if ((uint64_t)n != pre + model_padded_len(l)) {
        return SC_ERR_PADDING;
    }
    *off = pre;
    *len = (size_t)l;
    return SC_OK;
}

/* ---- one decryption, checked against the contract ----------------------------------------- */

typedef struct outcome {
    sc_status st;
    size_t len;
    uint8_t *out; /* cap bytes (NULL after free) */
    size_t cap;
} outcome;

/* The decoded length of the payload when it is valid base64, else SIZE_MAX. */
static size_t decoded_len(const char *payload, size_t plen)
{
    size_t cap = sc_base64_decode_max(plen), n = 0;
    uint8_t *tmp = fz_alloc(cap);
    sc_status st = sc_base64_decode(cap != 0 ? tmp : NULL, cap, &n, payload, plen);

    free(tmp);
    return st == SC_OK ? n : (size_t)-1;
}

/* Set by the mode byte: also check the short-buffer path and the held-conversation form. */
static int extra_checks;

static void decrypt_checked(sc_ctx *ctx, const uint8_t ck[32], const char *payload, size_t plen,
                            size_t max_payload, outcome *o)
{
    size_t cap = sc_nip44_decrypt_max(plen), n = decoded_len(payload, plen), small = 0;
    size_t limit = max_payload != 0 ? max_payload : SC_NIP44_DEFAULT_MAX_PAYLOAD;
    sc_nip44_conversation conv;
    outcome held;
    int early;

    o->cap = cap;
    o->out = fz_alloc(cap);
    o->len = 7;
    o->st = sc_nip44_decrypt(ctx, cap != 0 ? o->out : NULL, cap, &o->len, ck, payload, plen,
                             max_payload);
    FZ_STATUS_IN(o->st, SC_OK, SC_ERR_VERSION, SC_ERR_TOO_LARGE, SC_ERR_PAYLOAD_SIZE, SC_ERR_BASE64,
                 SC_ERR_MAC, SC_ERR_PADDING);
    /* the checks before decoding, in the spec's order */
    early = plen == 0 || payload[0] == '#' || plen > limit || plen < SC_NIP44_MIN_PAYLOAD;
    if (plen == 0 || payload[0] == '#') {
        FZ_REQUIRE(o->st == SC_ERR_VERSION);
    } else if (plen > limit) {
        FZ_REQUIRE(o->st == SC_ERR_TOO_LARGE);
    } else if (plen < SC_NIP44_MIN_PAYLOAD) {
        FZ_REQUIRE(o->st == SC_ERR_PAYLOAD_SIZE);
    } else if (n == (size_t)-1) {
        FZ_REQUIRE(o->st == SC_ERR_BASE64);
    }
    if (o->st == SC_OK) {
        FZ_REQUIRE(n != (size_t)-1 && o->len >= 1 && o->len <= n);
        FZ_REQUIRE(fz_all_zero(o->out + o->len, n - o->len));
        FZ_REQUIRE(fz_all_equal(o->out + n, cap - n, FZ_CANARY));
    } else {
        FZ_REQUIRE(o->len == 0);
        if (early) {
            FZ_REQUIRE(fz_all_equal(o->out, cap != 0 ? cap : 1, FZ_CANARY));
        } else {
            FZ_REQUIRE(fz_all_zero_or(o->out, cap, FZ_CANARY));
            if (n != (size_t)-1) {
                FZ_REQUIRE(fz_all_equal(o->out + n, cap - n, FZ_CANARY));
            }
        }
    }
    if (!extra_checks) {
        return;
    }
    /* one byte short of the bound: the bound is reported once the early checks pass */
    if (!early && cap > 0) {
        uint8_t *s = fz_alloc(cap - 1);

        FZ_REQUIRE(sc_nip44_decrypt(ctx, cap - 1 != 0 ? s : NULL, cap - 1, &small, ck, payload,
                                    plen, max_payload) == SC_ERR_BUFFER_TOO_SMALL);
        FZ_REQUIRE(small == cap && fz_all_equal(s, cap - 1 != 0 ? cap - 1 : 1, FZ_CANARY));
        free(s);
    }
    /* the held form is the same function */
    FZ_REQUIRE(sc_nip44_conversation_init_key(&conv, ck) == SC_OK);
    held.out = fz_alloc(cap);
    held.len = 7;
    held.st = sc_nip44_conversation_decrypt(ctx, cap != 0 ? held.out : NULL, cap, &held.len, &conv,
                                            payload, plen, max_payload);
    FZ_REQUIRE(held.st == o->st && held.len == o->len);
    FZ_REQUIRE(memcmp(held.out, o->out, cap != 0 ? cap : 1) == 0);
    sc_nip44_conversation_clear(&conv);
    free(held.out);
}

static void outcome_free(outcome *o)
{
    free(o->out);
    o->out = NULL;
}

/* ---- the cases ------------------------------------------------------------------------------ */

static void case_raw(sc_ctx *ctx, int variant, fz_in *in)
{
    char *payload = (char *)fz_dup(in->p, in->n);
    size_t max = (variant && in->n >= 2) ? in->n - 1 : 0;
    outcome o;

    decrypt_checked(ctx, fz_conv(0, 1), payload, in->n, max, &o);
    outcome_free(&o);
    free(payload);
}

static void case_forged(sc_ctx *ctx, fz_in *in)
{
    uint8_t nonce[32], version = 2;
    size_t buf_len = 0, plen = 0, off = 0, len = 0;
    const uint8_t *buf;
    char *payload;
    outcome o;
    sc_status want;

    if (fz_u8(in) & 1) {
        version = fz_u8(in);
    }
    fz_bytes(in, nonce, 32);
    buf = fz_take(in, in->n, &buf_len);
    payload = fz_nip44_forge(ctx, fz_conv(1, 0), nonce, version, buf, buf_len, &plen);
    FZ_REQUIRE(payload != NULL);
    decrypt_checked(ctx, fz_conv(0, 1), payload, plen, 0, &o);
    if (plen < SC_NIP44_MIN_PAYLOAD || 1 + 32 + buf_len + 32 < 99) {
        want = SC_ERR_PAYLOAD_SIZE; /* the payload, then the decoded data, as the spec orders */
    } else if (version != 2) {
        want = SC_ERR_VERSION;
    } else {
        want = model_unpad(buf, buf_len, &off, &len);
    }
    FZ_REQUIRE(o.st == want);
    if (want == SC_OK) {
        FZ_REQUIRE(o.len == len && memcmp(o.out, buf + off, len) == 0);
    }
    outcome_free(&o);
    free(payload);
}

static void case_valid(sc_ctx *ctx, int variant, fz_in *in)
{
    uint8_t nonce[32], fill;
    size_t len = 0, padded_len = 0, plen = 0, want_len, got = 0, i;
    const uint8_t *pt;
    uint8_t *big = NULL, *padded;
    char *payload, *enc;
    outcome o;

    fz_bytes(in, nonce, 32);
    fill = fz_u8(in);
    pt = fz_take(in, in->n, &len);
    if (len == 0) {
        return;
    }
    if (len >= 4 && pt[0] == 0xff && pt[1] == 0xff && pt[2] == 0xff && pt[3] == 0xfe) {
        /* the extended prefix: the input repeated past 65535 bytes (a four-byte marker, as
         * these inputs cost a hundred times more than the others) */
        size_t want = 65536 + (len > 4 ? pt[4] : 0);

        big = fz_alloc(want);
        for (i = 0; i < want; i++) {
            big[i] = pt[i % len];
        }
        pt = big;
        len = want;
    }
    padded = fz_nip44_pad(pt, len, &padded_len);
    FZ_REQUIRE(padded != NULL);
    FZ_REQUIRE(sc_nip44_padded_len(len) == model_padded_len(len));
    memset(padded + (len >= 65536 ? 6 : 2) + len, fill, padded_len - (len >= 65536 ? 6 : 2) - len);
    payload = fz_nip44_forge(ctx, fz_conv(1, 0), nonce, 2, padded, padded_len, &plen);
    FZ_REQUIRE(payload != NULL);
    want_len = sc_nip44_encrypt_len(len);
    FZ_REQUIRE(plen == want_len);
    if (fill == 0) {
        /* the library's encryption writes exactly this payload */
        enc = (char *)fz_alloc(want_len);
        FZ_REQUIRE(sc_nip44_encrypt_with_rand(ctx, enc, want_len, &got, fz_conv(1, 0), nonce, pt,
                                              len, len >= 65536 ? SC_NIP44_EXTENDED : 0) == SC_OK);
        FZ_REQUIRE(got == plen && memcmp(enc, payload, plen) == 0);
        free(enc);
    }
    decrypt_checked(ctx, fz_conv(0, 1), payload, plen, 0, &o);
    FZ_REQUIRE(o.st == SC_OK && o.len == len && memcmp(o.out, pt, len) == 0);
    if (variant) {
        outcome f;

        f.cap = o.cap;
        f.out = fz_alloc(o.cap);
        f.st =
            sc_nip44_decrypt_from(ctx, f.out, f.cap, &f.len, fz_id(0), fz_pub(1), payload, plen, 0);
        FZ_REQUIRE(f.st == SC_OK && f.len == len && memcmp(f.out, o.out, o.cap) == 0);
        outcome_free(&f);
    }
    outcome_free(&o);
    free(payload);
    free(padded);
    free(big);
}

static void case_keys(sc_ctx *ctx, fz_in *in)
{
    uint8_t sec[32], pub[32], ck[32], ck_a[32], ck_b[32], mine[32];
    sc_nip44_conversation conv, conv2;
    sc_identity id;
    sc_status st, st_id, st_sym;

    fz_bytes(in, sec, 32);
    fz_bytes(in, pub, 32);
    memset(ck, 0xa5, sizeof ck);
    st = sc_nip44_conversation_key(ctx, ck, sec, pub);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_INVALID_KEY);
    if (st != SC_OK) {
        FZ_REQUIRE(fz_all_zero(ck, 32));
    }
    /* sec against a known public key: valid exactly when sc_identity_import accepts sec */
    st_id = sc_identity_import(ctx, &id, sec);
    FZ_STATUS_IN(st_id, SC_OK, SC_ERR_INVALID_KEY);
    memset(ck_a, 0xa5, sizeof ck_a);
    st_sym = sc_nip44_conversation_key(ctx, ck_a, sec, fz_pub(0));
    FZ_REQUIRE(st_sym == st_id);
    if (st_id == SC_OK) {
        /* symmetry: conv(sec, P0) == conv(s0, pub(sec)) */
        FZ_REQUIRE(sc_identity_pubkey(mine, &id) == SC_OK);
        FZ_REQUIRE(sc_nip44_conversation_key(ctx, ck_b, fz_sec(0), mine) == SC_OK);
        FZ_REQUIRE(memcmp(ck_a, ck_b, 32) == 0);
        /* the held conversation of (id, pub) agrees with conversation_key(sec, pub) */
        st = sc_nip44_conversation_init(ctx, &conv, &id, pub);
        FZ_REQUIRE(st == sc_nip44_conversation_key(ctx, ck_b, sec, pub));
        if (st == SC_OK) {
            FZ_REQUIRE(sc_nip44_conversation_init_key(&conv2, ck_b) == SC_OK);
            FZ_REQUIRE(memcmp(&conv, &conv2, sizeof conv) == 0);
            FZ_REQUIRE(memcmp(ck, ck_b, 32) == 0);
        } else {
            FZ_REQUIRE(st == SC_ERR_INVALID_KEY && fz_all_zero(&conv, sizeof conv));
        }
        sc_nip44_conversation_clear(&conv);
        sc_nip44_conversation_clear(&conv2);
    } else {
        FZ_REQUIRE(fz_all_zero(ck_a, 32) && fz_all_zero(&id, sizeof id));
        FZ_REQUIRE(sc_nip44_conversation_key(ctx, ck_b, sec, fz_pub(1)) == SC_ERR_INVALID_KEY);
    }
    sc_identity_clear(&id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t mode = fz_u8(&in);
    sc_ctx *ctx = fz_ctx(((mode >> 2) & 7u) % fz_backends());

    extra_checks = (mode >> 6) & 1;
    switch (mode & 3u) {
    case 0:
        case_raw(ctx, mode >> 7, &in);
        break;
    case 1:
        case_forged(ctx, &in);
        break;
    case 2:
        case_valid(ctx, mode >> 7, &in);
        break;
    default:
        case_keys(ctx, &in);
        break;
    }
    return 0;
}
