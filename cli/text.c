/* Text as the CLI writes it: JSON strings and hex strings in its JSON output (the library's
 * own escaper, core/util/json_escape.c, linked through softchat_text), and the one filter for
 * text shown on a terminal. */
#include "cli.h"

#include "util/json_escape.h"

static int put_buf(void *b, const char *p, size_t n)
{
    return cli_buf_add(b, p, n) == CLI_OK ? 0 : -1;
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

/* Messages quote text a relay chooses (NOTICE, CLOSED, OK reasons) and names from the command
 * line: a control byte (ESC, BEL, CR, ...) could drive the terminal or forge a line, so each
 * C0 control and DEL is written as '?'. */
size_t cli_text_for_terminal(char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 || c == 0x7f) {
            s[i] = '?';
        }
    }
    return n;
}
