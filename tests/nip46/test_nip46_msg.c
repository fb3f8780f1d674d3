/* NIP-46 messages: a request and a response each built and opened, the status of each check
 * with events made to fail exactly it, malformed JSON-RPC content, and the bunker's policy. */
#include "test_nip46.h"

#include <stdlib.h>
#include <string.h>

/* The parties of these tests: the client key, the bunker key, the user's key (behind the
 * bunker, not the bunker key) and an outsider. */
typedef struct parties {
    sc_identity client, bunker, user, mallory;
    uint8_t cpub[32], bpub[32], upub[32], mpub[32];
} parties;

static void parties_init(gw_env *env, parties *p)
{
    gw_key(env, &p->client, p->cpub, 0x21);
    gw_key(env, &p->bunker, p->bpub, 0x22);
    gw_key(env, &p->user, p->upub, 0x23);
    gw_key(env, &p->mallory, p->mpub, 0x24);
}

static void parties_clear(parties *p)
{
    sc_identity_clear(&p->client);
    sc_identity_clear(&p->bunker);
    sc_identity_clear(&p->user);
    sc_identity_clear(&p->mallory);
}

/* Opens json as the client's response to `id` from p->bunker; r and the status. */
static sc_status open_resp(gw_env *env, parties *p, const char *json, size_t len, const char *id,
                           sc_nip46_response *r, void **scratch)
{
    size_t cap = sc_nip46_open_scratch_max(len), used = 0;
    sc_status st;

    *scratch = vt_alloc(cap);
    st = sc_nip46_response_open(&env->ctx, r, *scratch, cap, &used, &p->client, p->bpub,
                                (sc_str){id, strlen(id)}, json, len);
    if (st != SC_OK && st != SC_ERR_NIP46_AUTH_URL && st != SC_ERR_SIGNER_REFUSED) {
        assert_true(vt_all_zero((const uint8_t *)*scratch, cap));
        assert_true(vt_all_zero((const uint8_t *)r, sizeof *r));
    }
    return st;
}

static sc_status open_req(gw_env *env, const sc_identity *me, const char *json, size_t len,
                          sc_nip46_request *r, void **scratch)
{
    size_t cap = sc_nip46_open_scratch_max(len), used = 0;

    *scratch = vt_alloc(cap);
    return sc_nip46_request_open(&env->ctx, r, *scratch, cap, &used, me, json, len);
}

static void assert_str(sc_str s, const char *want)
{
    assert_int_equal(s.len, strlen(want));
    assert_memory_equal(s.ptr, want, s.len);
}

void test_msg_round_trip(void **state)
{
    gw_env *env = gw_env_of(state);
    parties p;
    sc_nip46_call call;
    sc_nip46_request r;
    sc_nip46_response resp;
    char id[SC_NIP46_ID_CHARS + 1] = {0};
    n46_buf req, res;
    void *scratch;

    parties_init(env, &p);
    memset(&call, 0, sizeof call);
    call.method = SC_STR("nip44_encrypt");
    call.params[0] = SC_STR("\"quoted\" \\ and\ncontrol \x01");
    call.params[1] = SC_STR("\xc3\xa9t\xc3\xa9");
    call.n_params = 2;
    req = n46_request(env, &p.client, p.bpub, &call, 0xab, id);
    assert_string_equal(id, "abababababababababababababababab");
    assert_non_null(strstr(req.p, "\"kind\":24133"));
    VT_ASSERT_STATUS(open_req(env, &p.bunker, req.p, req.len, &r, &scratch), SC_OK);
    assert_memory_equal(r.client, p.cpub, 32);
    assert_str(r.id, id);
    assert_str(r.call.method, "nip44_encrypt");
    assert_int_equal(r.call.n_params, 2);
    assert_str(r.call.params[0], "\"quoted\" \\ and\ncontrol \x01");
    assert_str(r.call.params[1], "\xc3\xa9t\xc3\xa9");
    free(scratch);
    /* the request is not for another bunker */
    VT_ASSERT_STATUS(open_req(env, &p.mallory, req.p, req.len, &r, &scratch), SC_ERR_NIP46_SENDER);
    free(scratch);
    /* the response */
    res = n46_response(env, &p.bunker, p.cpub, (sc_str){id, 32}, SC_STR("the \"result\""),
                       (sc_str){"", 0});
    VT_ASSERT_STATUS(open_resp(env, &p, res.p, res.len, id, &resp, &scratch), SC_OK);
    assert_str(resp.id, id);
    assert_str(resp.result, "the \"result\"");
    assert_int_equal(resp.error.len, 0);
    free(scratch);
    VT_ASSERT_STATUS(open_resp(env, &p, res.p, res.len, "another", &resp, &scratch),
                     SC_ERR_NIP46_ID);
    free(scratch);
    /* an empty expected id takes any (the nostrconnect:// flow) */
    VT_ASSERT_STATUS(open_resp(env, &p, res.p, res.len, "", &resp, &scratch), SC_OK);
    assert_str(resp.id, id);
    free(scratch);
    free(res.p);
    /* an auth challenge and an error */
    res = n46_response(env, &p.bunker, p.cpub, (sc_str){id, 32}, SC_STR("auth_url"),
                       SC_STR("https://bunker.example/auth?x=1"));
    VT_ASSERT_STATUS(open_resp(env, &p, res.p, res.len, id, &resp, &scratch),
                     SC_ERR_NIP46_AUTH_URL);
    assert_str(resp.error, "https://bunker.example/auth?x=1");
    free(scratch);
    free(res.p);
    res = n46_response(env, &p.bunker, p.cpub, (sc_str){id, 32}, (sc_str){"", 0}, SC_STR("no way"));
    VT_ASSERT_STATUS(open_resp(env, &p, res.p, res.len, id, &resp, &scratch),
                     SC_ERR_SIGNER_REFUSED);
    assert_str(resp.error, "no way");
    /* a refusal's result is written "error" (rust-nostr's client reads the result first) */
    assert_str(resp.result, "error");
    free(scratch);
    free(res.p);
    free(req.p);
    parties_clear(&p);
}

/* A kind 24133 (or other) event carrying `inner` from signer to `to`, p-tagging ptag. */
static char *raw_event(gw_env *env, const char *inner, const sc_identity *signer,
                       const uint8_t to[32], const uint8_t ptag[32], uint32_t kind, unsigned tamper,
                       size_t *len)
{
    char hex[65];
    sc_str items[2];
    sc_tag tag;

    n46_hex(hex, ptag);
    items[0] = SC_STR("p");
    items[1] = (sc_str){hex, 64};
    tag = (sc_tag){items, 2};
    return gw_layer(env, inner, strlen(inner), signer, to, kind, N46_NOW, &tag, 1, tamper, len);
}

void test_msg_checks(void **state)
{
    gw_env *env = gw_env_of(state);
    static const char ok[] = "{\"id\":\"i1\",\"result\":\"r\"}";
    parties p;
    sc_nip46_response resp;
    void *scratch;
    char *json;
    size_t len = 0;

    parties_init(env, &p);
    /* the control: a hand-made response opens */
    json = raw_event(env, ok, &p.bunker, p.cpub, p.cpub, SC_NIP46_KIND, 0, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_OK);
    assert_str(resp.result, "r");
    free(scratch);
    free(json);
    /* a refusal as rust-nostr's signer writes it: "result" null, the reason in "error" */
    json = raw_event(env, "{\"id\":\"i1\",\"result\":null,\"error\":\"Rejected\"}", &p.bunker,
                     p.cpub, p.cpub, SC_NIP46_KIND, 0, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_SIGNER_REFUSED);
    assert_str(resp.id, "i1");
    assert_str(resp.error, "Rejected");
    assert_int_equal(resp.result.len, 0);
    free(scratch);
    free(json);
    /* another kind */
    json = raw_event(env, ok, &p.bunker, p.cpub, p.cpub, 24134, 0, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_NIP46);
    free(scratch);
    free(json);
    /* from another key (encrypted to the client, so only the author check can catch it) */
    json = raw_event(env, ok, &p.mallory, p.cpub, p.cpub, SC_NIP46_KIND, 0, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_NIP46_SENDER);
    free(scratch);
    free(json);
    /* not addressed to the client */
    json = raw_event(env, ok, &p.bunker, p.cpub, p.mpub, SC_NIP46_KIND, 0, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_NIP46_SENDER);
    free(scratch);
    free(json);
    /* a bad signature, a bad id */
    json = raw_event(env, ok, &p.bunker, p.cpub, p.cpub, SC_NIP46_KIND, GW_BAD_SIG, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_INVALID_SIG);
    free(scratch);
    free(json);
    json = raw_event(env, ok, &p.bunker, p.cpub, p.cpub, SC_NIP46_KIND, GW_BAD_ID, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_ID_MISMATCH);
    free(scratch);
    free(json);
    /* a payload that does not authenticate */
    json = raw_event(env, ok, &p.bunker, p.cpub, p.cpub, SC_NIP46_KIND, GW_BAD_PAYLOAD, &len);
    VT_ASSERT_STATUS(open_resp(env, &p, json, len, "i1", &resp, &scratch), SC_ERR_MAC);
    free(scratch);
    free(json);
    /* not an event */
    VT_ASSERT_STATUS(open_resp(env, &p, "{}", 2, "i1", &resp, &scratch), SC_ERR_EVENT_FIELD);
    free(scratch);
    /* the scratch's size */
    {
        size_t used = 0;

        VT_ASSERT_STATUS(sc_nip46_response_open(&env->ctx, &resp, NULL, 0, &used, &p.client, p.bpub,
                                                SC_STR("i1"), "{}", 2),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(used, sc_nip46_open_scratch_max(2));
    }
    parties_clear(&p);
}

void test_msg_bad_rpc(void **state)
{
    gw_env *env = gw_env_of(state);
    static const struct {
        const char *inner;
        sc_status resp, req;
    } cases[] = {
        {"not json", SC_ERR_NIP46, SC_ERR_NIP46},
        {"[]", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":1,\"result\":\"r\"}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\"}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":\"r\",\"id\":\"i1\"}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":[\"r\"]}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":\"r\"} x", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":\"r\",\"error\":null,\"x\":{\"y\":[1]}}", SC_OK, SC_ERR_NIP46},
        /* a refusal without a result: null (rust-nostr's signer) or absent, with an error */
        {"{\"id\":\"i1\",\"result\":null,\"error\":\"Rejected\"}", SC_ERR_SIGNER_REFUSED,
         SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"error\":\"Rejected\"}", SC_ERR_SIGNER_REFUSED, SC_ERR_NIP46},
        /* but no result needs an error */
        {"{\"id\":\"i1\",\"result\":null}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":null,\"error\":null}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":null,\"error\":\"\"}", SC_ERR_NIP46, SC_ERR_NIP46},
        /* a member null once is still read once */
        {"{\"id\":\"i1\",\"result\":null,\"result\":\"r\"}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"result\":\"r\",\"error\":null,\"error\":\"x\"}", SC_ERR_NIP46,
         SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"method\":\"ping\",\"params\":[]}", SC_ERR_NIP46, SC_OK},
        {"{\"id\":\"i1\",\"method\":\"\",\"params\":[]}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"method\":\"ping\"}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"method\":\"ping\",\"params\":[1]}", SC_ERR_NIP46, SC_ERR_NIP46},
        {"{\"id\":\"i1\",\"method\":\"ping\",\"params\":[\"a\",\"b\",\"c\",\"d\",\"e\"]}",
         SC_ERR_TOO_LARGE, SC_ERR_TOO_LARGE},
    };
    parties p;
    size_t i, len = 0;

    parties_init(env, &p);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sc_nip46_response resp;
        sc_nip46_request r;
        void *scratch;
        char *json =
            raw_event(env, cases[i].inner, &p.bunker, p.cpub, p.cpub, SC_NIP46_KIND, 0, &len);
        sc_status st = open_resp(env, &p, json, len, "i1", &resp, &scratch);

        if (st != cases[i].resp) {
            fail_msg("response case %zu: %s, want %s", i, sc_status_name(st),
                     sc_status_name(cases[i].resp));
        }
        free(scratch);
        free(json);
        json = raw_event(env, cases[i].inner, &p.client, p.bpub, p.bpub, SC_NIP46_KIND, 0, &len);
        st = open_req(env, &p.bunker, json, len, &r, &scratch);
        if (st != cases[i].req) {
            fail_msg("request case %zu: %s, want %s", i, sc_status_name(st),
                     sc_status_name(cases[i].req));
        }
        free(scratch);
        free(json);
    }
    parties_clear(&p);
}

/* The bunker's answer to call under policy: its status, and the response opened by the
 * client (result or error copied to out). */
static sc_status ask(gw_env *env, parties *p, const sc_nip46_policy *pol, const sc_nip46_call *c,
                     char *out, size_t cap, sc_status *opened)
{
    char id[SC_NIP46_ID_CHARS + 1] = {0};
    n46_buf req = n46_request(env, &p->client, p->bpub, c, 0x11, id), res;
    sc_nip46_response resp;
    sc_status handled;
    void *scratch;

    res = n46_bunker_turn(env, &p->bunker, &p->user, pol, req, &handled);
    *opened = open_resp(env, p, res.p, res.len, id, &resp, &scratch);
    {
        sc_str s = *opened == SC_OK ? resp.result : resp.error;

        assert_true(s.len < cap);
        memcpy(out, s.ptr, s.len);
        out[s.len] = '\0';
    }
    free(scratch);
    free(req.p);
    free(res.p);
    return handled;
}

void test_bunker_policy(void **state)
{
    gw_env *env = gw_env_of(state);
    static const sc_str grants[] = {{"ping", 4},           {"sign_event:14", 13},
                                    {"connect", 7},        {"nip44_encrypt", 13},
                                    {"nip44_decrypt", 13}, {"get_public_key", 14}};
    parties p;
    sc_nip46_policy pol = {grants, 2, {"s3cret", 6}, NULL, 0};
    sc_nip46_call c;
    char out[2048], uhex[65], payload[1024];
    sc_status opened;

    parties_init(env, &p);
    n46_hex(uhex, p.upub);
    memset(&c, 0, sizeof c);
    c.method = SC_STR("ping");
    /* with a secret, a client that has not connected gets nothing but connect: none connected,
       then another client connected */
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_SIGNER_REFUSED);
    VT_ASSERT_STATUS(opened, SC_ERR_SIGNER_REFUSED);
    assert_string_equal(out, "not connected: send connect with the secret first");
    pol.clients = (const uint8_t(*)[SC_PUBKEY_BYTES]) & p.mpub;
    pol.n_clients = 1;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_SIGNER_REFUSED);
    c.method = SC_STR("switch_relays");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_SIGNER_REFUSED);
    c.method = SC_STR("connect");
    c.params[0] = (sc_str){uhex, 64};
    c.params[1] = SC_STR("s3cret");
    c.n_params = 2;
    pol.n_grants = 3; /* ping, sign_event:14, connect */
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
    assert_string_equal(out, "ack");
    pol.n_grants = 2;
    memset(&c, 0, sizeof c);
    c.method = SC_STR("ping");
    /* the caller adds the client once its connect was answered: now it is served */
    pol.clients = (const uint8_t(*)[SC_PUBKEY_BYTES]) & p.cpub;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
    VT_ASSERT_STATUS(opened, SC_OK);
    assert_string_equal(out, "pong");
    /* not granted */
    c.method = SC_STR("get_public_key");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_SIGNER_REFUSED);
    VT_ASSERT_STATUS(opened, SC_ERR_SIGNER_REFUSED);
    assert_string_equal(out, "permission denied");
    /* sign_event of kind 14 only, by the user's key (not the bunker's) */
    c.method = SC_STR("sign_event");
    c.params[0] = SC_STR("{\"kind\":1,\"content\":\"x\",\"tags\":[],\"created_at\":1700000000}");
    c.n_params = 1;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_SIGNER_REFUSED);
    c.params[0] = SC_STR("{\"kind\":14,\"content\":\"x\",\"tags\":[[\"p\",\"a\"]],"
                         "\"created_at\":1700000000,\"pubkey\":\""
                         "00000000000000000000000000000000"
                         "00000000000000000000000000000000\"}");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
    {
        sc_event ev;
        size_t used = 0, acap = sc_event_parse_arena_max(strlen(out));
        void *arena = vt_alloc(acap);

        VT_ASSERT_STATUS(sc_event_parse(&ev, arena, acap, &used, out, strlen(out), NULL), SC_OK);
        VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_OK);
        assert_memory_equal(ev.pubkey, p.upub, 32);
        assert_int_equal(ev.kind, 14);
        free(arena);
    }
    c.params[0] = SC_STR("{\"kind\":14");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_JSON);
    assert_string_equal(out, "invalid params");
    /* connect: the secret */
    pol.n_grants = 6;
    c.method = SC_STR("connect");
    c.params[0] = (sc_str){uhex, 64};
    c.n_params = 1;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_NIP46_SECRET);
    c.params[1] = SC_STR("s3creT");
    c.n_params = 2;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_NIP46_SECRET);
    assert_string_equal(out, "invalid secret");
    c.params[1] = SC_STR("s3cre");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_NIP46_SECRET);
    c.params[1] = SC_STR("s3cret");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
    assert_string_equal(out, "ack");
    /* get_public_key: the user's key */
    c.method = SC_STR("get_public_key");
    c.n_params = 0;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
    assert_string_equal(out, uhex);
    /* nip44 through the bunker: to mallory, decrypted by mallory, and back */
    {
        char mhex[65];
        uint8_t pt[256];
        size_t n = 0;

        n46_hex(mhex, p.mpub);
        c.method = SC_STR("nip44_encrypt");
        c.params[0] = (sc_str){mhex, 64};
        c.params[1] = SC_STR("hello \xc3\xa9");
        c.n_params = 2;
        VT_ASSERT_STATUS(ask(env, &p, &pol, &c, payload, sizeof payload, &opened), SC_OK);
        VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, pt, sizeof pt, &n, &p.mallory, p.upub,
                                               payload, strlen(payload), 0),
                         SC_OK);
        assert_int_equal(n, 8);
        assert_memory_equal(pt, "hello \xc3\xa9", 8);
        c.method = SC_STR("nip44_decrypt");
        c.params[1] = (sc_str){payload, strlen(payload)};
        VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
        assert_string_equal(out, "hello \xc3\xa9");
        c.params[0] = SC_STR("not hex");
        VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_NIP46);
    }
    /* NIP-04 and unknown methods: refused with a reason */
    c.method = SC_STR("nip04_encrypt");
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_UNSUPPORTED);
    assert_non_null(strstr(out, "nip44"));
    c.method = SC_STR("logout");
    c.n_params = 0;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_ERR_UNSUPPORTED);
    assert_string_equal(out, "unsupported method");
    c.method = SC_STR("switch_relays");
    pol.n_grants = 0;
    VT_ASSERT_STATUS(ask(env, &p, &pol, &c, out, sizeof out, &opened), SC_OK);
    assert_string_equal(out, "null");
    parties_clear(&p);
}

void test_msg_args(void **state)
{
    gw_env *env = gw_env_of(state);
    parties p;
    sc_nip46_call c;
    sc_nip46_request r;
    sc_nip46_response resp;
    sc_signer_req sreq;
    uint8_t rnd[SC_NIP46_ID_RAND_BYTES] = {0};
    char id[SC_NIP46_ID_CHARS], out[64];
    size_t len = 5, used = 5;
    const char *error = "x";
    sc_nip46_policy pol = {NULL, 0, {"", 0}, NULL, 0};

    parties_init(env, &p);
    memset(&c, 0, sizeof c);
    c.method = SC_STR("ping");
    VT_ASSERT_STATUS(
        sc_nip46_request_build(&env->ctx, NULL, 1, &len, &p.client, p.bpub, rnd, &c, N46_NOW, id),
        SC_ERR_ARG);
    assert_int_equal(len, 0);
    c.n_params = SC_NIP46_MAX_PARAMS + 1;
    VT_ASSERT_STATUS(
        sc_nip46_request_build(&env->ctx, NULL, 0, &len, &p.client, p.bpub, rnd, &c, N46_NOW, id),
        SC_ERR_TOO_LARGE);
    c.n_params = 1;
    c.params[0] = (sc_str){NULL, 1};
    VT_ASSERT_STATUS(
        sc_nip46_request_build(&env->ctx, NULL, 0, &len, &p.client, p.bpub, rnd, &c, N46_NOW, id),
        SC_ERR_ARG);
    c.n_params = 0;
    c.method = (sc_str){"", 0};
    VT_ASSERT_STATUS(
        sc_nip46_request_build(&env->ctx, NULL, 0, &len, &p.client, p.bpub, rnd, &c, N46_NOW, id),
        SC_ERR_EMPTY);
    c.method = SC_STR("ping");
    VT_ASSERT_STATUS(
        sc_nip46_request_build(&env->ctx, NULL, 0, &len, &p.client, p.bpub, rnd, &c, -1, id),
        SC_ERR_EVENT_RANGE);
    VT_ASSERT_STATUS(sc_nip46_response_build(&env->ctx, NULL, 0, &len, &p.bunker, p.cpub,
                                             (sc_str){"", 0}, SC_STR("r"), (sc_str){"", 0},
                                             N46_NOW),
                     SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_nip46_request_open(&env->ctx, &r, NULL, 1, &used, &p.bunker, "{}", 2),
                     SC_ERR_ARG);
    assert_int_equal(used, 0);
    VT_ASSERT_STATUS(sc_nip46_response_open(&env->ctx, &resp, NULL, 0, &used, &p.client, p.bpub,
                                            (sc_str){NULL, 1}, "{}", 2),
                     SC_ERR_ARG);
    /* a signer request that asks nothing */
    memset(&sreq, 0, sizeof sreq);
    VT_ASSERT_STATUS(sc_nip46_call_from_req(&c, out, sizeof out, &used, &sreq), SC_ERR_STATE);
    sreq.kind = SC_SIGNER_REQ_SIGN_EVENT;
    VT_ASSERT_STATUS(sc_nip46_call_from_req(&c, out, sizeof out, &used, &sreq), SC_ERR_STATE);
    sreq.kind = SC_SIGNER_REQ_NIP44_DECRYPT;
    VT_ASSERT_STATUS(sc_nip46_call_from_req(&c, out, 10, &used, &sreq), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, 64);
    /* handle: a too small result buffer reports the need */
    memset(&r, 0, sizeof r);
    r.call.method = SC_STR("ping");
    VT_ASSERT_STATUS(sc_nip46_bunker_handle(&env->ctx, out, 3, &len, &error, &p.user, &pol, &r),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, sc_nip46_bunker_result_max(&r));
    assert_null(error);
    pol.n_grants = 1;
    VT_ASSERT_STATUS(
        sc_nip46_bunker_handle(&env->ctx, out, sizeof out, &len, &error, &p.user, &pol, &r),
        SC_ERR_ARG);
    parties_clear(&p);
}
