/* Buffers and I/O for the CLI: a growable buffer that wipes what it held (grown by doubling
 * for appends, to an exact size for a call's output), reading with read(2) under a limit,
 * writing in full, small key files and new 0600 files. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK 65536u

int cli_buf_reserve(cli_buf *b, size_t extra)
{
    unsigned char *p;
    size_t need, cap;

    if (extra <= b->cap - b->len) {
        return CLI_OK;
    }
    if (extra > (size_t)-1 - b->len) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    need = b->len + extra;
    cap = b->cap < 256 ? 256 : b->cap;
    while (cap < need) {
        cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    }
    p = malloc(cap);
    if (p == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    /* not realloc: the old block may hold a secret and must be wiped before it is freed */
    if (b->len > 0) {
        memcpy(p, b->p, b->len);
    }
    sc_mem_wipe(b->p, b->cap);
    free(b->p);
    b->p = p;
    b->cap = cap;
    return CLI_OK;
}

int cli_buf_size(cli_buf *b, size_t n)
{
    unsigned char *p;

    b->len = 0;
    if (n <= b->cap) {
        return CLI_OK;
    }
    p = malloc(n);
    if (p == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    sc_mem_wipe(b->p, b->cap);
    free(b->p);
    b->p = p;
    b->cap = n;
    return CLI_OK;
}

int cli_buf_add(cli_buf *b, const void *p, size_t n)
{
    if (n == 0) {
        return CLI_OK;
    }
    if (cli_buf_reserve(b, n) != CLI_OK) {
        return CLI_ERROR;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
    return CLI_OK;
}

int cli_buf_adds(cli_buf *b, const char *s)
{
    return cli_buf_add(b, s, strlen(s));
}

int cli_buf_addc(cli_buf *b, char c)
{
    return cli_buf_add(b, &c, 1);
}

int cli_buf_hex(cli_buf *b, const uint8_t *p, size_t n)
{
    size_t need = sc_hex_encode_len(n), used = 0;

    if (cli_buf_reserve(b, need) != CLI_OK) {
        return CLI_ERROR;
    }
    if (sc_hex_encode((char *)b->p + b->len, b->cap - b->len, &used, p, n) != SC_OK) {
        return cli_fail(CLI_ERROR, "internal error: hex encoding failed");
    }
    b->len += used;
    return CLI_OK;
}

void cli_hex_str(char *out, const uint8_t *p, size_t n)
{
    size_t len = 0;

    if (sc_hex_encode(out, 2 * n, &len, p, n) != SC_OK) {
        len = 0; /* not reached: the capacity is exact */
    }
    out[len] = '\0';
}

void cli_buf_free(cli_buf *b)
{
    sc_mem_wipe(b->p, b->cap);
    free(b->p);
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
}

int cli_read_all(int fd, cli_buf *b, size_t limit, const char *what)
{
    for (;;) {
        size_t room;
        ssize_t n;

        if (b->len > limit) {
            return CLI_OK;
        }
        room = limit - b->len + 1; /* one byte past the limit reveals "over the limit" */
        if (room > READ_CHUNK) {
            room = READ_CHUNK;
        }
        if (cli_buf_reserve(b, room) != CLI_OK) {
            return CLI_ERROR;
        }
        n = read(fd, b->p + b->len, room);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return cli_fail(CLI_ERROR, "cannot read %s: %s", what, strerror(errno));
        }
        if (n == 0) {
            return CLI_OK;
        }
        b->len += (size_t)n;
    }
}

int cli_write_fd(int fd, const void *p, size_t n)
{
    const unsigned char *c = p;

    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return w < 0 ? errno : EIO;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_write_all(int fd, const void *p, size_t n)
{
    int err = cli_write_fd(fd, p, n);

    if (err != 0) {
        return cli_fail(CLI_ERROR, "cannot write output: %s", strerror(err));
    }
    return CLI_OK;
}

int cli_read_small_file(const char *path, char *buf, size_t cap, size_t *len)
{
    size_t total = 0;
    int fd;

    *len = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int err = errno;

        return cli_fail(CLI_ERROR, "cannot open %s: %s", cli_shown(path), strerror(err));
    }
    while (total < cap) {
        ssize_t n = read(fd, buf + total, cap - total);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int err = errno;
            close(fd);
            return cli_fail(CLI_ERROR, "cannot read %s: %s", path, strerror(err));
        }
        if (n == 0) {
            break;
        }
        total += (size_t)n;
    }
    close(fd);
    *len = total;
    return CLI_OK;
}

int cli_buf_flush_stdout(cli_buf *b)
{
    int rc = cli_write_all(1, b->p, b->len);

    sc_mem_wipe(b->p, b->len);
    b->len = 0;
    return rc;
}
