/* The stand-in for nfkc.c in builds without a Unicode normaliser (SOFTCHAT_CLI_NFKC=OFF: the
 * cross presets, where libunistring is not built for the target). ASCII text is its own NFKC
 * form, so an ASCII password is taken as it is; any other is refused, saying why, rather
 * than used unnormalised (it would seal a key other clients cannot open with what the user
 * types). */
#include "cli.h"

int cli_nfkc(cli_buf *out, const char *s, size_t n)
{
    size_t i;

    out->len = 0;
    for (i = 0; i < n; i++) {
        if ((unsigned char)s[i] >= 0x80) {
            return CLI_INVALID;
        }
    }
    return cli_buf_add(out, s, n);
}

const char *cli_nfkc_impl(void)
{
    return "none (ASCII passwords only)";
}
