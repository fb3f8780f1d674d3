/* nip44.extended-prefix.json: the 44.md table (65535, 65536, 65537 bytes) and the locally
 * generated 100000-byte and 1 MiB rows, the extended calc_padded_len pairs, and the must-fail
 * extended payloads (one of them given only by its checksum and its construction, which is
 * rebuilt here and checked against that checksum before it is decrypted). */
#include "test_nip44.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LBL(x) NT_EXT_FILE " " x

/* The decrypted length prefix of payload b64[0..n) under (ck, nonce) has the expected form. */
static int prefix_is(nt_env *env, const uint8_t ck[32], const char *b64, size_t n, size_t plain_len,
                     long prefix_len)
{
    uint8_t *raw = vt_alloc(sc_base64_decode_max(n)), key[32], cn[12], hk[32], pre[6];
    size_t raw_len = 0;
    int ok = 0;

    if (sc_base64_decode(raw, sc_base64_decode_max(n), &raw_len, b64, n) == SC_OK &&
        raw_len > 65 + 6 && sc_nip44_message_keys(&env->ctx, key, cn, hk, ck, raw + 1) == SC_OK &&
        sc_crypto_chacha20_xor(&env->ctx, pre, raw + 33, sizeof pre, key, cn, 0) == SC_OK) {
        if (prefix_len == 2) {
            ok = pre[0] == (uint8_t)(plain_len >> 8) && pre[1] == (uint8_t)plain_len &&
                 plain_len < 65536;
        } else if (prefix_len == 6) {
            ok = pre[0] == 0 && pre[1] == 0 && pre[2] == (uint8_t)(plain_len >> 24) &&
                 pre[3] == (uint8_t)(plain_len >> 16) && pre[4] == (uint8_t)(plain_len >> 8) &&
                 pre[5] == (uint8_t)plain_len;
        }
    }
    free(raw);
    return ok;
}

static int valid_row(nt_env *env, const cJSON *c, char *err, size_t cap)
{
    const char *pattern = vt_json_str(c, "pattern");
    long repeat = 0, prefix_len = 0, padded_len = 0, b64_len = 0;
    uint8_t ck[32], nonce[32], *pt = NULL, *dec = NULL;
    size_t len = 0, need, out_len = 0, dlen = 0, dcap;
    char *out = NULL;
    sc_status st;
    int ok = 0;

    if (!nt_json_fixed(c, "conversation_key", ck, 32) || !nt_json_fixed(c, "nonce", nonce, 32) ||
        pattern == NULL || !vt_json_long(c, "repeat", &repeat) || repeat <= 0 ||
        !vt_json_long(c, "prefix_len", &prefix_len) ||
        !vt_json_long(c, "padded_len", &padded_len) ||
        !vt_json_long(c, "payload_b64_len", &b64_len)) {
        snprintf(err, cap, "malformed row");
        return 0;
    }
    pt = nt_repeat(pattern, (size_t)repeat, &len);
    need = sc_nip44_encrypt_len(len);
    dcap = sc_nip44_decrypt_max(need);
    out = (char *)vt_alloc(need);
    dec = vt_alloc(dcap);
    if (!nt_sha256_is(env, pt, len, vt_json_str(c, "plaintext_sha256"))) {
        snprintf(err, cap, "plaintext digest differs: the row was misread");
    } else if (sc_nip44_padded_len(len) != (uint64_t)padded_len || need != (size_t)b64_len) {
        snprintf(err, cap, "padded_len %llu (want %ld), payload_len %zu (want %ld)",
                 (unsigned long long)sc_nip44_padded_len(len), padded_len, need, b64_len);
    } else if ((st = sc_nip44_encrypt_with_rand(&env->ctx, out, need, &out_len, ck, nonce, pt, len,
                                                0)) != (len >= 65536 ? SC_ERR_POLICY : SC_OK)) {
        snprintf(err, cap, "encrypt without SC_NIP44_EXTENDED returned %s", sc_status_name(st));
    } else if ((st = sc_nip44_encrypt_with_rand(&env->ctx, out, need, &out_len, ck, nonce, pt, len,
                                                SC_NIP44_EXTENDED)) != SC_OK ||
               out_len != need) {
        snprintf(err, cap, "encrypt with SC_NIP44_EXTENDED returned %s", sc_status_name(st));
    } else if (!nt_sha256_is(env, (const uint8_t *)out, out_len,
                             vt_json_str(c, "payload_sha256"))) {
        snprintf(err, cap, "payload digest differs");
    } else if (!prefix_is(env, ck, out, out_len, len, prefix_len)) {
        snprintf(err, cap, "the decrypted prefix is not the %ld-byte form", prefix_len);
    } else if ((st = sc_nip44_decrypt(&env->ctx, dec, dcap, &dlen, ck, out, out_len, 0)) !=
               (need > SC_NIP44_DEFAULT_MAX_PAYLOAD ? SC_ERR_TOO_LARGE : SC_OK)) {
        snprintf(err, cap, "decrypt with the default maximum returned %s", sc_status_name(st));
    } else if ((st = sc_nip44_decrypt(&env->ctx, dec, dcap, &dlen, ck, out, out_len, out_len)) !=
                   SC_OK ||
               dlen != len || memcmp(dec, pt, len) != 0) {
        snprintf(err, cap, "decrypt returned %s, %zu bytes", sc_status_name(st), dlen);
    } else {
        ok = 1;
    }
    free(pt);
    free(out);
    free(dec);
    return ok;
}

void test_ext_valid(void **state)
{
    nt_env *env = nt_env_of(state);
    cJSON *root = nt_need_upstream(env, NT_EXT_FILE);
    const cJSON *c;
    size_t ext = 0;
    vt_report r;

    vt_report_init(&r, env->backend, LBL("valid"));
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "valid"))
    {
        long repeat = 0, pre = 0;
        char err[300];

        (void)vt_json_long(c, "repeat", &repeat);
        (void)vt_json_long(c, "prefix_len", &pre);
        if (!valid_row(env, c, err, sizeof err)) {
            vt_case_fail(&r, "repeat %ld: %s", repeat, err);
        } else {
            vt_case_pass(&r);
            ext += pre == 6;
        }
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "%zu with the 6-byte prefix", ext);
    vt_report_finish(&r, 5);
}

void test_ext_padded_len(void **state)
{
    nt_env *env = nt_env_of(state);
    cJSON *root = nt_need_upstream(env, NT_EXT_FILE);
    vt_report r;

    vt_report_init(&r, env->backend, LBL("calc_padded_len"));
    nt_check_padded_lens(&r, cJSON_GetObjectItemCaseSensitive(root, "calc_padded_len"));
    cJSON_Delete(root);
    vt_report_finish(&r, 16);
}

/* The third must-fail case: 00 00 || u32be(65536) || "a" * 65536 || 32 zero bytes, a padded
 * buffer 32 bytes longer than calc_padded_len allows, under a valid MAC. */
static char *rebuild_long_padding(nt_env *env, const uint8_t ck[32], const uint8_t nonce[32],
                                  size_t *len)
{
    size_t n = 6 + 65536 + 32;
    uint8_t *padded = vt_alloc(n);
    char *b64;

    padded[3] = 1; /* u32be(65536) = 00 01 00 00 */
    memset(padded + 6, 'a', 65536);
    b64 = nt_build_payload(env, ck, nonce, 2, padded, n, len);
    free(padded);
    return b64;
}

void test_ext_invalid_decrypt(void **state)
{
    nt_env *env = nt_env_of(state);
    cJSON *root = nt_need_upstream(env, NT_EXT_FILE);
    const cJSON *c;
    size_t rebuilt = 0;
    uint8_t nonce[32];
    vt_report r;

    if (!nt_json_fixed(root, "nonce", nonce, 32)) {
        fail_msg("%s: no top-level nonce", NT_EXT_FILE);
    }
    vt_report_init(&r, env->backend, LBL("invalid_decrypt"));
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "invalid_decrypt"))
    {
        const char *note = vt_json_str(c, "note"), *given = vt_json_str(c, "payload");
        char *payload = NULL;
        size_t plen = 0, dlen = 9, cap;
        uint8_t ck[32], *dec;
        sc_status st;

        if (!nt_json_fixed(c, "conversation_key", ck, 32) || note == NULL ||
            strstr(note, "invalid padding") == NULL) {
            vt_case_fail(&r, "malformed case (every case here is an invalid padding)");
            continue;
        }
        if (given != NULL) {
            plen = strlen(given);
        } else if (vt_json_str(c, "construction") != NULL) {
            payload = rebuild_long_padding(env, ck, nonce, &plen);
            rebuilt++;
            if (!nt_sha256_is(env, (const uint8_t *)payload, plen,
                              vt_json_str(c, "payload_sha256"))) {
                vt_case_fail(&r, "\"%s\": the rebuilt payload does not match payload_sha256", note);
                free(payload);
                continue;
            }
        } else {
            vt_case_fail(&r, "\"%s\": neither payload nor construction", note);
            continue;
        }
        cap = sc_nip44_decrypt_max(plen);
        dec = vt_alloc(cap);
        memset(dec, 0x5a, cap);
        st = sc_nip44_decrypt(&env->ctx, dec, cap, &dlen, ck, given ? given : payload, plen, 0);
        if (st != SC_ERR_PADDING || dlen != 0) {
            vt_case_fail(&r, "\"%s\": %s, expected SC_ERR_PADDING", note, sc_status_name(st));
        } else if (nt_zeroed_prefix(dec, cap, 0x5a) !=
                   nt_decoded_len(given ? given : payload, plen)) {
            vt_case_fail(&r, "\"%s\": the decoded (and authentic) bytes were not all zeroed", note);
        } else {
            vt_case_pass(&r);
        }
        free(dec);
        free(payload);
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "%zu rebuilt from construction + payload_sha256", rebuilt);
    vt_report_finish(&r, 3);
}
