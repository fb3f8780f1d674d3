/* NIP-44 v2 payloads from nostr-tools (vectors/nostr-tools.nip44.json).
 *
 * Conversation keys agree in both directions; encrypting the same plaintext under the same
 * conversation key and nonce gives nostr-tools' payload exactly (or its sha256 for the long
 * ones); we decrypt their payload to the exact plaintext, through sc_nip44_decrypt and a held
 * sc_nip44_conversation; tampered payloads fail with the recorded status and a zeroed output. */
#include "test_interop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERRMAX 400

/* The decrypt contract: bytes of out it wrote and does not return are zeroed; bytes it never
 * touched keep what the caller had. Run once over FILL_A and once over FILL_B: a byte that is
 * 0 or the fill in both runs was zeroed or never written, so no decoded, decrypted or padding
 * byte leaked (a leaked byte would have to equal both fills). */
#define FILL_A 0xa5
#define FILL_B 0x5a

void test_interop_nip44_conversation_keys(void **state)
{
    it_env *env = it_env_of(state);
    const cJSON *arr =
        it_need_array(env, env->nip44, IT_NIP44_FILE, env->nip44_why, "conversation_keys");
    const cJSON *c;
    vt_report r;

    vt_report_init(&r, env->backend, IT_NIP44_FILE " conversation_keys");
    cJSON_ArrayForEach(c, arr)
    {
        uint8_t sec1[32], sec2[32], pub1[32], pub2[32], want[32], ck[32], pub[32];
        sc_identity who;
        sc_status s1, s2, s3;

        if (!it_json_hex_exact(c, "sec1", sec1, 32) || !it_json_hex_exact(c, "sec2", sec2, 32) ||
            !it_json_hex_exact(c, "pub1", pub1, 32) || !it_json_hex_exact(c, "pub2", pub2, 32) ||
            !it_json_hex_exact(c, "conversation_key", want, 32)) {
            vt_case_fail(&r, "malformed vector");
            continue;
        }
        s1 = sc_nip44_conversation_key(&env->ctx, ck, sec1, pub2);
        if (s1 != SC_OK || memcmp(ck, want, 32) != 0) {
            vt_case_fail(&r, "conv(sec1, pub2): %s", sc_status_name(s1));
            continue;
        }
        s2 = sc_nip44_conversation_key(&env->ctx, ck, sec2, pub1);
        if (s2 != SC_OK || memcmp(ck, want, 32) != 0) {
            vt_case_fail(&r, "conv(sec2, pub1): %s", sc_status_name(s2));
            continue;
        }
        memset(&who, 0, sizeof who);
        s3 = sc_identity_import(&env->ctx, &who, sec1);
        if (s3 != SC_OK || sc_identity_pubkey(pub, &who) != SC_OK || memcmp(pub, pub1, 32) != 0) {
            vt_case_fail(&r, "pubkey of sec1: %s", sc_status_name(s3));
            sc_identity_clear(&who);
            continue;
        }
        {
            sc_nip44_conversation conv;
            sc_status s4 = sc_nip44_conversation_init(&env->ctx, &conv, &who, pub2);

            sc_nip44_conversation_clear(&conv);
            sc_identity_clear(&who);
            if (s4 != SC_OK) {
                vt_case_fail(&r, "sc_nip44_conversation_init: %s", sc_status_name(s4));
                continue;
            }
        }
        vt_case_pass(&r);
    }
    vt_report_finish(&r, (size_t)cJSON_GetArraySize(arr));
}

/* The plaintext of a case: hex, or the pattern generator (checked against plaintext_sha256). */
static int case_plaintext(it_env *env, const cJSON *c, size_t len, vt_bytes *pt)
{
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(env->nip44, "pattern");
    const char *gen = vt_json_str(c, "plaintext_gen");
    vt_bytes pattern, want;
    const char *filler = vt_json_str(pat, "filler");
    uint8_t got[32];
    size_t i, k;
    int ok;

    if (gen == NULL) {
        return vt_json_hex(c, "plaintext", pt) && pt->n == len;
    }
    if (strcmp(gen, "pattern") != 0 || filler == NULL ||
        !vt_json_hex(pat, "pattern_hex", &pattern)) {
        return 0;
    }
    if (pattern.n == 0 || strlen(filler) + 1 < pattern.n ||
        !vt_json_hex(c, "plaintext_sha256", &want)) {
        vt_bytes_free(&pattern);
        return 0;
    }
    pt->p = vt_alloc(len);
    pt->n = len;
    k = len / pattern.n;
    for (i = 0; i < k; i++) {
        memcpy(pt->p + i * pattern.n, pattern.p, pattern.n);
    }
    memcpy(pt->p + k * pattern.n, filler, len - k * pattern.n);
    ok = want.n == 32 && sc_crypto_sha256(&env->ctx, got, pt->p, len) == SC_OK &&
         memcmp(got, want.p, 32) == 0;
    vt_bytes_free(&pattern);
    vt_bytes_free(&want);
    if (!ok) {
        vt_bytes_free(pt);
    }
    return ok;
}

/* Decrypts payload into a FILL-ed buffer of exactly sc_nip44_decrypt_max bytes and checks the
 * plaintext and that the rest of the buffer is zeroed. Also through a held conversation. */
static const char *check_decrypt(char *err, it_env *env, const uint8_t ck[32], const char *payload,
                                 size_t payload_len, const vt_bytes *pt)
{
    size_t cap = sc_nip44_decrypt_max(payload_len), out_len = 0, need = 0;
    uint8_t *out = vt_alloc(cap);
    sc_nip44_conversation conv;
    const char *res = NULL;
    uint8_t fill;
    sc_status st;

    if (cap < pt->n) {
        snprintf(err, ERRMAX, "sc_nip44_decrypt_max(%zu) = %zu < %zu", payload_len, cap, pt->n);
        res = err;
        goto out;
    }
    for (fill = FILL_A;; fill = FILL_B) {
        memset(out, fill, cap);
        st = sc_nip44_decrypt(&env->ctx, out, cap, &out_len, ck, payload, payload_len, 0);
        if (st != SC_OK || out_len != pt->n || memcmp(out, pt->p, pt->n) != 0) {
            snprintf(err, ERRMAX, "decrypt of nostr-tools' payload: %s, %zu bytes (want %zu)",
                     sc_status_name(st), out_len, pt->n);
            res = err;
            goto out;
        }
        if (!vt_only_zero_or(out + out_len, cap - out_len, fill)) {
            res = "decrypt left decoded or padding bytes after the plaintext";
            goto out;
        }
        if (fill == FILL_B) {
            break;
        }
    }
    st = sc_nip44_decrypt(&env->ctx, out, cap - 1, &need, ck, payload, payload_len, 0);
    if (st != SC_ERR_BUFFER_TOO_SMALL || need != cap) {
        snprintf(err, ERRMAX, "decrypt into cap-1: %s, need %zu (want %zu)", sc_status_name(st),
                 need, cap);
        res = err;
        goto out;
    }
    memset(out, FILL_A, cap);
    st = sc_nip44_conversation_init_key(&conv, ck);
    if (st == SC_OK) {
        st = sc_nip44_conversation_decrypt(&env->ctx, out, cap, &out_len, &conv, payload,
                                           payload_len, 0);
    }
    sc_nip44_conversation_clear(&conv);
    if (st != SC_OK || out_len != pt->n || memcmp(out, pt->p, pt->n) != 0) {
        snprintf(err, ERRMAX, "sc_nip44_conversation_decrypt: %s", sc_status_name(st));
        res = err;
    }
out:
    free(out);
    return res;
}

static const char *check_encrypt_case(char *err, it_env *env, const cJSON *c, int *extended)
{
    uint8_t ck[32], nonce[32], got[32];
    long len_l = 0, padded_l = 0, plen_l = 0;
    const char *prefix = vt_json_str(c, "prefix");
    size_t want_len = 0, len, out_len = 0, plen;
    const char *want = it_json_text(c, "payload", &want_len);
    vt_bytes pt = {NULL, 0}, want_hash = {NULL, 0};
    unsigned flags;
    char *out = NULL;
    const char *res = NULL;
    sc_status st;

    if (!it_json_hex_exact(c, "conversation_key", ck, 32) ||
        !it_json_hex_exact(c, "nonce", nonce, 32) || !vt_json_long(c, "len", &len_l) ||
        !vt_json_long(c, "padded_len", &padded_l) || prefix == NULL || len_l <= 0) {
        return "malformed vector";
    }
    len = (size_t)len_l;
    *extended = strcmp(prefix, "extended") == 0;
    flags = *extended ? SC_NIP44_EXTENDED : 0u;
    if (want == NULL && (!vt_json_long(c, "payload_len", &plen_l) ||
                         !vt_json_hex(c, "payload_sha256", &want_hash) || want_hash.n != 32)) {
        res = "malformed vector (payload)";
        goto out;
    }
    plen = want != NULL ? want_len : (size_t)plen_l;
    if (!case_plaintext(env, c, len, &pt)) {
        res = "malformed vector, or the pattern plaintext does not match plaintext_sha256";
        goto out;
    }
    if (sc_nip44_padded_len(len) != (uint64_t)padded_l) {
        snprintf(err, ERRMAX, "sc_nip44_padded_len(%zu) = %llu, nostr-tools %ld", len,
                 (unsigned long long)sc_nip44_padded_len(len), padded_l);
        res = err;
        goto out;
    }
    if (sc_nip44_encrypt_len(len) != plen) {
        snprintf(err, ERRMAX, "sc_nip44_encrypt_len(%zu) = %zu, nostr-tools %zu", len,
                 sc_nip44_encrypt_len(len), plen);
        res = err;
        goto out;
    }
    out = (char *)vt_alloc(plen);
    st = sc_nip44_encrypt_with_rand(&env->ctx, out, plen, &out_len, ck, nonce, pt.p, len, flags);
    if (st != SC_OK || out_len != plen) {
        snprintf(err, ERRMAX, "encrypt: %s, %zu chars (want %zu)", sc_status_name(st), out_len,
                 plen);
        res = err;
        goto out;
    }
    if (want != NULL ? memcmp(out, want, plen) != 0
                     : (sc_crypto_sha256(&env->ctx, got, (const uint8_t *)out, plen) != SC_OK ||
                        memcmp(got, want_hash.p, 32) != 0)) {
        snprintf(err, ERRMAX, "our payload differs from nostr-tools' (first difference at %zu)",
                 want != NULL ? it_first_diff(out, plen, want, plen) : (size_t)0);
        res = err;
        goto out;
    }
    if (*extended) {
        /* Without the opt-in, a plaintext this long is refused, with nothing written. */
        memset(out, FILL_A, plen);
        out_len = 1;
        st = sc_nip44_encrypt_with_rand(&env->ctx, out, plen, &out_len, ck, nonce, pt.p, len, 0);
        if (st != SC_ERR_POLICY || out_len != 0 ||
            !vt_only_zero_or((const uint8_t *)out, plen, FILL_A)) {
            snprintf(err, ERRMAX, "encrypt of %zu bytes without SC_NIP44_EXTENDED: %s, out_len %zu",
                     len, sc_status_name(st), out_len);
            res = err;
            goto out;
        }
        if (sc_nip44_encrypt_with_rand(&env->ctx, out, plen, &out_len, ck, nonce, pt.p, len,
                                       flags) != SC_OK) {
            res = "re-encrypt failed";
            goto out;
        }
    }
    /* Equal payloads: decrypting ours is decrypting theirs. */
    res = check_decrypt(err, env, ck, want != NULL ? want : out, plen, &pt);
out:
    free(out);
    vt_bytes_free(&pt);
    if (want_hash.p != NULL) {
        vt_bytes_free(&want_hash);
    }
    return res;
}

void test_interop_nip44_encrypt(void **state)
{
    it_env *env = it_env_of(state);
    const cJSON *arr = it_need_array(env, env->nip44, IT_NIP44_FILE, env->nip44_why, "encrypt");
    const cJSON *c;
    vt_report r;
    size_t full = 0, hashed = 0, ext = 0;
    char err[ERRMAX];

    vt_report_init(&r, env->backend, IT_NIP44_FILE " encrypt");
    cJSON_ArrayForEach(c, arr)
    {
        int extended = 0;
        const char *res = check_encrypt_case(err, env, c, &extended);

        if (vt_json_str(c, "payload") != NULL) {
            full++;
        } else {
            hashed++;
        }
        ext += extended != 0;
        if (res == NULL) {
            vt_case_pass(&r);
        } else {
            long len = 0;

            (void)vt_json_long(c, "len", &len);
            vt_case_fail(&r, "len %ld: %s", len, res);
        }
    }
    snprintf(r.detail, sizeof r.detail, "%zu full payloads, %zu by sha256, %zu extended prefix",
             full, hashed, ext);
    vt_report_finish(&r, (size_t)cJSON_GetArraySize(arr));
}

void test_interop_nip44_rejects(void **state)
{
    it_env *env = it_env_of(state);
    const cJSON *arr = it_need_array(env, env->nip44, IT_NIP44_FILE, env->nip44_why, "rejects");
    const cJSON *c;
    vt_report r;
    size_t controls = 0;

    vt_report_init(&r, env->backend, IT_NIP44_FILE " rejects");
    cJSON_ArrayForEach(c, arr)
    {
        uint8_t ck[32];
        size_t plen = 0, cap, out_len = 12345;
        const char *payload = it_json_text(c, "payload", &plen);
        const char *name = vt_json_str(c, "name");
        int want = it_status_by_name(vt_json_str(c, "expect"));
        uint8_t *out, fill;
        sc_status st;

        if (payload == NULL || want > 0 || !it_json_hex_exact(c, "conversation_key", ck, 32)) {
            vt_case_fail(&r, "%s: malformed vector", name);
            continue;
        }
        cap = sc_nip44_decrypt_max(plen) + 64; /* room past the need: must stay clean too */
        out = vt_alloc(cap);
        for (fill = FILL_A;; fill = FILL_B) {
            out_len = 12345;
            memset(out, fill, cap);
            st = sc_nip44_decrypt(&env->ctx, out, cap, &out_len, ck, payload, plen, 0);
            if ((int)st != want || st == SC_OK || out_len != 0 ||
                !vt_only_zero_or(out, cap, fill) || fill == FILL_B) {
                break;
            }
        }
        if ((int)st != want) {
            vt_case_fail(&r, "%s: %s, want %s", name, sc_status_name(st),
                         sc_status_name((sc_status)want));
        } else if (st == SC_OK) {
            vt_bytes pt;

            controls++;
            if (!vt_json_hex(c, "plaintext", &pt)) {
                vt_case_fail(&r, "%s: malformed vector (plaintext)", name);
            } else if (out_len != pt.n || memcmp(out, pt.p, pt.n) != 0 ||
                       !vt_only_zero_or(out + out_len, cap - out_len, fill)) {
                vt_case_fail(&r, "%s: wrong plaintext (%zu bytes) or bytes left after it", name,
                             out_len);
            } else {
                vt_case_pass(&r);
            }
            vt_bytes_free(&pt);
        } else if (out_len != 0 || !vt_only_zero_or(out, cap, fill)) {
            vt_case_fail(&r, "%s: %s left decoded bytes in the output (out_len %zu)", name,
                         sc_status_name(st), out_len);
        } else {
            vt_case_pass(&r);
        }
        free(out);
    }
    snprintf(r.detail, sizeof r.detail, "%zu controls that must decrypt", controls);
    vt_report_finish(&r, (size_t)cJSON_GetArraySize(arr));
}
