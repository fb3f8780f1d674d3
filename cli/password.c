/* Passwords from files, for NIP-49: read with read(2) into a buffer that is wiped, one final
 * newline dropped, checked as UTF-8 and normalised to NFKC (nfkc.c or nfkc_none.c), as NIP-49
 * asks of the layer that reads the password. Never echoed. */
#include "cli.h"

#include <string.h>

#include "util/utf8.h"

/* A password file holds one password and perhaps a newline. */
#define PASSWORD_FILE_MAX 4096u

int cli_read_password(cli_buf *pw, const char *path)
{
    char buf[PASSWORD_FILE_MAX];
    size_t n = 0;
    int rc;

    pw->len = 0;
    rc = cli_read_small_file(path, buf, sizeof buf, &n);
    if (rc != CLI_OK) {
        goto out;
    }
    rc = CLI_INVALID;
    if (n == sizeof buf) {
        cli_fail(rc, "%s: not a password file (over %u bytes)", path, PASSWORD_FILE_MAX - 1);
        goto out;
    }
    /* the newline an editor or `echo` ends the file with is not part of the password */
    if (n > 0 && buf[n - 1] == '\n') {
        n--;
        if (n > 0 && buf[n - 1] == '\r') {
            n--;
        }
    }
    if (sc_utf8_check(buf, n) != SC_OK) {
        cli_fail(rc, "%s: the password is not UTF-8 text", path);
        goto out;
    }
    rc = cli_nfkc(pw, buf, n);
    if (rc == CLI_INVALID) {
        cli_fail(rc,
                 "%s: the password cannot be normalised to NFKC, as NIP-49 requires (this "
                 "build's normaliser: %s)",
                 path, cli_nfkc_impl());
    }
out:
    sc_mem_wipe(buf, sizeof buf);
    if (rc != CLI_OK) {
        cli_buf_free(pw);
    }
    return rc;
}
