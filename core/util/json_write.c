/* The JSON writer: JSON.stringify's string escaping over a buffer, a counter or SHA-256. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/hex.h>

#include <string.h>

#include "util/json_write.h"

void sc_jw_init_buf(sc_jw *w, char *out, size_t cap)
{
    memset(w, 0, offsetof(sc_jw, stage));
    w->out = out;
    w->cap = out != NULL ? cap : 0;
}

void sc_jw_init_hash(sc_jw *w, sc_ctx *ctx, sc_sha256_state *sha)
{
    memset(w, 0, offsetof(sc_jw, stage));
    w->ctx = ctx;
    w->sha = sha;
}

sc_status sc_jw_flush(sc_jw *w)
{
    if (w->st == SC_OK && w->ctx != NULL && w->staged != 0) {
        w->st = sc_crypto_sha256_update(w->ctx, w->sha, w->stage, w->staged);
        w->staged = 0;
    }
    return w->st;
}

void sc_jw_raw(sc_jw *w, const char *s, size_t n)
{
    if (w->st != SC_OK || n == 0) {
        return;
    }
    if (w->ctx != NULL) {
        if (n > SC_JW_STAGE - w->staged) {
            if (sc_jw_flush(w) != SC_OK) {
                return;
            }
            if (n >= SC_JW_STAGE) { /* long verbatim runs bypass the stage */
                w->st = sc_crypto_sha256_update(w->ctx, w->sha, (const uint8_t *)s, n);
                w->len += n;
                return;
            }
        }
        memcpy(w->stage + w->staged, s, n);
        w->staged += n;
    } else if (w->out != NULL) {
        if (n > w->cap - w->len) {
            w->st = SC_ERR_BUFFER_TOO_SMALL;
            return;
        }
        memcpy(w->out + w->len, s, n);
    } else if (n > (size_t)-1 - w->len) {
        w->st = SC_ERR_TOO_LARGE; /* the count itself would overflow */
        return;
    }
    w->len += n;
}

/* Bytes that JSON.stringify escapes: the C0 controls, '"' and '\\'. */
static int needs_escape(uint8_t c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

/* The escape of c (one that needs_escape) into esc; returns its length, 2 or 6. */
static size_t escape_of(uint8_t c, char esc[6])
{
    static const char hex[] = "0123456789abcdef";
    static const char short_esc[7][2] = {
        {'"', '"'}, {'\\', '\\'}, {'\n', 'n'}, {'\r', 'r'}, {'\t', 't'}, {'\b', 'b'}, {'\f', 'f'},
    };
    size_t k;

    esc[0] = '\\';
    for (k = 0; k < sizeof short_esc / sizeof short_esc[0]; k++) {
        if ((uint8_t)short_esc[k][0] == c) {
            esc[1] = short_esc[k][1];
            return 2;
        }
    }
    esc[1] = 'u';
    esc[2] = '0';
    esc[3] = '0';
    esc[4] = hex[c >> 4];
    esc[5] = hex[c & 15];
    return 6;
}

void sc_jw_string(sc_jw *w, const char *s, size_t n)
{
    size_t i = 0, run;
    char esc[6];

    sc_jw_raw(w, "\"", 1);
    while (i < n && w->st == SC_OK) {
        for (run = i; run < n && !needs_escape((uint8_t)s[run]); run++) {
        }
        sc_jw_raw(w, s + i, run - i);
        if (run == n) {
            break;
        }
        sc_jw_raw(w, esc, escape_of((uint8_t)s[run], esc));
        i = run + 1;
    }
    sc_jw_raw(w, "\"", 1);
}

void sc_jw_u64(sc_jw *w, uint64_t v)
{
    char buf[20];
    size_t i = sizeof buf;

    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    sc_jw_raw(w, buf + i, sizeof buf - i);
}

void sc_jw_hex(sc_jw *w, const uint8_t *p, size_t n)
{
    char buf[2 + 2 * 64];
    size_t len = 0;

    if (w->st != SC_OK) {
        return;
    }
    if (n > 64 || sc_hex_encode(buf + 1, sizeof buf - 2, &len, p, n) != SC_OK) {
        w->st = SC_ERR_INTERNAL;
        return;
    }
    buf[0] = '"';
    buf[len + 1] = '"';
    sc_jw_raw(w, buf, len + 2);
}
