/* The top-level JSON object splitter behind event verify (rules in jscan.h). */
#include "jscan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum {
    M_BETWEEN,
    M_VALUE,
    M_SKIP,
    M_RESYNC
};

/* How a scan over part of a value stopped. */
enum {
    S_MORE,
    S_END,
    S_BROKEN,
    S_MISMATCH,
    S_DEEP
};

void cli_jscan_init(cli_jscan *s, size_t max)
{
    memset(s, 0, sizeof *s);
    s->max = max;
    s->mode = M_BETWEEN;
}

void cli_jscan_free(cli_jscan *s)
{
    cli_buf_free(&s->value);
}

static void start_value(cli_jscan *s)
{
    s->mode = M_VALUE;
    s->depth = 0;
    s->in_str = 0;
    s->esc = 0;
    s->value.len = 0;
}

/* Records whether nesting level `level` (below CLI_JSCAN_MAX_DEPTH) is an array. */
static void set_kind(cli_jscan *s, size_t level, int is_array)
{
    uint64_t bit = (uint64_t)1 << (level % 64);

    s->kinds[level / 64] = is_array ? (s->kinds[level / 64] | bit) : (s->kinds[level / 64] & ~bit);
}

static int is_array_level(const cli_jscan *s, size_t level)
{
    return (int)((s->kinds[level / 64] >> (level % 64)) & 1u);
}

/* Advances *i through in[*i..n) until the value ends (just past its closing bracket), it
 * turns out broken (just past the offending byte), or the chunk ends. Nesting beyond
 * CLI_JSCAN_MAX_DEPTH stops the scan only while the value is being stored; when skipping,
 * deeper levels are counted without their bracket kinds. */
static int scan(cli_jscan *s, const unsigned char *in, size_t n, size_t *i)
{
    size_t k;

    for (k = *i; k < n; k++) {
        unsigned char c = in[k];

        if (s->in_str) {
            if (c < 0x20) {
                *i = k + 1;
                return S_BROKEN;
            }
            if (s->esc) {
                s->esc = 0;
            } else if (c == '\\') {
                s->esc = 1;
            } else if (c == '"') {
                s->in_str = 0;
            }
            continue;
        }
        if (c == '"') {
            s->in_str = 1;
        } else if (c == '{' || c == '[') {
            if (s->depth < CLI_JSCAN_MAX_DEPTH) {
                set_kind(s, s->depth, c == '[');
            }
            s->depth++;
            if (s->depth > CLI_JSCAN_MAX_DEPTH && s->mode == M_VALUE) {
                *i = k + 1;
                return S_DEEP;
            }
        } else if (c == '}' || c == ']') {
            s->depth--;
            if (s->depth < CLI_JSCAN_MAX_DEPTH && is_array_level(s, s->depth) != (c == ']')) {
                *i = k + 1;
                return S_MISMATCH;
            }
            if (s->depth == 0) {
                *i = k + 1;
                return S_END;
            }
        }
    }
    *i = n;
    return S_MORE;
}

/* The mode after a value (stored or skipped) stops with scan result r. */
static int mode_after(int r)
{
    return r == S_END ? M_BETWEEN : (r == S_BROKEN || r == S_MISMATCH) ? M_RESYNC : M_SKIP;
}

/* Handles a scan over part of a stored value; returns an item, or CLI_JSCAN_MORE. */
static cli_jscan_item stored(cli_jscan *s, const unsigned char *part, size_t len, int r)
{
    if (len > s->max - s->value.len) {
        /* past the cap: drop what was stored and skip the rest of this value */
        s->value.len = 0;
        s->mode = mode_after(r);
        return CLI_JSCAN_TOO_LARGE;
    }
    if (r == S_MORE || r == S_END) {
        if (cli_buf_add(&s->value, part, len) != CLI_OK) {
            s->value.len = 0;
            s->mode = M_RESYNC;
            return CLI_JSCAN_NOMEM;
        }
        if (r == S_MORE) {
            return CLI_JSCAN_MORE;
        }
        s->mode = M_BETWEEN;
        s->handed_out = 1;
        return CLI_JSCAN_VALUE;
    }
    s->value.len = 0;
    s->mode = mode_after(r);
    return r == S_BROKEN     ? CLI_JSCAN_BROKEN
           : r == S_MISMATCH ? CLI_JSCAN_MISMATCH
                             : CLI_JSCAN_TOO_DEEP;
}

cli_jscan_item cli_jscan_feed(cli_jscan *s, const unsigned char *in, size_t n, size_t *used)
{
    size_t i = 0;

    if (s->handed_out) {
        s->value.len = 0;
        s->handed_out = 0;
    }
    while (i < n) {
        const unsigned char *brace;
        cli_jscan_item item;
        size_t start;
        int r;

        switch (s->mode) {
        case M_BETWEEN:
            if (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r') {
                i++;
            } else if (in[i] == '{') {
                start_value(s);
            } else {
                s->mode = M_RESYNC;
                *used = i + 1;
                return CLI_JSCAN_GARBAGE;
            }
            break;
        case M_RESYNC:
            brace = memchr(in + i, '{', n - i);
            if (brace == NULL) {
                i = n;
            } else {
                i = (size_t)(brace - in);
                start_value(s);
            }
            break;
        case M_VALUE:
            start = i;
            r = scan(s, in, n, &i);
            item = stored(s, in + start, i - start, r);
            if (item != CLI_JSCAN_MORE) {
                *used = i;
                return item;
            }
            break;
        default: /* M_SKIP: the rest of a value already reported */
            r = scan(s, in, n, &i);
            if (r != S_MORE) {
                s->mode = mode_after(r);
            }
            break;
        }
    }
    *used = n;
    return CLI_JSCAN_MORE;
}

cli_jscan_item cli_jscan_end(cli_jscan *s)
{
    if (s->handed_out) {
        s->value.len = 0;
        s->handed_out = 0;
    }
    if (s->mode == M_VALUE) {
        s->mode = M_BETWEEN;
        s->value.len = 0;
        return CLI_JSCAN_TRUNCATED;
    }
    s->mode = M_BETWEEN;
    return CLI_JSCAN_MORE;
}

#define STREAM_CHUNK 65536u
#define STREAM_FLUSH 65536u

/* Hands one splitter result to the reader. */
static int dispatch(const cli_jscan_reader *r, cli_jscan *s, cli_jscan_item item)
{
    char why[160];

    switch (item) {
    case CLI_JSCAN_VALUE:
        return r->on_value(r->user, s->value.p, s->value.len);
    case CLI_JSCAN_GARBAGE:
        snprintf(why, sizeof why, "unexpected data between %ss (skipped up to the next '{')",
                 r->what);
        return r->on_skip(r->user, SC_ERR_JSON, why);
    case CLI_JSCAN_TOO_LARGE:
        snprintf(why, sizeof why, "%s larger than %zu bytes (skipped)", r->what, s->max);
        return r->on_skip(r->user, SC_ERR_TOO_LARGE, why);
    case CLI_JSCAN_TOO_DEEP:
        snprintf(why, sizeof why, "%s nested deeper than %u levels (skipped)", r->what,
                 CLI_JSCAN_MAX_DEPTH);
        return r->on_skip(r->user, SC_ERR_TOO_LARGE, why);
    case CLI_JSCAN_BROKEN:
        return r->on_skip(r->user, SC_ERR_JSON,
                          "raw control character inside a string (skipped up to the next '{')");
    case CLI_JSCAN_MISMATCH:
        return r->on_skip(r->user, SC_ERR_JSON, "mismatched bracket (skipped up to the next '{')");
    case CLI_JSCAN_TRUNCATED:
        snprintf(why, sizeof why, "input ends inside %s", r->a_what);
        return r->on_skip(r->user, SC_ERR_JSON, why);
    case CLI_JSCAN_NOMEM:
        return CLI_ERROR;
    case CLI_JSCAN_MORE:
        break;
    }
    return CLI_OK;
}

int cli_jscan_stream(cli_jscan *s, cli_buf *out, const cli_jscan_reader *r)
{
    unsigned char chunk[STREAM_CHUNK];
    int rc = CLI_OK;

    for (;;) {
        ssize_t n;
        size_t off = 0;

        if (out->len > 0 && cli_buf_flush_stdout(out) != CLI_OK) {
            return CLI_ERROR;
        }
        n = read(0, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return cli_fail(CLI_ERROR, "cannot read stdin: %s", strerror(errno));
        }
        if (n == 0) {
            break;
        }
        while (off < (size_t)n && rc == CLI_OK) {
            size_t used = 0;
            cli_jscan_item item = cli_jscan_feed(s, chunk + off, (size_t)n - off, &used);
            off += used;
            rc = dispatch(r, s, item);
            if (rc == CLI_OK && out->len >= STREAM_FLUSH) {
                rc = cli_buf_flush_stdout(out);
            }
        }
        if (rc != CLI_OK) {
            return rc;
        }
    }
    rc = dispatch(r, s, cli_jscan_end(s));
    if (rc == CLI_OK && out->len > 0) {
        rc = cli_buf_flush_stdout(out);
    }
    return rc;
}
