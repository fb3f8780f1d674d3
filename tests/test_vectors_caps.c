/* Which capabilities each backend must have, and the gate every vector test passes through:
 * a missing required capability fails, a missing optional one skips with the reason from
 * sc_backend_has. */
#include "test_vectors.h"

#include <stdio.h>
#include <string.h>

#define CAP(c) (1u << (c))
#define CAPS_AES (CAP(SC_CAP_AES256GCM) | CAP(SC_CAP_AES256GCM_IV16) | CAP(SC_CAP_AES256GCM_STREAM))
#define CAPS_BASE                                                                            \
    (CAP(SC_CAP_SHA256) | CAP(SC_CAP_HMAC_SHA256) | CAP(SC_CAP_CHACHA20) | CAP(SC_CAP_RNG) | \
     CAP(SC_CAP_SECP256K1))
#define CAPS_ALL (CAPS_BASE | CAPS_AES)

/* sodium's AES-256-GCM needs hardware AES and takes 12-byte IVs only: all of it optional. */
static const struct {
    const char *backend;
    unsigned required;
} required_caps[] = {
    {"openssl", CAPS_ALL},
    {"mbedtls", CAPS_ALL},
    {"sodium+mbedtls", CAPS_ALL},
    {"sodium", CAPS_BASE},
};

int vt_cap_required(const char *backend, sc_cap cap)
{
    size_t i;

    for (i = 0; i < sizeof required_caps / sizeof required_caps[0]; i++) {
        if (strcmp(required_caps[i].backend, backend) == 0) {
            return (required_caps[i].required & CAP(cap)) != 0;
        }
    }
    return (CAPS_BASE & CAP(cap)) != 0; /* a backend this suite does not know yet */
}

void vt_need_cap(const vt_env *env, sc_cap cap, const char *file)
{
    const sc_backend *b = sc_ctx_backend(&env->ctx);
    const char *why = NULL;
    sc_status st = sc_backend_has(b, cap, &why);

    if (st == SC_OK) {
        return;
    }
    if (vt_cap_required(env->backend, cap)) {
        fail_msg("[%s] %s: required capability %s unsupported (%s): %s", env->backend, file,
                 sc_backend_cap_name(cap), sc_status_name(st), why != NULL ? why : "no reason given");
    }
    printf("[%s] %s: skipped (optional capability %s unsupported: %s)\n", env->backend, file,
           sc_backend_cap_name(cap), why != NULL ? why : "no reason given");
    fflush(stdout);
    skip();
}

cJSON *vt_need_upstream(const vt_env *env, const char *rel)
{
    return vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, rel);
}

const cJSON *vt_need_own(const vt_env *env, const char *key)
{
    const cJSON *arr;

    if (env->own == NULL) {
        fail_msg("the project's own vectors are missing: %s", env->own_why);
    }
    arr = cJSON_GetObjectItemCaseSensitive(env->own, key);
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0) {
        fail_msg("%s/%s has no \"%s\" cases", env->own_dir, VT_OWN_FILE, key);
    }
    return arr;
}

void test_capabilities(void **state)
{
    vt_env *env = vt_env_of(state);
    const sc_backend *b = sc_ctx_backend(&env->ctx);
    unsigned c, missing = 0;

    assert_non_null(b);
    assert_string_equal(b->name, env->backend);
    printf("[%s] backend %s (%s)\n", env->backend, b->name, b->lib_version());
    for (c = 0; c < SC_CAP_COUNT; c++) {
        const char *why = NULL;
        sc_status st = sc_backend_has(b, (sc_cap)c, &why);
        int req = vt_cap_required(env->backend, (sc_cap)c);

        if (st != SC_OK && st != SC_ERR_UNSUPPORTED) {
            fail_msg("sc_backend_has(%s) returned %s", sc_backend_cap_name((sc_cap)c), sc_status_name(st));
        }
        if (st == SC_ERR_UNSUPPORTED && (why == NULL || why[0] == '\0')) {
            fail_msg("sc_backend_has(%s) gave no reason", sc_backend_cap_name((sc_cap)c));
        }
        printf("[%s]   %-17s %s%s%s%s\n", env->backend, sc_backend_cap_name((sc_cap)c),
               st == SC_OK ? "yes" : "no", req ? " (required)" : " (optional)",
               st == SC_OK ? "" : ": ", st == SC_OK ? "" : why);
        if (st != SC_OK && req) {
            missing++;
        }
    }
    for (c = 0; c < SC_GROUP_COUNT; c++) {
        const char *lib = sc_backend_group_lib(b, (sc_group)c);
        sc_status st = sc_ctx_selftest(&env->ctx, (sc_group)c);

        printf("[%s]   group %-6s %s, self-test %s\n", env->backend, sc_backend_group_name((sc_group)c),
               lib != NULL ? lib : "(absent)", sc_status_name(st));
        if (lib == NULL) {
            VT_ASSERT_STATUS(st, SC_ERR_UNSUPPORTED);
        } else if (st != SC_OK && !(c == SC_GROUP_AEAD && st == SC_ERR_UNSUPPORTED)) {
            fail_msg("self-test of group %s failed: %s", sc_backend_group_name((sc_group)c),
                     sc_status_name(st));
        }
    }
    fflush(stdout);
    if (missing != 0) {
        fail_msg("[%s] %u required capabilities are missing", env->backend, missing);
    }
}
