/* Cross-backend agreement of the symmetric primitives: SHA-256 (incl. incremental with random
 * split points), HMAC (random key lengths 0..200, random part splits), HKDF, ChaCha20 (random
 * counters and lengths), AES-256-GCM (seal with A, open with B, 12- and 16-byte IVs),
 * XChaCha20-Poly1305 (seal with A, open with B) and scrypt (small random costs). */
#include "test_cross.h"

#include <stdio.h>
#include <string.h>

#define XC_BUF 1600

/* Random cut of len bytes into up to max_parts parts (some may be empty). */
static size_t random_parts(sc_iov *parts, size_t max_parts, const uint8_t *p, size_t len)
{
    size_t n = 1 + vt_rand_below(max_parts), i, off = 0;

    for (i = 0; i < n; i++) {
        size_t take = i + 1 == n ? len - off : vt_rand_below(len - off + 1);
        parts[i].data = p + off;
        parts[i].len = take;
        off += take;
    }
    return n;
}

static sc_status sha_split(sc_ctx *ctx, uint8_t out[32], const uint8_t *msg, size_t len)
{
    sc_iov parts[8];
    sc_sha256_state s;
    size_t n = random_parts(parts, 8, msg, len), i;
    sc_status st = sc_crypto_sha256_init(ctx, &s);

    for (i = 0; st == SC_OK && i < n; i++) {
        st = sc_crypto_sha256_update(ctx, &s, parts[i].data, parts[i].len);
    }
    return st == SC_OK ? sc_crypto_sha256_final(ctx, &s, out) : st;
}

static void report(const char *what, size_t pairs, size_t cases, size_t skipped_pairs,
                   const char *skip_why)
{
    printf("[cross] %s: %zu pair(s), %zu cases agreed", what, pairs, cases);
    if (skipped_pairs != 0) {
        printf(", %zu pair(s) skipped (%s)", skipped_pairs, skip_why);
    }
    printf("\n");
    fflush(stdout);
    if (cases == 0) {
        skip();
    }
}

void test_cross_sha256(void **state)
{
    xc_env *x = (xc_env *)*state;
    static uint8_t msg[XC_BUF];
    size_t p, a, b, k, cases = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        for (k = 0; k < XC_ROUNDS; k++) {
            uint8_t d[4][32];
            size_t len = vt_rand_below(k % 4 == 0 ? XC_BUF : 200);

            vt_rand_bytes(msg, len);
            VT_ASSERT_STATUS(sc_crypto_sha256(&x->ctx[a], d[0], msg, len), SC_OK);
            VT_ASSERT_STATUS(sha_split(&x->ctx[b], d[1], msg, len), SC_OK);
            VT_ASSERT_STATUS(sha_split(&x->ctx[a], d[2], msg, len), SC_OK);
            VT_ASSERT_STATUS(sc_crypto_sha256(&x->ctx[b], d[3], msg, len), SC_OK);
            if (memcmp(d[0], d[1], 32) || memcmp(d[0], d[2], 32) || memcmp(d[0], d[3], 32)) {
                fail_msg("sha256 of %zu bytes: %s and %s disagree", len, x->name[a], x->name[b]);
            }
            cases++;
        }
    }
    report("sha256 (one-shot vs random splits)", p, cases, 0, NULL);
}

void test_cross_hmac(void **state)
{
    xc_env *x = (xc_env *)*state;
    static uint8_t key[200], msg[XC_BUF];
    size_t p, a, b, k, cases = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        for (k = 0; k < XC_ROUNDS; k++) {
            sc_iov one, parts[8];
            uint8_t m1[32], m2[32];
            size_t klen = vt_rand_below(201), len = vt_rand_below(600), n;

            vt_rand_bytes(key, klen);
            vt_rand_bytes(msg, len);
            one.data = msg;
            one.len = len;
            n = random_parts(parts, 8, msg, len);
            VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&x->ctx[a], m1, key, klen, &one, 1), SC_OK);
            VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&x->ctx[b], m2, key, klen, parts, n), SC_OK);
            if (memcmp(m1, m2, 32) != 0) {
                fail_msg("hmac key %zu msg %zu (%zu parts): %s and %s disagree", klen, len, n,
                         x->name[a], x->name[b]);
            }
            cases++;
        }
    }
    report("hmac-sha256 (key 0..200, random parts)", p, cases, 0, NULL);
}

void test_cross_hkdf(void **state)
{
    xc_env *x = (xc_env *)*state;
    static uint8_t salt[80], ikm[100], info[100], o1[600], o2[600];
    size_t p, a, b, k, cases = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        for (k = 0; k < XC_ROUNDS; k++) {
            size_t sl = vt_rand_below(81), il = vt_rand_below(101), nl = vt_rand_below(101);
            size_t len = 1 + vt_rand_below(600);
            uint8_t p1[32], p2[32];

            vt_rand_bytes(salt, sl);
            vt_rand_bytes(ikm, il);
            vt_rand_bytes(info, nl);
            VT_ASSERT_STATUS(sc_crypto_hkdf_extract(&x->ctx[a], p1, salt, sl, ikm, il), SC_OK);
            VT_ASSERT_STATUS(sc_crypto_hkdf_extract(&x->ctx[b], p2, salt, sl, ikm, il), SC_OK);
            VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&x->ctx[a], o1, len, p1, 32, info, nl), SC_OK);
            VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&x->ctx[b], o2, len, p2, 32, info, nl), SC_OK);
            if (memcmp(p1, p2, 32) != 0 || memcmp(o1, o2, len) != 0) {
                fail_msg("hkdf salt %zu ikm %zu info %zu L %zu: %s and %s disagree", sl, il, nl,
                         len, x->name[a], x->name[b]);
            }
            cases++;
        }
    }
    report("hkdf-sha256", p, cases, 0, NULL);
}

void test_cross_chacha20(void **state)
{
    xc_env *x = (xc_env *)*state;
    static uint8_t in[XC_BUF], o1[XC_BUF], o2[XC_BUF];
    size_t p, a, b, k, cases = 0, zero_only = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        /* a backend without chacha20-counter starts at counter 0 only: compare there */
        int any = xc_has(x, a, SC_CAP_CHACHA20_COUNTER) && xc_has(x, b, SC_CAP_CHACHA20_COUNTER);

        zero_only += !any;
        for (k = 0; k < XC_ROUNDS; k++) {
            uint8_t key[32], nonce[12];
            size_t len = vt_rand_below(k % 3 == 0 ? XC_BUF : 300);
            uint64_t blocks = (len + 63) / 64, room = ((uint64_t)1 << 32) - blocks;
            uint32_t counter;

            switch (any ? k % 3 : 3) {
            case 3:
                counter = 0;
                break;
            case 0:
                counter = (uint32_t)vt_rand_below(1000);
                break;
            case 1: /* right at the top of the counter range */
                counter = (uint32_t)(room - vt_rand_below(3));
                break;
            default:
                counter = (uint32_t)(vt_rand_u64() % (room + 1));
                break;
            }
            vt_rand_bytes(key, 32);
            vt_rand_bytes(nonce, 12);
            vt_rand_bytes(in, len);
            memcpy(o2, in, len);
            VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&x->ctx[a], o1, in, len, key, nonce, counter),
                             SC_OK);
            VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&x->ctx[b], o2, o2, len, key, nonce, counter),
                             SC_OK);
            if (memcmp(o1, o2, len) != 0) {
                fail_msg("chacha20 len %zu counter %u: %s and %s disagree", len, counter,
                         x->name[a], x->name[b]);
            }
            cases++;
        }
    }
    report("chacha20 (random counters and lengths)", p, cases, 0, NULL);
    if (zero_only != 0) {
        printf("[cross] chacha20: %zu pair(s) compared at counter 0 only (a backend without "
               "chacha20-counter)\n",
               zero_only);
    }
}

/* AES-GCM of one random case: seal with a (one-shot, and streaming when a can) and with b,
 * open with b. */
static void gcm_pair_case(xc_env *x, size_t a, size_t b, size_t iv_len)
{
    static uint8_t pt[XC_BUF], c1[XC_BUF], c2[XC_BUF], back[XC_BUF];
    uint8_t key[32], iv[16], aad[64], t1[16], t2[16];
    size_t len = vt_rand_below(700), alen = vt_rand_below(65);
    const char *why = NULL;
    sc_ctx_impl *ia = sc_ctx_impl_get(&x->ctx[a]);

    vt_rand_bytes(key, 32);
    vt_rand_bytes(iv, iv_len);
    vt_rand_bytes(aad, alen);
    vt_rand_bytes(pt, len);
    VT_ASSERT_STATUS(
        sc_crypto_aes256gcm_seal(&x->ctx[a], c1, t1, key, iv, iv_len, aad, alen, pt, len), SC_OK);
    VT_ASSERT_STATUS(
        sc_crypto_aes256gcm_seal(&x->ctx[b], c2, t2, key, iv, iv_len, aad, alen, pt, len), SC_OK);
    if (memcmp(c1, c2, len) != 0 || memcmp(t1, t2, 16) != 0) {
        fail_msg("aes-gcm iv %zu len %zu: %s and %s seal differently", iv_len, len, x->name[a],
                 x->name[b]);
    }
    VT_ASSERT_STATUS(
        sc_crypto_aes256gcm_open(&x->ctx[b], back, key, iv, iv_len, aad, alen, c1, len, t1), SC_OK);
    assert_memory_equal(back, pt, len);
    t1[vt_rand_below(16)] ^= (uint8_t)(1u << vt_rand_below(8));
    VT_ASSERT_STATUS(
        sc_crypto_aes256gcm_open(&x->ctx[b], back, key, iv, iv_len, aad, alen, c1, len, t1),
        SC_ERR_AUTH);
    if (ia->aead->probe(SC_AEAD_STREAM, iv_len, &why) == SC_OK) {
        size_t off = 0;
        sc_status st = ia->aead->start(ia->st[SC_GROUP_AEAD], 0, key, iv, iv_len, aad, alen);

        while (st == SC_OK && off < len) {
            size_t n = 16 * (1 + vt_rand_below(8));
            n = n > len - off ? len - off : n;
            st = ia->aead->update(ia->st[SC_GROUP_AEAD], c1 + off, pt + off, n);
            off += n;
        }
        if (st == SC_OK) {
            st = ia->aead->final(ia->st[SC_GROUP_AEAD], 0, t1);
        } else {
            ia->aead->abort(ia->st[SC_GROUP_AEAD]);
        }
        VT_ASSERT_STATUS(st, SC_OK);
        if (memcmp(c1, c2, len) != 0 || memcmp(t1, t2, 16) != 0) {
            fail_msg("aes-gcm iv %zu len %zu: %s streaming and %s one-shot differ", iv_len, len,
                     x->name[a], x->name[b]);
        }
    }
}

void test_cross_aesgcm(void **state)
{
    xc_env *x = (xc_env *)*state;
    size_t p, a, b, k, iv, cases = 0, pairs = 0, skipped = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        for (iv = 12; iv <= 16; iv += 4) {
            sc_cap cap = iv == 12 ? SC_CAP_AES256GCM : SC_CAP_AES256GCM_IV16;

            if (!xc_has(x, a, cap) || !xc_has(x, b, cap)) {
                skipped++;
                continue;
            }
            pairs++;
            for (k = 0; k < XC_ROUNDS; k++) {
                gcm_pair_case(x, a, b, iv);
                cases++;
            }
        }
    }
    report("aes-256-gcm (seal A / open B; pair x IV length)", pairs, cases, skipped,
           "one side lacks that AES-GCM IV length");
}

void test_cross_xchacha20poly1305(void **state)
{
    xc_env *x = (xc_env *)*state;
    static uint8_t pt[XC_BUF], c1[XC_BUF], c2[XC_BUF], back[XC_BUF];
    size_t p, a, b, k, cases = 0, pairs = 0, skipped = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        if (!xc_has(x, a, SC_CAP_XCHACHA20POLY1305) || !xc_has(x, b, SC_CAP_XCHACHA20POLY1305)) {
            skipped++;
            continue;
        }
        pairs++;
        for (k = 0; k < XC_ROUNDS; k++, cases++) {
            uint8_t key[32], nonce[24], aad[64], t1[16], t2[16];
            size_t len = vt_rand_below(700), alen = vt_rand_below(65);

            vt_rand_bytes(key, 32);
            vt_rand_bytes(nonce, 24);
            vt_rand_bytes(aad, alen);
            vt_rand_bytes(pt, len);
            VT_ASSERT_STATUS(sc_crypto_xchacha20poly1305_seal(&x->ctx[a], c1, t1, key, nonce, aad,
                                                              alen, pt, len),
                             SC_OK);
            VT_ASSERT_STATUS(sc_crypto_xchacha20poly1305_seal(&x->ctx[b], c2, t2, key, nonce, aad,
                                                              alen, pt, len),
                             SC_OK);
            if (memcmp(c1, c2, len) != 0 || memcmp(t1, t2, 16) != 0) {
                fail_msg("xchacha20-poly1305 len %zu: %s and %s seal differently", len, x->name[a],
                         x->name[b]);
            }
            VT_ASSERT_STATUS(sc_crypto_xchacha20poly1305_open(&x->ctx[b], back, key, nonce, aad,
                                                              alen, c1, len, t1),
                             SC_OK);
            assert_memory_equal(back, pt, len);
            t1[vt_rand_below(16)] ^= (uint8_t)(1u << vt_rand_below(8));
            VT_ASSERT_STATUS(sc_crypto_xchacha20poly1305_open(&x->ctx[b], back, key, nonce, aad,
                                                              alen, c1, len, t1),
                             SC_ERR_AUTH);
        }
    }
    report("xchacha20-poly1305 (seal A / open B)", pairs, cases, skipped,
           "one side lacks XChaCha20-Poly1305");
}

void test_cross_scrypt(void **state)
{
    xc_env *x = (xc_env *)*state;
    size_t p, a, b, k, cases = 0, pairs = 0, skipped = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        if (!xc_has(x, a, SC_CAP_SCRYPT) || !xc_has(x, b, SC_CAP_SCRYPT)) {
            skipped++;
            continue;
        }
        pairs++;
        for (k = 0; k < 8; k++, cases++) {
            uint8_t pw[40], salt[40], d1[80], d2[80];
            size_t pw_len = vt_rand_below(41), salt_len = vt_rand_below(41),
                   out_len = 1 + vt_rand_below(80);
            unsigned log_n = 1 + (unsigned)vt_rand_below(8);
            uint32_t r = 1 + (uint32_t)vt_rand_below(8), pp = 1 + (uint32_t)vt_rand_below(3);

            vt_rand_bytes(pw, pw_len);
            vt_rand_bytes(salt, salt_len);
            VT_ASSERT_STATUS(
                sc_crypto_scrypt(&x->ctx[a], d1, out_len, pw, pw_len, salt, salt_len, log_n, r, pp),
                SC_OK);
            VT_ASSERT_STATUS(
                sc_crypto_scrypt(&x->ctx[b], d2, out_len, pw, pw_len, salt, salt_len, log_n, r, pp),
                SC_OK);
            if (memcmp(d1, d2, out_len) != 0) {
                fail_msg("scrypt log_n %u r %u p %u: %s and %s differ", log_n, (unsigned)r,
                         (unsigned)pp, x->name[a], x->name[b]);
            }
        }
    }
    report("scrypt (log_n 1..8, r 1..8, p 1..3)", pairs, cases, skipped, "one side lacks scrypt");
}
