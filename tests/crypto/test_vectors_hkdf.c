/* HKDF-SHA256: RFC 5869 (PRK and OKM), Wycheproof (incl. sizes beyond 255 * 32, which must be
 * refused with SC_ERR_ARG) and the project's own cases. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RFC5869_FILE "rfc/rfc5869-hkdf-sha256.json"
#define WYCHE_HKDF_FILE "wycheproof/hkdf_sha256_test.json"
#define OWN_HKDF_LABEL "vectors/" VT_OWN_FILE " hkdf_sha256"

/* Extract then expand; 1 when okm (and prk, if want_prk is non-NULL) match. */
static int hkdf_check(vt_env *env, const vt_bytes *ikm, const vt_bytes *salt, const vt_bytes *info,
                      const vt_bytes *want_prk, const vt_bytes *want_okm, char *err, size_t cap)
{
    uint8_t prk[32];
    uint8_t *okm = vt_alloc(want_okm->n);
    char h[128];
    sc_status st;
    int ok = 0;

    st = sc_crypto_hkdf_extract(&env->ctx, prk, salt->p, salt->n, ikm->p, ikm->n);
    if (st != SC_OK) {
        snprintf(err, cap, "extract returned %s", sc_status_name(st));
    } else if (want_prk != NULL && (want_prk->n != 32 || memcmp(prk, want_prk->p, 32) != 0)) {
        snprintf(err, cap, "prk %s", vt_hexstr(h, sizeof h, prk, 32));
    } else if ((st = sc_crypto_hkdf_expand(&env->ctx, okm, want_okm->n, prk, 32, info->p,
                                           info->n)) != SC_OK) {
        snprintf(err, cap, "expand(%zu) returned %s", want_okm->n, sc_status_name(st));
    } else if (memcmp(okm, want_okm->p, want_okm->n) != 0) {
        snprintf(err, cap, "okm %s", vt_hexstr(h, sizeof h, okm, want_okm->n));
    } else {
        ok = 1;
    }
    free(okm);
    return ok;
}

void test_hkdf_rfc5869(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;

    vt_need_cap(env, SC_CAP_HMAC_SHA256, RFC5869_FILE);
    root = vt_need_upstream(env, RFC5869_FILE);
    vt_report_init(&r, env->backend, RFC5869_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases"))
    {
        const char *name = vt_json_str(c, "name");
        vt_bytes ikm, salt, info, prk, okm;
        char err[256];
        long len = -1;

        /* '+' rather than '||': every field is read, so each vt_bytes is set before freeing */
        if (!vt_json_hex(c, "ikm", &ikm) + !vt_json_hex(c, "salt", &salt) +
                    !vt_json_hex(c, "info", &info) + !vt_json_hex(c, "prk", &prk) +
                    !vt_json_hex(c, "okm", &okm) !=
                0 ||
            !vt_json_long(c, "L", &len) || (size_t)len != okm.n) {
            vt_case_fail(&r, "%s: malformed case", name != NULL ? name : "?");
        } else if (!hkdf_check(env, &ikm, &salt, &info, &prk, &okm, err, sizeof err)) {
            vt_case_fail(&r, "%s: %s", name, err);
        } else {
            vt_case_pass(&r);
        }
        vt_bytes_free(&ikm);
        vt_bytes_free(&salt);
        vt_bytes_free(&info);
        vt_bytes_free(&prk);
        vt_bytes_free(&okm);
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 3);
}

/* An invalid size must be refused before any output is produced. */
static int hkdf_refuses(vt_env *env, const vt_bytes *ikm, const vt_bytes *salt,
                        const vt_bytes *info, size_t size, char *err, size_t cap)
{
    uint8_t prk[32];
    uint8_t *okm = vt_alloc(size);
    sc_status st = sc_crypto_hkdf_extract(&env->ctx, prk, salt->p, salt->n, ikm->p, ikm->n);
    int ok = 0;

    if (st != SC_OK) {
        snprintf(err, cap, "extract returned %s", sc_status_name(st));
    } else if ((st = sc_crypto_hkdf_expand(&env->ctx, okm, size, prk, 32, info->p, info->n)) !=
               SC_ERR_ARG) {
        snprintf(err, cap, "expand(%zu) returned %s, expected SC_ERR_ARG", size,
                 sc_status_name(st));
    } else {
        ok = 1;
    }
    free(okm);
    return ok;
}

void test_hkdf_wycheproof(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *g, *t;
    cJSON *root;
    vt_report r;
    long declared = 0;
    size_t valid = 0, refused = 0;

    vt_need_cap(env, SC_CAP_HMAC_SHA256, WYCHE_HKDF_FILE);
    root = vt_need_upstream(env, WYCHE_HKDF_FILE);
    vt_report_init(&r, env->backend, WYCHE_HKDF_FILE);
    (void)vt_json_long(root, "numberOfTests", &declared);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups"))
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const char *result = vt_json_str(t, "result");
            vt_bytes ikm, salt, info, okm;
            long id = -1, size = -1;
            char err[256];

            (void)vt_json_long(t, "tcId", &id);
            if (!vt_json_hex(t, "ikm", &ikm) + !vt_json_hex(t, "salt", &salt) +
                        !vt_json_hex(t, "info", &info) + !vt_json_hex(t, "okm", &okm) !=
                    0 ||
                !vt_json_long(t, "size", &size) || size <= 0 || result == NULL) {
                vt_case_fail(&r, "tcId %ld: malformed case", id);
            } else if (strcmp(result, "valid") == 0) {
                valid++;
                if ((size_t)size != okm.n) {
                    vt_case_fail(&r, "tcId %ld: size %ld but okm of %zu bytes", id, size, okm.n);
                } else if (!hkdf_check(env, &ikm, &salt, &info, NULL, &okm, err, sizeof err)) {
                    vt_case_fail(&r, "tcId %ld: %s", id, err);
                } else {
                    vt_case_pass(&r);
                }
            } else {
                refused++;
                if ((size_t)size <= 255 * 32) {
                    vt_case_fail(&r, "tcId %ld: invalid case of size %ld not understood", id, size);
                } else if (!hkdf_refuses(env, &ikm, &salt, &info, (size_t)size, err, sizeof err)) {
                    vt_case_fail(&r, "tcId %ld: %s", id, err);
                } else {
                    vt_case_pass(&r);
                }
            }
            vt_bytes_free(&ikm);
            vt_bytes_free(&salt);
            vt_bytes_free(&info);
            vt_bytes_free(&okm);
        }
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "%zu valid derived, %zu oversize refused", valid, refused);
    vt_report_finish(&r, (size_t)declared);
}

void test_own_hkdf(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *cases, *c;
    vt_report r;

    vt_need_cap(env, SC_CAP_HMAC_SHA256, OWN_HKDF_LABEL);
    cases = vt_need_own(env, "hkdf_sha256");
    vt_report_init(&r, env->backend, OWN_HKDF_LABEL);
    cJSON_ArrayForEach(c, cases)
    {
        vt_bytes ikm, salt, info, prk, okm;
        char err[256];
        long len = -1;

        if (!vt_json_hex(c, "ikm", &ikm) + !vt_json_hex(c, "salt", &salt) +
                    !vt_json_hex(c, "info", &info) + !vt_json_hex(c, "prk", &prk) +
                    !vt_json_hex(c, "okm", &okm) !=
                0 ||
            !vt_json_long(c, "length", &len) || (size_t)len != okm.n) {
            vt_case_fail(&r, "malformed case");
        } else if (!hkdf_check(env, &ikm, &salt, &info, &prk, &okm, err, sizeof err)) {
            vt_case_fail(&r, "salt %zu ikm %zu info %zu L %zu: %s", salt.n, ikm.n, info.n, okm.n,
                         err);
        } else {
            vt_case_pass(&r);
        }
        vt_bytes_free(&ikm);
        vt_bytes_free(&salt);
        vt_bytes_free(&info);
        vt_bytes_free(&prk);
        vt_bytes_free(&okm);
    }
    vt_report_finish(&r, 0);
}
