/* JSON string escaping: the scan for the bytes that need an escape (eight at a time, UTF-8
 * checked on the way), the escape of each, and a writer of whole strings through a callback
 * for the programs beside the library (the CLI, softchat-bench). */
#include <string.h>

#include "util/json_escape.h"
#include "util/swar.h"
#include "util/utf8.h"

/* Bytes that JSON.stringify escapes: the C0 controls, '"' and '\\'. */
static int needs_escape(uint8_t c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

/* ASCII without escapes goes eight bytes at a time; the last (or only) partial word is read
 * as one word too, overlapping the one before it or padded with a byte that needs nothing. */
size_t sc_json_plain_len(const char *str, size_t n, int *bad)
{
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0, k;

    while (i < n) {
        uint8_t c;

        if (n - i >= 8) {
            uint64_t x = sc_swar_load(s + i);
            if ((sc_swar_json_special(x) | sc_swar_non_ascii(x)) == 0) {
                i += 8;
                continue;
            }
        } else {
            uint8_t pad[8] = {'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'};
            uint64_t x;
            if (n >= 8) {
                x = sc_swar_load(s + n - 8);
            } else {
                memcpy(pad, s + i, n - i);
                x = sc_swar_load(pad);
            }
            if ((sc_swar_json_special(x) | sc_swar_non_ascii(x)) == 0) {
                return n;
            }
        }
        c = s[i];
        if (needs_escape(c)) {
            return i;
        }
        if (c < 0x80) {
            i++;
            continue;
        }
        k = sc_utf8_seq_len(s + i, n - i);
        if (k == 0) {
            *bad = 1;
            return i;
        }
        i += k;
    }
    return n;
}

size_t sc_json_escape(uint8_t c, char esc[6])
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

sc_status sc_json_put_string(const char *s, size_t n, unsigned flags, sc_json_put_fn put, void *arg)
{
    static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD in UTF-8 */
    size_t i = 0, run;
    char esc[6];

    if (put(arg, "\"", 1) != 0) {
        return SC_ERR_IO;
    }
    while (i < n) {
        int bad = 0;

        run = i + sc_json_plain_len(s + i, n - i, &bad);
        if (run > i && put(arg, s + i, run - i) != 0) {
            return SC_ERR_IO;
        }
        if (run == n) {
            break;
        }
        if (bad && !(flags & SC_JSON_PUT_REPLACE)) {
            return SC_ERR_UTF8;
        }
        if (bad ? put(arg, replacement, 3) != 0
                : put(arg, esc, sc_json_escape((uint8_t)s[run], esc)) != 0) {
            return SC_ERR_IO;
        }
        i = run + 1;
    }
    return put(arg, "\"", 1) == 0 ? SC_OK : SC_ERR_IO;
}
