/* NIP-46 URIs: bunker://<remote signer key>?relay=...&secret=... and
 * nostrconnect://<client key>?relay=...&secret=...&perms=...&name=...&url=...&image=...,
 * parsed (values percent-decoded strictly, relays normalised) and built (values
 * percent-encoded). */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip46.h>
#include <softchat/relay.h>

#include <string.h>

#include "nip46/nip46_internal.h"
#include "util/utf8.h"

#define HEX_KEY_LEN (2u * SC_PUBKEY_BYTES)

static const char k_bunker[] = "bunker://", k_connect[] = "nostrconnect://";

/* The parameters read besides relay, in the order they are written. */
enum {
    P_SECRET,
    P_PERMS,
    P_NAME,
    P_URL,
    P_IMAGE,
    N_PARAMS
};
static const char *const k_params[N_PARAMS] = {"secret", "perms", "name", "url", "image"};

static sc_str *param_slot(sc_nip46_uri *u, int i)
{
    sc_str *slots[N_PARAMS] = {&u->secret, &u->perms, &u->name, &u->url, &u->image};

    return slots[i];
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static int prefix_ci(const char *s, size_t len, const char *p)
{
    size_t i, n = strlen(p);

    if (len < n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        char c = s[i];

        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != p[i]) {
            return 0;
        }
    }
    return 1;
}

/* Percent-decodes s[0..len) to dst[0..cap) (never longer than len): SC_OK;
 * SC_ERR_NIP46_URI (a bad escape, a raw byte outside printable ASCII); SC_ERR_TOO_LARGE (over
 * cap); SC_ERR_UTF8 (the result). */
static sc_status pct_decode(char *dst, size_t cap, size_t *out_len, const char *s, size_t len)
{
    size_t i = 0, n = 0;

    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        int hi, lo;

        if (n == cap) {
            return SC_ERR_TOO_LARGE;
        }
        if (c == '%') {
            if (len - i < 3 || (hi = hex_val(s[i + 1])) < 0 || (lo = hex_val(s[i + 2])) < 0) {
                return SC_ERR_NIP46_URI;
            }
            dst[n++] = (char)(hi * 16 + lo);
            i += 3;
            continue;
        }
        if (c <= 0x20 || c >= 0x7f) {
            return SC_ERR_NIP46_URI;
        }
        dst[n++] = c == '+' ? ' ' : (char)c;
        i++;
    }
    *out_len = n;
    return sc_utf8_check(dst, n) == SC_OK ? SC_OK : SC_ERR_UTF8;
}

/* Appends relay value v (decoded at buf + *used, then normalised in place), once. */
static sc_status add_relay(sc_nip46_uri *u, char *buf, size_t *used, const char *v, size_t vlen)
{
    char tmp[SC_NIP46_URI_MAX_RELAY_LEN], *dst = buf + *used;
    size_t n = 0, m = 0, i;
    sc_status st = pct_decode(tmp, sizeof tmp, &n, v, vlen);

    if (st != SC_OK) {
        return st;
    }
    /* the normalised form is never longer than the decoded one, which is never longer than
     * the value as written: it fits where the value's bytes were counted */
    if (sc_relay_url_normalize(dst, n, &m, (sc_str){tmp, n}) != SC_OK) {
        return SC_ERR_NIP46_URI;
    }
    for (i = 0; i < u->n_relays; i++) {
        if (u->relays[i].len == m && memcmp(u->relays[i].ptr, dst, m) == 0) {
            return SC_OK;
        }
    }
    if (u->n_relays == SC_NIP46_URI_MAX_RELAYS) {
        return SC_ERR_TOO_LARGE;
    }
    u->relays[u->n_relays++] = (sc_str){dst, m};
    *used += m;
    return SC_OK;
}

/* One name=value pair of the query. */
static sc_status add_param(sc_nip46_uri *u, char *buf, size_t *used, const char *s, size_t len,
                           int *seen)
{
    const char *eq = memchr(s, '=', len);
    size_t nlen = eq != NULL ? (size_t)(eq - s) : len;
    const char *v = eq != NULL ? eq + 1 : s + len;
    size_t vlen = len - nlen - (eq != NULL ? 1u : 0u), n = 0;
    int i;
    sc_status st;

    if (nlen == 5 && memcmp(s, "relay", 5) == 0) {
        return add_relay(u, buf, used, v, vlen);
    }
    for (i = 0; i < N_PARAMS; i++) {
        if (strlen(k_params[i]) == nlen && memcmp(s, k_params[i], nlen) == 0) {
            break;
        }
    }
    if (i == N_PARAMS || (i != P_SECRET && u->kind == SC_NIP46_URI_BUNKER)) {
        return SC_OK; /* unknown: skipped */
    }
    if (seen[i]) {
        return SC_ERR_NIP46_URI;
    }
    seen[i] = 1;
    st = pct_decode(buf + *used, vlen, &n, v, vlen);
    if (st == SC_OK) {
        *param_slot(u, i) = (sc_str){buf + *used, n};
        *used += n;
    }
    return st;
}

static sc_status parse_query(sc_nip46_uri *u, char *buf, size_t *used, const char *q, size_t len)
{
    int seen[N_PARAMS] = {0};
    size_t i = 0;

    while (i < len) {
        const char *amp = memchr(q + i, '&', len - i);
        size_t end = amp != NULL ? (size_t)(amp - q) : len;

        if (end > i) {
            sc_status st = add_param(u, buf, used, q + i, end - i, seen);

            if (st != SC_OK) {
                return st;
            }
        }
        i = end + 1;
    }
    return SC_OK;
}

static sc_status parse_body(sc_nip46_uri *u, char *buf, size_t *used, const char *uri,
                            size_t uri_len)
{
    size_t skip;
    sc_status st;

    if (prefix_ci(uri, uri_len, k_bunker)) {
        u->kind = SC_NIP46_URI_BUNKER;
        skip = sizeof k_bunker - 1;
    } else if (prefix_ci(uri, uri_len, k_connect)) {
        u->kind = SC_NIP46_URI_NOSTRCONNECT;
        skip = sizeof k_connect - 1;
    } else {
        return SC_ERR_NIP46_URI;
    }
    if (memchr(uri, '#', uri_len) != NULL || uri_len - skip < HEX_KEY_LEN ||
        (uri_len - skip > HEX_KEY_LEN && uri[skip + HEX_KEY_LEN] != '?') ||
        sc_hex_decode_fixed(u->pubkey, SC_PUBKEY_BYTES, uri + skip, HEX_KEY_LEN, SC_HEX_ANY_CASE) !=
            SC_OK) {
        return SC_ERR_NIP46_URI;
    }
    skip += HEX_KEY_LEN;
    if (skip < uri_len) {
        st = parse_query(u, buf, used, uri + skip + 1, uri_len - skip - 1);
        if (st != SC_OK) {
            return st;
        }
    }
    if (u->n_relays == 0) {
        return SC_ERR_NIP46_URI;
    }
    if (u->kind == SC_NIP46_URI_NOSTRCONNECT && u->secret.len == 0) {
        return SC_ERR_NIP46_SECRET;
    }
    return SC_OK;
}

sc_status sc_nip46_uri_parse(sc_nip46_uri *u, char *buf, size_t buf_cap, size_t *buf_used,
                             const char *uri, size_t uri_len)
{
    size_t used = 0;
    sc_status st;

    if (buf_used != NULL) {
        *buf_used = 0;
    }
    if (u == NULL || buf_used == NULL || (uri == NULL && uri_len > 0) ||
        (buf == NULL && buf_cap > 0)) {
        if (u != NULL) {
            memset(u, 0, sizeof *u);
        }
        return SC_ERR_ARG;
    }
    memset(u, 0, sizeof *u);
    if (uri_len > SC_NIP46_URI_MAX_LEN) {
        return SC_ERR_TOO_LARGE;
    }
    if (buf_cap < uri_len) {
        *buf_used = uri_len;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = parse_body(u, buf, &used, uri, uri_len);
    if (st != SC_OK) {
        sc_mem_wipe(buf, uri_len);
        sc_mem_wipe(u, sizeof *u);
        return st;
    }
    *buf_used = used;
    return SC_OK;
}

/* ---- building ------------------------------------------------------------------------------ */

typedef struct uri_out {
    char *p;
    size_t cap;
    size_t n;
} uri_out;

static void put(uri_out *o, const char *s, size_t n)
{
    if (o->p != NULL && o->n + n <= o->cap) {
        memcpy(o->p + o->n, s, n);
    }
    o->n += n;
}

static void put_value(uri_out *o, const char *name, sc_str v, int *first)
{
    static const char digits[] = "0123456789ABCDEF";
    size_t i;

    put(o, *first ? "?" : "&", 1);
    *first = 0;
    put(o, name, strlen(name));
    put(o, "=", 1);
    for (i = 0; i < v.len; i++) {
        unsigned char c = (unsigned char)v.ptr[i];

        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            put(o, (const char *)&v.ptr[i], 1);
        } else {
            char e[3] = {'%', digits[c >> 4], digits[c & 15]};

            put(o, e, 3);
        }
    }
}

static sc_status check_build(const sc_nip46_uri *u)
{
    const sc_str *all[N_PARAMS + SC_NIP46_URI_MAX_RELAYS];
    size_t i, n = 0;

    if (u->kind != SC_NIP46_URI_BUNKER && u->kind != SC_NIP46_URI_NOSTRCONNECT) {
        return SC_ERR_NIP46_URI;
    }
    if (u->n_relays == 0 || u->n_relays > SC_NIP46_URI_MAX_RELAYS) {
        return SC_ERR_NIP46_URI;
    }
    for (i = 0; i < N_PARAMS; i++) {
        all[n++] = param_slot((sc_nip46_uri *)(uintptr_t)u, (int)i);
    }
    for (i = 0; i < u->n_relays; i++) {
        all[n++] = &u->relays[i];
    }
    for (i = 0; i < n; i++) {
        if (all[i]->ptr == NULL && all[i]->len > 0) {
            return SC_ERR_ARG;
        }
        if (sc_utf8_check(all[i]->ptr, all[i]->len) != SC_OK) {
            return SC_ERR_UTF8;
        }
    }
    if (u->kind == SC_NIP46_URI_NOSTRCONNECT && u->secret.len == 0) {
        return SC_ERR_NIP46_SECRET;
    }
    return SC_OK;
}

sc_status sc_nip46_uri_build(char *out, size_t out_cap, size_t *out_len, const sc_nip46_uri *u)
{
    uri_out o = {NULL, 0, 0};
    char hex[HEX_KEY_LEN];
    size_t i;
    int first = 1, last = u != NULL && u->kind == SC_NIP46_URI_NOSTRCONNECT ? N_PARAMS : 1;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || u == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    st = check_build(u);
    if (st != SC_OK) {
        return st;
    }
    nip46_hex(hex, u->pubkey, SC_PUBKEY_BYTES);
    for (int pass = 0; pass < 2; pass++) {
        o.n = 0;
        if (u->kind == SC_NIP46_URI_BUNKER) {
            put(&o, k_bunker, sizeof k_bunker - 1);
        } else {
            put(&o, k_connect, sizeof k_connect - 1);
        }
        put(&o, hex, sizeof hex);
        for (i = 0; i < u->n_relays; i++) {
            put_value(&o, "relay", u->relays[i], &first);
        }
        for (i = 0; i < (size_t)last; i++) {
            const sc_str *v = param_slot((sc_nip46_uri *)(uintptr_t)u, (int)i);

            if (v->len > 0) {
                put_value(&o, k_params[i], *v, &first);
            }
        }
        if (pass == 0 && o.n > out_cap) {
            *out_len = o.n;
            return SC_ERR_BUFFER_TOO_SMALL;
        }
        o.p = out;
        o.cap = out_cap;
        first = 1;
    }
    *out_len = o.n;
    return SC_OK;
}
