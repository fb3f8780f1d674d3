/* NIP-98 as a server meets it: Authorization values from anyone. Input: a mode byte
 * (data[0] % 3), a backend selector, then the mode's bytes.
 *   0 raw:    the rest is a header value, checked for the fixed request (with the body hash
 *             required when bit 2 of the mode byte is set).
 *   1 event:  the rest describes an event signed by a fixed identity: kind selector, a
 *             created_at offset, then "name=value" tags separated by newlines; it travels as
 *             "Nostr <base64>", padded or not (bit 3), so the checks after the signature run.
 *   2 sign:   the rest is a URL and a method (split at the first newline) to sign a header
 *             for, which must then verify for that request.
 * Checks: sc_nip98_verify returns only its documented statuses; on failure the event is
 * zeroed, *scratch_used is 0 and the scratch it was given holds only zero bytes; on success
 * the event's views lie in the scratch, within *scratch_used bytes, its kind is 27235, its
 * created_at within the window, its u tag the URL, and it verifies; a scratch one byte below
 * the bound is SC_ERR_BUFFER_TOO_SMALL with nothing written. A header sc_nip98_sign wrote is
 * exactly sc_nip98_sign_len bytes and verifies for its request. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

#define NOW_S 1700000000
#define URL "https://a.example/up?x=1"
#define METHOD "POST"

static uint8_t body_hash[32];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    FZ_REQUIRE(sc_crypto_sha256(fz_ctx(0), body_hash, (const uint8_t *)"{}", 2) == SC_OK);
    return 0;
}

/* The value of the first tag named name of ev, or an empty view. */
static sc_str tag_value(const sc_event *ev, const char *name)
{
    sc_str none = {"", 0};
    size_t i;

    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];

        if (t->n_items >= 2 && t->items[0].len == strlen(name) &&
            memcmp(t->items[0].ptr, name, t->items[0].len) == 0) {
            return t->items[1];
        }
    }
    return none;
}

/* Verifies h[0..n) for req on ctx and checks every invariant of the result. */
static void check_verify(sc_ctx *ctx, const char *h, size_t n, const sc_nip98_request *req)
{
    size_t need = sc_nip98_verify_scratch_max(n), used = 77, i;
    uint8_t *scratch, *hdr = fz_dup(h, n);
    sc_event ev;
    sc_status st;

    if (need == 0) {
        free(hdr);
        return;
    }
    scratch = fz_alloc(need);
    /* below the bound: the bound, nothing written */
    st = sc_nip98_verify(ctx, &ev, scratch, need - 1, &used, (const char *)hdr, n, req, NOW_S, 0);
    FZ_REQUIRE(st == SC_ERR_BUFFER_TOO_SMALL && used == need);
    FZ_REQUIRE(fz_all_equal(scratch, need, FZ_CANARY));
    st = sc_nip98_verify(ctx, &ev, scratch, need, &used, (const char *)hdr, n, req, NOW_S, 0);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_NIP98_SCHEME, SC_ERR_BASE64, SC_ERR_JSON, SC_ERR_UTF8,
                 SC_ERR_EVENT_FIELD, SC_ERR_EVENT_RANGE, SC_ERR_TOO_LARGE, SC_ERR_NIP98_KIND,
                 SC_ERR_NIP98_TIME, SC_ERR_NIP98_URL, SC_ERR_NIP98_METHOD, SC_ERR_NIP98_PAYLOAD,
                 SC_ERR_ID_MISMATCH, SC_ERR_INVALID_SIG);
    if (st != SC_OK) {
        FZ_REQUIRE(used == 0 && ev.kind == 0 && ev.n_tags == 0 && ev.tags == NULL);
        FZ_REQUIRE(fz_all_zero(scratch, need));
    } else {
        sc_str u = tag_value(&ev, "u");

        FZ_REQUIRE(used > 0 && used <= need);
        FZ_REQUIRE(ev.kind == SC_NIP98_KIND);
        FZ_REQUIRE(ev.created_at >= NOW_S - SC_NIP98_WINDOW_DEFAULT &&
                   ev.created_at <= NOW_S + SC_NIP98_WINDOW_DEFAULT);
        FZ_REQUIRE(fz_same_str(u, req->url));
        FZ_REQUIRE(fz_inside(ev.content, scratch, used));
        for (i = 0; i < ev.n_tags; i++) {
            size_t k;

            FZ_REQUIRE((const uint8_t *)ev.tags >= scratch &&
                       (const uint8_t *)(ev.tags + ev.n_tags) <= scratch + used);
            for (k = 0; k < ev.tags[i].n_items; k++) {
                FZ_REQUIRE(fz_inside(ev.tags[i].items[k], scratch, used));
            }
        }
        FZ_REQUIRE(sc_event_verify(ctx, &ev) == SC_OK);
    }
    free(scratch);
    free(hdr);
}

static sc_nip98_request request(int with_body)
{
    sc_nip98_request r;

    r.url = SC_STR(URL);
    r.method = SC_STR(METHOD);
    r.payload_sha256 = with_body ? body_hash : NULL;
    return r;
}

/* Mode 1: an event from the input's description, signed and carried as a header. */
static void event_mode(sc_ctx *ctx, fz_in *in, int padded, int with_body)
{
    static const uint32_t kinds[4] = {SC_NIP98_KIND, SC_NIP98_KIND, 1, 22242};
    sc_nip98_request req = request(with_body);
    sc_str items[8][2];
    sc_tag tags[8];
    sc_event ev;
    uint32_t kind = kinds[fz_u8(in) % 4];
    int64_t at = NOW_S + (int8_t)fz_u8(in);
    size_t len = 0, n_tags = 0, rest = 0, b64 = 0, i = 0;
    const uint8_t *t = fz_take(in, in->n, &rest);
    char *json, *h;

    while (i < rest && n_tags < 8) {
        size_t start = i, eq = 0;

        while (i < rest && t[i] != '\n') {
            if (t[i] == '=' && eq == 0) {
                eq = i;
            }
            i++;
        }
        if (eq != 0) {
            items[n_tags][0].ptr = (const char *)t + start;
            items[n_tags][0].len = eq - start;
            items[n_tags][1].ptr = (const char *)t + eq + 1;
            items[n_tags][1].len = i - eq - 1;
            tags[n_tags].items = items[n_tags];
            tags[n_tags].n_items = 2;
            n_tags++;
        }
        i++;
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.created_at = at;
    ev.tags = n_tags != 0 ? tags : NULL;
    ev.n_tags = n_tags;
    ev.content = SC_STR("");
    ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    json = fz_signed_json(ctx, &ev, 1, &len);
    if (json == NULL) {
        return; /* an invalid event (a tag that is not UTF-8): nothing to carry */
    }
    h = (char *)fz_alloc(6 + sc_base64_encode_len(len));
    memcpy(h, "Nostr ", 6);
    FZ_REQUIRE(sc_base64_encode(h + 6, sc_base64_encode_len(len), &b64, (const uint8_t *)json,
                                len) == SC_OK);
    while (!padded && b64 > 0 && h[6 + b64 - 1] == '=') {
        b64--;
    }
    check_verify(ctx, h, 6 + b64, &req);
    free(h);
    free(json);
}

/* Mode 2: a header signed for the input's URL and method must verify for them. */
static void sign_mode(sc_ctx *ctx, fz_in *in)
{
    static const uint8_t aux[32] = {1};
    size_t rest = 0, i = 0, need, got = 0;
    const uint8_t *t = fz_take(in, in->n, &rest);
    sc_nip98_request req;
    sc_status st;
    char *out;

    while (i < rest && t[i] != '\n') {
        i++;
    }
    req.url.ptr = (const char *)t;
    req.url.len = i;
    req.method.ptr = i < rest ? (const char *)t + i + 1 : "";
    req.method.len = i < rest ? rest - i - 1 : 0;
    req.payload_sha256 = rest % 2 ? body_hash : NULL;
    need = sc_nip98_sign_len(&req, NOW_S);
    out = (char *)fz_alloc(need + 1);
    st = sc_nip98_sign_with_rand(ctx, out, need, &got, fz_id(1), &req, NOW_S, aux);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_EMPTY, SC_ERR_UTF8, SC_ERR_BUFFER_TOO_SMALL);
    FZ_REQUIRE((st == SC_OK) == (need != 0));
    if (st == SC_OK) {
        FZ_REQUIRE(got == need);
        check_verify(ctx, out, got, &req);
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t mode = fz_u8(&in);
    sc_ctx *ctx = fz_ctx(fz_u8(&in) % fz_backends());
    sc_nip98_request req = request((mode >> 2) & 1);
    size_t n = 0;
    const uint8_t *h;

    switch (mode % 3) {
    case 0:
        h = fz_take(&in, in.n, &n);
        check_verify(ctx, (const char *)h, n, &req);
        break;
    case 1:
        event_mode(ctx, &in, (mode >> 3) & 1, (mode >> 2) & 1);
        break;
    default:
        sign_mode(ctx, &in);
        break;
    }
    return 0;
}
