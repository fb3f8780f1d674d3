/* test_nip98: NIP-98 HTTP auth on one backend.
 *   test_nip98 --backend NAME [--vectors DIR] [--own DIR]
 * This file: main, the helpers that make headers from arbitrary events, the NIP's examples
 * (vectors/upstream/nip98.spec-example.json) and the round trip of sc_nip98_sign through
 * sc_nip98_verify. */
#include "test_nip98.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_FILE "nip98.spec-example.json"

char *n98_wrap_json(const char *json, size_t len, int padded)
{
    size_t b64 = sc_base64_encode_len(len), n = 0;
    char *out = (char *)vt_alloc(6 + b64 + 1);

    memcpy(out, "Nostr ", 6);
    VT_ASSERT_STATUS(sc_base64_encode(out + 6, b64, &n, (const uint8_t *)json, len), SC_OK);
    while (!padded && n > 0 && out[6 + n - 1] == '=') {
        n--;
    }
    out[6 + n] = '\0';
    return out;
}

char *n98_header(n98_env *env, uint32_t kind, int64_t created_at, const char *content,
                 const char *spec, int padded)
{
    static const uint8_t aux[32] = {0};
    sc_str items[16];
    sc_event_builder b;
    sc_event ev;
    char copy[1024], *json, *out, *t, *next;
    size_t len = 0, cap;
    void *buf;

    assert_true(strlen(spec) < sizeof copy);
    strcpy(copy, spec);
    cap = 8192;
    buf = vt_alloc(cap);
    VT_ASSERT_STATUS(sc_event_builder_init(&b, buf, cap), SC_OK);
    sc_event_builder_kind(&b, kind);
    sc_event_builder_created_at(&b, created_at);
    sc_event_builder_content(&b, content, strlen(content));
    for (t = copy; *t != '\0'; t = next) {
        char *bar = strchr(t, '|'), *eq;

        next = bar != NULL ? bar + 1 : t + strlen(t);
        if (bar != NULL) {
            *bar = '\0';
        }
        eq = strchr(t, '=');

        items[0].ptr = t;
        items[0].len = eq != NULL ? (size_t)(eq - t) : strlen(t);
        if (eq != NULL) {
            items[1].ptr = eq + 1;
            items[1].len = strlen(eq + 1);
        }
        sc_event_builder_tag(&b, items, eq != NULL ? 2 : 1);
    }
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, &len), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &ev, &env->id, aux), SC_OK);
    len = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
    json = (char *)vt_alloc(len);
    VT_ASSERT_STATUS(sc_event_to_json(json, len, &len, &ev, SC_EVENT_JSON_OBJECT), SC_OK);
    out = n98_wrap_json(json, len, padded);
    free(json);
    free(buf);
    return out;
}

sc_status n98_verify(n98_env *env, const char *header, const char *url, const char *method,
                     const uint8_t *payload, int64_t now, int64_t window, uint8_t pub[32])
{
    sc_nip98_request req;
    size_t cap = sc_nip98_verify_scratch_max(strlen(header)), used = 0;
    uint8_t *scratch = vt_alloc(cap);
    sc_event ev;
    sc_status st;

    req.url.ptr = url;
    req.url.len = strlen(url);
    req.method.ptr = method;
    req.method.len = strlen(method);
    req.payload_sha256 = payload;
    st = sc_nip98_verify(&env->ctx, &ev, scratch, cap, &used, header, strlen(header), &req, now,
                         window);
    if (st == SC_OK) {
        assert_true(used > 0 && used <= cap);
        assert_int_equal(ev.kind, SC_NIP98_KIND);
        if (pub != NULL) {
            memcpy(pub, ev.pubkey, 32);
        }
    } else {
        assert_int_equal(used, 0);
        assert_int_equal(ev.kind, 0);
        assert_int_equal(ev.n_tags, 0);
    }
    free(scratch);
    return st;
}

static sc_status status_named(const char *name)
{
    int s;

    for (s = 0; s >= -120; s--) {
        if (strcmp(sc_status_name((sc_status)s), name) == 0) {
            return (sc_status)s;
        }
    }
    fail_msg("no status named %s", name);
    return SC_ERR_INTERNAL;
}

/* The NIP's example event and its two headers, as the vector file says they must fare. */
void test_spec_examples(void **state)
{
    n98_env *env = n98_env_of(state);
    const char *url, *method, *header, *original;
    cJSON *root, *event;
    char *json, *wrapped;
    sc_event ev;
    long now = 0;
    size_t used = 0;
    uint8_t arena[4096];

    root = vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, SPEC_FILE);
    url = vt_json_str(root, "url");
    method = vt_json_str(root, "method");
    header = vt_json_str(root, "header");
    original = vt_json_str(root, "header_original");
    event = cJSON_GetObjectItemCaseSensitive(root, "event");
    assert_true(url != NULL && method != NULL && header != NULL && original != NULL &&
                event != NULL && vt_json_long(root, "now", &now));
    /* the header as printed: unpadded base64 (550 characters), the event with its stale id */
    assert_int_equal((strlen(header) - 6) % 4, 2);
    VT_ASSERT_STATUS(n98_verify(env, header, url, method, NULL, now, 0, NULL),
                     status_named(vt_json_str(root, "header_expect")));
    /* the example event itself, carried the same way (padded, and not) */
    json = cJSON_PrintUnformatted(event);
    wrapped = n98_wrap_json(json, strlen(json), 1);
    VT_ASSERT_STATUS(n98_verify(env, wrapped, url, method, NULL, now, 0, NULL),
                     status_named(vt_json_str(root, "event_expect")));
    free(wrapped);
    wrapped = n98_wrap_json(json, strlen(json), 0);
    VT_ASSERT_STATUS(n98_verify(env, wrapped, url, method, NULL, now, 0, NULL), SC_ERR_ID_MISMATCH);
    free(wrapped);
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, sizeof arena, &used, json, strlen(json), NULL),
                     SC_OK);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_ERR_ID_MISMATCH);
    cJSON_free(json);
    /* the header as first published: the event as signed, whose tag is still "url" */
    VT_ASSERT_STATUS(n98_verify(env, original, url, method, NULL, now, 0, NULL),
                     status_named(vt_json_str(root, "header_original_expect")));
    cJSON_Delete(root);
    printf("[%s] %s: the example event and header fail their id (stale after the tag's "
           "rename); the original header verifies but has no u tag\n",
           env->backend, SPEC_FILE);
}

/* sc_nip98_sign's header verifies for its request, is exactly sc_nip98_sign_len long, is
 * deterministic with explicit aux, and says what NIP-98 asks, in JSON a parser reads back. */
void test_round_trip(void **state)
{
    n98_env *env = n98_env_of(state);
    static const uint8_t aux[32] = {5};
    uint8_t body_hash[32], pub[32], signer[32];
    sc_nip98_request req;
    char a[2048], b[2048];
    size_t na = 0, nb = 0, i;

    VT_ASSERT_STATUS(sc_identity_pubkey(signer, &env->id), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, body_hash, (const uint8_t *)"{\"a\":1}", 7),
                     SC_OK);
    for (i = 0; i < 2; i++) {
        req.url = SC_STR(N98_URL);
        req.method = SC_STR("POST");
        req.payload_sha256 = i == 0 ? NULL : body_hash;
        VT_ASSERT_STATUS(
            sc_nip98_sign_with_rand(&env->ctx, a, sizeof a, &na, &env->id, &req, N98_NOW, aux),
            SC_OK);
        assert_int_equal(na, sc_nip98_sign_len(&req, N98_NOW));
        assert_memory_equal(a, "Nostr ", 6);
        assert_int_equal((na - 6) % 4, 0); /* padded */
        VT_ASSERT_STATUS(
            sc_nip98_sign_with_rand(&env->ctx, b, sizeof b, &nb, &env->id, &req, N98_NOW, aux),
            SC_OK);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        a[na] = '\0';
        VT_ASSERT_STATUS(n98_verify(env, a, N98_URL, "POST", req.payload_sha256, N98_NOW, 0, pub),
                         SC_OK);
        assert_memory_equal(pub, signer, 32);
        /* with the RNG: another signature, the same length, also valid */
        VT_ASSERT_STATUS(sc_nip98_sign(&env->ctx, b, sizeof b, &nb, &env->id, &req, N98_NOW),
                         SC_OK);
        assert_int_equal(nb, na);
        assert_memory_not_equal(a, b, na);
        b[nb] = '\0';
        VT_ASSERT_STATUS(
            n98_verify(env, b, N98_URL, "post", req.payload_sha256, N98_NOW + 60, 0, NULL), SC_OK);
    }
    /* the event inside: kind 27235, empty content, u then method then payload */
    {
        uint8_t json[2048], arena[8192];
        size_t jl = 0, used = 0;
        sc_event ev;

        VT_ASSERT_STATUS(sc_base64_decode(json, sizeof json, &jl, a + 6, na - 6), SC_OK);
        VT_ASSERT_STATUS(
            sc_event_parse(&ev, arena, sizeof arena, &used, (const char *)json, jl, NULL), SC_OK);
        assert_int_equal(ev.kind, 27235);
        assert_int_equal(ev.created_at, N98_NOW);
        assert_int_equal(ev.content.len, 0);
        assert_int_equal(ev.n_tags, 3);
        assert_true(ev.tags[0].items[0].len == 1 && memcmp(ev.tags[0].items[0].ptr, "u", 1) == 0);
        assert_true(ev.tags[0].items[1].len == strlen(N98_URL));
        assert_true(ev.tags[1].items[1].len == 4 &&
                    memcmp(ev.tags[1].items[1].ptr, "POST", 4) == 0);
        {
            char want[65];
            size_t hl = 0;

            VT_ASSERT_STATUS(sc_hex_encode(want, sizeof want, &hl, body_hash, 32), SC_OK);
            assert_true(ev.tags[2].items[1].len == 64 &&
                        memcmp(ev.tags[2].items[1].ptr, want, 64) == 0);
        }
        VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_OK);
    }
}

int main(int argc, char **argv)
{
    static n98_env env; /* the state of every test */
    static const uint8_t sec3[32] = {[31] = 3};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_spec_examples, &env),
        cmocka_unit_test_prestate(test_round_trip, &env),
        cmocka_unit_test_prestate(test_header_forms, &env),
        cmocka_unit_test_prestate(test_each_check, &env),
        cmocka_unit_test_prestate(test_time_window, &env),
        cmocka_unit_test_prestate(test_payload, &env),
        cmocka_unit_test_prestate(test_sign_args, &env),
        cmocka_unit_test_prestate(test_verify_args, &env),
        cmocka_unit_test_prestate(test_template_local, &env),
        cmocka_unit_test_prestate(test_template_external, &env),
        cmocka_unit_test_prestate(test_header_refuses, &env),
        cmocka_unit_test_prestate(test_header_args, &env),
    };
    vt_suite suite;
    int failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_nip98", "NIP-98 HTTP auth",
                                "the NIP-98 examples are", NULL, 0);

    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.vectors_dir = suite.vectors_dir;
    env.vectors_present = suite.vectors_present;
    if (sc_identity_import(&env.ctx, &env.id, sec3) != SC_OK) {
        printf("ERROR: cannot import the test key\n");
        return 1;
    }
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    sc_identity_clear(&env.id);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
