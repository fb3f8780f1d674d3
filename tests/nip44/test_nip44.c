/* The NIP-44 v2 suite for one backend:
 *   test_nip44 --backend NAME [--vectors DIR] [--own DIR]
 * --vectors names the upstream data (nip44.vectors.json, nip44.extended-prefix.json); --own is
 * accepted for symmetry with the other suites (this suite has no own vector file: its own
 * cases are written in code). One context is created for the backend and every test runs
 * against it; the cmocka group is named after the backend. */
#include "test_nip44.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------------------- */

cJSON *nt_need_upstream(const nt_env *env, const char *rel)
{
    return vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, rel);
}

void nt_check_padded_lens(vt_report *r, const cJSON *pairs)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, pairs)
    {
        const cJSON *l = cJSON_GetArrayItem(c, 0), *p = cJSON_GetArrayItem(c, 1);
        uint64_t got;

        if (!cJSON_IsNumber(l) || !cJSON_IsNumber(p) || l->valuedouble < 1) {
            vt_case_fail(r, "malformed pair");
            continue;
        }
        got = sc_nip44_padded_len((uint64_t)l->valuedouble);
        if (got != (uint64_t)p->valuedouble) {
            vt_case_fail(r, "%.0f -> %llu, expected %.0f", l->valuedouble, (unsigned long long)got,
                         p->valuedouble);
        } else {
            vt_case_pass(r);
        }
    }
}

const cJSON *nt_v2(const cJSON *root, const char *a, const char *b)
{
    const cJSON *v2 = cJSON_GetObjectItemCaseSensitive(root, "v2");
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v2, a), b);

    if (x == NULL) {
        fail_msg("%s has no v2.%s.%s", NT_FILE, a, b);
    }
    return x;
}

int nt_json_fixed(const cJSON *obj, const char *key, uint8_t *out, size_t n)
{
    vt_bytes b;
    int ok = vt_json_hex(obj, key, &b) && b.n == n;

    if (ok) {
        memcpy(out, b.p, n);
    }
    vt_bytes_free(&b);
    return ok;
}

int nt_sha256_is(nt_env *env, const uint8_t *p, size_t n, const char *want)
{
    uint8_t got[32];

    return sc_crypto_sha256(&env->ctx, got, p, n) == SC_OK && vt_hex_is(got, 32, want);
}

uint8_t *nt_repeat(const char *pattern, size_t repeat, size_t *len)
{
    size_t plen = strlen(pattern), i;
    uint8_t *p = vt_alloc(plen * repeat);

    for (i = 0; i < repeat; i++) {
        memcpy(p + i * plen, pattern, plen);
    }
    *len = plen * repeat;
    return p;
}

uint64_t nt_padded_len(uint64_t len)
{
    uint64_t v = len - 1, np, chunk;
    unsigned bits = 0;

    if (len <= 32) {
        return 32;
    }
    while (v != 0) { /* bit length of len - 1 = floor(log2(len - 1)) + 1 */
        bits++;
        v >>= 1;
    }
    np = (uint64_t)1 << bits;
    chunk = np <= 256 ? 32 : np / 8;
    return chunk * ((len - 1) / chunk + 1);
}

uint8_t *nt_pad(const uint8_t *pt, size_t len, size_t *n)
{
    size_t pre = len >= 65536 ? 6 : 2;
    uint8_t *p;

    *n = pre + (size_t)nt_padded_len(len);
    p = vt_alloc(*n);
    if (pre == 2) {
        p[0] = (uint8_t)(len >> 8);
        p[1] = (uint8_t)len;
    } else {
        p[2] = (uint8_t)(len >> 24);
        p[3] = (uint8_t)(len >> 16);
        p[4] = (uint8_t)(len >> 8);
        p[5] = (uint8_t)len;
    }
    memcpy(p + pre, pt, len);
    return p;
}

char *nt_build_payload(nt_env *env, const uint8_t ck[32], const uint8_t nonce[32], uint8_t version,
                       const uint8_t *padded, size_t n, size_t *len)
{
    uint8_t key[32], cn[12], hk[32];
    size_t raw_len = 65 + n;
    uint8_t *raw = vt_alloc(raw_len);
    char *b64 = (char *)vt_alloc(sc_base64_encode_len(raw_len) + 1);
    sc_iov parts[2];

    raw[0] = version;
    memcpy(raw + 1, nonce, 32);
    VT_ASSERT_STATUS(sc_nip44_message_keys(&env->ctx, key, cn, hk, ck, nonce), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, raw + 33, padded, n, key, cn, 0), SC_OK);
    parts[0].data = raw + 1;
    parts[0].len = 32;
    parts[1].data = raw + 33;
    parts[1].len = n;
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&env->ctx, raw + 33 + n, hk, 32, parts, 2), SC_OK);
    VT_ASSERT_STATUS(sc_base64_encode(b64, sc_base64_encode_len(raw_len), len, raw, raw_len),
                     SC_OK);
    b64[*len] = '\0';
    free(raw);
    return b64;
}

size_t nt_zeroed_prefix(const uint8_t *p, size_t cap, uint8_t fill)
{
    size_t k = 0, i;

    while (k < cap && p[k] == 0) {
        k++;
    }
    for (i = k; i < cap; i++) {
        if (p[i] != fill) {
            return (size_t)-1;
        }
    }
    return k;
}

size_t nt_decoded_len(const char *b64, size_t n)
{
    if (n == 0 || n % 4 != 0) {
        return 0;
    }
    return n / 4 * 3 - (b64[n - 1] == '=') - (b64[n - 1] == '=' && b64[n - 2] == '=');
}

int nt_encrypt_check(nt_env *env, const uint8_t ck[32], const uint8_t nonce[32], const uint8_t *pt,
                     size_t len, unsigned flags, char *err, size_t cap)
{
    const size_t canary = 8;
    size_t n = 0, ref_len = 0, need = sc_nip44_encrypt_len(len), out_len = 0, dcap, dlen = 0;
    uint8_t *padded = nt_pad(pt, len, &n), *dec = NULL;
    char *ref = nt_build_payload(env, ck, nonce, 2, padded, n, &ref_len);
    char *out = (char *)vt_alloc(need + canary);
    sc_status st;
    int ok = 0;

    memset(out, 0xa5, need + canary);
    if (need != ref_len) {
        snprintf(err, cap, "len %zu: sc_nip44_encrypt_len %zu, reference %zu", len, need, ref_len);
    } else if ((st = sc_nip44_encrypt_with_rand(&env->ctx, out, need + canary, &out_len, ck, nonce,
                                                pt, len, flags)) != SC_OK) {
        snprintf(err, cap, "len %zu: encrypt returned %s", len, sc_status_name(st));
    } else if (out_len != need || memcmp(out, ref, need) != 0) {
        snprintf(err, cap, "len %zu: payload differs from the out-of-place reference", len);
    } else if (out[need] != (char)0xa5 || memcmp(out + need, out + need + 1, canary - 1) != 0) {
        snprintf(err, cap, "len %zu: bytes past the payload were written", len);
    } else {
        dcap = sc_nip44_decrypt_max(need);
        dec = vt_alloc(dcap);
        memset(dec, 0xa5, dcap);
        st = sc_nip44_decrypt(&env->ctx, dec, dcap, &dlen, ck, out, need, need);
        if (st != SC_OK || dlen != len || memcmp(dec, pt, len) != 0) {
            snprintf(err, cap, "len %zu: decrypt returned %s, %zu bytes", len, sc_status_name(st),
                     dlen);
        } else if (!vt_all_zero(dec + len, n + 65 - len)) {
            snprintf(err, cap, "len %zu: decrypt left scratch bytes after the plaintext", len);
        } else if (dcap > n + 65 && (dec[n + 65] != 0xa5 ||
                                     memcmp(dec + n + 65, dec + n + 66, dcap - n - 66) != 0)) {
            snprintf(err, cap, "len %zu: decrypt wrote past the decoded length", len);
        } else {
            ok = 1;
        }
    }
    free(dec);
    free(out);
    free(ref);
    free(padded);
    return ok;
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static nt_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_v2_conversation_key, &env),
        cmocka_unit_test_prestate(test_v2_message_keys, &env),
        cmocka_unit_test_prestate(test_v2_padded_len, &env),
        cmocka_unit_test_prestate(test_v2_encrypt_decrypt, &env),
        cmocka_unit_test_prestate(test_v2_long_msg, &env),
        cmocka_unit_test_prestate(test_v2_encrypt_msg_lengths, &env),
        cmocka_unit_test_prestate(test_v2_invalid_conversation_key, &env),
        cmocka_unit_test_prestate(test_v2_invalid_decrypt, &env),
        cmocka_unit_test_prestate(test_ext_valid, &env),
        cmocka_unit_test_prestate(test_ext_padded_len, &env),
        cmocka_unit_test_prestate(test_ext_invalid_decrypt, &env),
        cmocka_unit_test_prestate(test_own_sizes, &env),
        cmocka_unit_test_prestate(test_own_decrypt_statuses, &env),
        cmocka_unit_test_prestate(test_own_decrypt_order, &env),
        cmocka_unit_test_prestate(test_own_buffers, &env),
        cmocka_unit_test_prestate(test_own_conversation, &env),
        cmocka_unit_test_prestate(test_own_peer_cache, &env),
        cmocka_unit_test_prestate(test_own_random_nonce, &env),
        cmocka_unit_test_prestate(test_own_in_place, &env),
        cmocka_unit_test_prestate(test_own_b64_in_place, &env),
        cmocka_unit_test_prestate(test_own_backend_failure, &env),
        cmocka_unit_test_prestate(test_own_args, &env),
        cmocka_unit_test_prestate(test_own_identity_calls, &env),
    };
    vt_suite suite;
    int failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_nip44", "NIP-44 v2",
                                "the NIP-44 vector files are", NULL, 0);

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
