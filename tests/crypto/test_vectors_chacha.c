/* ChaCha20 (RFC 8439): the RFC's block and encryption cases, and the project's own keystreams
 * checked at every length, each out-of-place, in place, and split at a block boundary with
 * the counter advanced. A backend without chacha20-counter (optional for it) runs the cases at
 * counter 0 without the split and skips the others, after checking it refuses them. */
#include "test_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RFC8439_FILE "rfc/rfc8439-chacha20.json"
#define OWN_CHACHA_LABEL "vectors/" VT_OWN_FILE " chacha20"

/* Whether this backend starts ChaCha20 at any block counter. When it does not (an optional
 * capability for it, or the test fails), *why says why, and a non-zero counter must be
 * refused with SC_ERR_UNSUPPORTED, as the probe says. */
static int any_counter(vt_env *env, const char *file, const char **why)
{
    static const uint8_t key[32], nonce[12];
    uint8_t buf[64] = {0};
    sc_status st = sc_backend_has(sc_ctx_backend(&env->ctx), SC_CAP_CHACHA20_COUNTER, why);

    if (st == SC_OK) {
        return 1;
    }
    if (vt_cap_required(env->backend, SC_CAP_CHACHA20_COUNTER)) {
        fail_msg("[%s] %s: required capability chacha20-counter unsupported: %s", env->backend,
                 file, *why != NULL ? *why : "no reason given");
    }
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, sizeof buf, key, nonce, 1),
                     SC_ERR_UNSUPPORTED);
    printf("[%s] %s: cases at a non-zero block counter skipped (optional capability "
           "chacha20-counter unsupported: %s)\n",
           env->backend, file, *why);
    return 0;
}

/* in XOR keystream(counter) must equal want: out of place, in place, and (where the backend
 * takes any counter) as two calls split after `split_blocks` whole blocks. 1 on success, else
 * 0 with err. */
static int chacha_check(vt_env *env, const uint8_t key[32], const uint8_t nonce[12],
                        uint32_t counter, const uint8_t *in, const uint8_t *want, size_t len,
                        size_t split_blocks, int any, char *err, size_t cap)
{
    uint8_t *out = vt_alloc(len), *buf = vt_alloc(len);
    size_t cut = split_blocks * 64 < len ? split_blocks * 64 : len;
    sc_status s1, s2, s3, s4;
    int ok = 0;

    memcpy(buf, in, len);
    s1 = sc_crypto_chacha20_xor(&env->ctx, out, in, len, key, nonce, counter);
    s2 = sc_crypto_chacha20_xor(&env->ctx, buf, buf, len, key, nonce, counter);
    if (s1 != SC_OK || s2 != SC_OK) {
        snprintf(err, cap, "len %zu counter %u: out-of-place %s, in-place %s", len, counter,
                 sc_status_name(s1), sc_status_name(s2));
    } else if (memcmp(out, want, len) != 0) {
        snprintf(err, cap, "len %zu counter %u: out-of-place output differs", len, counter);
    } else if (memcmp(buf, want, len) != 0) {
        snprintf(err, cap, "len %zu counter %u: in-place output differs", len, counter);
    } else if (!any) {
        ok = 1;
    } else {
        memset(out, 0, len);
        s3 = sc_crypto_chacha20_xor(&env->ctx, out, in, cut, key, nonce, counter);
        s4 = sc_crypto_chacha20_xor(&env->ctx, out + cut, in + cut, len - cut, key, nonce,
                                    counter + (uint32_t)(cut / 64));
        if (s3 != SC_OK || s4 != SC_OK || memcmp(out, want, len) != 0) {
            snprintf(err, cap, "len %zu counter %u: split after %zu blocks differs (%s, %s)", len,
                     counter, cut / 64, sc_status_name(s3), sc_status_name(s4));
        } else {
            ok = 1;
        }
    }
    free(out);
    free(buf);
    return ok;
}

void test_chacha20_rfc8439(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;
    size_t blocks = 0, encrypts = 0;
    const char *why = NULL;
    int any;

    vt_need_cap(env, SC_CAP_CHACHA20, RFC8439_FILE);
    root = vt_need_upstream(env, RFC8439_FILE);
    any = any_counter(env, RFC8439_FILE, &why);
    vt_report_init(&r, env->backend, RFC8439_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases"))
    {
        const char *name = vt_json_str(c, "name"), *type = vt_json_str(c, "type");
        vt_bytes key, nonce, pt, ct;
        int64_t counter = -1;
        char err[256];
        int is_block = type != NULL && strcmp(type, "block") == 0;

        memset(&pt, 0, sizeof pt);
        memset(&ct, 0, sizeof ct);
        if (is_block) {
            (void)vt_json_hex(c, "keystream", &ct);
            if (ct.p != NULL) {
                pt.p = vt_alloc(ct.n); /* the block function is the keystream of zeros */
                pt.n = ct.n;
            }
        } else {
            (void)(vt_json_hex(c, "plaintext", &pt) + vt_json_hex(c, "ciphertext", &ct));
        }
        if (!vt_json_hex(c, "key", &key) + !vt_json_hex(c, "nonce", &nonce) != 0 || pt.p == NULL ||
            ct.p == NULL || pt.n != ct.n || key.n != 32 || nonce.n != 12 ||
            !vt_json_i64(c, "counter", &counter) || counter < 0 || counter > INT64_C(0xffffffff) ||
            (type == NULL || (!is_block && strcmp(type, "encrypt") != 0))) {
            vt_case_fail(&r, "%s: malformed case", name != NULL ? name : "?");
        } else if (counter != 0 && !any) {
            vt_case_skip(&r, why);
        } else if (!chacha_check(env, key.p, nonce.p, (uint32_t)counter, pt.p, ct.p, pt.n, 1, any,
                                 err, sizeof err) ||
                   !chacha_check(env, key.p, nonce.p, (uint32_t)counter, ct.p, pt.p, pt.n, 2, any,
                                 err, sizeof err)) {
            vt_case_fail(&r, "%s: %s", name, err);
        } else {
            vt_case_pass(&r);
            blocks += is_block;
            encrypts += !is_block;
        }
        vt_bytes_free(&key);
        vt_bytes_free(&nonce);
        vt_bytes_free(&pt);
        vt_bytes_free(&ct);
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "%zu block, %zu encrypt; each also decrypted, in place%s",
             blocks, encrypts, any ? " and split" : " (no split: counter 0 only)");
    vt_report_finish(&r, 10);
}

/* Every prefix length of a keystream is one case: zeros give the keystream, a pattern gives
 * pattern XOR keystream. */
static void keystream_all_lengths(vt_env *env, vt_report *r, const vt_bytes *key,
                                  const vt_bytes *nonce, uint32_t counter, const vt_bytes *ks,
                                  int any)
{
    uint8_t *zeros = vt_alloc(ks->n), *pat = vt_alloc(ks->n), *want = vt_alloc(ks->n);
    size_t len, i;
    char err[256];

    for (len = 0; len <= ks->n; len++) {
        for (i = 0; i < len; i++) {
            pat[i] = (uint8_t)(i * 151u + len);
            want[i] = pat[i] ^ ks->p[i];
        }
        if (chacha_check(env, key->p, nonce->p, counter, zeros, ks->p, len, len % 3 + 1, any, err,
                         sizeof err) &&
            chacha_check(env, key->p, nonce->p, counter, pat, want, len, len % 2 + 1, any, err,
                         sizeof err)) {
            vt_case_pass(r);
        } else {
            vt_case_fail(r, "%s", err);
        }
    }
    free(zeros);
    free(pat);
    free(want);
}

void test_own_chacha20(void **state)
{
    vt_env *env = vt_env_of(state);
    const cJSON *cases, *c;
    vt_report r;
    size_t streams = 0, i;
    const char *why = NULL;
    int any;

    vt_need_cap(env, SC_CAP_CHACHA20, OWN_CHACHA_LABEL);
    cases = vt_need_own(env, "chacha20");
    any = any_counter(env, OWN_CHACHA_LABEL, &why);
    vt_report_init(&r, env->backend, OWN_CHACHA_LABEL);
    cJSON_ArrayForEach(c, cases)
    {
        vt_bytes key, nonce, ks;
        int64_t counter = -1;

        if (!vt_json_hex(c, "key", &key) + !vt_json_hex(c, "nonce", &nonce) +
                    !vt_json_hex(c, "keystream", &ks) !=
                0 ||
            key.n != 32 || nonce.n != 12 || !vt_json_i64(c, "counter", &counter) || counter < 0 ||
            counter > INT64_C(0xffffffff) ||
            (uint64_t)counter + (ks.n + 63) / 64 > ((uint64_t)1 << 32)) {
            vt_case_fail(&r, "malformed keystream entry");
        } else if (counter != 0 && !any) {
            for (i = 0; i <= ks.n; i++) { /* one case per prefix length, as below */
                vt_case_skip(&r, why);
            }
        } else {
            keystream_all_lengths(env, &r, &key, &nonce, (uint32_t)counter, &ks, any);
            streams++;
        }
        vt_bytes_free(&key);
        vt_bytes_free(&nonce);
        vt_bytes_free(&ks);
    }
    snprintf(r.detail, sizeof r.detail,
             "every length of %zu keystreams; each out of place, in place%s", streams,
             any ? " and split" : " (no split: counter 0 only)");
    vt_report_finish(&r, 0);
}
