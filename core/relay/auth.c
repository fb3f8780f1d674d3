/* NIP-42: relay URL normalisation, the kind 22242 AUTH event, and its relay-side check. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "util/utf8.h"

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Splits url into scheme (ws / wss), host, port digits and the rest; lowercases into out. */
static sc_status normalize(char *out, size_t cap, size_t *len, sc_str url)
{
    size_t i = 0, n = 0, host_at, host_end, port_at = 0, port_end = 0, rest;
    int secure;
    char scheme[6] = {0, 0, 0, 0, 0, 0};

    for (i = 0; i < 6 && i < url.len; i++) {
        scheme[i] = lower(url.ptr[i]);
    }
    if (url.len >= 5 && memcmp(scheme, "ws://", 5) == 0) {
        secure = 0;
        i = 5;
    } else if (url.len >= 6 && memcmp(scheme, "wss://", 6) == 0) {
        secure = 1;
        i = 6;
    } else {
        return SC_ERR_ENCODING;
    }
    host_at = i;
    while (i < url.len && url.ptr[i] != ':' && url.ptr[i] != '/' && url.ptr[i] != '?' &&
           url.ptr[i] != '#') {
        i++;
    }
    host_end = i;
    if (host_end == host_at) {
        return SC_ERR_ENCODING;
    }
    if (i < url.len && url.ptr[i] == ':') {
        port_at = ++i;
        while (i < url.len && url.ptr[i] >= '0' && url.ptr[i] <= '9') {
            i++;
        }
        port_end = i;
        if (port_end == port_at || port_end - port_at > 5 ||
            (i < url.len && url.ptr[i] != '/' && url.ptr[i] != '?' && url.ptr[i] != '#')) {
            return SC_ERR_ENCODING;
        }
    }
    rest = i;
#define PUT(c)                                                                                 \
    do {                                                                                       \
        if (out != NULL && n < cap) {                                                          \
            out[n] = (c);                                                                      \
        }                                                                                      \
        n++;                                                                                   \
    } while (0)
    {
        const char *s = secure ? "wss://" : "ws://";

        for (; *s != '\0'; s++) {
            PUT(*s);
        }
    }
    for (i = host_at; i < host_end; i++) {
        PUT(lower(url.ptr[i]));
    }
    if (port_end > port_at) {
        unsigned long port = 0;

        for (i = port_at; i < port_end; i++) {
            port = port * 10 + (unsigned long)(url.ptr[i] - '0');
        }
        if (port == 0 || port > 65535) {
            return SC_ERR_ENCODING;
        }
        if (port != (secure ? 443u : 80u)) {
            PUT(':');
            for (i = port_at; i < port_end; i++) {
                PUT(url.ptr[i]);
            }
        }
    }
    if (!(url.len - rest == 1 && url.ptr[rest] == '/')) {
        for (i = rest; i < url.len; i++) {
            PUT(url.ptr[i]);
        }
    }
#undef PUT
    *len = n;
    return SC_OK;
}

sc_status sc_relay_url_normalize(char *out, size_t out_cap, size_t *out_len, sc_str url)
{
    size_t need = 0;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if ((out == NULL && out_cap > 0) || (url.ptr == NULL && url.len > 0)) {
        return SC_ERR_ARG;
    }
    st = normalize(NULL, 0, &need, url);
    if (st != SC_OK) {
        return st;
    }
    if (need > out_cap) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    (void)normalize(out, out_cap, out_len, url);
    return SC_OK;
}

static const char k_relay[] = "relay";
static const char k_challenge[] = "challenge";

sc_status sc_relay_auth_sign_with_rand(sc_ctx *ctx, sc_relay_auth *a, const sc_identity *who,
                                       sc_str relay_url, sc_str challenge, int64_t created_at,
                                       const uint8_t aux[SC_AUX_RAND_BYTES])
{
    sc_status st;

    if (a == NULL) {
        return SC_ERR_ARG;
    }
    memset(a, 0, sizeof *a);
    if (ctx == NULL || who == NULL || aux == NULL || (relay_url.ptr == NULL && relay_url.len > 0) ||
        (challenge.ptr == NULL && challenge.len > 0)) {
        return SC_ERR_ARG;
    }
    if (relay_url.len == 0 || challenge.len == 0) {
        return SC_ERR_EMPTY;
    }
    a->items[0].ptr = k_relay;
    a->items[0].len = sizeof k_relay - 1;
    a->items[1] = relay_url;
    a->items[2].ptr = k_challenge;
    a->items[2].len = sizeof k_challenge - 1;
    a->items[3] = challenge;
    a->tags[0].items = &a->items[0];
    a->tags[0].n_items = 2;
    a->tags[1].items = &a->items[2];
    a->tags[1].n_items = 2;
    a->event.kind = SC_RELAY_KIND_AUTH;
    a->event.created_at = created_at;
    a->event.tags = a->tags;
    a->event.n_tags = 2;
    a->event.content.ptr = "";
    a->event.content.len = 0;
    a->event.flags = SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS |
                     SC_EVENT_HAS_CONTENT;
    st = sc_event_sign_with_rand(ctx, &a->event, who, aux);
    if (st != SC_OK) {
        memset(a, 0, sizeof *a);
    }
    return st;
}

sc_status sc_relay_auth_sign(sc_ctx *ctx, sc_relay_auth *a, const sc_identity *who,
                             sc_str relay_url, sc_str challenge, int64_t created_at)
{
    uint8_t aux[SC_AUX_RAND_BYTES];
    sc_status st;

    if (a == NULL) {
        return SC_ERR_ARG;
    }
    memset(a, 0, sizeof *a);
    if (ctx == NULL || who == NULL) {
        return SC_ERR_ARG;
    }
    if (relay_url.len == 0 || challenge.len == 0) {
        return (relay_url.ptr == NULL && relay_url.len > 0) ||
                       (challenge.ptr == NULL && challenge.len > 0)
                   ? SC_ERR_ARG
                   : SC_ERR_EMPTY;
    }
    st = sc_crypto_rng_fill(ctx, aux, sizeof aux);
    if (st == SC_OK) {
        st = sc_relay_auth_sign_with_rand(ctx, a, who, relay_url, challenge, created_at, aux);
    }
    sc_mem_wipe(aux, sizeof aux);
    return st;
}

/* The value of the first tag [name, value, ...], or NULL. */
static const sc_str *tag_value(const sc_event *ev, const char *name, size_t name_len)
{
    size_t i;

    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];

        if (t->n_items >= 2 && t->items[0].len == name_len &&
            memcmp(t->items[0].ptr, name, name_len) == 0) {
            return &t->items[1];
        }
    }
    return NULL;
}

/* Whether two URLs agree once normalised (both fit in the stack buffers, or they differ). */
static sc_status same_relay(sc_str a, sc_str b, int *same)
{
    char na[512], nb[512];
    size_t la = 0, lb = 0;
    sc_status st = sc_relay_url_normalize(na, sizeof na, &la, a);

    *same = 0;
    if (st != SC_OK) {
        return st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_TOO_LARGE : st;
    }
    if (sc_relay_url_normalize(nb, sizeof nb, &lb, b) != SC_OK) {
        return SC_OK; /* the tag does not normalise: not the same relay */
    }
    *same = la == lb && memcmp(na, nb, la) == 0;
    return SC_OK;
}

sc_status sc_relay_auth_verify(sc_ctx *ctx, const sc_event *ev, sc_str relay_url,
                               sc_str challenge, int64_t now, int64_t window)
{
    const sc_str *c, *r;
    int same = 0;
    sc_status st;
    int64_t d;

    if (ctx == NULL || ev == NULL || window < 0 || (relay_url.ptr == NULL && relay_url.len > 0) ||
        (challenge.ptr == NULL && challenge.len > 0) || (ev->tags == NULL && ev->n_tags > 0)) {
        return SC_ERR_ARG;
    }
    if (window == 0) {
        window = SC_RELAY_AUTH_WINDOW;
    }
    if (ev->kind != SC_RELAY_KIND_AUTH) {
        return SC_ERR_AUTH_KIND;
    }
    c = tag_value(ev, k_challenge, sizeof k_challenge - 1);
    if (c == NULL || challenge.len == 0 || c->len != challenge.len ||
        memcmp(c->ptr, challenge.ptr, challenge.len) != 0) {
        return SC_ERR_AUTH_CHALLENGE;
    }
    r = tag_value(ev, k_relay, sizeof k_relay - 1);
    st = same_relay(relay_url, r != NULL ? *r : relay_url, &same);
    if (st != SC_OK) {
        return st == SC_ERR_TOO_LARGE ? SC_ERR_AUTH_RELAY : st;
    }
    if (r == NULL || !same) {
        return SC_ERR_AUTH_RELAY;
    }
    d = ev->created_at > now ? ev->created_at - now : now - ev->created_at;
    if (ev->created_at < 0 || now < 0 || d > window) {
        return SC_ERR_AUTH_TIME;
    }
    return sc_event_verify(ctx, ev);
}
