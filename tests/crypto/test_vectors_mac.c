/* HMAC-SHA256: RFC 4231, Wycheproof (truncated tags compare a prefix; invalid tags must not
 * match) and the project's own key-length cases, each one-part and scattered over parts. */
#include "test_vectors.h"

#include <stdio.h>
#include <string.h>

#define RFC4231_FILE "rfc/rfc4231-hmac-sha256.json"
#define WYCHE_HMAC_FILE "wycheproof/hmac_sha256_test.json"
#define OWN_HMAC_LABEL "vectors/" VT_OWN_FILE " hmac_sha256"

/* HMAC over msg as one part, and as up to 4 parts cut at positions derived from `salt`
 * (some parts empty). 1 when both succeed and agree; the one-part tag goes to out. */
static int hmac_both(vt_env *env, uint8_t out[32], const vt_bytes *key, const vt_bytes *msg,
                     size_t salt, char *err, size_t cap)
{
    sc_iov one, parts[4];
    uint8_t split[32];
    size_t cut1 = msg->n ? (salt * 7) % (msg->n + 1) : 0;
    size_t cut2 = msg->n ? cut1 + (salt * 13) % (msg->n - cut1 + 1) : 0;
    sc_status s1, s2;

    one.data = msg->p;
    one.len = msg->n;
    parts[0].data = msg->p;
    parts[0].len = cut1;
    parts[1].data = msg->p + cut1;
    parts[1].len = 0;
    parts[2].data = msg->p + cut1;
    parts[2].len = cut2 - cut1;
    parts[3].data = msg->p + cut2;
    parts[3].len = msg->n - cut2;
    s1 = sc_crypto_hmac_sha256(&env->ctx, out, key->p, key->n, &one, 1);
    s2 = sc_crypto_hmac_sha256(&env->ctx, split, key->p, key->n, parts, 4);
    if (s1 != SC_OK || s2 != SC_OK) {
        snprintf(err, cap, "one part %s, four parts %s", sc_status_name(s1), sc_status_name(s2));
        return 0;
    }
    if (memcmp(out, split, 32) != 0) {
        snprintf(err, cap, "one part and parts cut at %zu/%zu disagree", cut1, cut2);
        return 0;
    }
    return 1;
}

void test_hmac_rfc4231(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;
    size_t idx = 0;

    vt_need_cap(env, SC_CAP_HMAC_SHA256, RFC4231_FILE);
    root = vt_need_upstream(env, RFC4231_FILE);
    vt_report_init(&r, env->backend, RFC4231_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases"))
    {
        const char *name = vt_json_str(c, "name");
        vt_bytes key, data, mac;
        uint8_t out[32];
        char err[256], h[128];
        long trunc = 32;

        idx++;
        if (!vt_json_hex(c, "key", &key) || !vt_json_hex(c, "data", &data) ||
            !vt_json_hex(c, "mac", &mac)) {
            vt_bytes_free(&key);
            vt_bytes_free(&data);
            vt_case_fail(&r, "%s: malformed case", name != NULL ? name : "?");
            continue;
        }
        (void)vt_json_long(c, "truncated_to_bytes", &trunc);
        if ((size_t)trunc != mac.n || mac.n > 32 || mac.n == 0) {
            vt_case_fail(&r, "%s: mac of %zu bytes vs truncation %ld", name, mac.n, trunc);
        } else if (!hmac_both(env, out, &key, &data, idx, err, sizeof err)) {
            vt_case_fail(&r, "%s: %s", name, err);
        } else if (memcmp(out, mac.p, mac.n) != 0) {
            vt_case_fail(&r, "%s: got %s", name, vt_hexstr(h, sizeof h, out, mac.n));
        } else {
            vt_case_pass(&r);
        }
        vt_bytes_free(&key);
        vt_bytes_free(&data);
        vt_bytes_free(&mac);
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 7);
}

void test_hmac_wycheproof(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *g, *t;
    cJSON *root;
    vt_report r;
    long declared = 0;
    size_t valid = 0, invalid = 0;

    vt_need_cap(env, SC_CAP_HMAC_SHA256, WYCHE_HMAC_FILE);
    root = vt_need_upstream(env, WYCHE_HMAC_FILE);
    vt_report_init(&r, env->backend, WYCHE_HMAC_FILE);
    (void)vt_json_long(root, "numberOfTests", &declared);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups"))
    {
        long tag_bits = 0;

        (void)vt_json_long(g, "tagSize", &tag_bits);
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            vt_bytes key, msg, tag;
            const char *result = vt_json_str(t, "result");
            long id = -1;
            uint8_t out[32];
            char err[256];
            int matches;

            (void)vt_json_long(t, "tcId", &id);
            if (!vt_json_hex(t, "key", &key) || !vt_json_hex(t, "msg", &msg) ||
                !vt_json_hex(t, "tag", &tag) || result == NULL) {
                vt_bytes_free(&key);
                vt_bytes_free(&msg);
                vt_bytes_free(&tag);
                vt_case_fail(&r, "tcId %ld: malformed case", id);
                continue;
            }
            if (tag_bits <= 0 || tag_bits > 256 || tag_bits % 8 != 0 ||
                tag.n != (size_t)tag_bits / 8) {
                vt_case_fail(&r, "tcId %ld: tag of %zu bytes in a %ld-bit group", id, tag.n,
                             tag_bits);
            } else if (!hmac_both(env, out, &key, &msg, (size_t)id, err, sizeof err)) {
                vt_case_fail(&r, "tcId %ld: %s", id, err);
            } else {
                matches = memcmp(out, tag.p, tag.n) == 0;
                if (strcmp(result, "valid") == 0) {
                    valid++;
                    if (matches) {
                        vt_case_pass(&r);
                    } else {
                        vt_case_fail(&r, "tcId %ld: valid tag does not match", id);
                    }
                } else {
                    invalid++;
                    if (!matches) {
                        vt_case_pass(&r);
                    } else {
                        vt_case_fail(&r, "tcId %ld: %s tag matches", id, result);
                    }
                }
            }
            vt_bytes_free(&key);
            vt_bytes_free(&msg);
            vt_bytes_free(&tag);
        }
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "%zu valid tags matched, %zu invalid tags rejected", valid,
             invalid);
    vt_report_finish(&r, (size_t)declared);
}

void test_own_hmac(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *cases, *c;
    vt_report r;
    size_t idx = 0;

    vt_need_cap(env, SC_CAP_HMAC_SHA256, OWN_HMAC_LABEL);
    cases = vt_need_own(env, "hmac_sha256");
    vt_report_init(&r, env->backend, OWN_HMAC_LABEL);
    cJSON_ArrayForEach(c, cases)
    {
        vt_bytes key, msg, mac;
        uint8_t out[32];
        char err[256], h[128];

        idx++;
        if (!vt_json_hex(c, "key", &key) || !vt_json_hex(c, "msg", &msg) ||
            !vt_json_hex(c, "mac", &mac) || mac.n != 32) {
            vt_bytes_free(&key);
            vt_bytes_free(&msg);
            vt_bytes_free(&mac);
            vt_case_fail(&r, "case %zu: malformed", idx);
            continue;
        }
        if (!hmac_both(env, out, &key, &msg, idx, err, sizeof err)) {
            vt_case_fail(&r, "key %zu msg %zu: %s", key.n, msg.n, err);
        } else if (memcmp(out, mac.p, 32) != 0) {
            vt_case_fail(&r, "key %zu msg %zu: got %s", key.n, msg.n,
                         vt_hexstr(h, sizeof h, out, 32));
        } else {
            vt_case_pass(&r);
        }
        vt_bytes_free(&key);
        vt_bytes_free(&msg);
        vt_bytes_free(&mac);
    }
    vt_report_finish(&r, 0);
}
