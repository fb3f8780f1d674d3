/* SHA-256: the FIPS 180 / RFC 6234 examples (incl. one million 'a') and the project's own
 * cases, each one-shot and incremental with uneven chunks. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHA_FILE "rfc/sha256-examples.json"
#define OWN_SHA_LABEL "vectors/" VT_OWN_FILE " sha256"

/* Incremental hash of msg in chunks whose sizes cycle through an uneven pattern. */
static sc_status sha256_chunked(sc_ctx *ctx, uint8_t out[32], const uint8_t *msg, size_t len,
                                size_t salt)
{
    static const size_t pattern[] = {1, 63, 64, 65, 0, 127, 3, 128, 200, 55, 56, 4096, 7};
    sc_sha256_state s;
    size_t off = 0, i = salt;
    sc_status st = sc_crypto_sha256_init(ctx, &s);

    while (st == SC_OK && off < len) {
        size_t n = pattern[i++ % (sizeof pattern / sizeof pattern[0])];
        if (n > len - off) {
            n = len - off;
        }
        st = sc_crypto_sha256_update(ctx, &s, msg + off, n);
        off += n;
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(ctx, &s, out);
    }
    return st;
}

/* Checks one message one-shot and incremental; 1 when both give `want`, else 0 with err. */
static int check_sha(vt_env *env, const uint8_t *msg, size_t len, const vt_bytes *want, char *err,
                     size_t cap)
{
    uint8_t one[32], inc[32];
    char h1[128], h2[128];
    sc_status s1, s2;

    if (want->n != 32) {
        snprintf(err, cap, "digest is %zu bytes, not 32", want->n);
        return 0;
    }
    s1 = sc_crypto_sha256(&env->ctx, one, msg, len);
    s2 = sha256_chunked(&env->ctx, inc, msg, len, len);
    if (s1 != SC_OK || s2 != SC_OK) {
        snprintf(err, cap, "one-shot %s, incremental %s", sc_status_name(s1), sc_status_name(s2));
        return 0;
    }
    if (memcmp(one, want->p, 32) != 0 || memcmp(inc, want->p, 32) != 0) {
        snprintf(err, cap, "len %zu: one-shot %s incremental %s", len,
                 vt_hexstr(h1, sizeof h1, one, 32), vt_hexstr(h2, sizeof h2, inc, 32));
        return 0;
    }
    return 1;
}

/* The state is plain copyable memory: fork it mid-message and finish both copies. */
static int check_sha_copy(vt_env *env, const uint8_t *msg, size_t len, const vt_bytes *want)
{
    sc_sha256_state a, b;
    uint8_t da[32], db[32];
    size_t half = len / 2;
    int ok = sc_crypto_sha256_init(&env->ctx, &a) == SC_OK &&
             sc_crypto_sha256_update(&env->ctx, &a, msg, half) == SC_OK;

    memcpy(&b, &a, sizeof a);
    ok = ok && sc_crypto_sha256_update(&env->ctx, &a, msg + half, len - half) == SC_OK &&
         sc_crypto_sha256_update(&env->ctx, &b, msg + half, len - half) == SC_OK &&
         sc_crypto_sha256_final(&env->ctx, &a, da) == SC_OK &&
         sc_crypto_sha256_final(&env->ctx, &b, db) == SC_OK;
    return ok && memcmp(da, want->p, 32) == 0 && memcmp(db, want->p, 32) == 0;
}

void test_sha256_examples(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;

    vt_need_cap(env, SC_CAP_SHA256, SHA_FILE);
    root = vt_need_upstream(env, SHA_FILE);
    vt_report_init(&r, env->backend, SHA_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases"))
    {
        const char *name = vt_json_str(c, "name");
        vt_bytes unit, want, msg;
        char err[256];
        long repeat = 1, i;

        if (!vt_json_hex(c, "message", &unit) || !vt_json_hex(c, "digest", &want)) {
            vt_bytes_free(&unit);
            vt_case_fail(&r, "%s: malformed case", name != NULL ? name : "?");
            continue;
        }
        (void)vt_json_long(c, "repeat", &repeat);
        msg.n = unit.n * (size_t)repeat;
        msg.p = vt_alloc(msg.n);
        for (i = 0; i < repeat; i++) {
            memcpy(msg.p + (size_t)i * unit.n, unit.p, unit.n);
        }
        if (check_sha(env, msg.p, msg.n, &want, err, sizeof err)) {
            vt_case_pass(&r);
        } else {
            vt_case_fail(&r, "%s: %s", name != NULL ? name : "?", err);
        }
        vt_bytes_free(&msg);
        vt_bytes_free(&unit);
        vt_bytes_free(&want);
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 5);
}

void test_own_sha256(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *cases, *c;
    vt_report r;

    vt_need_cap(env, SC_CAP_SHA256, OWN_SHA_LABEL);
    cases = vt_need_own(env, "sha256");
    vt_report_init(&r, env->backend, OWN_SHA_LABEL);
    cJSON_ArrayForEach(c, cases)
    {
        vt_bytes msg, want;
        char err[256];

        if (!vt_json_hex(c, "msg", &msg) || !vt_json_hex(c, "digest", &want)) {
            vt_bytes_free(&msg);
            vt_case_fail(&r, "malformed case");
            continue;
        }
        if (!check_sha(env, msg.p, msg.n, &want, err, sizeof err)) {
            vt_case_fail(&r, "%s", err);
        } else if (!check_sha_copy(env, msg.p, msg.n, &want)) {
            vt_case_fail(&r, "len %zu: a copied mid-message state gives another digest", msg.n);
        } else {
            vt_case_pass(&r);
        }
        vt_bytes_free(&msg);
        vt_bytes_free(&want);
    }
    vt_report_finish(&r, 0);
}
