/* test_core: backend-independent units. Statuses, context lifecycle and state checks, and the
 * encodings (test_core_encoding.c). Context tests use the default backend only to have a
 * live context; every assertion is about core behaviour. */
#include "test_core.h"

#include <stdio.h>
#include <string.h>

#define ROW(code)                                                                                  \
    {                                                                                              \
        code, #code                                                                                \
    }

static const struct {
    sc_status code;
    const char *name;
} all_statuses[] = {
    ROW(SC_OK),
    ROW(SC_ERR_ARG),
    ROW(SC_ERR_BUFFER_TOO_SMALL),
    ROW(SC_ERR_STATE),
    ROW(SC_ERR_TOO_LARGE),
    ROW(SC_ERR_NOT_FOUND),
    ROW(SC_ERR_POLICY),
    ROW(SC_ERR_FLAGS),
    ROW(SC_ERR_EMPTY),
    ROW(SC_ERR_OVERLAP),
    ROW(SC_ERR_UNSORTED),
    ROW(SC_ERR_FULL),
    ROW(SC_ERR_ENCODING),
    ROW(SC_ERR_BASE64),
    ROW(SC_ERR_BECH32),
    ROW(SC_ERR_TLV),
    ROW(SC_ERR_JSON),
    ROW(SC_ERR_UTF8),
    ROW(SC_ERR_EVENT_FIELD),
    ROW(SC_ERR_EVENT_RANGE),
    ROW(SC_ERR_INVALID_KEY),
    ROW(SC_ERR_INVALID_SIG),
    ROW(SC_ERR_ID_MISMATCH),
    ROW(SC_ERR_VERSION),
    ROW(SC_ERR_PAYLOAD_SIZE),
    ROW(SC_ERR_MAC),
    ROW(SC_ERR_PADDING),
    ROW(SC_ERR_AUTH),
    ROW(SC_ERR_MESSAGE),
    ROW(SC_ERR_EXPIRED),
    ROW(SC_ERR_NEGENTROPY),
    ROW(SC_ERR_NEG_VERSION),
    ROW(SC_ERR_RELAY_MESSAGE),
    ROW(SC_ERR_RELAY_UNKNOWN),
    ROW(SC_ERR_NO_MATCH),
    ROW(SC_ERR_SUBSCRIPTION),
    ROW(SC_ERR_AUTH_KIND),
    ROW(SC_ERR_AUTH_CHALLENGE),
    ROW(SC_ERR_AUTH_RELAY),
    ROW(SC_ERR_AUTH_TIME),
    ROW(SC_ERR_FILTER),
    ROW(SC_ERR_NO_INBOX),
    ROW(SC_ERR_SCRYPT_COST),
    ROW(SC_ERR_NIP98_SCHEME),
    ROW(SC_ERR_NIP98_KIND),
    ROW(SC_ERR_NIP98_TIME),
    ROW(SC_ERR_NIP98_URL),
    ROW(SC_ERR_NIP98_METHOD),
    ROW(SC_ERR_NIP98_PAYLOAD),
    ROW(SC_ERR_WRAP_KIND),
    ROW(SC_ERR_WRAP_ID),
    ROW(SC_ERR_WRAP_SIG),
    ROW(SC_ERR_WRAP_DECRYPT),
    ROW(SC_ERR_SEAL_JSON),
    ROW(SC_ERR_SEAL_KIND),
    ROW(SC_ERR_SEAL_ID),
    ROW(SC_ERR_SEAL_SIG),
    ROW(SC_ERR_SEAL_DECRYPT),
    ROW(SC_ERR_RUMOR_JSON),
    ROW(SC_ERR_RUMOR_AUTHOR),
    ROW(SC_ERR_RUMOR_ID),
    ROW(SC_ERR_RUMOR_SIGNED),
    ROW(SC_ERR_WRAP_EXPIRED),
    ROW(SC_ERR_SEAL_EXPIRED),
    ROW(SC_ERR_RNG),
    ROW(SC_ERR_BACKEND),
    ROW(SC_ERR_UNSUPPORTED),
    ROW(SC_ERR_NOMEM),
    ROW(SC_ERR_INTERNAL),
    ROW(SC_ERR_IO),
    ROW(SC_ERR_SIGNER_ANSWER),
    ROW(SC_ERR_SIGNER_REFUSED),
    ROW(SC_ERR_TIMEOUT),
    ROW(SC_ERR_NIP46),
    ROW(SC_ERR_NIP46_SECRET),
    ROW(SC_ERR_NIP46_URI),
    ROW(SC_ERR_NIP46_SENDER),
    ROW(SC_ERR_NIP46_ID),
    ROW(SC_ERR_NIP46_AUTH_URL),
};
#define N_STATUSES (sizeof all_statuses / sizeof all_statuses[0])

static int is_known(int v)
{
    size_t i;

    for (i = 0; i < N_STATUSES; i++) {
        if ((int)all_statuses[i].code == v) {
            return 1;
        }
    }
    return 0;
}

static void test_status_strings(void **state)
{
    size_t i, j;
    int v;

    (void)state;
    for (i = 0; i < N_STATUSES; i++) {
        const char *name = sc_status_name(all_statuses[i].code);
        const char *text = sc_status_str(all_statuses[i].code);

        assert_non_null(name);
        assert_non_null(text);
        assert_string_equal(name, all_statuses[i].name);
        assert_true(text[0] != '\0');
        assert_string_not_equal(text, "unknown status");
        for (j = 0; j < i; j++) {
            assert_string_not_equal(name, sc_status_name(all_statuses[j].code));
        }
    }
    /* values outside the enum, including gaps inside each family's range */
    for (v = -120; v <= 20; v++) {
        if (!is_known(v) && strcmp(sc_status_name((sc_status)v), "SC_UNKNOWN") != 0) {
            fail_msg("status %d is named %s but is missing from all_statuses in this test: "
                     "add it so every status is checked",
                     v, sc_status_name((sc_status)v));
        }
        if (!is_known(v)) {
            assert_string_equal(sc_status_str((sc_status)v), "unknown status");
        }
    }
    assert_string_equal(sc_status_name((sc_status)12345), "SC_UNKNOWN");
    assert_string_equal(sc_status_name((sc_status)-100000), "SC_UNKNOWN");
}

static void test_names_and_version(void **state)
{
    static const char *const groups[SC_GROUP_COUNT] = {"hash", "mac",   "stream", "aead",
                                                       "rng",  "curve", "xaead",  "scrypt"};
    static const char *const caps[SC_CAP_COUNT] = {
        "sha256",           "hmac-sha256",        "chacha20", "aes256gcm",
        "aes256gcm-iv16",   "aes256gcm-stream",   "rng",      "secp256k1",
        "chacha20-counter", "xchacha20-poly1305", "scrypt"};
    char want[32];
    size_t i;

    (void)state;
    for (i = 0; i < SC_GROUP_COUNT; i++) {
        assert_string_equal(sc_backend_group_name((sc_group)i), groups[i]);
    }
    for (i = 0; i < SC_CAP_COUNT; i++) {
        assert_string_equal(sc_backend_cap_name((sc_cap)i), caps[i]);
    }
    assert_null(sc_backend_group_name((sc_group)SC_GROUP_COUNT));
    assert_null(sc_backend_group_name((sc_group)-1));
    assert_null(sc_backend_cap_name((sc_cap)SC_CAP_COUNT));
    assert_null(sc_backend_cap_name((sc_cap)-1));
    snprintf(want, sizeof want, "%d.%d.%d", SC_VERSION_MAJOR, SC_VERSION_MINOR, SC_VERSION_PATCH);
    assert_string_equal(sc_version(), want);
    assert_non_null(sc_version_secp256k1());
    assert_int_equal(sc_ctx_bytes(), sizeof(sc_ctx));
}

static void test_backend_query_args(void **state)
{
    const sc_backend *def = sc_backend_default();
    const char *why = "untouched";

    (void)state;
    assert_non_null(def);
    VT_ASSERT_STATUS(sc_backend_has((const sc_backend *)vt_null(), SC_CAP_SHA256, &why),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_backend_has(def, (sc_cap)SC_CAP_COUNT, &why), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_backend_has(def, (sc_cap)-1, NULL), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_backend_validate((const sc_backend *)vt_null()), SC_ERR_ARG);
    assert_null(sc_backend_find((const char *)vt_null()));
    assert_null(sc_backend_find("no-such-backend"));
    assert_null(sc_backend_find(""));
    assert_null(sc_backend_at(sc_backend_count()));
    assert_null(sc_backend_group_lib((const sc_backend *)vt_null(), SC_GROUP_HASH));
    assert_null(sc_backend_group_lib(def, (sc_group)SC_GROUP_COUNT));
}

static void test_ctx_lifecycle(void **state)
{
    sc_ctx ctx, *heap = (sc_ctx *)vt_null();
    uint8_t zero[sizeof(sc_ctx)];

    (void)state;
    memset(zero, 0, sizeof zero);
    /* unknown name: SC_ERR_NOT_FOUND and a zeroed context */
    memset(&ctx, 0xa5, sizeof ctx);
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, "no-such-backend"), SC_ERR_NOT_FOUND);
    assert_memory_equal(&ctx, zero, sizeof ctx);
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, "OPENSSL-not-a-name"), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_ctx_init((sc_ctx *)vt_null(), NULL), SC_ERR_ARG);
    memset(&ctx, 0xa5, sizeof ctx);
    VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, (const sc_backend *)vt_null()), SC_ERR_ARG);
    assert_memory_equal(&ctx, zero, sizeof ctx);
    /* NULL name: the default backend */
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, NULL), SC_OK);
    assert_ptr_equal(sc_ctx_backend(&ctx), sc_backend_default());
    sc_ctx_clear(&ctx);
    assert_memory_equal(&ctx, zero, sizeof ctx); /* clear wipes */
    assert_null(sc_ctx_backend(&ctx));
    sc_ctx_clear(&ctx); /* clearing twice is a no-op */
    sc_ctx_clear((sc_ctx *)vt_null());
    /* heap form */
    VT_ASSERT_STATUS(sc_ctx_new((sc_ctx **)vt_null(), NULL), SC_ERR_ARG);
    heap = (sc_ctx *)&ctx; /* must be overwritten with NULL on failure */
    VT_ASSERT_STATUS(sc_ctx_new(&heap, "no-such-backend"), SC_ERR_NOT_FOUND);
    assert_null(heap);
    VT_ASSERT_STATUS(sc_ctx_new(&heap, NULL), SC_OK);
    assert_non_null(heap);
    assert_ptr_equal(sc_ctx_backend(heap), sc_backend_default());
    sc_ctx_free(heap);
    sc_ctx_free((sc_ctx *)vt_null());
}

/* Every dispatching call on ctx must refuse with SC_ERR_STATE. */
static void expect_state_errors(sc_ctx *ctx)
{
    uint8_t out[64], key[32], tag[16];
    sc_sha256_state s;
    sc_iov part;

    memset(out, 0, sizeof out);
    memset(key, 1, sizeof key);
    memset(tag, 0, sizeof tag);
    memset(&s, 0, sizeof s);
    part.data = key;
    part.len = sizeof key;
    assert_null(sc_ctx_backend(ctx));
    VT_ASSERT_STATUS(sc_crypto_sha256(ctx, out, key, 32), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_sha256_init(ctx, &s), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_sha256_update(ctx, &s, key, 32), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_sha256_final(ctx, &s, out), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(ctx, out, key, 32, &part, 1), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_hkdf_extract(ctx, out, key, 32, key, 32), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(ctx, out, 64, key, 32, NULL, 0), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(ctx, out, out, 64, key, key, 0), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(ctx, out, tag, key, key, 12, NULL, 0, out, 16),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(ctx, out, key, key, 12, NULL, 0, out, 16, tag),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(ctx, out, 16), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_ctx_selftest(ctx, SC_GROUP_HASH), SC_ERR_STATE);
}

static void test_ctx_state_checks(void **state)
{
    sc_ctx ctx;

    (void)state;
    memset(&ctx, 0, sizeof ctx);
    expect_state_errors(&ctx); /* zero-initialised */
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, NULL), SC_OK);
    sc_ctx_clear(&ctx);
    expect_state_errors(&ctx); /* cleared */
    memset(&ctx, 0x5c, sizeof ctx);
    expect_state_errors(&ctx); /* garbage, never initialised */
}

static void test_null_args(void **state)
{
    sc_ctx ctx;
    uint8_t *null = (uint8_t *)vt_null(), buf[32];
    sc_iov part;

    (void)state;
    memset(buf, 0, sizeof buf);
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx, null, buf, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx, buf, null, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256_init(&ctx, (sc_sha256_state *)vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256_update(&ctx, (sc_sha256_state *)vt_null(), buf, 1),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256_final(&ctx, (sc_sha256_state *)vt_null(), buf), SC_ERR_ARG);
    part.data = null;
    part.len = 1;
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&ctx, buf, buf, 1, &part, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&ctx, null, buf, 1, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&ctx, buf, 0, buf, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&ctx, buf, 8161, buf, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&ctx, buf, 32, buf, 31, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&ctx, buf, buf, 1, null, buf, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&ctx, buf, null, buf, buf, 12, NULL, 0, buf, 1),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&ctx, buf, buf, null, 12, NULL, 0, buf, 1, buf),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&ctx, null, 1), SC_ERR_ARG);
    /* argument errors take precedence over a bad context */
    sc_ctx_clear(&ctx);
    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx, null, buf, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&ctx, buf, buf, 65, buf, buf, 0xffffffffu),
                     SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&ctx, buf, 0, buf, 32, NULL, 0), SC_ERR_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hex_encode),
        cmocka_unit_test(test_hex_decode),
        cmocka_unit_test(test_hex_decode_rejects),
        cmocka_unit_test(test_hex_decode_every_byte_everywhere),
        cmocka_unit_test(test_base64_round_trip),
        cmocka_unit_test(test_base64_known),
        cmocka_unit_test(test_base64_rejects),
        cmocka_unit_test(test_base64_rejects_everywhere),
        cmocka_unit_test(test_base64_buffer_too_small),
        cmocka_unit_test(test_base64_kernels_agree),
        cmocka_unit_test(test_ct_compare),
        cmocka_unit_test(test_memzero),
        cmocka_unit_test(test_json_put_string),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_names_and_version),
        cmocka_unit_test(test_backend_query_args),
        cmocka_unit_test(test_ctx_lifecycle),
        cmocka_unit_test(test_ctx_state_checks),
        cmocka_unit_test(test_null_args),
    };

    return cmocka_run_group_tests_name("core", tests, NULL, NULL) != 0 ? 1 : 0;
}
