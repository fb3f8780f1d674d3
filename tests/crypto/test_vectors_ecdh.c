/* ECDH on secp256k1 against Wycheproof ecdh_secp256k1_test.json (752 cases).
 *
 * The library's ECDH (NIP-44) takes a 32-byte x-only public key and returns the raw shared
 * x, so each case's DER SubjectPublicKeyInfo is parsed (strict DER) down to its point's x:
 *  - valid/acceptable with a parsable point on the curve: ecdh_x(priv, x) must equal
 *    `shared` (the curve OID is not checked: x-only input cannot name a curve);
 *  - an x that does not lift to the curve must give SC_ERR_INVALID_KEY, whatever the label;
 *  - ASN.1 problems, points of other sizes, a wrong y under a valid x, and other curves'
 *    parameters cannot be expressed through x-only input: counted as not applicable.
 * The lift, on-curve and scalar-range decisions come from libsecp256k1's parsers (vt_secp.c),
 * self-checked on the generator and on every valid uncompressed point. */
#include "test_vectors.h"

#include <stdio.h>
#include <string.h>

#include "vt_secp.h"
#include "vt_spki.h"

#define WYCHE_ECDH_FILE "wycheproof/ecdh_secp256k1_test.json"

static const char na_asn1[] = "SPKI not strict DER: x-only input carries no ASN.1";
static const char na_point[] = "no SEC1 point with 32-byte coordinates (empty or another size)";
static const char na_wrong_y[] = "x lifts but (x, y) is off the curve: y is invisible to x-only";
static const char na_params[] = "x lifts but the SPKI names another curve: invisible to x-only";
static const char na_other[] = "invalid for a reason x-only input cannot show";

typedef struct ecdh_tally {
    size_t computed, rejected_x, rejected_sec, na_valid;
} ecdh_tally;

static void secp_self_check(void)
{
    static const uint8_t gx[32] = {0x79, 0xbe, 0x66, 0x7e, 0xf9, 0xdc, 0xbb, 0xac, 0x55, 0xa0, 0x62,
                                   0x95, 0xce, 0x87, 0x0b, 0x07, 0x02, 0x9b, 0xfc, 0xdb, 0x2d, 0xce,
                                   0x28, 0xd9, 0x59, 0xf2, 0x81, 0x5b, 0x16, 0xf8, 0x17, 0x98};
    static const uint8_t gy[32] = {0x48, 0x3a, 0xda, 0x77, 0x26, 0xa3, 0xc4, 0x65, 0x5d, 0xa4, 0xfb,
                                   0xfc, 0x0e, 0x11, 0x08, 0xa8, 0xfd, 0x17, 0xb4, 0x48, 0xa6, 0x85,
                                   0x54, 0x19, 0x9c, 0x47, 0xd0, 0x8f, 0xfb, 0x10, 0xd4, 0xb8};
    uint8_t y1[32], p[32], k[32];

    memcpy(y1, gy, 32);
    y1[31] ^= 1;
    memset(p, 0xff, 32);
    p[27] = 0xfe;
    p[28] = 0xff;
    p[29] = 0xff;
    p[30] = 0xfc;
    p[31] = 0x2f;
    assert_true(vt_secp_x_lifts(gx));
    assert_true(vt_secp_on_curve(gx, gy));
    assert_false(vt_secp_on_curve(gx, y1));
    assert_false(vt_secp_x_lifts(p)); /* x = p is out of range */
    memset(k, 0, 32);
    assert_false(vt_secp_scalar_ok(k));
    k[31] = 1;
    assert_true(vt_secp_scalar_ok(k));
}

/* Big-endian integer of any length (leading zeros allowed) into 32 bytes; 0 if too large. */
static int scalar32(const vt_bytes *in, uint8_t out[32])
{
    size_t skip = 0;

    while (skip < in->n && in->p[skip] == 0) {
        skip++;
    }
    if (in->n - skip > 32) {
        return 0;
    }
    memset(out, 0, 32);
    memcpy(out + 32 - (in->n - skip), in->p + skip, in->n - skip);
    return 1;
}

static void run_case(vt_env *env, vt_report *r, ecdh_tally *tl, const cJSON *t)
{
    sc_ctx_impl *impl = vt_impl(env);
    const char *result = vt_json_str(t, "result");
    vt_bytes pub, priv, shared;
    uint8_t sec[32], x[32];
    char h[128];
    vt_spki spki;
    vt_spki_result pr;
    long id = -1;
    int sec_ok, lifts, on_curve, valid;
    sc_status st, want;

    (void)vt_json_long(t, "tcId", &id);
    if (!vt_json_hex(t, "public", &pub) + !vt_json_hex(t, "private", &priv) +
                !vt_json_hex(t, "shared", &shared) !=
            0 ||
        result == NULL) {
        vt_case_fail(r, "tcId %ld: malformed case", id);
        goto out;
    }
    valid = strcmp(result, "invalid") != 0;
    pr = vt_spki_parse(pub.p, pub.n, &spki);
    if (pr != VT_SPKI_OK) {
        tl->na_valid += valid;
        vt_case_na(r, pr == VT_SPKI_BAD_DER ? na_asn1 : na_point);
        goto out;
    }
    sec_ok = scalar32(&priv, sec) && vt_secp_scalar_ok(sec);
    if (!sec_ok) {
        memset(sec, 0xff, 32); /* any out-of-range scalar */
    }
    lifts = vt_secp_x_lifts(spki.x);
    on_curve = spki.prefix == 0x04 ? vt_secp_on_curve(spki.x, spki.y) : lifts;
    if (!on_curve && strcmp(result, "valid") == 0) {
        vt_case_fail(r, "tcId %ld: the field check puts a valid point off the curve", id);
        goto out;
    }
    if (lifts && !on_curve) {
        tl->na_valid += valid;
        vt_case_na(r, na_wrong_y); /* e.g. an acceptable case whose y was modified */
        goto out;
    }
    if (lifts && !valid) {
        vt_case_na(r, !spki.secp256k1_named ? na_params : na_other);
        if (spki.secp256k1_named) {
            printf("[%s] %s: tcId %ld counted as: %s\n", env->backend, WYCHE_ECDH_FILE, id,
                   na_other);
        }
        goto out;
    }
    want = (!lifts || !sec_ok) ? SC_ERR_INVALID_KEY : SC_OK;
    st = impl->curve->ecdh_x(impl->st[SC_GROUP_CURVE], x, sec, spki.x);
    if (st != want) {
        vt_case_fail(r, "tcId %ld (%s): ecdh_x returned %s, expected %s", id, result,
                     sc_status_name(st), sc_status_name(want));
    } else if (want == SC_OK && (shared.n != 32 || memcmp(x, shared.p, 32) != 0)) {
        vt_case_fail(r, "tcId %ld: shared x %s", id, vt_hexstr(h, sizeof h, x, 32));
    } else {
        vt_case_pass(r);
        if (want == SC_OK) {
            tl->computed++;
        } else if (!lifts) {
            tl->rejected_x++;
        } else {
            tl->rejected_sec++;
        }
    }
out:
    vt_bytes_free(&pub);
    vt_bytes_free(&priv);
    vt_bytes_free(&shared);
}

void test_ecdh_wycheproof(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *g, *t;
    cJSON *root;
    vt_report r;
    ecdh_tally tl;
    long declared = 0;

    vt_need_cap(env, SC_CAP_SECP256K1, WYCHE_ECDH_FILE);
    secp_self_check();
    root = vt_need_upstream(env, WYCHE_ECDH_FILE);
    vt_report_init(&r, env->backend, WYCHE_ECDH_FILE);
    memset(&tl, 0, sizeof tl);
    (void)vt_json_long(root, "numberOfTests", &declared);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups"))
    {
        const char *curve = vt_json_str(g, "curve");

        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            if (curve == NULL || strcmp(curve, "secp256k1") != 0) {
                vt_case_na(&r, "group for another curve");
                continue;
            }
            run_case(env, &r, &tl, t);
        }
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail,
             "shared x matched %zu, non-lifting x rejected %zu, bad scalar rejected %zu; "
             "%zu of the n/a are valid/acceptable",
             tl.computed, tl.rejected_x, tl.rejected_sec, tl.na_valid);
    vt_report_finish(&r, (size_t)declared);
}
