/* The cross-implementation suite for one backend:
 *   test_interop --backend NAME [--vectors DIR] [--own DIR]
 * Reads vectors/nostr-tools.events.json and vectors/nostr-tools.nip44.json from --own (the
 * repository's vectors/ folder, so the suite runs with or without the upstream folder) and
 * checks that this library agrees with nostr-tools byte for byte: canonical serialisation,
 * ids, signatures, NIP-44 payloads, and the verdict on tampered inputs. --vectors is accepted
 * for a uniform command line; no upstream file is needed. */
#include "test_interop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cJSON *it_need_array(const it_env *env, const cJSON *doc, const char *file, const char *why,
                           const char *key)
{
    const cJSON *arr;

    (void)env;
    if (doc == NULL) {
        fail_msg("%s cannot be read: %s", file, why);
    }
    arr = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0) {
        fail_msg("%s has no \"%s\" cases", file, key);
    }
    return arr;
}

int it_status_by_name(const char *name)
{
    int s;

    if (name == NULL) {
        return 1;
    }
    for (s = 0; s >= -99; s--) {
        if (strcmp(sc_status_name((sc_status)s), name) == 0) {
            return s;
        }
    }
    return 1;
}

int it_json_hex_exact(const cJSON *obj, const char *key, uint8_t *out, size_t n)
{
    vt_bytes b;
    int ok;

    if (!vt_json_hex(obj, key, &b)) {
        return 0;
    }
    ok = b.n == n;
    if (ok) {
        memcpy(out, b.p, n);
    }
    vt_bytes_free(&b);
    return ok;
}

int it_json_i64(const cJSON *obj, const char *key, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    if (!cJSON_IsNumber(v)) {
        return 0;
    }
    *out = (int64_t)v->valuedouble;
    return 1;
}

const char *it_json_text(const cJSON *obj, const char *key, size_t *len)
{
    const char *s = vt_json_str(obj, key);

    *len = s != NULL ? strlen(s) : 0;
    return s;
}

size_t it_first_diff(const char *a, size_t an, const char *b, size_t bn)
{
    size_t i, n = an < bn ? an : bn;

    for (i = 0; i < n && a[i] == b[i]; i++) {
    }
    return i;
}

int main(int argc, char **argv)
{
    static it_env env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_interop_events, &env),
        cmocka_unit_test_prestate(test_interop_event_alternates, &env),
        cmocka_unit_test_prestate(test_interop_event_rejects, &env),
        cmocka_unit_test_prestate(test_interop_nip44_conversation_keys, &env),
        cmocka_unit_test_prestate(test_interop_nip44_encrypt, &env),
        cmocka_unit_test_prestate(test_interop_nip44_rejects, &env),
    };
    vt_suite suite;
    int failed =
        vt_suite_start(&suite, &env.ctx, argc, argv, "test_interop",
                       "nostr-tools vectors (the upstream folder is not used)", NULL, NULL, 0);

    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.own_dir = suite.own_dir;
    env.events = vt_load_json(env.own_dir, IT_EVENTS_FILE, env.events_why, sizeof env.events_why);
    env.nip44 = vt_load_json(env.own_dir, IT_NIP44_FILE, env.nip44_why, sizeof env.nip44_why);
    if (env.events == NULL) {
        printf("ERROR: %s/%s cannot be read: %s\n", env.own_dir, IT_EVENTS_FILE, env.events_why);
    }
    if (env.nip44 == NULL) {
        printf("ERROR: %s/%s cannot be read: %s\n", env.own_dir, IT_NIP44_FILE, env.nip44_why);
    }
    fflush(stdout);
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    cJSON_Delete(env.events);
    cJSON_Delete(env.nip44);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
