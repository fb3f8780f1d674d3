/* AES-256-GCM: Wycheproof aes_gcm_test.json (every case: AES-128/192 ones counted as not
 * applicable) and the project's own 12/16-byte-IV cases. Each case runs one-shot through the
 * public API and, where the probe allows it, streaming through the aead group in chunks that
 * are multiples of 16 bytes except the last. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WYCHE_GCM_FILE "wycheproof/aes_gcm_test.json"
#define OWN_GCM_LABEL "vectors/" VT_OWN_FILE " aes256gcm"

typedef struct gcm_case {
    vt_bytes key, iv, aad, msg, ct, tag;
    int valid;
} gcm_case;

/* Per-mode tallies for one file. */
typedef struct gcm_tally {
    size_t run[2];
    vt_reason skipped[2]; /* one reason per mode is enough: probes give one per IV length */
} gcm_tally;

static void gcm_case_free(gcm_case *c)
{
    vt_bytes_free(&c->key);
    vt_bytes_free(&c->iv);
    vt_bytes_free(&c->aad);
    vt_bytes_free(&c->msg);
    vt_bytes_free(&c->ct);
    vt_bytes_free(&c->tag);
}

static int gcm_case_load(const cJSON *t, gcm_case *c, const char *msg_key)
{
    /* '+' rather than '||': every field is read, so each vt_bytes is set before freeing */
    return !vt_json_hex(t, "key", &c->key) + !vt_json_hex(t, "iv", &c->iv) +
               !vt_json_hex(t, "aad", &c->aad) + !vt_json_hex(t, msg_key, &c->msg) +
               !vt_json_hex(t, "ct", &c->ct) + !vt_json_hex(t, "tag", &c->tag) ==
           0;
}

/* One-shot seal and open, out of place and in place. */
static int oneshot_check(vt_env *env, const gcm_case *c, char *err, size_t cap)
{
    size_t len = c->msg.n;
    uint8_t *out = vt_alloc(len), *buf = vt_alloc(len), tag[16];
    sc_status st;
    int ok = 0;

    if (!c->valid) {
        memset(out, 0xa5, len);
        st = sc_crypto_aes256gcm_open(&env->ctx, out, c->key.p, c->iv.p, c->iv.n, c->aad.p,
                                      c->aad.n, c->ct.p, len, c->tag.p);
        if (st != (c->iv.n == 0 ? SC_ERR_ARG : SC_ERR_AUTH)) {
            snprintf(err, cap, "one-shot open of an invalid case returned %s", sc_status_name(st));
        } else if (!vt_all_zero(out, len)) {
            snprintf(err, cap, "one-shot open failed but left output bytes");
        } else {
            ok = 1;
        }
        goto out;
    }
    st = sc_crypto_aes256gcm_seal(&env->ctx, out, tag, c->key.p, c->iv.p, c->iv.n, c->aad.p,
                                  c->aad.n, c->msg.p, len);
    if (st != SC_OK || memcmp(out, c->ct.p, len) != 0 || memcmp(tag, c->tag.p, 16) != 0) {
        snprintf(err, cap, "one-shot seal: %s, ct %s, tag %s", sc_status_name(st),
                 memcmp(out, c->ct.p, len) ? "differs" : "ok",
                 memcmp(tag, c->tag.p, 16) ? "differs" : "ok");
        goto out;
    }
    memset(out, 0xa5, len);
    st = sc_crypto_aes256gcm_open(&env->ctx, out, c->key.p, c->iv.p, c->iv.n, c->aad.p, c->aad.n,
                                  c->ct.p, len, c->tag.p);
    if (st != SC_OK || memcmp(out, c->msg.p, len) != 0) {
        snprintf(err, cap, "one-shot open: %s", sc_status_name(st));
        goto out;
    }
    memcpy(buf, c->msg.p, len);
    st = sc_crypto_aes256gcm_seal(&env->ctx, buf, tag, c->key.p, c->iv.p, c->iv.n, c->aad.p,
                                  c->aad.n, buf, len);
    if (st != SC_OK || memcmp(buf, c->ct.p, len) != 0 || memcmp(tag, c->tag.p, 16) != 0) {
        snprintf(err, cap, "one-shot in-place seal: %s", sc_status_name(st));
        goto out;
    }
    st = sc_crypto_aes256gcm_open(&env->ctx, buf, c->key.p, c->iv.p, c->iv.n, c->aad.p, c->aad.n,
                                  buf, len, tag);
    if (st != SC_OK || memcmp(buf, c->msg.p, len) != 0) {
        snprintf(err, cap, "one-shot in-place open: %s", sc_status_name(st));
        goto out;
    }
    ok = 1;
out:
    free(out);
    free(buf);
    return ok;
}

/* Feeds in[0..len) through update in chunks of 16, 32, 48 or 64 bytes (by salt), the last
 * one whatever remains. out may equal in. */
static sc_status stream_updates(const sc_backend_aead *a, sc_bstate *st, uint8_t *out,
                                const uint8_t *in, size_t len, size_t salt)
{
    size_t off = 0, i = 0;
    sc_status s = SC_OK;

    while (s == SC_OK && off < len) {
        size_t n = 16 * (1 + (salt + i++) % 4);
        if (n > len - off) {
            n = len - off;
        }
        s = a->update(st, out + off, in + off, n);
        off += n;
    }
    return s;
}

static int stream_check(vt_env *env, const gcm_case *c, size_t salt, char *err, size_t cap)
{
    sc_ctx_impl *impl = vt_impl(env);
    const sc_backend_aead *a = impl->aead;
    sc_bstate *st = impl->st[SC_GROUP_AEAD];
    size_t len = c->msg.n;
    uint8_t *buf = vt_alloc(len), tag[16];
    sc_status s;
    int ok = 0;

    if (c->valid) {
        s = a->start(st, 0, c->key.p, c->iv.p, c->iv.n, c->aad.p, c->aad.n);
        if (s == SC_OK) {
            s = stream_updates(a, st, buf, c->msg.p, len, salt);
            s = s == SC_OK ? a->final(st, 0, tag) : (a->abort(st), s);
        }
        if (s != SC_OK || memcmp(buf, c->ct.p, len) != 0 || memcmp(tag, c->tag.p, 16) != 0) {
            snprintf(err, cap, "stream encrypt: %s, ct %s, tag %s", sc_status_name(s),
                     memcmp(buf, c->ct.p, len) ? "differs" : "ok",
                     memcmp(tag, c->tag.p, 16) ? "differs" : "ok");
            goto out;
        }
    }
    memcpy(buf, c->ct.p, len);
    memcpy(tag, c->tag.p, 16);
    s = a->start(st, 1, c->key.p, c->iv.p, c->iv.n, c->aad.p, c->aad.n);
    if (s == SC_OK) {
        s = stream_updates(a, st, buf, buf, len, salt + 1); /* in place */
        s = s == SC_OK ? a->final(st, 1, tag) : (a->abort(st), s);
    }
    if (c->valid && (s != SC_OK || memcmp(buf, c->msg.p, len) != 0)) {
        snprintf(err, cap, "stream decrypt: %s", sc_status_name(s));
    } else if (!c->valid && s != SC_ERR_AUTH) {
        snprintf(err, cap, "stream decrypt of an invalid case returned %s", sc_status_name(s));
    } else {
        ok = 1;
    }
out:
    free(buf);
    return ok;
}

/* A zero-length IV must be refused by every path: one-shot seal and open (SC_ERR_ARG from
 * core, output zeroed) and, on a backend that streams, the streaming probe and start. */
static int zero_iv_check(vt_env *env, const gcm_case *c, int streams, char *err, size_t cap)
{
    sc_ctx_impl *impl = vt_impl(env);
    const char *why = NULL;
    uint8_t tag[16];
    uint8_t *out = vt_alloc(c->msg.n);
    sc_status s1, s3 = SC_ERR_UNSUPPORTED, p = SC_ERR_UNSUPPORTED;
    int ok;

    s1 = sc_crypto_aes256gcm_seal(&env->ctx, out, tag, c->key.p, c->iv.p, 0, c->aad.p, c->aad.n,
                                  c->msg.p, c->msg.n);
    if (streams) {
        p = impl->aead->probe(SC_AEAD_STREAM, 0, &why);
        s3 =
            impl->aead->start(impl->st[SC_GROUP_AEAD], 1, c->key.p, c->iv.p, 0, c->aad.p, c->aad.n);
        if (s3 == SC_OK) {
            impl->aead->abort(impl->st[SC_GROUP_AEAD]);
        }
    }
    ok = oneshot_check(env, c, err, cap);
    if (ok && (s1 != SC_ERR_ARG || p == SC_OK || s3 == SC_OK)) {
        snprintf(err, cap, "zero-length IV: seal %s, stream probe %s, start %s", sc_status_name(s1),
                 sc_status_name(p), sc_status_name(s3));
        ok = 0;
    }
    free(out);
    return ok;
}

/* Counts a probe refusal under its reason (one line per mode: differing reasons merge). */
static void note_skip(vt_reason *r, const char *why)
{
    if (why == NULL) {
        why = "refused by the probe (no reason given)";
    }
    if (r->text != NULL && strcmp(r->text, why) != 0) {
        why = "for several probe reasons";
    }
    r->text = why;
    r->count++;
}

/* What the group's own function says for a mode the probe refused: the contract is
 * SC_ERR_UNSUPPORTED. */
static sc_status refused_call(vt_env *env, int mode, const gcm_case *c)
{
    sc_ctx_impl *impl = vt_impl(env);
    sc_bstate *st = impl->st[SC_GROUP_AEAD];
    uint8_t *out = vt_alloc(c->msg.n), tag[16];
    sc_status s;

    if (mode == 0) {
        s = impl->aead->seal(st, out, tag, c->key.p, c->iv.p, c->iv.n, c->aad.p, c->aad.n, c->msg.p,
                             c->msg.n);
    } else {
        s = impl->aead->start(st, 0, c->key.p, c->iv.p, c->iv.n, c->aad.p, c->aad.n);
        if (s == SC_OK) {
            impl->aead->abort(st);
        }
    }
    free(out);
    return s;
}

/* Probes the mode for this case's IV length. On refusal: records the reason, checks that the
 * function itself refuses too, and fails the case (-1) when the backend must support it.
 * Returns 1 when the mode can run, 0 when it is skipped. */
static int mode_ready(vt_env *env, gcm_tally *tally, int mode, const gcm_case *c, char *err,
                      size_t cap)
{
    static const sc_cap caps[2][2] = {{SC_CAP_AES256GCM, SC_CAP_AES256GCM_IV16},
                                      {SC_CAP_AES256GCM_STREAM, SC_CAP_AES256GCM_STREAM}};
    const char *why = NULL, *name = mode == 0 ? "one-shot" : "streaming";
    sc_aead_mode m = mode == 0 ? SC_AEAD_ONESHOT : SC_AEAD_STREAM;
    size_t iv_len = c->iv.n;
    sc_status s;

    if (vt_impl(env)->aead->probe(m, iv_len, &why) == SC_OK) {
        tally->run[mode]++;
        return 1;
    }
    if ((iv_len == 12 || iv_len == 16) && vt_cap_required(env->backend, caps[mode][iv_len == 16])) {
        snprintf(err, cap, "%s with a %zu-byte IV refused, but required: %s", name, iv_len,
                 why != NULL ? why : "?");
        return -1;
    }
    if ((s = refused_call(env, mode, c)) != SC_ERR_UNSUPPORTED) {
        snprintf(err, cap, "the probe refuses %s with a %zu-byte IV, but the call returned %s",
                 name, iv_len, sc_status_name(s));
        return -1;
    }
    note_skip(&tally->skipped[mode], why);
    return 0;
}

/* Runs one AES-256 case in every mode the probe allows and records the verdict. */
static void run_case(vt_env *env, vt_report *r, gcm_tally *tally, const gcm_case *c, long id)
{
    char err[256];
    int m0 = 0, m1 = 0;

    if (c->key.n != 32 || c->tag.n != 16 || c->ct.n != c->msg.n) {
        vt_case_fail(r, "case %ld: malformed (key %zu, tag %zu, ct %zu, msg %zu)", id, c->key.n,
                     c->tag.n, c->ct.n, c->msg.n);
        return;
    }
    if (c->iv.n == 0) {
        /* the refusal is the expected result; streaming counts only where the backend streams */
        const char *why = NULL;
        int streams = vt_impl(env)->aead->probe(SC_AEAD_STREAM, 12, &why) == SC_OK;

        tally->run[0]++;
        if (streams) {
            tally->run[1]++;
        } else {
            note_skip(&tally->skipped[1], why);
        }
        if (c->valid || !zero_iv_check(env, c, streams, err, sizeof err)) {
            vt_case_fail(r, "case %ld: %s", id, c->valid ? "valid with an empty IV?" : err);
        } else {
            vt_case_pass(r);
        }
        return;
    }
    if ((m0 = mode_ready(env, tally, 0, c, err, sizeof err)) < 0 ||
        (m1 = mode_ready(env, tally, 1, c, err, sizeof err)) < 0) {
        vt_case_fail(r, "case %ld: %s", id, err);
    } else if (!m0 && !m1) {
        vt_case_skip(r, tally->skipped[0].text);
    } else if (m0 && !oneshot_check(env, c, err, sizeof err)) {
        vt_case_fail(r, "case %ld (iv %zu, aad %zu, msg %zu): %s", id, c->iv.n, c->aad.n, c->msg.n,
                     err);
    } else if (m1 && !stream_check(env, c, (size_t)id, err, sizeof err)) {
        vt_case_fail(r, "case %ld (iv %zu, aad %zu, msg %zu): %s", id, c->iv.n, c->aad.n, c->msg.n,
                     err);
    } else {
        vt_case_pass(r);
    }
}

static void tally_detail(vt_report *r, const gcm_tally *t)
{
    int m;

    r->detail[0] = '\0';
    vt_appendf(r->detail, sizeof r->detail, "one-shot %zu, stream %zu", t->run[0], t->run[1]);
    for (m = 0; m < 2; m++) {
        if (t->skipped[m].count != 0) {
            vt_appendf(r->detail, sizeof r->detail, "; %s skipped %zu: %s",
                       m == 0 ? "one-shot" : "stream", t->skipped[m].count, t->skipped[m].text);
        }
    }
}

void test_aesgcm_wycheproof(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *g, *t;
    cJSON *root;
    vt_report r;
    gcm_tally tally;
    long declared = 0;

    vt_need_cap(env, SC_CAP_AES256GCM, WYCHE_GCM_FILE);
    root = vt_need_upstream(env, WYCHE_GCM_FILE);
    vt_report_init(&r, env->backend, WYCHE_GCM_FILE);
    memset(&tally, 0, sizeof tally);
    (void)vt_json_long(root, "numberOfTests", &declared);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups"))
    {
        long key_bits = 0, tag_bits = 0;

        (void)vt_json_long(g, "keySize", &key_bits);
        (void)vt_json_long(g, "tagSize", &tag_bits);
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const char *result = vt_json_str(t, "result");
            gcm_case c;
            long id = -1;

            (void)vt_json_long(t, "tcId", &id);
            if (key_bits != 256) {
                vt_case_na(&r, "AES-128/192 key: the library is AES-256 only");
                continue;
            }
            if (!gcm_case_load(t, &c, "msg") || result == NULL || tag_bits != 128) {
                vt_case_fail(&r, "tcId %ld: malformed case", id);
            } else {
                c.valid = strcmp(result, "invalid") != 0;
                run_case(env, &r, &tally, &c, id);
            }
            gcm_case_free(&c);
        }
    }
    cJSON_Delete(root);
    tally_detail(&r, &tally);
    vt_report_finish(&r, (size_t)declared);
}

void test_own_aesgcm(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *cases, *t;
    vt_report r;
    gcm_tally tally;
    long idx = 0;

    vt_need_cap(env, SC_CAP_AES256GCM, OWN_GCM_LABEL);
    cases = vt_need_own(env, "aes256gcm");
    vt_report_init(&r, env->backend, OWN_GCM_LABEL);
    memset(&tally, 0, sizeof tally);
    cJSON_ArrayForEach(t, cases)
    {
        gcm_case c;

        idx++;
        if (!gcm_case_load(t, &c, "msg")) {
            vt_case_fail(&r, "case %ld: malformed", idx);
        } else {
            c.valid = 1;
            run_case(env, &r, &tally, &c, idx);
        }
        gcm_case_free(&c);
    }
    tally_detail(&r, &tally);
    vt_report_finish(&r, 0);
}
