/* Cross-backend agreement of the curve group: keypairs, BIP-340 sign with A / verify with B
 * (and identical signatures for the same aux), and ECDH x equality. */
#include "test_cross.h"

#include <stdio.h>
#include <string.h>

static const uint8_t order_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};

typedef struct curve_ref {
    const sc_backend_curve *k;
    sc_bstate *st;
} curve_ref;

static curve_ref curve_of(xc_env *x, size_t i)
{
    sc_ctx_impl *c = sc_ctx_impl_get(&x->ctx[i]);
    curve_ref r;

    r.k = c->curve;
    r.st = c->st[SC_GROUP_CURVE];
    return r;
}

/* Pairs where both sides have the curve; reports and skips when there are none. */
static int both_curve(xc_env *x, size_t a, size_t b)
{
    return xc_has(x, a, SC_CAP_SECP256K1) && xc_has(x, b, SC_CAP_SECP256K1);
}

static void done(const char *what, size_t pairs, size_t cases)
{
    printf("[cross] %s: %zu pair(s), %zu cases agreed\n", what, pairs, cases);
    fflush(stdout);
    if (cases == 0) {
        skip();
    }
}

/* A random valid secret key and its keypair on backend i. */
static void random_key(curve_ref c, uint8_t sec[32], sc_curve_keypair *kp, uint8_t pub[32])
{
    do {
        vt_rand_bytes(sec, 32);
    } while (c.k->keypair(c.st, kp, pub, sec) != SC_OK);
}

void test_cross_keypair(void **state)
{
    xc_env *x = (xc_env *)*state;
    size_t p, a, b, k, pairs = 0, cases = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        curve_ref ca, cb;
        uint8_t edge[6][32];

        if (!both_curve(x, a, b)) {
            continue;
        }
        ca = curve_of(x, a);
        cb = curve_of(x, b);
        pairs++;
        memset(edge, 0, sizeof edge);
        edge[1][31] = 1;              /* 1 */
        memcpy(edge[2], order_n, 32); /* n - 1 */
        edge[2][31]--;
        memcpy(edge[3], order_n, 32); /* n */
        memcpy(edge[4], order_n, 32); /* n + 1 */
        edge[4][31]++;
        memset(edge[5], 0xff, 32); /* 2^256 - 1 */
        for (k = 0; k < XC_ROUNDS + 6; k++) {
            uint8_t sec[32], pa[32], pb[32];
            sc_curve_keypair ka, kb;
            sc_status sa, sb;

            if (k < 6) {
                memcpy(sec, edge[k], 32);
            } else {
                vt_rand_bytes(sec, 32);
            }
            sa = ca.k->keypair(ca.st, &ka, pa, sec);
            sb = cb.k->keypair(cb.st, &kb, pb, sec);
            VT_ASSERT_STATUS(sb, sa);
            if (k < 6) {
                VT_ASSERT_STATUS(sa, (k == 1 || k == 2) ? SC_OK : SC_ERR_INVALID_KEY);
            }
            if (sa == SC_OK && memcmp(pa, pb, 32) != 0) {
                fail_msg("keypair: %s and %s give different public keys", x->name[a], x->name[b]);
            }
            cases++;
        }
    }
    done("keypair (random and edge scalars)", pairs, cases);
}

void test_cross_bip340(void **state)
{
    xc_env *x = (xc_env *)*state;
    size_t p, a, b, k, pairs = 0, cases = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        curve_ref ca, cb;

        if (!both_curve(x, a, b)) {
            continue;
        }
        ca = curve_of(x, a);
        cb = curve_of(x, b);
        pairs++;
        for (k = 0; k < XC_ROUNDS; k++) {
            uint8_t sec[32], pub[32], pub_b[32], aux[32], msg[100], s1[64], s2[64];
            size_t len = k % 2 == 0 ? 32 : vt_rand_below(101);
            sc_curve_keypair ka, kb;

            random_key(ca, sec, &ka, pub);
            VT_ASSERT_STATUS(cb.k->keypair(cb.st, &kb, pub_b, sec), SC_OK);
            vt_rand_bytes(aux, 32);
            vt_rand_bytes(msg, len);
            VT_ASSERT_STATUS(ca.k->sign(ca.st, s1, &ka, msg, len, aux), SC_OK);
            VT_ASSERT_STATUS(cb.k->verify(cb.st, s1, msg, len, pub), SC_OK);
            VT_ASSERT_STATUS(cb.k->sign(cb.st, s2, &kb, msg, len, aux), SC_OK);
            if (memcmp(s1, s2, 64) != 0) {
                fail_msg("bip340 msg %zu: %s and %s sign differently with the same aux", len,
                         x->name[a], x->name[b]);
            }
            s1[vt_rand_below(64)] ^= (uint8_t)(1u << vt_rand_below(8));
            VT_ASSERT_STATUS(cb.k->verify(cb.st, s1, msg, len, pub), SC_ERR_INVALID_SIG);
            VT_ASSERT_STATUS(ca.k->verify(ca.st, s1, msg, len, pub), SC_ERR_INVALID_SIG);
            sc_mem_wipe(&ka, sizeof ka);
            sc_mem_wipe(&kb, sizeof kb);
            cases++;
        }
    }
    done("bip340 (sign A / verify B, random message lengths)", pairs, cases);
}

void test_cross_ecdh(void **state)
{
    xc_env *x = (xc_env *)*state;
    size_t p, a, b, k, pairs = 0, cases = 0, rejected = 0;

    for (p = 0; xc_pair(x, p, &a, &b); p++) {
        curve_ref ca, cb;

        if (!both_curve(x, a, b)) {
            continue;
        }
        ca = curve_of(x, a);
        cb = curve_of(x, b);
        pairs++;
        for (k = 0; k < XC_ROUNDS; k++) {
            uint8_t sa[32], sb[32], pa[32], pb[32], x1[32], x2[32], x3[32], rx[32];
            sc_curve_keypair ka, kb;
            sc_status r1, r2;

            random_key(ca, sa, &ka, pa);
            random_key(cb, sb, &kb, pb);
            VT_ASSERT_STATUS(ca.k->ecdh_x(ca.st, x1, sa, pb), SC_OK);
            VT_ASSERT_STATUS(cb.k->ecdh_x(cb.st, x2, sb, pa), SC_OK);
            VT_ASSERT_STATUS(cb.k->ecdh_x(cb.st, x3, sa, pb), SC_OK);
            if (memcmp(x1, x2, 32) != 0 || memcmp(x1, x3, 32) != 0) {
                fail_msg("ecdh: %s and %s disagree on the shared x", x->name[a], x->name[b]);
            }
            /* a random x (about half lift to the curve): same status, same output */
            vt_rand_bytes(rx, 32);
            r1 = ca.k->ecdh_x(ca.st, x1, sa, rx);
            r2 = cb.k->ecdh_x(cb.st, x2, sa, rx);
            VT_ASSERT_STATUS(r2, r1);
            if (r1 == SC_OK && memcmp(x1, x2, 32) != 0) {
                fail_msg("ecdh with a random x: %s and %s disagree", x->name[a], x->name[b]);
            }
            rejected += r1 != SC_OK;
            sc_mem_wipe(&ka, sizeof ka);
            sc_mem_wipe(&kb, sizeof kb);
            cases++;
        }
    }
    printf("[cross] ecdh: %zu random x values rejected alike by both sides\n", rejected);
    done("ecdh_x (A(a, B.pub) == B(b, A.pub), random x)", pairs, cases);
}
