/* The relay protocol suite for one backend:
 *   test_relay --backend NAME
 * Client messages written, relay messages parsed (every type, malformed shapes, forged
 * events), filters matched and parsed, NIP-42 events signed and checked, the session's
 * subscriptions, publishes, AUTH and reconnects, and NIP-40 on events and gift wraps. */
#include "test_relay.h"

#include <stdio.h>
#include <string.h>

static relay_env env;

void relay_make(relay_env *e, relay_ev *h, const sc_identity *who, uint32_t kind,
                int64_t created_at, const char *content, const char *const *tags)
{
    size_t nt = 0, ni = 0, k = 0;
    uint8_t aux[32];

    memset(h, 0, sizeof *h);
    while (tags != NULL && tags[k] != NULL) {
        h->tags[nt].items = &h->items[ni];
        while (tags[k] != NULL) {
            h->items[ni].ptr = tags[k];
            h->items[ni].len = strlen(tags[k]);
            ni++;
            k++;
        }
        h->tags[nt].n_items = (size_t)(&h->items[ni] - h->tags[nt].items);
        nt++;
        k++;
    }
    h->ev.kind = kind;
    h->ev.created_at = created_at;
    h->ev.content.ptr = content;
    h->ev.content.len = strlen(content);
    h->ev.tags = nt > 0 ? h->tags : NULL;
    h->ev.n_tags = nt;
    h->ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    memset(aux, 7, sizeof aux);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&e->ctx, &h->ev, who, aux), SC_OK);
}

size_t relay_event_msg(char *out, size_t cap, const char *sub, const sc_event *ev)
{
    size_t n = (size_t)snprintf(out, cap, "[\"EVENT\",\"%s\",", sub), len = 0;

    VT_ASSERT_STATUS(sc_event_to_json(out + n, cap - n - 1, &len, ev, SC_EVENT_JSON_OBJECT), SC_OK);
    n += len;
    out[n++] = ']';
    out[n] = '\0';
    return n;
}

static int setup_keys(void **state)
{
    relay_env *e = *state;
    uint8_t a[32], b[32];

    memset(a, 0x11, sizeof a);
    memset(b, 0x22, sizeof b);
    assert_int_equal(sc_identity_import(&e->ctx, &e->alice, a), SC_OK);
    assert_int_equal(sc_identity_import(&e->ctx, &e->bob, b), SC_OK);
    assert_int_equal(sc_identity_pubkey(e->alice_pub, &e->alice), SC_OK);
    assert_int_equal(sc_identity_pubkey(e->bob_pub, &e->bob), SC_OK);
    return 0;
}

int main(int argc, char **argv)
{
    vt_suite s;
    int failed;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_write_messages, &env),
        cmocka_unit_test_prestate(test_write_errors, &env),
        cmocka_unit_test_prestate(test_parse_messages, &env),
        cmocka_unit_test_prestate(test_parse_rejects, &env),
        cmocka_unit_test_prestate(test_parse_arena, &env),
        cmocka_unit_test_prestate(test_parse_need, &env),
        cmocka_unit_test_prestate(test_parse_count, &env),
        cmocka_unit_test_prestate(test_filter_match, &env),
        cmocka_unit_test_prestate(test_filter_parse, &env),
        cmocka_unit_test_prestate(test_url_normalize, &env),
        cmocka_unit_test_prestate(test_auth_event, &env),
        cmocka_unit_test_prestate(test_session_flow, &env),
        cmocka_unit_test_prestate(test_session_reconnect, &env),
        cmocka_unit_test_prestate(test_session_resume_cut, &env),
        cmocka_unit_test_prestate(test_session_future, &env),
        cmocka_unit_test_prestate(test_session_auth, &env),
        cmocka_unit_test_prestate(test_session_auth_signed_elsewhere, &env),
        cmocka_unit_test_prestate(test_session_limits, &env),
        cmocka_unit_test_prestate(test_nip40, &env),
        cmocka_unit_test_prestate(test_nip40_unwrap, &env),
    };

    failed =
        vt_suite_start(&s, &env.ctx, argc, argv, "test_relay", "relay protocol", NULL, NULL, 0);
    if (failed != 0) {
        return failed;
    }
    env.backend = s.backend;
    {
        void *st = &env;

        setup_keys(&st);
    }
    failed = _cmocka_run_group_tests(s.backend, tests, sizeof tests / sizeof tests[0], NULL, NULL);
    sc_identity_clear(&env.alice);
    sc_identity_clear(&env.bob);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
