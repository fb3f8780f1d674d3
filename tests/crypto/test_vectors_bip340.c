/* BIP-340 Schnorr signatures: all 19 rows of the official CSV through the curve group. Rows
 * with a secret key must give the listed public key and, signed with the listed aux_rand,
 * exactly the listed signature (messages of any length: rows 15-18 have 0, 1, 17 and 100
 * bytes). Every row's verification must give the listed TRUE/FALSE (SC_OK or
 * SC_ERR_INVALID_SIG). */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIP340_FILE "bip340.test-vectors.csv"
#define BIP340_ROWS 19
#define BIP340_FIELDS 8

/* Splits line into exactly BIP340_FIELDS comma-separated fields (the file quotes nothing). */
static int split_row(char *line, char *fields[BIP340_FIELDS])
{
    size_t n = 0;
    char *p = line;

    fields[n++] = p;
    for (; *p != '\0'; p++) {
        if (*p == ',') {
            *p = '\0';
            if (n == BIP340_FIELDS) {
                return 0;
            }
            fields[n++] = p + 1;
        }
    }
    return n == BIP340_FIELDS;
}

static int hex_field(const char *s, vt_bytes *out, size_t want_len)
{
    return vt_hex_to_bytes(s, out) && (want_len == (size_t)-1 || out->n == want_len);
}

/* Checks one row; 1 on success, else 0 with err. */
static int run_row(vt_env *env, char *fields[BIP340_FIELDS], int *signed_row, char *err, size_t cap)
{
    sc_ctx_impl *impl = vt_impl(env);
    const sc_backend_curve *k = impl->curve;
    sc_bstate *st = impl->st[SC_GROUP_CURVE];
    vt_bytes sec = {0}, pub = {0}, aux = {0}, msg = {0}, sig = {0};
    int expect_true = strcmp(fields[6], "TRUE") == 0, ok = 0;
    uint8_t got_pub[32], got_sig[64];
    sc_curve_keypair kp;
    char h[160];
    sc_status s;

    *signed_row = fields[1][0] != '\0';
    if ((*signed_row && (!hex_field(fields[1], &sec, 32) || !hex_field(fields[3], &aux, 32))) ||
        !hex_field(fields[2], &pub, 32) || !hex_field(fields[4], &msg, (size_t)-1) ||
        !hex_field(fields[5], &sig, 64) || (!expect_true && strcmp(fields[6], "FALSE") != 0)) {
        snprintf(err, cap, "malformed row");
        goto out;
    }
    if (*signed_row) {
        s = k->keypair(st, &kp, got_pub, sec.p);
        if (s != SC_OK || memcmp(got_pub, pub.p, 32) != 0) {
            snprintf(err, cap, "keypair: %s, pub %s", sc_status_name(s),
                     vt_hexstr(h, sizeof h, got_pub, 32));
            goto out;
        }
        s = k->sign(st, got_sig, &kp, msg.p, msg.n, aux.p);
        sc_mem_wipe(&kp, sizeof kp);
        if (s != SC_OK || memcmp(got_sig, sig.p, 64) != 0) {
            snprintf(err, cap, "sign (msg %zu bytes): %s, sig %s", msg.n, sc_status_name(s),
                     vt_hexstr(h, sizeof h, got_sig, 64));
            goto out;
        }
    }
    s = k->verify(st, sig.p, msg.p, msg.n, pub.p);
    if (s != (expect_true ? SC_OK : SC_ERR_INVALID_SIG)) {
        snprintf(err, cap, "verify returned %s, expected %s (%s)", sc_status_name(s),
                 expect_true ? "SC_OK" : "SC_ERR_INVALID_SIG", fields[7]);
        goto out;
    }
    ok = 1;
out:
    vt_bytes_free(&sec);
    vt_bytes_free(&pub);
    vt_bytes_free(&aux);
    vt_bytes_free(&msg);
    vt_bytes_free(&sig);
    return ok;
}

void test_bip340_csv(void **state)
{
    vt_env *env = vt_env_of(state);
    char *text, *line, *next, *fields[BIP340_FIELDS], err[512];
    size_t signed_rows = 0, verify_only = 0;
    vt_report r;

    vt_need_cap(env, SC_CAP_SECP256K1, BIP340_FILE);
    text = vt_upstream_text(env->backend, env->vectors_dir, env->vectors_present, BIP340_FILE);
    vt_report_init(&r, env->backend, BIP340_FILE);
    for (line = text; line != NULL && *line != '\0'; line = next) {
        size_t len = strcspn(line, "\r\n");
        int signed_row = 0;

        next = line[len] != '\0' ? line + len + 1 + (line[len] == '\r' && line[len + 1] == '\n')
                                 : NULL;
        line[len] = '\0';
        if (len == 0 || strncmp(line, "index,", 6) == 0) {
            continue; /* header or blank line */
        }
        if (!split_row(line, fields)) {
            vt_case_fail(&r, "row \"%.20s...\": not %d fields", line, BIP340_FIELDS);
        } else if (!run_row(env, fields, &signed_row, err, sizeof err)) {
            vt_case_fail(&r, "row %s: %s", fields[0], err);
        } else {
            vt_case_pass(&r);
            signed_rows += signed_row;
            verify_only += !signed_row;
        }
    }
    free(text);
    snprintf(r.detail, sizeof r.detail, "%zu keypair+sign+verify, %zu verify only", signed_rows,
             verify_only);
    vt_report_finish(&r, BIP340_ROWS);
}
