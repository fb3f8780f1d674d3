/* Text shown on a terminal: the one filter every message on stderr passes (util.c's reporter),
 * against text a relay or a command line chose. */
#include "cli.h"

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
