/* NIP-46 as a bunker and a client meet it: URIs and events from anyone. Input: a mode byte
 * (data[0] % 3), a backend selector, then the mode's bytes.
 *   0 uri:    the rest is a URI: sc_nip46_uri_parse; a URI that parses is built again and
 *             that parses to the same fields.
 *   1 rpc:    the rest is a JSON-RPC text, sealed (a valid MAC, signed) as a kind 24133 event
 *             from identity 3 (the client) to identity 0 (the bunker) and from 0 to 3: opened
 *             as a request by the bunker (and, when it opens, run by a bunker granting every
 *             method for identity 1) and as a response by the client.
 *   2 raw:    the rest is an event's JSON, opened both ways.
 * Checks: only documented statuses; on failure the outputs are zeroed and the scratch holds
 * only zero bytes; on success every view lies in the scratch (or the URI buffer). */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

static void same_str(sc_str a, sc_str b)
{
    FZ_REQUIRE(fz_same_str(a, b));
}

static void uri_mode(const uint8_t *p, size_t n)
{
    uint8_t *uri = fz_dup(p, n), *buf = fz_alloc(n), *buf2, *out;
    sc_nip46_uri u, v;
    size_t used = 0, need = 0, len = 0, used2 = 0, i;
    sc_status st = sc_nip46_uri_parse(&u, (char *)buf, n, &used, (const char *)uri, n);

    FZ_STATUS_IN(st, SC_OK, SC_ERR_NIP46_URI, SC_ERR_UTF8, SC_ERR_NIP46_SECRET, SC_ERR_TOO_LARGE);
    if (st != SC_OK) {
        FZ_REQUIRE(used == 0 && fz_all_zero(&u, sizeof u) && fz_all_zero_or(buf, n, FZ_CANARY));
        free(uri);
        free(buf);
        return;
    }
    FZ_REQUIRE(used <= n && u.n_relays >= 1 && u.n_relays <= SC_NIP46_URI_MAX_RELAYS);
    for (i = 0; i < u.n_relays; i++) {
        FZ_REQUIRE(fz_inside(u.relays[i], buf, used));
    }
    FZ_REQUIRE(fz_inside(u.secret, buf, used) || u.secret.len == 0);
    st = sc_nip46_uri_build(NULL, 0, &need, &u);
    FZ_REQUIRE(st == SC_ERR_BUFFER_TOO_SMALL);
    out = fz_alloc(need);
    FZ_REQUIRE(sc_nip46_uri_build((char *)out, need, &len, &u) == SC_OK && len == need);
    buf2 = fz_alloc(len);
    st = sc_nip46_uri_parse(&v, (char *)buf2, len, &used2, (const char *)out, len);
    if (len > SC_NIP46_URI_MAX_LEN) { /* escapes made it longer than a URI may be */
        FZ_REQUIRE(st == SC_ERR_TOO_LARGE);
        free(buf2);
        free(out);
        free(uri);
        free(buf);
        return;
    }
    FZ_REQUIRE(st == SC_OK);
    FZ_REQUIRE(v.kind == u.kind && memcmp(v.pubkey, u.pubkey, 32) == 0 && v.n_relays == u.n_relays);
    for (i = 0; i < u.n_relays; i++) {
        same_str(v.relays[i], u.relays[i]);
    }
    same_str(v.secret, u.secret);
    if (u.kind == SC_NIP46_URI_NOSTRCONNECT) {
        same_str(v.perms, u.perms);
        same_str(v.name, u.name);
        same_str(v.url, u.url);
        same_str(v.image, u.image);
    }
    free(buf2);
    free(out);
    free(uri);
    free(buf);
}

static void run_bunker(sc_ctx *ctx, const sc_nip46_request *r)
{
    static const sc_str grants[] = {{"connect", 7},         {"ping", 4},
                                    {"get_public_key", 14}, {"sign_event", 10},
                                    {"nip44_encrypt", 13},  {"nip44_decrypt", 13}};
    /* the request's own client is connected, so every method is reached */
    sc_nip46_policy pol = {grants, 6, {"s", 1}, (const uint8_t(*)[SC_PUBKEY_BYTES])r->client, 1};
    size_t cap = sc_nip46_bunker_result_max(r), len = 0;
    const char *error = NULL;
    uint8_t *out;
    sc_status st;

    if (cap == 0) {
        return;
    }
    out = fz_alloc(cap);
    st = sc_nip46_bunker_handle(ctx, (char *)out, cap, &len, &error, fz_id(1), &pol, r);
    FZ_REQUIRE((st == SC_OK) == (error == NULL));
    if (st == SC_OK) {
        FZ_REQUIRE(len <= cap);
    } else {
        FZ_REQUIRE(len == 0 && fz_all_zero(out, cap));
    }
    free(out);
}

static void open_both(sc_ctx *ctx, const char *json, size_t n, int run)
{
    size_t cap = sc_nip46_open_scratch_max(n), used = 0, i;
    uint8_t *scratch;
    sc_nip46_request r;
    sc_nip46_response resp;
    sc_status st;

    if (cap == 0) {
        return;
    }
    scratch = fz_alloc(cap);
    st = sc_nip46_request_open(ctx, &r, scratch, cap, &used, fz_id(0), json, n);
    if (st != SC_OK) {
        FZ_REQUIRE(used == 0 && fz_all_zero(&r, sizeof r) &&
                   fz_all_zero_or(scratch, cap, FZ_CANARY));
    } else {
        FZ_REQUIRE(used <= cap && r.call.method.len > 0 && r.call.n_params <= SC_NIP46_MAX_PARAMS);
        FZ_REQUIRE(fz_inside(r.id, scratch, used) || r.id.len == 0);
        FZ_REQUIRE(fz_inside(r.call.method, scratch, used));
        for (i = 0; i < r.call.n_params; i++) {
            FZ_REQUIRE(fz_inside(r.call.params[i], scratch, used) || r.call.params[i].len == 0);
        }
        if (run) {
            run_bunker(ctx, &r);
        }
    }
    free(scratch);
    scratch = fz_alloc(cap);
    st = sc_nip46_response_open(ctx, &resp, scratch, cap, &used, fz_id(3), fz_pub(0), SC_STR("i1"),
                                json, n);
    if (st == SC_OK || st == SC_ERR_NIP46_AUTH_URL || st == SC_ERR_SIGNER_REFUSED) {
        same_str(resp.id, SC_STR("i1"));
        FZ_REQUIRE(fz_inside(resp.result, scratch, used) || resp.result.len == 0);
    } else {
        FZ_REQUIRE(used == 0 && fz_all_zero(&resp, sizeof resp) &&
                   fz_all_zero_or(scratch, cap, FZ_CANARY));
    }
    free(scratch);
}

static void rpc_mode(sc_ctx *ctx, const uint8_t *p, size_t n)
{
    static const uint8_t nonce[32] = {7};
    uint8_t bunker_hex[64], client_hex[64];
    sc_str items[2][2];
    sc_tag tag[2];
    size_t len = 0, k;
    char *json;

    for (k = 0; k < 32; k++) {
        static const char digits[] = "0123456789abcdef";

        bunker_hex[2 * k] = (uint8_t)digits[fz_pub(0)[k] >> 4];
        bunker_hex[2 * k + 1] = (uint8_t)digits[fz_pub(0)[k] & 15];
        client_hex[2 * k] = (uint8_t)digits[fz_pub(3)[k] >> 4];
        client_hex[2 * k + 1] = (uint8_t)digits[fz_pub(3)[k] & 15];
    }
    items[0][0] = SC_STR("p");
    items[0][1] = (sc_str){(const char *)bunker_hex, 64};
    items[1][0] = SC_STR("p");
    items[1][1] = (sc_str){(const char *)client_hex, 64};
    tag[0] = (sc_tag){items[0], 2};
    tag[1] = (sc_tag){items[1], 2};
    json = fz_layer(ctx, p, n, 3, 0, SC_NIP46_KIND, 1700000000, &tag[0], 1, nonce, &len);
    if (json != NULL) {
        open_both(ctx, json, len, 1);
        free(json);
    }
    json = fz_layer(ctx, p, n, 0, 3, SC_NIP46_KIND, 1700000000, &tag[1], 1, nonce, &len);
    if (json != NULL) {
        open_both(ctx, json, len, 0);
        free(json);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t mode = fz_u8(&in);
    sc_ctx *ctx = fz_ctx(fz_u8(&in) % fz_backends());
    size_t n = 0;
    const uint8_t *p = fz_take(&in, in.n, &n);

    switch (mode % 3) {
    case 0:
        uri_mode(p, n);
        break;
    case 1:
        rpc_mode(ctx, p, n);
        break;
    default: {
        uint8_t *copy = fz_dup(p, n);

        open_both(ctx, (const char *)copy, n, 1);
        free(copy);
        break;
    }
    }
    return 0;
}
