/* NFKC normalisation of passwords (NIP-49) with libunistring's u8_normalize (Debian:
 * libunistring-dev), the build's choice when SOFTCHAT_CLI_NFKC is ON (nfkc_none.c otherwise).
 *
 * The result goes straight into the caller's wiping buffer, sized for the worst expansion of
 * NFKC (a UTF-8 sequence of 3 bytes becomes up to 33: U+FDFA), so libunistring allocates
 * nothing for it; if it ever does, its copy is wiped and freed here. libunistring sorts
 * combining marks in a stack buffer of 128 characters and allocates a larger one only for
 * longer runs of them, which no password file of this tool's size limit reaches twice. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <uninorm.h>

#define NFKC_GROWTH 11u /* bytes out per byte in, at most */

int cli_nfkc(cli_buf *out, const char *s, size_t n)
{
    size_t cap = n * NFKC_GROWTH + 16, len;
    uint8_t *r;

    out->len = 0;
    if (cli_buf_reserve(out, cap) != CLI_OK) {
        return CLI_ERROR;
    }
    len = out->cap;
    r = u8_normalize(UNINORM_NFKC, (const uint8_t *)s, n, out->p, &len);
    if (r == NULL) {
        return CLI_INVALID; /* EILSEQ: not UTF-8 (checked before), or ENOMEM */
    }
    if (r != out->p) {
        int rc = cli_buf_add(out, r, len); /* out->len is 0: this copies r whole */

        sc_mem_wipe(r, len);
        free(r);
        return rc;
    }
    out->len = len;
    return CLI_OK;
}

const char *cli_nfkc_impl(void)
{
    return "libunistring";
}
