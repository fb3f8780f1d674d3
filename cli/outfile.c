/* Output files that appear whole or not at all: written under a temporary name in the final
 * directory (so the move is a single link or rename on one file system), fsynced, then moved
 * into place without ever replacing an existing file. Signals that end the process remove
 * the temporary files first: for file decrypt they hold plaintext that is not authenticated. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary paths a fatal signal removes, one slot per open cli_outfile (file decrypt of
 * an input it cannot read twice holds two at once). A signal handler can reach nothing but
 * static storage, hence this one static; a slot's path is complete before armed is set. */
#define PENDING_SLOTS 2

static struct {
    volatile sig_atomic_t installed;
    struct {
        volatile sig_atomic_t armed;
        char path[4096];
    } slot[PENDING_SLOTS];
} pending;

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void on_fatal_signal(int sig)
{
    int saved = errno;
    size_t i;

    for (i = 0; i < PENDING_SLOTS; i++) {
        if (pending.slot[i].armed) {
            pending.slot[i].armed = 0;
            unlink(pending.slot[i].path); /* async-signal-safe */
        }
    }
    /* SA_RESETHAND restored the default action; the signal is blocked while this handler
     * runs, so the re-raised one is delivered, and ends the process, when it returns */
    raise(sig);
    errno = saved;
}

static void fatal_set(sigset_t *set)
{
    size_t i;

    sigemptyset(set);
    for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        sigaddset(set, fatal_signals[i]);
    }
}

static void install_handlers(void)
{
    struct sigaction sa, old;
    size_t i;

    if (pending.installed) {
        return;
    }
    pending.installed = 1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND;
    fatal_set(&sa.sa_mask); /* one handler at a time: a second signal waits for the first */
    for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        /* a signal the caller ignores (nohup) stays ignored */
        if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
            sigaction(fatal_signals[i], &sa, NULL);
        }
    }
}

/* Takes a free slot for path; -1 when every slot is taken (a bug of the caller) or the path
 * does not fit (the kernel refuses such paths anyway). */
static int arm(const char *path)
{
    size_t n = strlen(path), i;

    for (i = 0; i < PENDING_SLOTS; i++) {
        if (!pending.slot[i].armed && n < sizeof pending.slot[i].path) {
            memcpy(pending.slot[i].path, path, n + 1);
            pending.slot[i].armed = 1;
            return 0;
        }
    }
    return -1;
}

/* Frees the slot that holds path (a no-op for NULL or a path no slot holds). */
static void disarm(const char *path)
{
    size_t i;

    for (i = 0; path != NULL && i < PENDING_SLOTS; i++) {
        if (pending.slot[i].armed && strcmp(pending.slot[i].path, path) == 0) {
            pending.slot[i].armed = 0;
        }
    }
}

static void release(cli_outfile *f)
{
    disarm(f->tmp);
    free(f->tmp);
    free(f->dir);
    f->tmp = NULL;
    f->dir = NULL;
    f->fd = -1;
}

/* Sets f->dir and f->tmp (the mkstemp template ".<name>.softchat-XXXXXX") from f->path. */
static int make_names(cli_outfile *f)
{
    const char *slash = strrchr(f->path, '/');
    const char *name = slash != NULL ? slash + 1 : f->path;
    size_t dir_len = slash == NULL ? 1 : slash == f->path ? 1 : (size_t)(slash - f->path);
    size_t name_len = strlen(name);

    if (name_len == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        return cli_fail(CLI_ERROR, "%s: names a directory, not a file", f->path);
    }
    if (name_len > 200) {
        name_len = 200; /* the temporary name stays within NAME_MAX */
    }
    f->dir = malloc(dir_len + 1);
    f->tmp = malloc(dir_len + name_len + 32);
    if (f->dir == NULL || f->tmp == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    memcpy(f->dir, slash == NULL ? "." : f->path, dir_len);
    f->dir[dir_len] = '\0';
    snprintf(f->tmp, dir_len + name_len + 32, "%s/.%.*s.softchat-XXXXXX", f->dir, (int)name_len,
             name);
    return CLI_OK;
}

int cli_outfile_open(cli_outfile *f, const char *path)
{
    struct stat st;
    sigset_t block, saved;
    int err;

    f->fd = -1;
    f->path = path;
    f->tmp = NULL;
    f->dir = NULL;
    if (lstat(path, &st) == 0) {
        return cli_fail(CLI_ERROR, "%s already exists; refusing to overwrite it", path);
    }
    if (errno != ENOENT) {
        return cli_fail(CLI_ERROR, "cannot create %s: %s", path, strerror(errno));
    }
    if (make_names(f) != CLI_OK) {
        release(f);
        return CLI_ERROR;
    }
    install_handlers();
    /* no fatal signal between the file's creation and its slot: it would be left behind */
    fatal_set(&block);
    sigprocmask(SIG_BLOCK, &block, &saved);
    f->fd = mkstemp(f->tmp); /* O_CREAT | O_EXCL, mode 0600 */
    err = f->fd < 0 ? errno : 0;
    if (f->fd >= 0 && arm(f->tmp) != 0) {
        close(f->fd);
        unlink(f->tmp);
        f->fd = -1;
        err = EMFILE;
    }
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (f->fd < 0) {
        cli_fail(CLI_ERROR, "cannot create a temporary file in %s: %s", f->dir, strerror(err));
        release(f);
        return CLI_ERROR;
    }
    return CLI_OK;
}

int cli_outfile_write(cli_outfile *f, const void *p, size_t n)
{
    int err = cli_write_fd(f->fd, p, n);

    if (err != 0) {
        return cli_fail(CLI_ERROR, "cannot write %s: %s", f->path, strerror(err));
    }
    return CLI_OK;
}

void cli_outfile_discard(cli_outfile *f)
{
    if (f->fd >= 0) {
        close(f->fd);
        unlink(f->tmp);
    }
    release(f);
}

/* Moves the finished temporary file to f->path, never replacing a file there. Returns 0 or
 * an errno value. */
static int move_into_place(const cli_outfile *f)
{
    struct stat st;

    if (link(f->tmp, f->path) == 0) {
        unlink(f->tmp);
        return 0;
    }
    if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP && errno != ENOSYS &&
        errno != EMLINK) {
        return errno;
    }
    /* a file system without hard links: a fresh check, then rename (a file created in the
     * instant between the two would be replaced; no portable call closes that window) */
    if (lstat(f->path, &st) == 0) {
        return EEXIST;
    }
    if (rename(f->tmp, f->path) != 0) {
        return errno;
    }
    return 0;
}

int cli_outfile_commit(cli_outfile *f)
{
    int err = 0, dfd;

    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS) {
        err = errno; /* EINVAL/EROFS: a file system without fsync */
    }
    if (close(f->fd) != 0 && err == 0) {
        err = errno;
    }
    f->fd = -1;
    if (err == 0) {
        err = move_into_place(f);
    }
    if (err != 0) {
        unlink(f->tmp);
        if (err == EEXIST) {
            cli_fail(CLI_ERROR, "%s already exists; refusing to overwrite it", f->path);
        } else {
            cli_fail(CLI_ERROR, "cannot write %s: %s", f->path, strerror(err));
        }
        release(f);
        return CLI_ERROR;
    }
    disarm(f->tmp);
    /* the new directory entry is durable once the directory is synced (best effort: some
     * file systems cannot sync a directory, and the file's own data is already durable) */
    dfd = open(f->dir, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_DIRECTORY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    release(f);
    return CLI_OK;
}
