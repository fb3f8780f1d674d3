/* Text helpers: strict UTF-8 validation and JSON string output. */
#include "cli.h"

int cli_utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i];
        unsigned lo = 0x80, hi = 0xBF;
        size_t k, more;

        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            more = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            more = 2;
            lo = (c == 0xE0) ? 0xA0 : 0x80; /* no overlong 3-byte forms */
            hi = (c == 0xED) ? 0x9F : 0xBF; /* no UTF-16 surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            more = 3;
            lo = (c == 0xF0) ? 0x90 : 0x80; /* no overlong 4-byte forms */
            hi = (c == 0xF4) ? 0x8F : 0xBF; /* nothing above U+10FFFF */
        } else {
            return 0; /* continuation byte, C0/C1 overlong lead, or F5..FF */
        }
        if (n - i <= more) {
            return 0;
        }
        for (k = 1; k <= more; k++) {
            unsigned t = s[i + k];
            if (k == 1 ? (t < lo || t > hi) : (t < 0x80 || t > 0xBF)) {
                return 0;
            }
        }
        i += more + 1;
    }
    return 1;
}

int cli_buf_json_str(cli_buf *b, const char *s, size_t n)
{
    static const char hexd[] = "0123456789abcdef";
    size_t i, run = 0;

    if (cli_buf_addc(b, '"') != CLI_OK) {
        return CLI_ERROR;
    }
    if (n == 0) {
        return cli_buf_addc(b, '"'); /* s may be NULL then */
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[6];
        size_t esc_len = 2;

        if (c >= 0x20 && c != '"' && c != '\\') {
            continue;
        }
        esc[0] = '\\';
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hexd[c >> 4];
            esc[5] = hexd[c & 15];
            esc_len = 6;
            break;
        }
        /* copy the verbatim run before this character, then its escape */
        if (cli_buf_add(b, s + run, i - run) != CLI_OK || cli_buf_add(b, esc, esc_len) != CLI_OK) {
            return CLI_ERROR;
        }
        run = i + 1;
    }
    if (cli_buf_add(b, s + run, n - run) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_addc(b, '"');
}
