/* test_nip49: NIP-49 on one backend.
 *   test_nip49 --backend NAME [--vectors DIR] [--own DIR]
 * This file: main, and the NIP's own test data (vectors/upstream/nip49.spec-example.json):
 * its ncryptsec decrypts to its key, reads back log_n 16 and key security 0, and sealing
 * that key again with the string's own salt and nonce gives the very same text. The cost of
 * the NIP's vector (log_n 16: 64 MiB, about 0.1 s natively) is paid unless
 * SOFTCHAT_NIP49_LOG_N_MAX in the environment is lower (scripts/test.sh sets it for the
 * valgrind pass, where each cost-16 call takes minutes); such a skip is printed. */
#include "test_nip49.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_FILE "nip49.spec-example.json"

void n49_need_backend(n49_env *env, const char *what)
{
    uint8_t sec[32];
    char out[SC_NIP49_LEN];
    size_t n = 0;

    if (env->has_nip49) {
        return;
    }
    memset(sec, 1, sizeof sec);
    VT_ASSERT_STATUS(
        sc_nip49_encrypt(&env->ctx, out, sizeof out, &n, sec, "pw", 2, 1, SC_NIP49_KEY_UNKNOWN),
        SC_ERR_UNSUPPORTED);
    printf("[%s] %s: skipped (the backend has no NIP-49: %s)\n", env->backend, what, env->why);
    skip();
}

/* The one ncryptsec of the NIP, decrypted, inspected and re-made; 0 when its cost is above
 * what this run pays (only inspected then). */
static int spec_case(n49_env *env, const cJSON *c)
{
    const char *text = vt_json_str(c, "ncryptsec"), *pw = vt_json_str(c, "password");
    long log_n = 0, ksb = -1;
    uint8_t sec[32], raw_salt[16], raw_nonce[24];
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    unsigned got_log_n = 0;
    char again[SC_NIP49_LEN];
    size_t n = 0;
    vt_bytes want;

    assert_true(text != NULL && pw != NULL && vt_json_hex(c, "sec", &want) &&
                vt_json_long(c, "log_n", &log_n) && vt_json_long(c, "key_security", &ksb));
    VT_ASSERT_STATUS(sc_nip49_inspect(&got_log_n, &security, text, strlen(text)), SC_OK);
    assert_int_equal(got_log_n, log_n);
    assert_int_equal(security, ksb);
    if ((unsigned)log_n > env->max_cost) {
        printf("[%s] %s: decryption skipped (log_n %ld above SOFTCHAT_NIP49_LOG_N_MAX=%u)\n",
               env->backend, SPEC_FILE, log_n, env->max_cost);
        vt_bytes_free(&want);
        return 0;
    }
    security = SC_NIP49_KEY_UNKNOWN;
    VT_ASSERT_STATUS(
        sc_nip49_decrypt(&env->ctx, sec, &security, text, strlen(text), pw, strlen(pw)), SC_OK);
    assert_memory_equal(sec, want.p, 32);
    assert_int_equal(security, ksb);
    /* the salt and nonce as the string carries them: bytes 2..18 and 18..42 of the payload,
     * which re-encryption must reproduce exactly */
    {
        static const char cs[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
        uint8_t raw[SC_NIP49_RAW_BYTES + 1];
        uint32_t acc = 0;
        unsigned bits = 0;
        size_t i, o = 0, len = strlen(text);

        for (i = 10; i + 6 < len && o < sizeof raw; i++) {
            acc = (acc << 5) | (uint32_t)(strchr(cs, text[i]) - cs);
            bits += 5;
            if (bits >= 8) {
                bits -= 8;
                raw[o++] = (uint8_t)(acc >> bits);
            }
        }
        assert_int_equal(o, SC_NIP49_RAW_BYTES);
        memcpy(raw_salt, raw + 2, 16);
        memcpy(raw_nonce, raw + 18, 24);
    }
    VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, again, sizeof again, &n, sec, pw,
                                                strlen(pw), (unsigned)log_n, security, raw_salt,
                                                raw_nonce),
                     SC_OK);
    assert_int_equal(n, SC_NIP49_LEN);
    assert_memory_equal(again, text, SC_NIP49_LEN);
    sc_mem_wipe(sec, sizeof sec);
    vt_bytes_free(&want);
    return 1;
}

void test_spec_vector(void **state)
{
    n49_env *env = n49_env_of(state);
    const cJSON *c;
    cJSON *root;
    size_t cases = 0;

    n49_need_backend(env, SPEC_FILE);
    root = vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, SPEC_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "decrypt"))
    {
        cases += (size_t)spec_case(env, c);
    }
    cJSON_Delete(root);
    if (cases == 0) {
        skip(); /* the cost is above this run's limit (printed) */
    }
    assert_int_equal(cases, 1);
    printf("[%s] %s: %zu case: decrypted, inspected, sealed again to the same text\n", env->backend,
           SPEC_FILE, cases);
}

/* The NIP's normalisation example, read as the API's contract: the library takes the NFKC
 * bytes and does not normalise, so a key sealed under the NFKC form opens with those bytes
 * and not with the bytes as typed. */
void test_spec_nfkc(void **state)
{
    n49_env *env = n49_env_of(state);
    const cJSON *c;
    cJSON *root;
    uint8_t sec[32], back[32], salt[16], nonce[24];
    char text[SC_NIP49_LEN];
    size_t n = 0;

    n49_need_backend(env, SPEC_FILE " nfkc");
    root = vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, SPEC_FILE);
    memset(sec, 7, sizeof sec);
    memset(salt, 8, sizeof salt);
    memset(nonce, 9, sizeof nonce);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "nfkc"))
    {
        vt_bytes typed, nfkc;

        assert_true(vt_json_hex(c, "input_utf8", &typed) && vt_json_hex(c, "nfkc_utf8", &nfkc));
        VT_ASSERT_STATUS(sc_nip49_encrypt_with_rand(&env->ctx, text, sizeof text, &n, sec,
                                                    (const char *)nfkc.p, nfkc.n, 4,
                                                    SC_NIP49_KEY_SECURE, salt, nonce),
                         SC_OK);
        VT_ASSERT_STATUS(
            sc_nip49_decrypt(&env->ctx, back, NULL, text, n, (const char *)typed.p, typed.n),
            SC_ERR_AUTH);
        assert_true(vt_all_zero(back, sizeof back));
        VT_ASSERT_STATUS(
            sc_nip49_decrypt(&env->ctx, back, NULL, text, n, (const char *)nfkc.p, nfkc.n), SC_OK);
        assert_memory_equal(back, sec, 32);
        vt_bytes_free(&typed);
        vt_bytes_free(&nfkc);
    }
    cJSON_Delete(root);
}

/* The highest cost this run pays for: SOFTCHAT_NIP49_LOG_N_MAX, else the library's maximum. */
static unsigned max_cost(void)
{
    const char *v = getenv("SOFTCHAT_NIP49_LOG_N_MAX");
    long n = v != NULL ? strtol(v, NULL, 10) : (long)SC_NIP49_LOG_N_MAX;

    return n >= 1 && n <= (long)SC_NIP49_LOG_N_MAX ? (unsigned)n : SC_NIP49_LOG_N_MAX;
}

int main(int argc, char **argv)
{
    static n49_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_spec_vector, &env),
        cmocka_unit_test_prestate(test_spec_nfkc, &env),
        cmocka_unit_test_prestate(test_nostr_tools_valid, &env),
        cmocka_unit_test_prestate(test_nostr_tools_rejects, &env),
        cmocka_unit_test_prestate(test_round_trip, &env),
        cmocka_unit_test_prestate(test_args, &env),
        cmocka_unit_test_prestate(test_cost_and_size, &env),
        cmocka_unit_test_prestate(test_unsupported, &env),
    };
    const sc_backend *b;
    vt_suite suite;
    int failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_nip49", "NIP-49 (ncryptsec)",
                                "the NIP-49 example is", NULL, 0);

    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.vectors_dir = suite.vectors_dir;
    env.vectors_present = suite.vectors_present;
    env.own_dir = suite.own_dir;
    env.max_cost = max_cost();
    b = sc_ctx_backend(&env.ctx);
    env.has_nip49 = sc_backend_has(b, SC_CAP_SCRYPT, &env.why) == SC_OK &&
                    sc_backend_has(b, SC_CAP_XCHACHA20POLY1305, &env.why) == SC_OK;
    printf("[%s] NIP-49 primitives: %s%s; costs paid up to log_n %u\n", env.backend,
           env.has_nip49 ? "yes" : "no: ", env.has_nip49 ? "" : env.why, env.max_cost);
    fflush(stdout);
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
