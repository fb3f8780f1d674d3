/* The helpers of file encrypt and file decrypt: the backend's attachment capability, opening
 * an input file, and reading it in whole chunks. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_file_supported(sc_ctx *ctx)
{
    const sc_backend *b = sc_ctx_backend(ctx);
    const char *why = NULL;
    sc_status st = b != NULL ? sc_backend_has(b, SC_CAP_AES256GCM_STREAM, &why) : SC_ERR_STATE;

    if (st == SC_OK) {
        return CLI_OK;
    }
    return cli_fail(CLI_ERROR,
                    "backend '%s' cannot encrypt or decrypt attachments: %s (%s); "
                    "choose another with --backend (see: softchat backends)",
                    b != NULL ? b->name : "?", why != NULL ? why : sc_status_str(st),
                    sc_status_name(st));
}

int cli_file_open_in(const char *path, int *fd, uint64_t *size)
{
    struct stat st;

    *size = 0;
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (*fd < 0) {
        return cli_fail(CLI_ERROR, "cannot open %s: %s", path, strerror(errno));
    }
    if (fstat(*fd, &st) != 0) {
        int err = errno;
        close(*fd);
        *fd = -1;
        return cli_fail(CLI_ERROR, "cannot read %s: %s", path, strerror(err));
    }
    if (S_ISDIR(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return cli_fail(CLI_ERROR, "cannot read %s: %s", path, strerror(EISDIR));
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        *size = (uint64_t)st.st_size;
    }
    return CLI_OK;
}

int cli_file_read(int fd, uint8_t *buf, size_t cap, size_t *n)
{
    *n = 0;
    while (*n < cap) {
        ssize_t r = read(fd, buf + *n, cap - *n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            return errno;
        }
        if (r == 0) {
            break;
        }
        *n += (size_t)r;
    }
    return 0;
}
