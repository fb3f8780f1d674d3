/* The ncryptsec strings of vectors/nostr-tools.nip49.json (made with the @noble libraries under
 * nostr-tools, each opened by nostr-tools): every valid one decrypts to its key and security
 * byte, inspects to its cost, and is reproduced exactly by sealing its key with its salt and
 * nonce; every reject gets its status, with the output zeroed. */
#include "test_nip49.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One valid string: decrypt, inspect, re-seal. 1, or 0 with the reason in err. */
static int valid_case(n49_env *env, const cJSON *c, char *err, size_t cap)
{
    const char *text = vt_json_str(c, "ncryptsec");
    vt_bytes pw, salt, nonce, want;
    long log_n = 0, ksb = -1;
    uint8_t sec[32];
    char again[SC_NIP49_LEN];
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    unsigned got_log_n = 0;
    size_t n = 0, len;
    sc_status st;
    int ok = 0;

    if (!vt_json_hex(c, "password_nfkc_utf8", &pw) + !vt_json_hex(c, "salt", &salt) +
                !vt_json_hex(c, "nonce", &nonce) + !vt_json_hex(c, "sec", &want) !=
            0 ||
        text == NULL || !vt_json_long(c, "log_n", &log_n) ||
        !vt_json_long(c, "key_security", &ksb) || salt.n != 16 || nonce.n != 24 || want.n != 32) {
        snprintf(err, cap, "malformed case");
        goto out;
    }
    len = strlen(text);
    if ((st = sc_nip49_inspect(&got_log_n, &security, text, len)) != SC_OK ||
        got_log_n != (unsigned)log_n || (long)security != ksb) {
        snprintf(err, cap, "inspect: %s, log_n %u, security %d", sc_status_name(st), got_log_n,
                 (int)security);
        goto out;
    }
    security = SC_NIP49_KEY_UNKNOWN;
    st = sc_nip49_decrypt(&env->ctx, sec, &security, text, len, (const char *)pw.p, pw.n);
    if (st != SC_OK || memcmp(sec, want.p, 32) != 0 || (long)security != ksb) {
        snprintf(err, cap, "decrypt: %s", sc_status_name(st));
        goto out;
    }
    st = sc_nip49_encrypt_with_rand(&env->ctx, again, sizeof again, &n, sec, (const char *)pw.p,
                                    pw.n, (unsigned)log_n, security, salt.p, nonce.p);
    if (st != SC_OK || n != len || memcmp(again, text, len) != 0) {
        snprintf(err, cap, "sealing again: %s, %s", sc_status_name(st),
                 n == len ? "another text" : "another length");
        goto out;
    }
    ok = 1;
out:
    sc_mem_wipe(sec, sizeof sec);
    vt_bytes_free(&pw);
    vt_bytes_free(&salt);
    vt_bytes_free(&nonce);
    vt_bytes_free(&want);
    return ok;
}

static cJSON *load_own(n49_env *env)
{
    char why[600];
    cJSON *root = vt_load_json(env->own_dir, N49_OWN_FILE, why, sizeof why);

    if (root == NULL) {
        fail_msg("[%s] vectors/%s cannot be read: %s", env->backend, N49_OWN_FILE, why);
    }
    return root;
}

void test_nostr_tools_valid(void **state)
{
    n49_env *env = n49_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;

    n49_need_backend(env, "vectors/" N49_OWN_FILE);
    root = load_own(env);
    vt_report_init(&r, env->backend, "vectors/" N49_OWN_FILE " valid");
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "valid"))
    {
        const char *name = vt_json_str(c, "name");
        char err[256];

        if (!valid_case(env, c, err, sizeof err)) {
            vt_case_fail(&r, "%s: %s", name != NULL ? name : "?", err);
        } else {
            vt_case_pass(&r);
        }
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 24);
}

void test_nostr_tools_rejects(void **state)
{
    n49_env *env = n49_env_of(state);
    const cJSON *c;
    cJSON *root;
    vt_report r;

    n49_need_backend(env, "vectors/" N49_OWN_FILE " rejects");
    root = load_own(env);
    vt_report_init(&r, env->backend, "vectors/" N49_OWN_FILE " rejects");
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "rejects"))
    {
        const char *name = vt_json_str(c, "name"), *text = vt_json_str(c, "ncryptsec");
        const char *expect = vt_json_str(c, "expect");
        uint8_t sec[32];
        sc_nip49_security security = (sc_nip49_security)7;
        vt_bytes pw;
        sc_status st;

        if (!vt_json_hex(c, "password_nfkc_utf8", &pw) || name == NULL || text == NULL ||
            expect == NULL) {
            vt_case_fail(&r, "%s: malformed case", name != NULL ? name : "?");
            vt_bytes_free(&pw);
            continue;
        }
        memset(sec, 0xa5, sizeof sec);
        st = sc_nip49_decrypt(&env->ctx, sec, &security, text, strlen(text), (const char *)pw.p,
                              pw.n);
        if (strcmp(sc_status_name(st), expect) != 0) {
            vt_case_fail(&r, "%s: %s, expected %s", name, sc_status_name(st), expect);
        } else if (!vt_all_zero(sec, sizeof sec) || (int)security != 7) {
            vt_case_fail(&r, "%s: refused, but the key or the security byte was written", name);
        } else {
            vt_case_pass(&r);
        }
        vt_bytes_free(&pw);
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 23);
}
