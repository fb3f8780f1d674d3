/* XChaCha20-Poly1305 (the xaead group, NIP-49's AEAD): Wycheproof xchacha20_poly1305_test.json
 * (its tcId 1 is draft-irtf-cfrg-xchacha A.3.1), each case sealed and opened out of place and in
 * place, every invalid case refused with SC_ERR_AUTH and nothing released; cases with a nonce
 * other than 24 bytes do not apply (the API takes exactly 24). Then the argument checks. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WYCHE_XCHACHA_FILE "wycheproof/xchacha20_poly1305_test.json"

typedef struct xc_case {
    vt_bytes key, iv, aad, msg, ct, tag;
    int valid;
} xc_case;

static void xc_case_free(xc_case *c)
{
    vt_bytes_free(&c->key);
    vt_bytes_free(&c->iv);
    vt_bytes_free(&c->aad);
    vt_bytes_free(&c->msg);
    vt_bytes_free(&c->ct);
    vt_bytes_free(&c->tag);
}

static int xc_case_load(const cJSON *t, xc_case *c)
{
    /* '+' rather than '||': every field is read, so each vt_bytes is set before freeing */
    return !vt_json_hex(t, "key", &c->key) + !vt_json_hex(t, "iv", &c->iv) +
               !vt_json_hex(t, "aad", &c->aad) + !vt_json_hex(t, "msg", &c->msg) +
               !vt_json_hex(t, "ct", &c->ct) + !vt_json_hex(t, "tag", &c->tag) ==
           0;
}

/* An invalid case: open must say SC_ERR_AUTH and leave no byte it decrypted. */
static int invalid_check(vt_env *env, const xc_case *c, char *err, size_t cap)
{
    size_t len = c->ct.n;
    uint8_t *out = vt_alloc(len);
    sc_status st;
    int ok = 0;

    memset(out, 0xa5, len);
    st = sc_crypto_xchacha20poly1305_open(&env->ctx, out, c->key.p, c->iv.p, c->aad.p, c->aad.n,
                                          c->ct.p, len, c->tag.p);
    if (st != SC_ERR_AUTH) {
        snprintf(err, cap, "open of an invalid case returned %s", sc_status_name(st));
    } else if (!vt_all_zero(out, len)) {
        snprintf(err, cap, "open failed but left output bytes");
    } else {
        ok = 1;
    }
    free(out);
    return ok;
}

/* A valid case: seal gives ct and tag, open gives msg back, out of place and in place. */
static int valid_check(vt_env *env, const xc_case *c, char *err, size_t cap)
{
    size_t len = c->msg.n;
    uint8_t *out = vt_alloc(len), *buf = vt_alloc(len), tag[16];
    sc_status st;
    int ok = 0;

    st = sc_crypto_xchacha20poly1305_seal(&env->ctx, out, tag, c->key.p, c->iv.p, c->aad.p,
                                          c->aad.n, c->msg.p, len);
    if (st != SC_OK || memcmp(out, c->ct.p, len) != 0 || memcmp(tag, c->tag.p, 16) != 0) {
        snprintf(err, cap, "seal: %s, ct %s, tag %s", sc_status_name(st),
                 memcmp(out, c->ct.p, len) ? "differs" : "ok",
                 memcmp(tag, c->tag.p, 16) ? "differs" : "ok");
        goto out;
    }
    memset(out, 0xa5, len);
    st = sc_crypto_xchacha20poly1305_open(&env->ctx, out, c->key.p, c->iv.p, c->aad.p, c->aad.n,
                                          c->ct.p, len, c->tag.p);
    if (st != SC_OK || memcmp(out, c->msg.p, len) != 0) {
        snprintf(err, cap, "open: %s", sc_status_name(st));
        goto out;
    }
    memcpy(buf, c->msg.p, len);
    st = sc_crypto_xchacha20poly1305_seal(&env->ctx, buf, tag, c->key.p, c->iv.p, c->aad.p,
                                          c->aad.n, buf, len);
    if (st != SC_OK || memcmp(buf, c->ct.p, len) != 0 || memcmp(tag, c->tag.p, 16) != 0) {
        snprintf(err, cap, "in-place seal: %s", sc_status_name(st));
        goto out;
    }
    st = sc_crypto_xchacha20poly1305_open(&env->ctx, buf, c->key.p, c->iv.p, c->aad.p, c->aad.n,
                                          buf, len, tag);
    if (st != SC_OK || memcmp(buf, c->msg.p, len) != 0) {
        snprintf(err, cap, "in-place open: %s", sc_status_name(st));
        goto out;
    }
    ok = 1;
out:
    free(out);
    free(buf);
    return ok;
}

void test_xchacha20poly1305_wycheproof(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *g, *t;
    cJSON *root;
    vt_report r;
    long declared = 0;

    vt_need_cap(env, SC_CAP_XCHACHA20POLY1305, WYCHE_XCHACHA_FILE);
    root = vt_need_upstream(env, WYCHE_XCHACHA_FILE);
    vt_report_init(&r, env->backend, WYCHE_XCHACHA_FILE);
    (void)vt_json_long(root, "numberOfTests", &declared);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups"))
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const char *result = vt_json_str(t, "result");
            char err[256];
            xc_case c;
            long id = -1;

            (void)vt_json_long(t, "tcId", &id);
            if (!xc_case_load(t, &c) || result == NULL) {
                vt_case_fail(&r, "tcId %ld: malformed case", id);
            } else if (c.iv.n != SC_XCHACHA20_NONCE_BYTES && strcmp(result, "invalid") == 0) {
                /* the API's nonce is a fixed 24-byte array: no other size can be passed */
                vt_case_na(&r, "a nonce other than 24 bytes: the API takes exactly 24");
            } else if (c.iv.n != SC_XCHACHA20_NONCE_BYTES || c.key.n != 32 || c.tag.n != 16 ||
                       c.ct.n != c.msg.n) {
                vt_case_fail(&r, "tcId %ld: malformed case", id);
            } else if (strcmp(result, "invalid") == 0 ? !invalid_check(env, &c, err, sizeof err)
                                                      : !valid_check(env, &c, err, sizeof err)) {
                vt_case_fail(&r, "tcId %ld (aad %zu, msg %zu): %s", id, c.aad.n, c.msg.n, err);
            } else {
                vt_case_pass(&r);
            }
            xc_case_free(&c);
        }
    }
    cJSON_Delete(root);
    vt_report_finish(&r, (size_t)declared);
}

/* The argument checks of core (the same on every backend with the group), and the refusal of a
 * backend without it. */
void test_neg_xchacha20poly1305(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t key[32], nonce[24], buf[80], out[80], tag[16];
    sc_status has = sc_backend_has(sc_ctx_backend(&env->ctx), SC_CAP_XCHACHA20POLY1305, NULL);
    sc_status want = has == SC_OK ? SC_ERR_AUTH : SC_ERR_UNSUPPORTED;

    memset(key, 1, sizeof key);
    memset(nonce, 2, sizeof nonce);
    memset(buf, 3, sizeof buf);
    memset(tag, 4, sizeof tag);
    memset(out, 0xa5, sizeof out);
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_seal(&env->ctx, out, tag, key, nonce, NULL, 1, buf, sizeof buf),
        SC_ERR_ARG);
    assert_true(vt_all_zero(out, sizeof out) && vt_all_zero(tag, sizeof tag));
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_seal(&env->ctx, buf + 1, tag, key, nonce, NULL, 0, buf, 64),
        SC_ERR_OVERLAP);
    /* a length over the RFC 8439 limit: refused before any byte is read or written */
    if (sizeof(size_t) > 4) {
        size_t huge = (size_t)((((uint64_t)1) << 38) - 63);

        VT_ASSERT_STATUS(
            sc_crypto_xchacha20poly1305_open(&env->ctx, buf, key, nonce, NULL, 0, buf, huge, tag),
            SC_ERR_TOO_LARGE);
    }
    memset(buf, 3, sizeof buf);
    memset(out, 0xa5, sizeof out);
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_open(&env->ctx, out, key, nonce, NULL, 0, buf, sizeof buf, tag),
        want);
    assert_true(vt_all_zero(out, sizeof out));
    if (has != SC_OK) {
        VT_ASSERT_STATUS(sc_crypto_xchacha20poly1305_seal(&env->ctx, out, tag, key, nonce, NULL, 0,
                                                          buf, sizeof buf),
                         SC_ERR_UNSUPPORTED);
        return;
    }
    /* the empty message: the tag covers the AAD alone */
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_seal(&env->ctx, NULL, tag, key, nonce, buf, 5, NULL, 0), SC_OK);
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_open(&env->ctx, NULL, key, nonce, buf, 5, NULL, 0, tag), SC_OK);
    buf[0] ^= 1;
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_open(&env->ctx, NULL, key, nonce, buf, 5, NULL, 0, tag),
        SC_ERR_AUTH);
}
