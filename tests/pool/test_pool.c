/* The relay pool suite for one backend:
 *   test_pool --backend NAME
 * Options and memory, relays and their connections, publishes (results, retries, the
 * tolerance rules), subscriptions (deduplication, EOSE, CLOSED, resume), the cursor and its
 * bytes, NIP-42 by policy and by the application, NIP-17 routing (the inbox directory and
 * the delivery record), and no allocation in any pool call. The
 * test plays every relay by hand, one text at a time. */
#include "test_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pool_env env;

void pool_make(pool_env *e, pool_ev *h, uint32_t kind, int64_t created_at, const char *content,
               const char *const *tags)
{
    size_t nt = 0, ni = 0, k = 0;
    uint8_t aux[32];

    memset(h, 0, sizeof *h);
    while (tags != NULL && tags[k] != NULL) {
        assert_true(nt < sizeof h->tags / sizeof h->tags[0]);
        h->tags[nt].items = &h->items[ni];
        while (tags[k] != NULL) {
            assert_true(ni < sizeof h->items / sizeof h->items[0]);
            h->items[ni].ptr = tags[k];
            h->items[ni].len = strlen(tags[k]);
            ni++;
            k++;
        }
        h->tags[nt].n_items = (size_t)(&h->items[ni] - h->tags[nt].items);
        nt++;
        k++;
    }
    snprintf(h->content, sizeof h->content, "%s", content);
    h->ev.kind = kind;
    h->ev.created_at = created_at;
    h->ev.content.ptr = h->content;
    h->ev.content.len = strlen(h->content);
    h->ev.tags = nt > 0 ? h->tags : NULL;
    h->ev.n_tags = nt;
    h->ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    memset(aux, 7, sizeof aux);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&e->ctx, &h->ev, &e->alice, aux), SC_OK);
}

void rig_init(rig *r, pool_env *e, const sc_pool_opts *o)
{
    memset(r, 0, sizeof *r);
    r->e = e;
    r->now = T0;
    r->mem_len = sc_pool_mem_max(o);
    assert_true(r->mem_len > 0);
    r->mem = vt_alloc(r->mem_len);
    VT_ASSERT_STATUS(sc_pool_init(&r->p, r->mem, r->mem_len, o), SC_OK);
}

void rig_clear(rig *r)
{
    sc_pool_clear(&r->p);
    assert_true(vt_all_zero(r->mem, r->mem_len));
    free(r->mem);
    r->mem = NULL;
}

uint32_t rig_relay(rig *r, const char *url)
{
    uint32_t h = 0;

    VT_ASSERT_STATUS(sc_pool_relay_add(&r->p, &h, str_of(url)), SC_OK);
    assert_true(h != 0);
    return h;
}

static const char *kind_name(sc_pool_update_kind k)
{
    static const char *const names[] = {"NONE",    "CONNECT",       "DISCONNECT",   "EVENT",
                                        "EOSE",    "CLOSED",        "PUBLISHED",    "PUBLISH_DONE",
                                        "AUTH",    "AUTHENTICATED", "AUTH_REFUSED", "NOTICE",
                                        "DROPPED", "OTHER",         "AUTH_WANTED"};

    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

sc_pool_update_kind rig_poll(rig *r)
{
    VT_ASSERT_STATUS(sc_pool_poll(&r->p, &r->e->ctx, r->now, &r->u), SC_OK);
    return r->u.kind;
}

void rig_expect(rig *r, sc_pool_update_kind kind)
{
    int i;

    for (i = 0; i < 64; i++) {
        sc_pool_update_kind k = rig_poll(r);

        if (k == kind) {
            return;
        }
        if (k == SC_POOL_U_NONE) {
            fail_msg("expected %s, got NONE", kind_name(kind));
        }
    }
    fail_msg("expected %s: not in 64 updates", kind_name(kind));
}

int rig_drain(rig *r, sc_pool_update_kind never)
{
    int n = 0;

    while (rig_poll(r) != SC_POOL_U_NONE) {
        if ((never == SC_POOL_U_NONE && r->u.kind != SC_POOL_U_CONNECT) || r->u.kind == never) {
            fail_msg("unexpected %s (%.*s)", kind_name(r->u.kind), (int)r->u.text.len,
                     r->u.text.ptr);
        }
        if (++n > 256) {
            fail_msg("poll never ends");
        }
    }
    return n;
}

void rig_connect(rig *r, uint32_t relay)
{
    int i;

    for (i = 0; i < 64; i++) {
        if (rig_poll(r) == SC_POOL_U_CONNECT && r->u.relay == relay) {
            VT_ASSERT_STATUS(sc_pool_connected(&r->p, relay, r->now), SC_OK);
            return;
        }
        if (r->u.kind == SC_POOL_U_NONE) {
            break;
        }
    }
    fail_msg("no CONNECT for relay %lx", (unsigned long)relay);
}

const char *rig_next(rig *r, uint32_t relay)
{
    VT_ASSERT_STATUS(sc_pool_next(&r->p, relay, r->out, sizeof r->out - 1, &r->len), SC_OK);
    r->out[r->len] = '\0';
    return r->out;
}

int rig_flush(rig *r, uint32_t relay)
{
    int n = 0;
    char last[sizeof r->out];

    last[0] = '\0';
    while (rig_next(r, relay)[0] != '\0') {
        memcpy(last, r->out, r->len + 1);
        n++;
    }
    memcpy(r->out, last, strlen(last) + 1);
    return n;
}

sc_status rig_recv(rig *r, uint32_t relay, const char *text)
{
    return sc_pool_receive(&r->p, &r->e->ctx, relay, text, strlen(text), r->now, r->arena,
                           sizeof r->arena);
}

sc_str str_of(const char *s)
{
    sc_str v;

    v.ptr = s;
    v.len = strlen(s);
    return v;
}

const char *msg_ok(char *buf, size_t cap, const uint8_t id[32], int accepted, const char *msg)
{
    char hex[65];
    size_t i;

    for (i = 0; i < 32; i++) {
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    }
    snprintf(buf, cap, "[\"OK\",\"%s\",%s,\"%s\"]", hex, accepted ? "true" : "false", msg);
    return buf;
}

const char *msg_event(char *buf, size_t cap, const char *sub, const sc_event *ev)
{
    size_t n = (size_t)snprintf(buf, cap, "[\"EVENT\",\"%s\",", sub), len = 0;

    VT_ASSERT_STATUS(sc_event_to_json(buf + n, cap - n - 2, &len, ev, SC_EVENT_JSON_OBJECT), SC_OK);
    n += len;
    buf[n++] = ']';
    buf[n] = '\0';
    return buf;
}

int sent_event_id(const char *text, uint8_t id[32])
{
    const char *at = strstr(text, "\"id\":\"");
    size_t i;

    if (strncmp(text, "[\"EVENT\",{", 10) != 0 || at == NULL) {
        return 0;
    }
    at += 6;
    for (i = 0; i < 32; i++) {
        unsigned v;

        if (sscanf(at + 2 * i, "%2x", &v) != 1) {
            return 0;
        }
        id[i] = (uint8_t)v;
    }
    return 1;
}

static void setup_keys(pool_env *e)
{
    uint8_t a[32], b[32];

    memset(a, 0x11, sizeof a);
    memset(b, 0x22, sizeof b);
    VT_ASSERT_STATUS(sc_identity_import(&e->ctx, &e->alice, a), SC_OK);
    VT_ASSERT_STATUS(sc_identity_import(&e->ctx, &e->bob, b), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(e->alice_pub, &e->alice), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(e->bob_pub, &e->bob), SC_OK);
}

int main(int argc, char **argv)
{
    vt_suite s;
    int failed;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_opts, &env),
        cmocka_unit_test_prestate(test_memory, &env),
        cmocka_unit_test_prestate(test_relays, &env),
        cmocka_unit_test_prestate(test_links, &env),
        cmocka_unit_test_prestate(test_publish_results, &env),
        cmocka_unit_test_prestate(test_publish_retries, &env),
        cmocka_unit_test_prestate(test_publish_lost, &env),
        cmocka_unit_test_prestate(test_publish_timeout, &env),
        cmocka_unit_test_prestate(test_publish_unattributed, &env),
        cmocka_unit_test_prestate(test_publish_removed, &env),
        cmocka_unit_test_prestate(test_publish_args, &env),
        cmocka_unit_test_prestate(test_sub_dedupe, &env),
        cmocka_unit_test_prestate(test_sub_eose, &env),
        cmocka_unit_test_prestate(test_sub_closed, &env),
        cmocka_unit_test_prestate(test_sub_once_replace, &env),
        cmocka_unit_test_prestate(test_sub_future, &env),
        cmocka_unit_test_prestate(test_sub_args, &env),
        cmocka_unit_test_prestate(test_dropped, &env),
        cmocka_unit_test_prestate(test_cursor_resume, &env),
        cmocka_unit_test_prestate(test_cursor_bytes, &env),
        cmocka_unit_test_prestate(test_cursor_args, &env),
        cmocka_unit_test_prestate(test_auth_on_demand, &env),
        cmocka_unit_test_prestate(test_auth_policies, &env),
        cmocka_unit_test_prestate(test_auth_refused, &env),
        cmocka_unit_test_prestate(test_auth_late, &env),
        cmocka_unit_test_prestate(test_auth_external, &env),
        cmocka_unit_test_prestate(test_auth_wanted, &env),
        cmocka_unit_test_prestate(test_auth_wanted_policies, &env),
        cmocka_unit_test_prestate(test_inboxes, &env),
        cmocka_unit_test_prestate(test_delivery, &env),
        cmocka_unit_test_prestate(test_delivery_failed, &env),
        cmocka_unit_test_prestate(test_alloc, &env),
    };

    failed = vt_suite_start(&s, &env.ctx, argc, argv, "test_pool", "relay pool", NULL, NULL, 0);
    if (failed != 0) {
        return failed;
    }
    env.backend = s.backend;
    setup_keys(&env);
    failed = _cmocka_run_group_tests(s.backend, tests, sizeof tests / sizeof tests[0], NULL, NULL);
    sc_identity_clear(&env.alice);
    sc_identity_clear(&env.bob);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
