/* Which capabilities each backend must have, and the gate every vector test passes through:
 * a missing required capability fails, a missing optional one skips with the reason from
 * sc_backend_has. The required/optional split is what each backend declares in its
 * backends/<dir>/backend.cmake (generated/backend_caps.h); a backend or capability without a
 * declaration counts as required and fails test_capabilities. */
#include "test_vectors.h"

#include <stdio.h>
#include <string.h>

#include "backend_caps.h"

static const vt_cap_decl *cap_decl(const char *backend, const char *cap)
{
    size_t i;

    for (i = 0; vt_cap_decls[i].backend != NULL; i++) {
        if (strcmp(vt_cap_decls[i].backend, backend) == 0 &&
            strcmp(vt_cap_decls[i].cap, cap) == 0) {
            return &vt_cap_decls[i];
        }
    }
    return NULL;
}

int vt_cap_required(const char *backend, sc_cap cap)
{
    const vt_cap_decl *d = cap_decl(backend, sc_backend_cap_name(cap));

    return d == NULL || d->why_optional == NULL;
}

static int cap_known(const char *name)
{
    unsigned c;

    for (c = 0; c < SC_CAP_COUNT; c++) {
        if (strcmp(sc_backend_cap_name((sc_cap)c), name) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Every declaration of `backend` names a real capability; returns how many there are. */
static size_t check_declarations(const char *backend)
{
    size_t i, n = 0;

    for (i = 0; vt_cap_decls[i].backend != NULL; i++) {
        const vt_cap_decl *d = &vt_cap_decls[i];

        if (strcmp(d->backend, backend) != 0) {
            continue;
        }
        n++;
        if (!cap_known(d->cap)) {
            fail_msg("[%s] %s declares capability '%s', which the library does not have", backend,
                     d->decl_file, d->cap);
        }
        if (d->why_optional != NULL && d->why_optional[0] == '\0') {
            fail_msg("[%s] %s declares '%s' optional without a reason", backend, d->decl_file,
                     d->cap);
        }
    }
    return n;
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
                 sc_backend_cap_name(cap), sc_status_name(st),
                 why != NULL ? why : "no reason given");
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
    if (check_declarations(env->backend) == 0) {
        fail_msg("[%s] no capability declarations: its backends/<dir>/backend.cmake must list "
                 "every capability REQUIRED or OPTIONAL",
                 env->backend);
    }
    for (c = 0; c < SC_CAP_COUNT; c++) {
        const char *why = NULL;
        sc_status st = sc_backend_has(b, (sc_cap)c, &why);
        const vt_cap_decl *d = cap_decl(env->backend, sc_backend_cap_name((sc_cap)c));
        int req = vt_cap_required(env->backend, (sc_cap)c);

        if (d == NULL) {
            fail_msg("[%s] capability %s is not declared: its backends/<dir>/backend.cmake must "
                     "list it REQUIRED or OPTIONAL",
                     env->backend, sc_backend_cap_name((sc_cap)c));
        }

        if (st != SC_OK && st != SC_ERR_UNSUPPORTED) {
            fail_msg("sc_backend_has(%s) returned %s", sc_backend_cap_name((sc_cap)c),
                     sc_status_name(st));
        }
        if (st == SC_ERR_UNSUPPORTED && (why == NULL || why[0] == '\0')) {
            fail_msg("sc_backend_has(%s) gave no reason", sc_backend_cap_name((sc_cap)c));
        }
        printf("[%s]   %-17s %s%s%s%s\n", env->backend, sc_backend_cap_name((sc_cap)c),
               st == SC_OK ? "yes" : "no", req ? " (required)" : " (optional)",
               st == SC_OK ? "" : ": ", st == SC_OK ? "" : why);
        if (st != SC_OK && !req) {
            printf("[%s]     declared optional in %s: %s\n", env->backend, d->decl_file,
                   d->why_optional);
        }
        if (st != SC_OK && req) {
            missing++;
        }
    }
    for (c = 0; c < SC_GROUP_COUNT; c++) {
        const char *lib = sc_backend_group_lib(b, (sc_group)c);
        sc_status st = sc_ctx_selftest(&env->ctx, (sc_group)c);

        printf("[%s]   group %-6s %s, self-test %s\n", env->backend,
               sc_backend_group_name((sc_group)c), lib != NULL ? lib : "(absent)",
               sc_status_name(st));
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
