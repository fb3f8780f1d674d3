/* The strict JSON scanner. Every path checks the cursor against len before reading. */
#include <string.h>

#include "util/json_scan.h"
#include "util/swar.h"
#include "util/utf8.h"

void sc_jscan_init(sc_jscan *s, const char *text, size_t len)
{
    s->p = (const uint8_t *)text;
    s->len = text != NULL ? len : 0;
    s->pos = 0;
}

sc_status sc_jscan_bad(const sc_jscan *s)
{
    if (s->pos < s->len && s->p[s->pos] >= 0x80 &&
        sc_utf8_seq_len(s->p + s->pos, s->len - s->pos) == 0) {
        return SC_ERR_UTF8;
    }
    return SC_ERR_JSON;
}

/* Four hex digits (either case) at p; -1 if any is not a hex digit. */
static long hex4(const uint8_t *p)
{
    long v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        unsigned c = p[i];

        if (c >= '0' && c <= '9') {
            c -= '0';
        } else if (c >= 'a' && c <= 'f') {
            c -= 'a' - 10;
        } else if (c >= 'A' && c <= 'F') {
            c -= 'A' - 10;
        } else {
            return -1;
        }
        v = v * 16 + (long)c;
    }
    return v;
}

/* A \uXXXX escape (with the low half of a surrogate pair when the first is a high half) at
 * the cursor, which is on the backslash. Writes the UTF-8 bytes to out[0..*n). */
static sc_status unicode_escape(sc_jscan *s, uint8_t out[4], size_t *n)
{
    long hi, lo;
    uint32_t cp;

    if (s->len - s->pos < 6 || (hi = hex4(s->p + s->pos + 2)) < 0) {
        return SC_ERR_JSON;
    }
    s->pos += 6;
    cp = (uint32_t)hi;
    if (hi >= 0xdc00 && hi <= 0xdfff) {
        return SC_ERR_UTF8; /* a low half with no high half before it */
    }
    if (hi >= 0xd800 && hi <= 0xdbff) {
        if (s->len - s->pos < 2 || s->p[s->pos] != '\\' || s->p[s->pos + 1] != 'u') {
            return SC_ERR_UTF8; /* a high half not followed by an escape */
        }
        if (s->len - s->pos < 6 || (lo = hex4(s->p + s->pos + 2)) < 0) {
            return SC_ERR_JSON;
        }
        if (lo < 0xdc00 || lo > 0xdfff) {
            return SC_ERR_UTF8; /* a high half followed by something else */
        }
        s->pos += 6;
        cp = 0x10000u + (((uint32_t)hi - 0xd800u) << 10) + ((uint32_t)lo - 0xdc00u);
    }
    *n = sc_utf8_put(out, cp);
    return *n != 0 ? SC_OK : SC_ERR_UTF8;
}

/* The byte a two-character escape stands for, or -1 if e names none (\u is handled apart). */
static int short_escape(uint8_t e)
{
    switch (e) {
    case '"':
    case '\\':
    case '/':
        return e;
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    default:
        return -1;
    }
}

/* Copies p[0..n) to dst at offset *total when it fits in dst_cap, and counts it either way. */
static void emit(uint8_t *dst, size_t dst_cap, size_t *total, const uint8_t *p, size_t n)
{
    if (dst != NULL && n <= dst_cap && *total <= dst_cap - n) {
        memcpy(dst + *total, p, n);
    }
    *total += n;
}

/* Plain ASCII that stands for itself inside a string. */
static int plain(uint8_t c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

sc_status sc_jscan_string(sc_jscan *s, uint8_t *dst, size_t dst_cap, size_t *len)
{
    size_t total = 0;

    *len = 0;
    if (sc_jscan_peek(s) != '"') {
        return sc_jscan_bad(s);
    }
    s->pos++;
    for (;;) {
        size_t start = s->pos, n;
        uint8_t c, buf[4];

        while (s->len - s->pos >= 8) { /* plain runs eight bytes at a time */
            uint64_t x = sc_swar_load(s->p + s->pos);
            if ((sc_swar_json_special(x) | sc_swar_non_ascii(x)) != 0) {
                break;
            }
            s->pos += 8;
        }
        while (s->pos < s->len && plain(s->p[s->pos])) {
            s->pos++;
        }
        emit(dst, dst_cap, &total, s->p + start, s->pos - start);
        if (s->pos == s->len) {
            return SC_ERR_JSON; /* unterminated */
        }
        c = s->p[s->pos];
        if (c == '"') {
            s->pos++;
            *len = total;
            return SC_OK;
        }
        if (c < 0x20) {
            return SC_ERR_JSON; /* control characters must be escaped */
        }
        if (c >= 0x80) {
            n = sc_utf8_seq_len(s->p + s->pos, s->len - s->pos);
            if (n == 0) {
                return SC_ERR_UTF8;
            }
            emit(dst, dst_cap, &total, s->p + s->pos, n);
            s->pos += n;
            continue;
        }
        /* a backslash */
        if (s->len - s->pos < 2) {
            return SC_ERR_JSON;
        }
        if (s->p[s->pos + 1] == 'u') {
            sc_status st = unicode_escape(s, buf, &n);

            if (st != SC_OK) {
                return st;
            }
        } else {
            int b = short_escape(s->p[s->pos + 1]);

            if (b < 0) {
                return SC_ERR_JSON;
            }
            buf[0] = (uint8_t)b;
            n = 1;
            s->pos += 2;
        }
        emit(dst, dst_cap, &total, buf, n);
    }
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* Moves past a run of digits; 0 if there was none. */
static size_t digits(sc_jscan *s)
{
    size_t start = s->pos;

    while (s->pos < s->len && is_digit(s->p[s->pos])) {
        s->pos++;
    }
    return s->pos - start;
}

sc_status sc_jscan_number(sc_jscan *s, sc_jnum *num)
{
    int c;

    memset(num, 0, sizeof *num);
    if (sc_jscan_peek(s) == '-') {
        num->negative = 1;
        s->pos++;
    }
    num->digits = s->pos;
    c = sc_jscan_peek(s);
    if (c == '0') {
        s->pos++; /* "0" stands alone: a digit after it is left for the caller to reject */
        num->n_digits = 1;
    } else if (is_digit(c)) {
        num->n_digits = digits(s);
    } else {
        return sc_jscan_bad(s);
    }
    if (sc_jscan_peek(s) == '.') {
        s->pos++;
        num->fraction = 1;
        if (digits(s) == 0) {
            return sc_jscan_bad(s);
        }
    }
    c = sc_jscan_peek(s);
    if (c == 'e' || c == 'E') {
        s->pos++;
        num->exponent = 1;
        c = sc_jscan_peek(s);
        if (c == '+' || c == '-') {
            s->pos++;
        }
        if (digits(s) == 0) {
            return sc_jscan_bad(s);
        }
    }
    return SC_OK;
}

/* true, false or null at the cursor. */
static sc_status literal(sc_jscan *s)
{
    const char *word = s->p[s->pos] == 't' ? "true" : s->p[s->pos] == 'f' ? "false" : "null";
    size_t i, n = strlen(word);

    for (i = 0; i < n; i++, s->pos++) {
        if (s->pos == s->len || s->p[s->pos] != (uint8_t)word[i]) {
            return sc_jscan_bad(s);
        }
    }
    return SC_OK;
}

/* One scalar value at the cursor (after whitespace). */
static sc_status scalar(sc_jscan *s)
{
    int c = sc_jscan_peek(s);
    size_t n;
    sc_jnum num;

    if (c == '"') {
        return sc_jscan_string(s, NULL, 0, &n);
    }
    if (c == 't' || c == 'f' || c == 'n') {
        return literal(s);
    }
    if (c == '-' || is_digit(c)) {
        return sc_jscan_number(s, &num);
    }
    return sc_jscan_bad(s);
}

/* An object key and its colon; the cursor is left before the value. */
static sc_status key_colon(sc_jscan *s)
{
    size_t n;
    sc_status st;

    sc_jscan_ws(s);
    st = sc_jscan_string(s, NULL, 0, &n);
    if (st != SC_OK) {
        return st;
    }
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != ':') {
        return sc_jscan_bad(s);
    }
    s->pos++;
    return SC_OK;
}

sc_status sc_jscan_skip(sc_jscan *s, unsigned max_depth)
{
    /* bit d set: the container at depth d + 1 is an object (else an array) */
    uint32_t is_obj[SC_JSCAN_DEPTH_LIMIT / 32];
    unsigned depth = 0;
    int want_value = 1;
    sc_status st;

    if (max_depth > SC_JSCAN_DEPTH_LIMIT) {
        max_depth = SC_JSCAN_DEPTH_LIMIT;
    }
    for (;;) {
        int c, obj;

        sc_jscan_ws(s);
        c = sc_jscan_peek(s);
        if (want_value) {
            if (c == '{' || c == '[') {
                if (depth == max_depth) {
                    return SC_ERR_TOO_LARGE;
                }
                obj = c == '{';
                if (depth % 32 == 0) {
                    is_obj[depth / 32] = 0; /* first use of this word */
                }
                is_obj[depth / 32] =
                    (is_obj[depth / 32] & ~(1u << (depth % 32))) | ((uint32_t)obj << (depth % 32));
                depth++;
                s->pos++;
                sc_jscan_ws(s);
                if (sc_jscan_peek(s) == (obj ? '}' : ']')) {
                    s->pos++;
                    depth--;
                    want_value = 0;
                } else if (obj && (st = key_colon(s)) != SC_OK) {
                    return st;
                }
                continue;
            }
            st = scalar(s);
            if (st != SC_OK) {
                return st;
            }
            want_value = 0;
            continue;
        }
        if (depth == 0) {
            return SC_OK;
        }
        obj = (is_obj[(depth - 1) / 32] >> ((depth - 1) % 32)) & 1u;
        if (c == ',') {
            s->pos++;
            if (obj && (st = key_colon(s)) != SC_OK) {
                return st;
            }
            want_value = 1;
        } else if (c == (obj ? '}' : ']')) {
            s->pos++;
            depth--;
        } else {
            return sc_jscan_bad(s);
        }
    }
}
