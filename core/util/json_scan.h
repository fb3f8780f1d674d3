/* A strict RFC 8259 scanner over a length-delimited text (never read past len; the text need
 * not be NUL-terminated). It validates and unescapes strings, checks number syntax, and skips
 * whole values of any type without recursion. Event parsing is built on it. */
#ifndef SOFTCHAT_CORE_JSON_SCAN_H
#define SOFTCHAT_CORE_JSON_SCAN_H

#include <softchat/status.h>

/* The deepest nesting sc_jscan_skip can track (its stack is one bit per level). */
#define SC_JSCAN_DEPTH_LIMIT 1024u

typedef struct sc_jscan {
    const uint8_t *p;
    size_t len;
    size_t pos;
} sc_jscan;

/* The shape of a number token: the integer digits are p[digits .. digits + n_digits). */
typedef struct sc_jnum {
    int negative; /* a leading '-' (also "-0") */
    int fraction; /* a '.' part */
    int exponent; /* an 'e' / 'E' part */
    size_t digits;
    size_t n_digits;
} sc_jnum;

void sc_jscan_init(sc_jscan *s, const char *text, size_t len);

/* Skips JSON whitespace (space, tab, LF, CR). */
static inline void sc_jscan_ws(sc_jscan *s)
{
    while (s->pos < s->len) {
        uint8_t c = s->p[s->pos];

        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            return;
        }
        s->pos++;
    }
}

/* The byte at the cursor, or -1 at the end. */
static inline int sc_jscan_peek(const sc_jscan *s)
{
    return s->pos < s->len ? s->p[s->pos] : -1;
}

/* The status for an unexpected byte at the cursor: SC_ERR_UTF8 when it starts no well-formed
 * UTF-8 sequence, else SC_ERR_JSON (also at the end of the text). */
sc_status sc_jscan_bad(const sc_jscan *s);

/* At '"': validates the string and moves past it. Unescaped bytes are written to dst up to
 * dst_cap (dst may be NULL to measure); *len is the full unescaped length either way.
 * Errors: SC_ERR_JSON (unterminated, raw control byte, bad escape), SC_ERR_UTF8 (ill-formed
 * UTF-8, or a \u escape that leaves a lone surrogate). */
sc_status sc_jscan_string(sc_jscan *s, uint8_t *dst, size_t dst_cap, size_t *len);

/* At '-' or a digit: checks the number grammar and moves past the token. SC_ERR_JSON on a
 * syntax error ("-", "1.", "1e", ".5"; a leading zero shows up as the next token). */
sc_status sc_jscan_number(sc_jscan *s, sc_jnum *num);

/* Skips one value of any type (leading whitespace allowed). Containers may nest max_depth
 * deep (a scalar is depth 0, "[]" depth 1); deeper is SC_ERR_TOO_LARGE. max_depth is capped
 * at SC_JSCAN_DEPTH_LIMIT. */
sc_status sc_jscan_skip(sc_jscan *s, unsigned max_depth);

#endif
