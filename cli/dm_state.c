/* dm listen's state store in SQLite (Debian: libsqlite3-dev): the wrap ids already handled
 * and the subscription's cursor (sc_pool_cursor_save bytes), for one key. A wrap id and the
 * cursor are written in one transaction, so a restart resumes from a state that matches. */
#include "dm.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cli_dm_state {
    sqlite3 *db;
};

static int db_fail(cli_dm_state *s, const char *what)
{
    return cli_fail(CLI_ERROR, "state store: %s: %s", what, sqlite3_errmsg(s->db));
}

static int exec(cli_dm_state *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? CLI_OK : db_fail(s, sql);
}

/* The blob of meta key k into out (emptied; len 0 when absent). */
static int meta_get(cli_dm_state *s, const char *k, cli_buf *out)
{
    sqlite3_stmt *q = NULL;
    int rc = CLI_OK, step;

    out->len = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT v FROM meta WHERE k = ?1", -1, &q, NULL) != SQLITE_OK ||
        sqlite3_bind_text(q, 1, k, -1, SQLITE_STATIC) != SQLITE_OK) {
        rc = db_fail(s, "read");
    }
    if (rc == CLI_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
        const void *v = sqlite3_column_blob(q, 0);
        int n = sqlite3_column_bytes(q, 0);

        if (n > 0 && v != NULL) {
            rc = cli_buf_add(out, v, (size_t)n);
        }
    } else if (rc == CLI_OK && step != SQLITE_DONE) {
        rc = db_fail(s, "read");
    }
    sqlite3_finalize(q);
    return rc;
}

static int meta_put(cli_dm_state *s, const char *k, const void *v, size_t n)
{
    sqlite3_stmt *q = NULL;
    int rc = CLI_OK;

    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta (k, v) VALUES (?1, ?2)", -1, &q,
                           NULL) != SQLITE_OK ||
        sqlite3_bind_text(q, 1, k, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_blob(q, 2, n > 0 ? v : "", (int)n, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_DONE) {
        rc = db_fail(s, "write");
    }
    sqlite3_finalize(q);
    return rc;
}

cli_dm_state *cli_dm_state_open(const char *path, const uint8_t me[SC_PUBKEY_BYTES], int *rc)
{
    cli_dm_state *s = calloc(1, sizeof *s);
    cli_buf owner = CLI_BUF_INIT;
    int fd;

    if (s == NULL) {
        *rc = cli_fail(CLI_ERROR, "out of memory");
        return NULL;
    }
    /* a new store is the user's alone (mode 0600) before SQLite writes to it */
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) {
        close(fd);
    } else if (errno != EEXIST) {
        *rc = cli_fail(CLI_ERROR, "--state %s: cannot create it: %s", path, strerror(errno));
        free(s);
        return NULL;
    }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        *rc = cli_fail(CLI_ERROR, "--state %s: %s", path,
                       s->db != NULL ? sqlite3_errmsg(s->db) : "cannot open it");
        cli_dm_state_close(s);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    *rc = exec(s, "PRAGMA synchronous = FULL;"
                  "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v BLOB NOT NULL);"
                  "CREATE TABLE IF NOT EXISTS seen (id BLOB PRIMARY KEY) WITHOUT ROWID;");
    if (*rc == CLI_OK) {
        *rc = meta_get(s, "pubkey", &owner);
    }
    if (*rc == CLI_OK && owner.len == 0) {
        *rc = meta_put(s, "pubkey", me, SC_PUBKEY_BYTES);
    } else if (*rc == CLI_OK &&
               (owner.len != SC_PUBKEY_BYTES || memcmp(owner.p, me, SC_PUBKEY_BYTES) != 0)) {
        *rc = cli_fail(CLI_ERROR, "--state %s: the store of another key", path);
    }
    cli_buf_free(&owner);
    if (*rc != CLI_OK) {
        cli_dm_state_close(s);
        return NULL;
    }
    return s;
}

int cli_dm_state_cursor(cli_dm_state *s, cli_buf *out)
{
    return meta_get(s, "cursor", out);
}

int cli_dm_state_seen(cli_dm_state *s, const uint8_t id[SC_EVENT_ID_BYTES])
{
    sqlite3_stmt *q = NULL;
    int r = -1, step;

    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM seen WHERE id = ?1", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_bind_blob(q, 1, id, SC_EVENT_ID_BYTES, SQLITE_STATIC) == SQLITE_OK) {
        step = sqlite3_step(q);
        r = step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
    }
    if (r < 0) {
        db_fail(s, "read");
    }
    sqlite3_finalize(q);
    return r;
}

int cli_dm_state_commit(cli_dm_state *s, const uint8_t id[SC_EVENT_ID_BYTES], const uint8_t *cursor,
                        size_t cursor_len)
{
    sqlite3_stmt *q = NULL;
    int rc = exec(s, "BEGIN IMMEDIATE");

    if (rc == CLI_OK && id != NULL) {
        if (sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO seen (id) VALUES (?1)", -1, &q,
                               NULL) != SQLITE_OK ||
            sqlite3_bind_blob(q, 1, id, SC_EVENT_ID_BYTES, SQLITE_STATIC) != SQLITE_OK ||
            sqlite3_step(q) != SQLITE_DONE) {
            rc = db_fail(s, "write");
        }
        sqlite3_finalize(q);
    }
    if (rc == CLI_OK && cursor != NULL) {
        rc = meta_put(s, "cursor", cursor, cursor_len);
    }
    if (rc == CLI_OK) {
        return exec(s, "COMMIT");
    }
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

void cli_dm_state_close(cli_dm_state *s)
{
    if (s != NULL) {
        sqlite3_close(s->db);
        free(s);
    }
}
