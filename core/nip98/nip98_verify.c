/* NIP-98 on the server's side: an Authorization header value taken apart (scheme, base64
 * padded or not, the event's JSON) and checked in the NIP's order, one status per check,
 * then authenticated. The event lands in the caller's scratch: the decoded JSON first, the
 * parse arena after it. */
#include <softchat/base64.h>
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip98.h>

#include <string.h>

#include "nip98/nip98_internal.h"
#include "util/range.h"

size_t sc_nip98_verify_scratch_max(size_t header_len)
{
    /* an unpadded token decodes to at most what it would with its padding added */
    size_t json = sc_base64_decode_max(sc_size_add(header_len, 3));
    size_t arena = sc_event_parse_arena_max(json);

    return arena == 0 ? 0 : sc_size_public(sc_size_add(json, arena));
}

static int is_ows(char c)
{
    return c == ' ' || c == '\t';
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* The token of a "Nostr <token>" value (spaces and tabs around it dropped), or
 * SC_ERR_NIP98_SCHEME. */
static sc_status take_token(const char *h, size_t n, const char **tok, size_t *tok_len)
{
    static const char scheme[] = "nostr";
    size_t i = 0, j;

    while (i < n && is_ows(h[i])) {
        i++;
    }
    while (n > i && is_ows(h[n - 1])) {
        n--;
    }
    if (n - i < sizeof scheme) { /* the scheme and at least one space */
        return SC_ERR_NIP98_SCHEME;
    }
    for (j = 0; j + 1 < sizeof scheme; j++) {
        if (lower(h[i + j]) != scheme[j]) {
            return SC_ERR_NIP98_SCHEME;
        }
    }
    i += sizeof scheme - 1;
    if (h[i] != ' ') {
        return SC_ERR_NIP98_SCHEME; /* "Nostrx...", or no token at all */
    }
    while (i < n && h[i] == ' ') {
        i++;
    }
    *tok = h + i;
    *tok_len = n - i;
    return SC_OK;
}

/* Strict standard base64 with or without its final padding, into out[0..*out_len). */
static sc_status decode_token(uint8_t *out, size_t cap, size_t *out_len, const char *t, size_t n)
{
    size_t rem = n % 4, main = n - rem, got = 0, tail_got = 0;
    char quad[4];
    sc_status st;

    *out_len = 0;
    if (rem == 1 || (rem != 0 && main != 0 && t[main - 1] == '=')) {
        return SC_ERR_BASE64; /* a lone character, or text after the padding */
    }
    st = sc_base64_decode(out, cap, &got, t, main);
    if (st != SC_OK || rem == 0) {
        *out_len = got;
        return st;
    }
    memcpy(quad, t + main, rem);
    memset(quad + rem, '=', 4 - rem);
    st = sc_base64_decode(out + got, cap - got, &tail_got, quad, 4);
    *out_len = st == SC_OK ? got + tail_got : 0;
    return st;
}

const sc_str *sc_nip98_unique_tag(const sc_event *ev, const char *name, size_t name_len)
{
    const sc_str *found = NULL;
    size_t i;

    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];

        if (t->items[0].len == name_len && memcmp(t->items[0].ptr, name, name_len) == 0) {
            if (found != NULL || t->n_items < 2) {
                return NULL;
            }
            found = &t->items[1];
        }
    }
    return found;
}

int sc_nip98_no_tag(const sc_event *ev, const char *name, size_t name_len)
{
    size_t i;

    for (i = 0; i < ev->n_tags; i++) {
        if (ev->tags[i].items[0].len == name_len &&
            memcmp(ev->tags[i].items[0].ptr, name, name_len) == 0) {
            return 0;
        }
    }
    return 1;
}

static int same_folded(sc_str a, sc_str b)
{
    size_t i;

    if (a.len != b.len) {
        return 0;
    }
    for (i = 0; i < a.len; i++) {
        if (lower(a.ptr[i]) != lower(b.ptr[i])) {
            return 0;
        }
    }
    return 1;
}

/* NIP-98's checks of an event, in its order (kind, time, u, method, payload). */
static sc_status check_claims(const sc_event *ev, const sc_nip98_request *req, int64_t now,
                              int64_t window)
{
    const sc_str *u, *m, *p;
    uint8_t hash[SC_SHA256_BYTES];
    uint64_t d;

    if (ev->kind != SC_NIP98_KIND) {
        return SC_ERR_NIP98_KIND;
    }
    /* |created_at - now| in 64 bits: created_at >= 0 (the parser's rule), now any value */
    d = ev->created_at >= now ? (uint64_t)ev->created_at - (uint64_t)now
                              : (uint64_t)now - (uint64_t)ev->created_at;
    if (d > (uint64_t)window) {
        return SC_ERR_NIP98_TIME;
    }
    u = SC_NIP98_UNIQUE_TAG(ev, SC_NIP98_TAG_U);
    if (u == NULL || u->len != req->url.len || memcmp(u->ptr, req->url.ptr, u->len) != 0) {
        return SC_ERR_NIP98_URL;
    }
    m = SC_NIP98_UNIQUE_TAG(ev, SC_NIP98_TAG_METHOD);
    if (m == NULL || !same_folded(*m, req->method)) {
        return SC_ERR_NIP98_METHOD;
    }
    if (req->payload_sha256 != NULL) {
        p = SC_NIP98_UNIQUE_TAG(ev, SC_NIP98_TAG_PAYLOAD);
        if (p == NULL ||
            sc_hex_decode_fixed(hash, sizeof hash, p->ptr, p->len, SC_HEX_ANY_CASE) != SC_OK ||
            memcmp(hash, req->payload_sha256, sizeof hash) != 0) {
            return SC_ERR_NIP98_PAYLOAD;
        }
    }
    return SC_OK;
}

static int request_ok(const sc_nip98_request *req)
{
    return req != NULL && req->url.ptr != NULL && req->url.len != 0 && req->method.ptr != NULL &&
           req->method.len != 0;
}

sc_status sc_nip98_verify(sc_ctx *ctx, sc_event *ev, void *scratch, size_t scratch_cap,
                          size_t *scratch_used, const char *header, size_t header_len,
                          const sc_nip98_request *req, int64_t now, int64_t window)
{
    uint8_t *buf = scratch;
    const char *tok = NULL;
    size_t need, json_len = 0, arena_used = 0, tok_len = 0;
    sc_status st;

    if (scratch_used != NULL) {
        *scratch_used = 0;
    }
    if (ev == NULL || scratch_used == NULL) {
        return SC_ERR_ARG;
    }
    memset(ev, 0, sizeof *ev);
    if (ctx == NULL || (header == NULL && header_len != 0) ||
        (scratch == NULL && scratch_cap != 0) || !request_ok(req) || window < 0) {
        return SC_ERR_ARG;
    }
    need = sc_nip98_verify_scratch_max(header_len);
    if (need == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if (scratch_cap < need) {
        *scratch_used = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = take_token(header, header_len, &tok, &tok_len);
    if (st == SC_OK) {
        st = decode_token(buf, scratch_cap, &json_len, tok, tok_len);
    }
    if (st == SC_OK) {
        st = sc_event_parse(ev, buf + json_len, scratch_cap - json_len, &arena_used,
                            (const char *)buf, json_len, NULL);
    }
    if (st == SC_OK) {
        st = check_claims(ev, req, now, window != 0 ? window : SC_NIP98_WINDOW_DEFAULT);
    }
    if (st == SC_OK) {
        st = sc_event_verify(ctx, ev);
    }
    if (st != SC_OK) {
        memset(ev, 0, sizeof *ev);
        sc_mem_wipe(scratch, need);
        return st;
    }
    *scratch_used = json_len + arena_used;
    return SC_OK;
}
