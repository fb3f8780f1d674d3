/* UTF-8 validation and encoding. Event content is the bulk of what is checked, and it is
 * mostly ASCII, so ASCII is skipped sixteen bytes at a time, and ASCII bytes in the tail of a
 * string without a call per byte. */
#include <string.h>

#include "util/swar.h"
#include "util/utf8.h"

size_t sc_utf8_seq_len(const uint8_t *s, size_t avail)
{
    unsigned c = s[0], lo = 0x80, hi = 0xbf;
    size_t n, i;

    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = (c == 0xe0) ? 0xa0 : 0x80; /* E0 80..9F would be overlong */
        hi = (c == 0xed) ? 0x9f : 0xbf; /* ED A0..BF would encode a surrogate */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = (c == 0xf0) ? 0x90 : 0x80; /* F0 80..8F would be overlong */
        hi = (c == 0xf4) ? 0x8f : 0xbf; /* F4 90.. would exceed U+10FFFF */
    } else {
        return 0; /* continuation byte, C0/C1 (overlong) or F5..FF */
    }
    if (avail < n || s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (i = 2; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
    }
    return n;
}

sc_status sc_utf8_check(const char *str, size_t len)
{
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0, n;

    if (s == NULL) {
        return len == 0 ? SC_OK : SC_ERR_UTF8;
    }
    while (i < len) {
        if (len - i >= 16) {
            if (sc_swar_non_ascii(sc_swar_load(s + i) | sc_swar_load(s + i + 8)) == 0) {
                i += 16;
                continue;
            }
        }
        if (len - i >= 8) {
            if (sc_swar_non_ascii(sc_swar_load(s + i)) == 0) {
                i += 8;
                continue;
            }
        } else if (len >= 8) { /* the tail as the last word, overlapping checked bytes */
            if (sc_swar_non_ascii(sc_swar_load(s + len - 8)) == 0) {
                return SC_OK;
            }
        } else if (i == 0) { /* a short string as one word, padded with zeros (ASCII) */
            uint8_t pad[8] = {0};
            memcpy(pad, s, len);
            if (sc_swar_non_ascii(sc_swar_load(pad)) == 0) {
                return SC_OK;
            }
        }
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        n = sc_utf8_seq_len(s + i, len - i);
        if (n == 0) {
            return SC_ERR_UTF8;
        }
        i += n;
    }
    return SC_OK;
}

size_t sc_utf8_put(uint8_t out[4], uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xc0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
        return 0;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xe0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    if (cp <= 0x10ffff) {
        out[0] = (uint8_t)(0xf0 | (cp >> 18));
        out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
        out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        out[3] = (uint8_t)(0x80 | (cp & 0x3f));
        return 4;
    }
    return 0;
}
