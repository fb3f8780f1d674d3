/* The NIP-01 event suite for one backend:
 *   test_event --backend NAME [--vectors DIR] [--own DIR]
 * --vectors names the upstream data (nip01.events.json is read from it at run time); --own is
 * accepted for symmetry with the other suites (events have no own vectors). One context is
 * created for the backend and every test runs against it. */
#include "test_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint8_t ev_bip340_sec1[32] = {
    0xb7, 0xe1, 0x51, 0x62, 0x8a, 0xed, 0x2a, 0x6a, 0xbf, 0x71, 0x58, 0x80, 0x9c, 0xf4, 0xf3, 0xc7,
    0x62, 0xe7, 0x16, 0x0f, 0x38, 0xb4, 0xda, 0x56, 0xa7, 0x84, 0xd9, 0x04, 0x51, 0x90, 0xcf, 0xef,
};

void ev_identity(ev_env *env, sc_identity *id)
{
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, id, ev_bip340_sec1), SC_OK);
}

sc_status ev_parse_exact(sc_event *ev, void *arena, size_t cap, size_t *used, const char *json,
                         size_t len, const sc_event_parse_opts *opts)
{
    char *copy = len != 0 ? malloc(len) : NULL;
    sc_status st;

    if (len != 0 && copy == NULL) {
        fail_msg("out of memory");
    }
    if (len != 0) {
        memcpy(copy, json, len);
    }
    st = sc_event_parse(ev, arena, cap, used, copy, len, opts);
    free(copy);
    return st;
}

char *ev_to_json(const sc_event *ev, unsigned flags, size_t *len)
{
    size_t need = sc_event_to_json_len(ev, flags), got = 0;
    char *out;

    assert_true(need != 0);
    out = (char *)vt_alloc(need);
    VT_ASSERT_STATUS(sc_event_to_json(out, need, &got, ev, flags), SC_OK);
    assert_int_equal(got, need);
    *len = got;
    return out;
}

int ev_same(const sc_event *a, const sc_event *b, char *why, size_t cap)
{
    if (a->flags != b->flags) {
        snprintf(why, cap, "flags %u vs %u", a->flags, b->flags);
        return 0;
    }
    if (((a->flags & SC_EVENT_HAS_ID) && memcmp(a->id, b->id, 32) != 0) ||
        ((a->flags & SC_EVENT_HAS_PUBKEY) && memcmp(a->pubkey, b->pubkey, 32) != 0) ||
        ((a->flags & SC_EVENT_HAS_SIG) && memcmp(a->sig, b->sig, 64) != 0)) {
        snprintf(why, cap, "id, pubkey or sig differ");
        return 0;
    }
    return vt_event_same_body(a, b, why, cap);
}

void ev_assert_same(const sc_event *a, const sc_event *b)
{
    char why[200];

    if (!ev_same(a, b, why, sizeof why)) {
        fail_msg("events differ: %s", why);
    }
}

/* The capabilities every event operation needs. */
static int has_caps(ev_env *env)
{
    static const sc_cap need[] = {SC_CAP_SHA256, SC_CAP_SECP256K1, SC_CAP_RNG};
    const sc_backend *b = sc_ctx_backend(&env->ctx);
    size_t k;

    for (k = 0; k < sizeof need / sizeof need[0]; k++) {
        const char *why = NULL;

        if (sc_backend_has(b, need[k], &why) != SC_OK) {
            fprintf(stderr, "test_event: backend %s lacks %s (%s)\n", env->backend,
                    sc_backend_cap_name(need[k]), why != NULL ? why : "no reason given");
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    static ev_env env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_nip01_vectors, &env),
        cmocka_unit_test_prestate(test_escape_every_c0, &env),
        cmocka_unit_test_prestate(test_escape_at_every_position, &env),
        cmocka_unit_test_prestate(test_utf8_at_every_position, &env),
        cmocka_unit_test_prestate(test_write_checks_in_check_order, &env),
        cmocka_unit_test_prestate(test_verbatim_specials, &env),
        cmocka_unit_test_prestate(test_nul_in_content, &env),
        cmocka_unit_test_prestate(test_object_form, &env),
        cmocka_unit_test_prestate(test_json_len_and_buffer, &env),
        cmocka_unit_test_prestate(test_check_rejects, &env),
        cmocka_unit_test_prestate(test_utf8_table, &env),
        cmocka_unit_test_prestate(test_streamed_id_matches_text, &env),
        cmocka_unit_test_prestate(test_sign_verify, &env),
        cmocka_unit_test_prestate(test_verify_key_cache, &env),
        cmocka_unit_test_prestate(test_sign_reproduces_vector, &env),
        cmocka_unit_test_prestate(test_tamper, &env),
        cmocka_unit_test_prestate(test_sign_failures, &env),
        cmocka_unit_test_prestate(test_builder_happy, &env),
        cmocka_unit_test_prestate(test_builder_errors, &env),
        cmocka_unit_test_prestate(test_builder_capacity, &env),
        cmocka_unit_test_prestate(test_builder_two_pass, &env),
        cmocka_unit_test_prestate(test_parse_error_detail, &env),
        cmocka_unit_test_prestate(test_parse_alternatives, &env),
        cmocka_unit_test_prestate(test_parse_rejects, &env),
        cmocka_unit_test_prestate(test_parse_arena, &env),
        cmocka_unit_test_prestate(test_parse_opts, &env),
        cmocka_unit_test_prestate(test_parse_prefixes, &env),
        cmocka_unit_test_prestate(test_parse_mutations, &env),
    };
    vt_suite suite;
    int failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_event", "NIP-01 events",
                                "the NIP-01 vector file is", NULL, 0);

    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.vectors_dir = suite.vectors_dir;
    env.vectors_present = suite.vectors_present;
    if (!has_caps(&env)) {
        sc_ctx_clear(&env.ctx);
        return 1;
    }
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
