/* The backend gate (plain sodium has no streaming AES-GCM) and the kind 15 examples of
 * nip17.kind15-aesgcm.json: a 16-byte nonce, a 12-byte nonce and the legacy variant whose IV
 * is the hex text itself. Encryption must reproduce each blob and its x/ox/size tags exactly;
 * decryption tries the IVs in sc_file_iv_candidates order. */
#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the backend gate ------------------------------------------------------------------- */

void test_unsupported_backend(void **state)
{
    ft_env *env = ft_env_of(state);
    static const uint8_t key[32] = {1}, iv[16] = {2};
    const char *why = NULL;
    uint8_t k2[32], iv2[16];
    sc_file_enc e;
    sc_file_dec d;
    sc_file_sink sink;
    ft_sink k;
    sc_status has;

    has = sc_backend_has(sc_ctx_backend(&env->ctx), SC_CAP_AES256GCM_STREAM, &why);
    if (env->stream_ok) {
        VT_ASSERT_STATUS(has, SC_OK);
        VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 16), SC_OK);
        sc_file_encrypt_abort(&e);
        VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 12), SC_OK);
        sc_file_encrypt_abort(&e);
        printf("[%s] file API: streaming AES-256-GCM available (12- and 16-byte IVs)\n",
               env->backend);
        return;
    }
    /* the reason is visible through the capability query, and init reports it */
    VT_ASSERT_STATUS(has, SC_ERR_UNSUPPORTED);
    assert_non_null(why);
    assert_true(strlen(why) > 0);
    memset(&e, 0x5a, sizeof e);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 16), SC_ERR_UNSUPPORTED);
    assert_true(vt_all_zero((const uint8_t *)&e, sizeof e));
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key, iv, 12), SC_ERR_UNSUPPORTED);
    ft_sink_init(&k, &sink);
    memset(&d, 0x5a, sizeof d);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key, iv, 16, &sink), SC_ERR_UNSUPPORTED);
    assert_true(vt_all_zero((const uint8_t *)&d, sizeof d));
    /* a failed init never calls the sink */
    assert_int_equal(k.writes + k.commits + k.discards, 0);
    /* nothing else is affected: the lease is free, the RNG works */
    assert_int_not_equal(sc_ctx_selftest(&env->ctx, SC_GROUP_AEAD), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_keygen(&env->ctx, k2, iv2), SC_OK);
    ft_sink_free(&k);
    printf("[%s] file API: SC_ERR_UNSUPPORTED as required (%s); the other file tests are "
           "skipped with this reason\n",
           env->backend, why);
}

/* ---- nip17.kind15-aesgcm.json ----------------------------------------------------------- */

/* The value of tag `name` in the case's "tags" list, or NULL. */
static const char *tag_value(const cJSON *c, const char *name)
{
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(c, "tags"), *t;

    cJSON_ArrayForEach(t, tags)
    {
        const cJSON *k = cJSON_GetArrayItem(t, 0), *v = cJSON_GetArrayItem(t, 1);

        if (cJSON_IsString(k) && cJSON_IsString(v) && strcmp(k->valuestring, name) == 0) {
            return v->valuestring;
        }
    }
    return NULL;
}

typedef struct kcase {
    vt_bytes key, pt, blob, tag, legacy_iv;
    const char *nonce; /* the decryption-nonce text */
    const char *x, *ox, *size;
    int legacy;
} kcase;

static void kcase_free(kcase *c)
{
    vt_bytes_free(&c->key);
    vt_bytes_free(&c->pt);
    vt_bytes_free(&c->blob);
    vt_bytes_free(&c->tag);
    vt_bytes_free(&c->legacy_iv);
}

/* Reads a case and checks that it agrees with itself; 0 with err set otherwise. */
static int kcase_load(ft_env *env, const cJSON *j, kcase *c, char *err, size_t cap)
{
    uint8_t h[32];
    char size_text[32];

    memset(c, 0, sizeof *c);
    c->legacy = cJSON_GetObjectItemCaseSensitive(j, "iv_actually_used") != NULL;
    c->nonce = vt_json_str(j, c->legacy ? "nonce_tag_value" : "nonce");
    c->x = tag_value(j, "x");
    c->ox = tag_value(j, "ox");
    c->size = tag_value(j, "size");
    if (!vt_json_hex(j, "key", &c->key) || c->key.n != 32 || !vt_json_hex(j, "plaintext", &c->pt) ||
        !vt_json_hex(j, "encrypted_blob", &c->blob) || !vt_json_hex(j, "tag", &c->tag) ||
        c->tag.n != 16 || c->nonce == NULL || c->x == NULL || c->ox == NULL || c->size == NULL ||
        (c->legacy && !vt_json_hex(j, "iv_actually_used", &c->legacy_iv))) {
        snprintf(err, cap, "malformed case");
        return 0;
    }
    /* the tags describe this very blob: the file is internally consistent */
    ft_sha256(env, c->blob.p, c->blob.n, h);
    snprintf(size_text, sizeof size_text, "%zu", c->blob.n);
    if (c->blob.n != c->pt.n + 16 || memcmp(c->blob.p + c->pt.n, c->tag.p, 16) != 0 ||
        !vt_hex_is(h, 32, c->x) || strcmp(size_text, c->size) != 0 ||
        tag_value(j, "decryption-nonce") == NULL ||
        strcmp(tag_value(j, "decryption-nonce"), c->nonce) != 0 ||
        !vt_hex_is(c->key.p, 32, tag_value(j, "decryption-key"))) {
        snprintf(err, cap, "the case's tags do not describe its blob");
        return 0;
    }
    return 1;
}

/* Decrypts the case's blob with one candidate IV and checks the outcome. */
static int open_with(ft_env *env, const kcase *c, const uint8_t *iv, size_t iv_len, sc_status want,
                     char *err, size_t cap)
{
    uint8_t x[32], ox[32];
    ft_sink k;
    sc_file_sink unused;
    sc_status st;
    int ok;

    ft_sink_init(&k, &unused);
    st = ft_decrypt(env, c->key.p, iv, iv_len, c->blob.p, c->blob.n, FT_CHUNK_RANDOM, &k, x, ox);
    if (want == SC_OK) {
        ok = st == SC_OK && k.commits == 1 && k.discards == 0 && k.committed_len == c->pt.n &&
             memcmp(k.committed, c->pt.p, c->pt.n) == 0 && vt_hex_is(x, 32, c->x) &&
             vt_hex_is(ox, 32, c->ox);
    } else {
        ok = st == want && ft_sink_discarded_once(&k) && vt_all_zero(x, 32) && vt_all_zero(ox, 32);
    }
    if (!ok) {
        snprintf(err, cap, "decrypt with a %zu-byte IV: %s (want %s), commits %u, discards %u",
                 iv_len, sc_status_name(st), sc_status_name(want), k.commits, k.discards);
    }
    ft_sink_free(&k);
    return ok;
}

static int run_case(ft_env *env, const kcase *c, vt_report *r, char *err, size_t cap)
{
    uint8_t ivs[2][32], x[32], ox[32], ct_tag[16], *blob = NULL, *ct;
    size_t lens[2], n = 0, blob_len = 0;
    uint64_t size = 0;
    sc_status st;
    int ok;

    VT_ASSERT_STATUS(sc_file_iv_candidates(ivs, lens, &n, c->nonce, strlen(c->nonce)), SC_OK);
    if (!c->legacy) {
        if (n != (strlen(c->nonce) == 32 ? 2u : 1u)) {
            snprintf(err, cap, "%zu IV candidates for a %zu-digit nonce", n, strlen(c->nonce));
            return 0;
        }
        if (!vt_hex_is(ivs[0], lens[0], c->nonce)) {
            snprintf(err, cap, "the first IV candidate is not the decoded nonce");
            return 0;
        }
        if (!open_with(env, c, ivs[0], lens[0], SC_OK, err, cap)) {
            return 0;
        }
        st = ft_encrypt(env, c->key.p, ivs[0], lens[0], c->pt.p, c->pt.n, FT_CHUNK_RANDOM, &blob,
                        &blob_len, x, ox, &size);
        ok = st == SC_OK && blob_len == c->blob.n && memcmp(blob, c->blob.p, blob_len) == 0 &&
             vt_hex_is(x, 32, c->x) && vt_hex_is(ox, 32, c->ox) &&
             size == (uint64_t)strtoull(c->size, NULL, 10);
        free(blob);
        if (!ok) {
            snprintf(err, cap, "encrypt: %s, blob or x/ox/size differ", sc_status_name(st));
            return 0;
        }
        vt_appendf(r->detail, sizeof r->detail, "%s%zu-byte IV: encrypt + decrypt",
                   r->detail[0] ? ", " : "", lens[0]);
        return 1;
    }
    /* legacy: the decoded IV must fail (and discard), the ASCII text must open it */
    if (n != 2 || lens[1] != 32 || c->legacy_iv.n != 32 ||
        memcmp(ivs[1], c->legacy_iv.p, 32) != 0) {
        snprintf(err, cap, "the second IV candidate is not the ASCII nonce text");
        return 0;
    }
    if (!open_with(env, c, ivs[0], lens[0], SC_ERR_AUTH, err, cap) ||
        !open_with(env, c, ivs[1], lens[1], SC_OK, err, cap)) {
        return 0;
    }
    /* the library never emits a legacy IV; the one-shot primitive confirms the blob */
    st =
        ft_encrypt(env, c->key.p, ivs[1], 32, c->pt.p, c->pt.n, 16, &blob, &blob_len, x, ox, &size);
    free(blob);
    if (st != SC_ERR_ARG) {
        snprintf(err, cap, "encrypt with the 32-byte legacy IV: %s, want SC_ERR_ARG",
                 sc_status_name(st));
        return 0;
    }
    ct = vt_alloc(c->pt.n);
    st = sc_crypto_aes256gcm_seal(&env->ctx, ct, ct_tag, c->key.p, ivs[1], 32, NULL, 0, c->pt.p,
                                  c->pt.n);
    ok = st == SC_OK && memcmp(ct, c->blob.p, c->pt.n) == 0 && memcmp(ct_tag, c->tag.p, 16) == 0;
    free(ct);
    if (!ok) {
        snprintf(err, cap, "one-shot seal with the legacy IV: %s or different bytes",
                 sc_status_name(st));
        return 0;
    }
    vt_appendf(r->detail, sizeof r->detail, "%slegacy: decoded IV refused, ASCII IV opens",
               r->detail[0] ? ", " : "");
    return 1;
}

void test_kind15_vectors(void **state)
{
    ft_env *env = ft_env_of(state);
    char err[300];
    const cJSON *cases, *j;
    cJSON *root;
    vt_report r;

    root = vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, FT_FILE);
    cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    vt_report_init(&r, env->backend, FT_FILE);
    cJSON_ArrayForEach(j, cases)
    {
        kcase c;

        err[0] = '\0';
        if (!env->stream_ok) {
            vt_case_skip(&r, env->stream_why);
            continue;
        }
        if (kcase_load(env, j, &c, err, sizeof err) && run_case(env, &c, &r, err, sizeof err)) {
            vt_case_pass(&r);
        } else {
            vt_case_fail(&r, "%s: %s", vt_json_str(j, "note") ? vt_json_str(j, "note") : "?", err);
        }
        kcase_free(&c);
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 0);
}
