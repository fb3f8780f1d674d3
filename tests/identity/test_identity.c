/* The identity suite for one backend:
 *   test_identity --backend NAME [--vectors DIR] [--own DIR]
 * Through the public identity API only: secret-key range checks at import, public keys and
 * signatures of the BIP-340 CSV (signing rows 0-3 with their aux_rand; verification of every
 * row with a 32-byte message, the only length the API signs), generation, erasure, and
 * argument checks (NULL is passed on purpose to parameters declared non-NULL). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <softchat/crypto.h>
#include <softchat/ctx.h>
#include <softchat/base64.h>
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/identity.h>

#include "vectors_util.h"

#define BIP340_FILE "bip340.test-vectors.csv"
#define BIP340_ROWS 19
#define FIELDS 8

typedef struct it_env {
    sc_ctx ctx;
    const char *backend;
    const char *vectors_dir;
    int vectors_present;
} it_env;

static it_env *env_of(void **state)
{
    return (it_env *)*state;
}

/* x of the generator G: the public key of 1 and of n - 1 */
static const char gx_hex[] = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
static const char n_hex[] = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

static void hex32(const char *hex, uint8_t out[32])
{
    vt_bytes b;

    if (!vt_hex_to_bytes(hex, &b) || b.n != 32) {
        fail_msg("bad test constant %s", hex);
    }
    memcpy(out, b.p, 32);
    vt_bytes_free(&b);
}

/* n + delta as 32 big-endian bytes (delta in -1..1). */
static void n_plus(int delta, uint8_t out[32])
{
    hex32(n_hex, out);
    out[31] = (uint8_t)(out[31] + delta); /* n ends in 0x41: no carry */
}

/* ---- the CSV ---------------------------------------------------------------------------- */

typedef struct row {
    char *f[FIELDS];
} row;

/* Reads the CSV into rows (the text is kept in *text); the number of data rows, or skips the
 * test (reported) when the file is absent. */
static size_t load_rows(it_env *env, char **text, row *rows, size_t max)
{
    char *line, *next;
    size_t n = 0;

    *text = vt_upstream_text(env->backend, env->vectors_dir, env->vectors_present, BIP340_FILE);
    for (line = *text; line != NULL && *line != '\0'; line = next) {
        size_t len = strcspn(line, "\r\n"), k = 0;
        char *p;

        next = line[len] != '\0' ? line + len + 1 : NULL;
        line[len] = '\0';
        if (len == 0 || strncmp(line, "index,", 6) == 0) {
            continue;
        }
        if (n == max) {
            fail_msg("%s: more than %zu rows", BIP340_FILE, max);
        }
        rows[n].f[k++] = line;
        for (p = line; *p != '\0'; p++) {
            if (*p == ',' && k < FIELDS) {
                *p = '\0';
                rows[n].f[k++] = p + 1;
            }
        }
        if (k != FIELDS) {
            fail_msg("%s: row \"%.20s\" has %zu fields", BIP340_FILE, line, k);
        }
        n++;
    }
    return n;
}

static int field(const row *rw, int i, uint8_t *out, size_t n)
{
    vt_bytes b;
    int ok = vt_hex_to_bytes(rw->f[i], &b) && b.n == n;

    if (ok) {
        memcpy(out, b.p, n);
    }
    vt_bytes_free(&b);
    return ok;
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_import_range(void **state)
{
    it_env *env = env_of(state);
    uint8_t sec[32], pub[32], gx[32], back[32];
    sc_identity id;
    vt_report r;
    int i;

    vt_report_init(&r, env->backend, "own: identity import range");
    hex32(gx_hex, gx);
    /* refused: 0, n, n + 1, 2^256 - 1; the identity is erased */
    for (i = 0; i < 4; i++) {
        const char *what[] = {"0", "n", "n + 1", "2^256 - 1"};
        sc_status st;

        memset(sec, i == 3 ? 0xff : 0, 32);
        if (i == 1 || i == 2) {
            n_plus(i - 1, sec);
        }
        memset(&id, 0x5a, sizeof id);
        st = sc_identity_import(&env->ctx, &id, sec);
        if (st != SC_ERR_INVALID_KEY || sc_identity_pubkey(pub, &id) != SC_ERR_STATE ||
            !vt_all_zero((const uint8_t *)&id, sizeof id)) {
            vt_case_fail(&r, "secret %s: %s (expected SC_ERR_INVALID_KEY and an erased id)",
                         what[i], sc_status_name(st));
        } else {
            vt_case_pass(&r);
        }
    }
    /* accepted: 1 and n - 1, both with public key x(G) */
    for (i = 0; i < 2; i++) {
        memset(sec, 0, 32);
        sec[31] = 1;
        if (i == 1) {
            n_plus(-1, sec);
        }
        if (sc_identity_import(&env->ctx, &id, sec) != SC_OK ||
            sc_identity_pubkey(pub, &id) != SC_OK || memcmp(pub, gx, 32) != 0 ||
            sc_identity_seckey(back, &id) != SC_OK || memcmp(back, sec, 32) != 0) {
            vt_case_fail(&r, "secret %s: not imported with public key x(G)",
                         i == 0 ? "1" : "n - 1");
        } else {
            vt_case_pass(&r);
        }
        sc_identity_clear(&id);
    }
    assert_int_equal(sc_identity_bytes(), sizeof(sc_identity));
    vt_report_finish(&r, 6);
}

static void test_bip340_rows(void **state)
{
    it_env *env = env_of(state);
    row rows[BIP340_ROWS + 1];
    char *text = NULL, h[160];
    size_t n = load_rows(env, &text, rows, BIP340_ROWS + 1), i, signed_rows = 0, verified = 0,
           pub_only = 0;
    vt_report r;

    vt_report_init(&r, env->backend, BIP340_FILE " (identity API)");
    for (i = 0; i < n; i++) {
        const row *rw = &rows[i];
        uint8_t sec[32], pub[32], aux[32], msg[32], sig[64], got_pub[32], got_sig[64];
        int has_sec = rw->f[1][0] != '\0', want_ok = strcmp(rw->f[6], "TRUE") == 0;
        sc_identity id;
        sc_status st;

        if (!field(rw, 2, pub, 32) || !field(rw, 5, sig, 64) ||
            (has_sec && (!field(rw, 1, sec, 32) || !field(rw, 3, aux, 32)))) {
            vt_case_fail(&r, "row %s: malformed", rw->f[0]);
            continue;
        }
        if (has_sec) {
            memset(got_pub, 0, sizeof got_pub);
            if ((st = sc_identity_import(&env->ctx, &id, sec)) != SC_OK ||
                (st = sc_identity_pubkey(got_pub, &id)) != SC_OK || memcmp(got_pub, pub, 32) != 0) {
                vt_case_fail(&r, "row %s: import/pubkey %s, pub %s", rw->f[0], sc_status_name(st),
                             vt_hexstr(h, sizeof h, got_pub, 32));
                sc_identity_clear(&id);
                continue;
            }
        }
        if (strlen(rw->f[4]) != 64 || !field(rw, 4, msg, 32)) {
            /* the identity API signs 32-byte event ids only: the public key is all that
             * applies here */
            sc_identity_clear(&id);
            if (has_sec) {
                pub_only++;
                vt_case_pass(&r);
            } else {
                vt_case_na(&r, "verify-only row with a message that is not 32 bytes");
            }
            continue;
        }
        if (has_sec) {
            st = sc_identity_sign_with_rand(&env->ctx, got_sig, &id, msg, aux);
            sc_identity_clear(&id);
            if (st != SC_OK || memcmp(got_sig, sig, 64) != 0) {
                vt_case_fail(&r, "row %s: sign_with_aux %s, sig %s", rw->f[0], sc_status_name(st),
                             vt_hexstr(h, sizeof h, got_sig, 64));
                continue;
            }
            signed_rows++;
        }
        st = sc_identity_verify(&env->ctx, sig, msg, pub);
        if (st != (want_ok ? SC_OK : SC_ERR_INVALID_SIG)) {
            vt_case_fail(&r, "row %s: verify %s, expected %s (%s)", rw->f[0], sc_status_name(st),
                         want_ok ? "SC_OK" : "SC_ERR_INVALID_SIG", rw->f[7]);
            continue;
        }
        verified++;
        vt_case_pass(&r);
    }
    free(text);
    snprintf(r.detail, sizeof r.detail,
             "%zu import+pubkey+sign_with_aux+verify, %zu verify only, %zu import+pubkey only "
             "(message not 32 bytes)",
             signed_rows, verified - signed_rows, pub_only);
    vt_report_finish(&r, BIP340_ROWS);
    if (signed_rows != 4) {
        fail_msg("expected rows 0-3 to be signed, signed %zu", signed_rows);
    }
}

static void test_generate(void **state)
{
    it_env *env = env_of(state);
    uint8_t s1[32], s2[32], p1[32], p2[32], p3[32], msg[32], sig[64];
    sc_identity a, b, c;

    memset(msg, 0x33, sizeof msg);
    VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, &a), SC_OK);
    VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, &b), SC_OK);
    VT_ASSERT_STATUS(sc_identity_seckey(s1, &a), SC_OK);
    VT_ASSERT_STATUS(sc_identity_seckey(s2, &b), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(p1, &a), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(p2, &b), SC_OK);
    assert_memory_not_equal(s1, s2, 32);
    assert_memory_not_equal(p1, p2, 32);
    assert_false(vt_all_zero(s1, 32));
    /* the cached public key is that of the secret key */
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &c, s1), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(p3, &c), SC_OK);
    assert_memory_equal(p1, p3, 32);
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, sig, &a, msg), SC_OK);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, sig, msg, p1), SC_OK);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, sig, msg, p2), SC_ERR_INVALID_SIG);
    sc_identity_clear(&a);
    sc_identity_clear(&b);
    sc_identity_clear(&c);
    sc_mem_wipe(s1, sizeof s1);
    sc_mem_wipe(s2, sizeof s2);
    printf("[%s] own: generate: 2 distinct keys, cached pubkey matches import, signs\n",
           env->backend);
}

static void test_erase(void **state)
{
    it_env *env = env_of(state);
    uint8_t sec[32] = {0}, pub[32], msg[32] = {0}, aux[32] = {0}, sig[64];
    sc_identity id, never;

    sec[31] = 9;
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, sec), SC_OK);
    sc_identity_clear(&id);
    assert_true(vt_all_zero((const uint8_t *)&id, sizeof id));
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &id), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_identity_seckey(sec, &id), SC_ERR_STATE);
    memset(sig, 0x5a, sizeof sig);
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, sig, &id, msg), SC_ERR_STATE);
    assert_true(vt_all_zero(sig, sizeof sig));
    memset(sig, 0x5a, sizeof sig);
    VT_ASSERT_STATUS(sc_identity_sign_with_rand(&env->ctx, sig, &id, msg, aux), SC_ERR_STATE);
    assert_true(vt_all_zero(sig, sizeof sig));
    memset(&never, 0, sizeof never);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &never), SC_ERR_STATE);
    sc_identity_clear(NULL);
    printf("[%s] own: erase: pubkey, seckey, sign, sign_with_aux give SC_ERR_STATE\n",
           env->backend);
}

static void test_sign_verify(void **state)
{
    it_env *env = env_of(state);
    uint8_t sec[32], pub[32], other[32], msg[32], s1[64], s2[64], bad[64];
    sc_identity id, id2;
    size_t i;

    for (i = 0; i < 32; i++) {
        sec[i] = (uint8_t)(i + 1);
        msg[i] = (uint8_t)(0xf0 ^ i);
    }
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &id), SC_OK);
    sec[0] ^= 1;
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id2, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(other, &id2), SC_OK);
    /* fresh aux each time: two different valid signatures */
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, s1, &id, msg), SC_OK);
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, s2, &id, msg), SC_OK);
    assert_memory_not_equal(s1, s2, 64);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, s1, msg, pub), SC_OK);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, s2, msg, pub), SC_OK);
    /* any bit of the signature, the message or the key */
    for (i = 0; i < 64; i += 7) {
        memcpy(bad, s1, 64);
        bad[i] ^= (uint8_t)(1u << (i % 8));
        VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, bad, msg, pub), SC_ERR_INVALID_SIG);
    }
    msg[31] ^= 1;
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, s1, msg, pub), SC_ERR_INVALID_SIG);
    msg[31] ^= 1;
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, s1, msg, other), SC_ERR_INVALID_SIG);
    memset(other, 0xff, 32); /* x >= p: not a key */
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, s1, msg, other), SC_ERR_INVALID_SIG);
    sc_identity_clear(&id);
    sc_identity_clear(&id2);
    printf("[%s] own: sign/verify: random aux differs, tampering is SC_ERR_INVALID_SIG\n",
           env->backend);
}

static void test_args(void **state)
{
    it_env *env = env_of(state);
    uint8_t *null = (uint8_t *)vt_null(), sec[32] = {0}, buf[64] = {0}, msg[32] = {0};
    sc_identity *idnull = (sc_identity *)vt_null(), id;
    sc_ctx dead;

    memset(&dead, 0, sizeof dead);
    sec[31] = 5;
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, idnull, sec), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, null), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_import(&dead, &id, sec), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, idnull), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_generate(&dead, &id), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(null, &id), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_pubkey(buf, idnull), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_seckey(null, &id), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, null, &id, msg), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, buf, idnull, msg), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_sign(&env->ctx, buf, &id, null), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_sign_with_rand(&env->ctx, buf, &id, msg, null), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_sign_with_rand(&dead, buf, &id, msg, msg), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, null, msg, msg), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, buf, null, msg), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, buf, msg, null), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_identity_verify(&dead, buf, msg, msg), SC_ERR_STATE);
    sc_identity_clear(&id);
    printf("[%s] own: identity argument and state checks passed\n", env->backend);
}

int main(int argc, char **argv)
{
    static it_env env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_import_range, &env),
        cmocka_unit_test_prestate(test_bip340_rows, &env),
        cmocka_unit_test_prestate(test_generate, &env),
        cmocka_unit_test_prestate(test_erase, &env),
        cmocka_unit_test_prestate(test_sign_verify, &env),
        cmocka_unit_test_prestate(test_args, &env),
    };
    vt_suite suite;
    int failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_identity", "identity",
                                BIP340_FILE " is", NULL, 0);

    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.vectors_dir = suite.vectors_dir;
    env.vectors_present = suite.vectors_present;
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
