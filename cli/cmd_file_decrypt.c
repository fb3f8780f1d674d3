/* softchat file decrypt: a kind 15 blob (ciphertext || tag) streamed through AES-256-GCM into
 * a sink that holds the unauthenticated plaintext in a temporary file beside OUT and moves it
 * to OUT only once the tag has verified; a failed tag removes it. The IV candidates of the
 * decryption-nonce are tried in order, reading IN again for each; an IN that cannot be read
 * again (a pipe, a FIFO) is decrypted under every candidate at once, in one pass, each into
 * its own temporary file, and the first whose tag verifies becomes OUT. */
#include "cli.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A key file holds one key and some whitespace. */
#define KEY_FILE_MAX 4096u

/* What the command works with. */
typedef struct dec_job {
    const char *in_path, *out_path;
    int in_fd;
    uint64_t size;
    uint8_t key[SC_FILE_KEY_BYTES];
    uint8_t ivs[2][32];
    size_t iv_lens[2];
    size_t n_ivs;
} dec_job;

/* The sink: plaintext batched into CLI_FILE_CHUNK writes to the temporary file. */
typedef struct dec_sink {
    cli_outfile of;
    cli_buf stage; /* unauthenticated plaintext not yet written; wiped after each write */
    int err;       /* errno of a failed write, reported by the caller */
    int reported;  /* commit printed its own failure */
} dec_sink;

static int stage_flush(dec_sink *s)
{
    int err = cli_write_fd(s->of.fd, s->stage.p, s->stage.len);

    sc_mem_wipe(s->stage.p, s->stage.len);
    s->stage.len = 0;
    return err;
}

static sc_status sink_write(void *user, const uint8_t *data, size_t len)
{
    dec_sink *s = user;

    if (s->stage.len + len > s->stage.cap) {
        s->err = stage_flush(s);
        if (s->err != 0) {
            return SC_ERR_IO;
        }
    }
    memcpy(s->stage.p + s->stage.len, data, len); /* len <= SC_FILE_SINK_MAX_WRITE <= cap */
    s->stage.len += len;
    return SC_OK;
}

static sc_status sink_commit(void *user)
{
    dec_sink *s = user;

    s->err = stage_flush(s);
    s->reported = 1;
    if (s->err != 0) {
        cli_fail(CLI_ERROR, "cannot write %s: %s", s->of.path, strerror(s->err));
        cli_outfile_discard(&s->of); /* commit cleans up after itself */
        return SC_ERR_IO;
    }
    if (cli_outfile_commit(&s->of) != CLI_OK) {
        return SC_ERR_IO; /* message printed, temporary file removed */
    }
    s->reported = 0;
    return SC_OK;
}

static void sink_discard(void *user)
{
    dec_sink *s = user;

    sc_mem_wipe(s->stage.p, s->stage.len);
    s->stage.len = 0;
    cli_outfile_discard(&s->of);
}

/* One decryption operation under one IV candidate, on a context of its own (one streaming
 * operation per context), into its own sink. */
typedef struct dec_op {
    sc_file_dec d;
    dec_sink s;
} dec_op;

/* Opens the temporary file beside OUT and starts decrypting under IV number c. Returns CLI_OK
 * (the operation is live: it ends in op_finish or op_end) or CLI_ERROR (message printed,
 * nothing left behind). */
static int op_start(dec_op *o, sc_ctx *ctx, const dec_job *j, size_t c)
{
    sc_file_sink sink;
    sc_status st;

    memset(o, 0, sizeof *o);
    if (cli_buf_reserve(&o->s.stage, CLI_FILE_CHUNK) != CLI_OK) {
        return CLI_ERROR;
    }
    if (cli_outfile_open(&o->s.of, j->out_path) != CLI_OK) {
        cli_buf_free(&o->s.stage);
        return CLI_ERROR;
    }
    sink.user = &o->s;
    sink.write = sink_write;
    sink.commit = sink_commit;
    sink.discard = sink_discard;
    st = sc_file_decrypt_init(ctx, &o->d, j->key, j->ivs[c], j->iv_lens[c], &sink);
    if (st != SC_OK) {
        cli_outfile_discard(&o->s.of); /* a failed init calls no callback */
        cli_buf_free(&o->s.stage);
        return cli_fail_status(st, "cannot start the decryption");
    }
    return CLI_OK;
}

/* The exit status for st, the failure of an update or of final: CLI_INVALID for a tag that
 * did not verify (nothing printed: the caller may try another IV), else the error, printed. */
static int op_status(const dec_op *o, const dec_job *j, sc_status st)
{
    if (st == SC_ERR_AUTH) {
        return CLI_INVALID;
    }
    if (st == SC_ERR_IO && o->s.reported) {
        return CLI_ERROR; /* commit printed it */
    }
    if (st == SC_ERR_IO) {
        return cli_fail(CLI_ERROR, "cannot write %s: %s", j->out_path, strerror(o->s.err));
    }
    return cli_fail_status(st, "%s", j->in_path);
}

/* Verifies the tag: OUT committed (CLI_OK), or CLI_INVALID (discarded, nothing printed), or
 * CLI_ERROR (printed). The operation has ended either way. */
static int op_finish(dec_op *o, const dec_job *j)
{
    sc_status st = sc_file_decrypt_final(&o->d, NULL, NULL);

    return st == SC_OK ? CLI_OK : op_status(o, j, st);
}

/* Ends the operation if it still runs (its temporary file removed) and frees the stage. */
static void op_end(dec_op *o)
{
    sc_file_decrypt_abort(&o->d); /* a no-op once the operation ended */
    cli_buf_free(&o->s.stage);
}

/* Feeds IN, from where it stands, to ops[0..n_ops) chunk by chunk under a progress line
 * `label`. Returns CLI_OK when IN ended with every operation fed; else CLI_ERROR for a read
 * error (printed), or op_status of the operation that refused a chunk (the same for every
 * candidate: the others are not fed further). */
static int feed(dec_job *j, dec_op *ops, size_t n_ops, cli_buf *chunk, const char *label)
{
    cli_progress prog;
    size_t n = 0, c = 0;
    sc_status st = SC_OK;
    int err;

    cli_progress_start(&prog, label, j->size);
    for (;;) {
        err = cli_file_read(j->in_fd, chunk->p, CLI_FILE_CHUNK, &n);
        if (err != 0 || n == 0) {
            break;
        }
        for (c = 0; c < n_ops && st == SC_OK; c++) {
            st = sc_file_decrypt_update(&ops[c].d, chunk->p, n);
        }
        if (st != SC_OK) {
            break; /* its sink is discarded */
        }
        cli_progress_add(&prog, n);
    }
    cli_progress_end(&prog);
    if (err != 0) {
        return cli_fail(CLI_ERROR, "cannot read %s: %s", j->in_path, strerror(err));
    }
    return st == SC_OK ? CLI_OK : op_status(&ops[c - 1], j, st);
}

/* One attempt with IV number c, reading IN from its start. Returns CLI_OK (OUT written),
 * CLI_INVALID (the tag did not verify: nothing left behind, nothing printed) or CLI_ERROR
 * (message printed). */
static int try_iv(sc_ctx *ctx, dec_job *j, size_t c, cli_buf *chunk)
{
    dec_op o;
    int rc;

    if (c > 0 && lseek(j->in_fd, 0, SEEK_SET) != 0) {
        return cli_fail(CLI_ERROR, "cannot read %s again to try the legacy IV: %s", j->in_path,
                        strerror(errno));
    }
    if (op_start(&o, ctx, j, c) != CLI_OK) {
        return CLI_ERROR;
    }
    rc = feed(j, &o, 1, chunk, c == 0 ? "decrypting" : "decrypting (legacy IV)");
    if (rc == CLI_OK) {
        rc = op_finish(&o, j);
    }
    op_end(&o); /* on a read error: discards the sink */
    return rc;
}

/* Every IV candidate at once, for an IN read only once: one operation per candidate (each on
 * its own context) over the same chunks, each into its own temporary file beside OUT. The
 * first whose tag verifies is committed to OUT and the others are discarded, so the result is
 * that of try_iv over each candidate in turn. Returns as try_iv. */
static int try_all_ivs(sc_ctx *ctxs, dec_job *j, cli_buf *chunk)
{
    dec_op ops[2];
    size_t c, started = 0;
    int rc = CLI_OK;

    for (c = 0; c < j->n_ivs && rc == CLI_OK; c++) {
        rc = op_start(&ops[c], &ctxs[c], j, c);
        started += rc == CLI_OK;
    }
    if (rc == CLI_OK) {
        rc = feed(j, ops, j->n_ivs, chunk, "decrypting");
    }
    if (rc == CLI_OK) {
        rc = CLI_INVALID;
        for (c = 0; c < j->n_ivs && rc == CLI_INVALID; c++) {
            rc = op_finish(&ops[c], j); /* the first that verifies is committed */
        }
    }
    for (c = 0; c < started; c++) {
        op_end(&ops[c]); /* the candidates not finished: their temporary files removed */
    }
    return rc;
}

/* 1 when IN can be read again from its start (a regular file or a block device): then the
 * IV candidates are tried one after the other, which costs one decryption in the common case
 * (the first candidate verifies). */
static int rereadable(int fd)
{
    struct stat st;

    return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) &&
           lseek(fd, 0, SEEK_CUR) == 0;
}

/* Reads the 64 hex characters of a file key. */
static int load_key_file(uint8_t key[SC_FILE_KEY_BYTES], const char *path)
{
    char buf[KEY_FILE_MAX];
    size_t n = 0, start = 0;
    int rc = cli_read_small_file(path, buf, sizeof buf, &n);

    if (rc != CLI_OK) {
        goto out;
    }
    while (n > 0 &&
           (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\n' || buf[n - 1] == '\r')) {
        n--;
    }
    while (start < n &&
           (buf[start] == ' ' || buf[start] == '\t' || buf[start] == '\n' || buf[start] == '\r')) {
        start++;
    }
    if (n == sizeof buf || n - start != 64 ||
        sc_hex_decode_fixed(key, SC_FILE_KEY_BYTES, buf + start, 64, SC_HEX_ANY_CASE) != SC_OK) {
        rc = cli_fail(CLI_INVALID, "%s: not a file key: expected 64 hex characters", path);
    }
out:
    sc_mem_wipe(buf, sizeof buf);
    return rc;
}

/* Parses the command line into j (the key only when given on it). */
static int parse(dec_job *j, const char **key_file, int argc, char **argv, const char *usage)
{
    const char *key_arg = NULL, *nonce = NULL, *pos[2];
    const cli_opt opts[] = {
        {"--key", &key_arg, NULL, NULL, 0, NULL},
        {"--key-file", key_file, NULL, NULL, 0, NULL},
        {"--nonce", &nonce, NULL, NULL, 0, NULL},
    };
    size_t n_pos;
    int rc = cli_parse_args(usage, argc, argv, opts, 3, pos, 2, &n_pos);

    if (rc != CLI_OK) {
        return rc;
    }
    if (n_pos != 2) {
        return cli_usage_error(usage, "file decrypt needs IN and OUT");
    }
    if ((key_arg == NULL) == (*key_file == NULL)) {
        return cli_usage_error(usage, "file decrypt needs the key: --key-file FILE or --key HEX "
                                      "(one of them)");
    }
    if (nonce == NULL) {
        return cli_usage_error(usage, "file decrypt needs --nonce HEX");
    }
    if (key_arg != NULL && cli_hex32(j->key, key_arg) != 0) {
        return cli_usage_error(usage, "--key: expected 64 hex characters");
    }
    if (sc_file_iv_candidates(j->ivs, j->iv_lens, &j->n_ivs, nonce, strlen(nonce)) != SC_OK) {
        return cli_usage_error(usage, "--nonce: expected 24 or 32 hex characters (a 12- or "
                                      "16-byte IV)");
    }
    j->in_path = pos[0];
    j->out_path = pos[1];
    return CLI_OK;
}

int cmd_file_decrypt(const cli_globals *g, int argc, char **argv, const char *usage)
{
    const char *key_file = NULL;
    cli_buf chunk = CLI_BUF_INIT;
    dec_job j;
    sc_ctx ctx[2]; /* the second only for a one-pass decryption under both IVs */
    size_t c;
    int rc, auth_failed = 0;

    memset(&j, 0, sizeof j);
    memset(ctx, 0, sizeof ctx);
    j.in_fd = -1;
    rc = parse(&j, &key_file, argc, argv, usage);
    if (rc == CLI_OK) {
        rc = cli_ctx_init(&ctx[0], g);
    }
    if (rc == CLI_OK) {
        rc = cli_file_supported(&ctx[0]);
    }
    if (rc == CLI_OK && key_file != NULL) {
        rc = load_key_file(j.key, key_file);
    }
    if (rc == CLI_OK) {
        rc = cli_file_open_in(j.in_path, &j.in_fd, &j.size);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_reserve(&chunk, CLI_FILE_CHUNK);
    }
    if (rc == CLI_OK && j.n_ivs > 1 && !rereadable(j.in_fd)) {
        rc = cli_ctx_init(&ctx[1], g);
        if (rc == CLI_OK) {
            rc = try_all_ivs(ctx, &j, &chunk);
            auth_failed = rc == CLI_INVALID;
        }
    } else {
        for (c = 0; rc == CLI_OK && c < j.n_ivs; c++) {
            rc = try_iv(&ctx[0], &j, c, &chunk);
            auth_failed = rc == CLI_INVALID;
            if (!auth_failed) {
                break; /* decrypted, or an error (printed) */
            }
            if (c + 1 < j.n_ivs) {
                rc = CLI_OK; /* the next IV */
            }
        }
    }
    if (auth_failed) {
        cli_fail_token(SC_ERR_AUTH, "cannot decrypt %s%s", j.in_path,
                       j.n_ivs > 1 ? " with the hex IV or the legacy ASCII IV" : "");
    }
    if (j.in_fd >= 0) {
        close(j.in_fd);
    }
    cli_buf_free(&chunk); /* it held ciphertext only, but costs nothing to wipe */
    sc_mem_wipe(j.key, sizeof j.key);
    sc_mem_wipe(j.ivs, sizeof j.ivs);
    sc_ctx_clear(&ctx[1]);
    sc_ctx_clear(&ctx[0]);
    return rc;
}
