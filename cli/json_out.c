/* The CLI's JSON output: strings (through the library's own escaper, core/util/json_escape.c,
 * linked through softchat_text, and the terminal's controls of text.c), hex strings and
 * fields, tags, and whole events as lines (the library's canonical form). */
#include "cli.h"

#include "util/json_escape.h"

/* Appends a piece of sc_json_put_string's output (well-formed UTF-8, C0 controls already
 * escaped) with the controls JSON leaves verbatim (DEL, C1, the bidi controls: see
 * cli_text_char) written as \uXXXX too: the same text to a JSON reader, nothing that drives
 * a terminal showing the line. */
static int put_buf(void *arg, const char *p, size_t n)
{
    cli_buf *b = arg;
    size_t i = 0, start = 0;

    while (i < n) {
        uint32_t cp;
        int control;
        size_t k = cli_text_char(p + i, n - i, &control, &cp);

        if (control) {
            char esc[8];

            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
            if (cli_buf_add(b, p + start, i - start) != CLI_OK || cli_buf_adds(b, esc) != CLI_OK) {
                return -1;
            }
            start = i + k;
        }
        i += k;
    }
    return cli_buf_add(b, p + start, n - start) == CLI_OK ? 0 : -1;
}

int cli_buf_json_str(cli_buf *b, const char *s, size_t n)
{
    sc_status st = sc_json_put_string(s, n, 0, put_buf, b);

    if (st == SC_ERR_UTF8) {
        return cli_fail(CLI_ERROR, "internal error: text for JSON output is not UTF-8");
    }
    return st == SC_OK ? CLI_OK : CLI_ERROR; /* out of memory: said by cli_buf_add */
}

int cli_buf_json_hex(cli_buf *b, const uint8_t *p, size_t n)
{
    if (cli_buf_addc(b, '"') != CLI_OK || cli_buf_hex(b, p, n) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_addc(b, '"');
}

int cli_buf_json_hex_field(cli_buf *b, const char *name, const uint8_t *p, size_t n)
{
    if (cli_buf_adds(b, ",\"") != CLI_OK || cli_buf_adds(b, name) != CLI_OK ||
        cli_buf_adds(b, "\":") != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_json_hex(b, p, n);
}

int cli_buf_json_tags(cli_buf *b, const sc_event *ev)
{
    size_t i, j;

    if (cli_buf_addc(b, '[') != CLI_OK) {
        return CLI_ERROR;
    }
    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];

        if ((i > 0 && cli_buf_addc(b, ',') != CLI_OK) || cli_buf_addc(b, '[') != CLI_OK) {
            return CLI_ERROR;
        }
        for (j = 0; j < t->n_items; j++) {
            if ((j > 0 && cli_buf_addc(b, ',') != CLI_OK) ||
                cli_buf_json_str(b, t->items[j].ptr, t->items[j].len) != CLI_OK) {
                return CLI_ERROR;
            }
        }
        if (cli_buf_addc(b, ']') != CLI_OK) {
            return CLI_ERROR;
        }
    }
    return cli_buf_addc(b, ']');
}

int cli_buf_event_line(cli_buf *b, const sc_event *ev, const char *what)
{
    size_t need = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT), used = 0;
    sc_status st;

    if (need == 0) {
        return cli_fail(CLI_ERROR, "internal error: %s cannot be serialised", what);
    }
    if (cli_buf_reserve(b, need + 1) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sc_event_to_json((char *)b->p + b->len, b->cap - b->len, &used, ev, SC_EVENT_JSON_OBJECT);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot serialise %s", what);
    }
    b->len += used;
    return cli_buf_addc(b, '\n');
}
