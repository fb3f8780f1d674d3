/* Text shown on a terminal: the one filter every message on stderr passes (util.c's reporter),
 * against text a relay or a command line chose; the characters it removes are escaped in the
 * JSON output too (json_out.c). */
#include "cli.h"

#include "util/utf8.h"

#include <string.h>

/* C0 controls, DEL and C1 controls (0x9b is CSI, 0x9d OSC: each drives a terminal as ESC [
 * and ESC ] do), the bidi marks, embeddings, overrides and isolates (they reorder what
 * follows on the line: U+202E shows "exe.txt" for "txt.exe"), and the line and paragraph
 * separators. */
static int is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
           cp == 0x200f || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

size_t cli_text_char(const char *s, size_t n, int *control, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t k = sc_utf8_seq_len(u, n);

    *cp = u[0];
    if (k == 0) {
        *control = 1; /* not UTF-8: to an 8-bit terminal a lone 0x9b is CSI */
        return 1;
    }
    if (k == 2) {
        *cp = ((uint32_t)(u[0] & 0x1f) << 6) | (u[1] & 0x3f);
    } else if (k == 3) {
        *cp = ((uint32_t)(u[0] & 0x0f) << 12) | ((uint32_t)(u[1] & 0x3f) << 6) | (u[2] & 0x3f);
    } else if (k == 4) {
        *cp = 0x10000; /* above every control: the exact value is not needed */
    }
    *control = is_control(*cp);
    return k;
}

size_t cli_text_for_terminal(char *s, size_t n)
{
    size_t i = 0, w = 0;

    while (i < n) {
        uint32_t cp;
        int control;
        size_t k = cli_text_char(s + i, n - i, &control, &cp);

        if (control) {
            s[w++] = '?';
        } else {
            memmove(s + w, s + i, k);
            w += k;
        }
        i += k;
    }
    return w;
}
