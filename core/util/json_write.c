/* The JSON writer: JSON.stringify's string escaping over a buffer, a counter or a sink.
 *
 * Every piece is written straight to where it goes (the stage in sink mode, the caller's
 * buffer in buffer mode) through room(): the fast path of event ids and serialization, which
 * would otherwise pay a call and a copy per piece. Strings are scanned and escaped by
 * util/json_escape.c. */
#include <softchat/mem.h>
#include <softchat/hex.h>

#include <string.h>

#include "util/json_escape.h"
#include "util/json_write.h"

void sc_jw_init_buf(sc_jw *w, char *out, size_t cap)
{
    memset(w, 0, offsetof(sc_jw, stage));
    w->out = out;
    w->cap = out != NULL ? cap : 0;
}

void sc_jw_init_sink(sc_jw *w, sc_jw_sink_fn sink, void *arg)
{
    memset(w, 0, offsetof(sc_jw, stage));
    w->sink = sink;
    w->sink_arg = arg;
}

sc_status sc_jw_flush(sc_jw *w)
{
    if (w->st == SC_OK && w->sink != NULL && w->staged != 0) {
        if (w->staged > w->stage_used) {
            w->stage_used = w->staged;
        }
        w->st = w->sink(w->sink_arg, w->stage, w->staged);
        w->staged = 0;
    }
    return w->st;
}

/* Where the next n bytes (n <= SC_JW_STAGE) go: in the stage (flushed first when they do not
 * fit) or in the buffer. NULL when counting, or on a failure (recorded). */
static uint8_t *room(sc_jw *w, size_t n)
{
    if (w->st != SC_OK) {
        return NULL;
    }
    if (w->sink != NULL) {
        if (n > SC_JW_STAGE - w->staged && sc_jw_flush(w) != SC_OK) {
            return NULL;
        }
        return w->stage + w->staged;
    }
    if (w->out != NULL) {
        if (n > w->cap - w->len) {
            w->st = SC_ERR_BUFFER_TOO_SMALL;
            return NULL;
        }
        return (uint8_t *)w->out + w->len;
    }
    return NULL;
}

/* Accounts for n bytes: written at room()'s pointer, or only counted. */
static void wrote(sc_jw *w, size_t n)
{
    if (w->sink != NULL) {
        w->staged += n;
    } else if (w->out == NULL && n > (size_t)-1 - w->len) {
        w->st = SC_ERR_TOO_LARGE; /* the count itself would overflow */
        return;
    }
    w->len += n;
}

/* Whether w only counts (no destination). */
static int counting(const sc_jw *w)
{
    return w->sink == NULL && w->out == NULL;
}

void sc_jw_raw(sc_jw *w, const char *s, size_t n)
{
    uint8_t *p;

    if (w->st != SC_OK || n == 0) {
        return;
    }
    if (w->sink != NULL && n >= SC_JW_STAGE) { /* long verbatim runs bypass the stage */
        if (sc_jw_flush(w) == SC_OK) {
            w->st = w->sink(w->sink_arg, (const uint8_t *)s, n);
            w->len += n;
        }
        return;
    }
    p = room(w, n);
    if (p != NULL) {
        memcpy(p, s, n);
    }
    if (p != NULL || (w->st == SC_OK && counting(w))) {
        wrote(w, n);
    }
}

void sc_jw_string(sc_jw *w, const char *s, size_t n)
{
    int bad = 0;
    size_t i = 0, run;
    char esc[6];
    uint8_t *p;

    if (w->st != SC_OK) {
        return;
    }
    run = sc_json_plain_len(s, n, &bad);
    if (bad) {
        w->st = SC_ERR_UTF8;
        return;
    }
    if (run == n && n <= SC_JW_STAGE - 2) { /* nothing to escape: one piece */
        p = room(w, n + 2);
        if (p != NULL) {
            p[0] = '"';
            if (n != 0) {
                memcpy(p + 1, s, n);
            }
            p[n + 1] = '"';
        }
        if (p != NULL || (w->st == SC_OK && counting(w))) {
            wrote(w, n + 2);
        }
        return;
    }
    sc_jw_raw(w, "\"", 1);
    while (w->st == SC_OK) {
        sc_jw_raw(w, s + i, run - i);
        if (run == n) {
            break;
        }
        sc_jw_raw(w, esc, sc_json_escape((uint8_t)s[run], esc));
        i = run + 1;
        run = i + sc_json_plain_len(s + i, n - i, &bad);
        if (bad) {
            w->st = SC_ERR_UTF8;
            return;
        }
    }
    sc_jw_raw(w, "\"", 1);
}

void sc_jw_char(sc_jw *w, char c)
{
    uint8_t *p = room(w, 1);

    if (p != NULL) {
        *p = (uint8_t)c;
    }
    if (p != NULL || (w->st == SC_OK && counting(w))) {
        wrote(w, 1);
    }
}

void sc_jw_u64(sc_jw *w, uint64_t v)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                                   "25262728293031323334353637383940414243444546474849"
                                   "50515253545556575859606162636465666768697071727374"
                                   "75767778798081828384858687888990919293949596979899";
    size_t k = 1, i;
    uint64_t t = 10;
    uint8_t *p;

    while (k < 20 && v >= t) { /* digits: 10^k <= v < 10^(k+1) */
        k++;
        t = k < 20 ? t * 10 : t;
    }
    p = room(w, k);
    if (p != NULL) {
        for (i = k; i >= 2; i -= 2, v /= 100) {
            memcpy(p + i - 2, pairs + 2 * (v % 100), 2);
        }
        if (i == 1) {
            p[0] = (uint8_t)('0' + v);
        }
    }
    if (p != NULL || (w->st == SC_OK && counting(w))) {
        wrote(w, k);
    }
}

void sc_jw_hex(sc_jw *w, const uint8_t *p, size_t n)
{
    size_t len = 0;
    uint8_t *at;

    if (w->st != SC_OK) {
        return;
    }
    if (n > 64) {
        w->st = SC_ERR_INTERNAL;
        return;
    }
    at = room(w, 2 * n + 2);
    if (at != NULL) {
        if (sc_hex_encode((char *)at + 1, 2 * n, &len, p, n) != SC_OK) {
            w->st = SC_ERR_INTERNAL;
            return;
        }
        at[0] = '"';
        at[2 * n + 1] = '"';
    }
    if (at != NULL || (w->st == SC_OK && counting(w))) {
        wrote(w, 2 * n + 2);
    }
}
