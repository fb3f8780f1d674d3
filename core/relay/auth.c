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

/* A ws / wss URL in the pieces its normalised form is made of: the scheme, the host (written
 * lowercase), the port digits when not the scheme's default, and the rest (empty for "/"). */
typedef struct url_parts {
    int secure;
    sc_str host, port, rest;
} url_parts;

static int hex_or_colon(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
           c == '.';
}

/* Whether the byte at i of url ends the host or the port (or the text ends there). */
static int at_rest(sc_str url, size_t i)
{
    return i >= url.len || url.ptr[i] == '/' || url.ptr[i] == '?' || url.ptr[i] == '#';
}

static sc_status parse_url(url_parts *u, sc_str url)
{
    size_t i = 0, host_at, port_at = 0, port_end = 0;
    char scheme[6] = {0, 0, 0, 0, 0, 0};

    memset(u, 0, sizeof *u);
    for (i = 0; i < 6 && i < url.len; i++) {
        scheme[i] = lower(url.ptr[i]);
    }
    if (url.len >= 5 && memcmp(scheme, "ws://", 5) == 0) {
        i = 5;
    } else if (url.len >= 6 && memcmp(scheme, "wss://", 6) == 0) {
        u->secure = 1;
        i = 6;
    } else {
        return SC_ERR_ENCODING;
    }
    host_at = i;
    if (i < url.len && url.ptr[i] == '[') {
        /* an IPv6 literal (RFC 3986 IP-literal): hex digits, ':' and '.' up to ']' */
        for (i++; i < url.len && url.ptr[i] != ']'; i++) {
            if (!hex_or_colon(url.ptr[i])) {
                return SC_ERR_ENCODING;
            }
        }
        if (i >= url.len || i == host_at + 1) {
            return SC_ERR_ENCODING;
        }
        i++;
        if (!at_rest(url, i) && url.ptr[i] != ':') {
            return SC_ERR_ENCODING;
        }
    } else {
        while (!at_rest(url, i) && url.ptr[i] != ':') {
            i++;
        }
        if (i == host_at) {
            return SC_ERR_ENCODING;
        }
    }
    u->host.ptr = url.ptr + host_at;
    u->host.len = i - host_at;
    if (i < url.len && url.ptr[i] == ':') {
        unsigned long port = 0;
        size_t k;

        port_at = ++i;
        while (i < url.len && url.ptr[i] >= '0' && url.ptr[i] <= '9') {
            i++;
        }
        port_end = i;
        if (port_end == port_at || port_end - port_at > 5 || !at_rest(url, i)) {
            return SC_ERR_ENCODING;
        }
        for (k = port_at; k < port_end; k++) {
            port = port * 10 + (unsigned long)(url.ptr[k] - '0');
        }
        if (port == 0 || port > 65535) {
            return SC_ERR_ENCODING;
        }
        if (port != (u->secure ? 443u : 80u)) {
            u->port.ptr = url.ptr + port_at;
            u->port.len = port_end - port_at;
        }
    }
    if (!(url.len - i == 1 && url.ptr[i] == '/')) {
        u->rest.ptr = url.ptr + i;
        u->rest.len = url.len - i;
    }
    return SC_OK;
}

/* The normalised form of u into out (NULL: measure); *len its length either way. */
static void write_url(char *out, size_t cap, size_t *len, const url_parts *u)
{
    size_t n = 0, i;
    const char *s = u->secure ? "wss://" : "ws://";

#define PUT(c)                                                                                     \
    do {                                                                                           \
        if (out != NULL && n < cap) {                                                              \
            out[n] = (c);                                                                          \
        }                                                                                          \
        n++;                                                                                       \
    } while (0)
    for (; *s != '\0'; s++) {
        PUT(*s);
    }
    for (i = 0; i < u->host.len; i++) {
        PUT(lower(u->host.ptr[i]));
    }
    if (u->port.len > 0) {
        PUT(':');
        for (i = 0; i < u->port.len; i++) {
            PUT(u->port.ptr[i]);
        }
    }
    for (i = 0; i < u->rest.len; i++) {
        PUT(u->rest.ptr[i]);
    }
#undef PUT
    *len = n;
}

sc_status sc_relay_url_normalize(char *out, size_t out_cap, size_t *out_len, sc_str url)
{
    size_t need = 0;
    url_parts u;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if ((out == NULL && out_cap > 0) || (url.ptr == NULL && url.len > 0)) {
        return SC_ERR_ARG;
    }
    st = parse_url(&u, url);
    if (st != SC_OK) {
        return st;
    }
    write_url(NULL, 0, &need, &u);
    if (need > out_cap) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    write_url(out, out_cap, out_len, &u);
    return SC_OK;
}

static const char k_relay[] = "relay";
static const char k_challenge[] = "challenge";

sc_status sc_relay_auth_fill(sc_relay_auth *a, sc_str relay_url, sc_str challenge,
                             int64_t created_at)
{
    memset(a, 0, sizeof *a);
    if ((relay_url.ptr == NULL && relay_url.len > 0) ||
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
    a->event.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    return SC_OK;
}

sc_status sc_relay_auth_sign_with_rand(sc_ctx *ctx, sc_relay_auth *a, const sc_identity *who,
                                       sc_str relay_url, sc_str challenge, int64_t created_at,
                                       const uint8_t aux[SC_AUX_RAND_BYTES])
{
    sc_status st;

    if (a == NULL) {
        return SC_ERR_ARG;
    }
    memset(a, 0, sizeof *a);
    if (ctx == NULL || who == NULL || aux == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_relay_auth_fill(a, relay_url, challenge, created_at);
    if (st == SC_OK) {
        st = sc_event_sign_with_rand(ctx, &a->event, who, aux);
    }
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

static int same_str(sc_str a, sc_str b, int fold)
{
    size_t i;

    if (a.len != b.len) {
        return 0;
    }
    for (i = 0; i < a.len; i++) {
        if ((fold ? lower(a.ptr[i]) : a.ptr[i]) != (fold ? lower(b.ptr[i]) : b.ptr[i])) {
            return 0;
        }
    }
    return 1;
}

/* Whether two URLs agree once normalised, piece by piece (a host ends at the first ':', '/',
 * '?' or '#', so equal pieces and equal normalised texts are the same thing), at any length.
 * A b that does not normalise is not the same relay. */
static sc_status same_relay(sc_str a, sc_str b, int *same)
{
    url_parts ua, ub;
    sc_status st = parse_url(&ua, a);

    *same = 0;
    if (st != SC_OK) {
        return st;
    }
    if (parse_url(&ub, b) != SC_OK) {
        return SC_OK;
    }
    *same = ua.secure == ub.secure && same_str(ua.host, ub.host, 1) &&
            same_str(ua.port, ub.port, 0) && same_str(ua.rest, ub.rest, 0);
    return SC_OK;
}

sc_status sc_relay_auth_verify(sc_ctx *ctx, const sc_event *ev, sc_str relay_url, sc_str challenge,
                               int64_t now, int64_t window)
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
        return st;
    }
    if (r == NULL || !same) {
        return SC_ERR_AUTH_RELAY;
    }
    if (ev->created_at < 0 || now < 0) {
        return SC_ERR_AUTH_TIME;
    }
    d = ev->created_at > now ? ev->created_at - now : now - ev->created_at;
    if (d > window) {
        return SC_ERR_AUTH_TIME;
    }
    return sc_event_verify(ctx, ev);
}
