/* softchat file decrypt: a kind 15 blob (ciphertext || tag) streamed through AES-256-GCM into
 * a sink that holds the unauthenticated plaintext in a temporary file beside OUT and moves it
 * to OUT only once the tag has verified; a failed tag removes it. The IV candidates of the
 * decryption-nonce are tried in order, reading IN again for each. */
#include "cli.h"

#include <errno.h>
#include <string.h>
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

/* One attempt with IV number c. Returns CLI_OK (OUT written), CLI_INVALID (the tag did not
 * verify: nothing left behind, nothing printed) or CLI_ERROR (message printed). */
static int try_iv(sc_ctx *ctx, dec_job *j, size_t c, cli_buf *chunk)
{
    dec_sink s;
    sc_file_sink sink;
    sc_file_dec d;
    cli_progress prog;
    size_t n = 0;
    sc_status st = SC_OK;
    int err = 0, rc;

    memset(&s, 0, sizeof s);
    memset(&d, 0, sizeof d);
    if (c > 0 && lseek(j->in_fd, 0, SEEK_SET) != 0) {
        return cli_fail(CLI_ERROR, "cannot read %s again to try the legacy IV: %s", j->in_path,
                        strerror(errno));
    }
    if (cli_buf_reserve(&s.stage, CLI_FILE_CHUNK) != CLI_OK) {
        return CLI_ERROR;
    }
    if (cli_outfile_open(&s.of, j->out_path) != CLI_OK) {
        cli_buf_free(&s.stage);
        return CLI_ERROR;
    }
    sink.user = &s;
    sink.write = sink_write;
    sink.commit = sink_commit;
    sink.discard = sink_discard;
    st = sc_file_decrypt_init(ctx, &d, j->key, j->ivs[c], j->iv_lens[c], &sink);
    if (st != SC_OK) {
        cli_outfile_discard(&s.of); /* a failed init calls no callback */
        cli_buf_free(&s.stage);
        return cli_fail_status(st, "cannot start the decryption");
    }
    cli_progress_start(&prog, c == 0 ? "decrypting" : "decrypting (legacy IV)", j->size);
    for (;;) {
        err = cli_file_read(j->in_fd, chunk->p, CLI_FILE_CHUNK, &n);
        if (err != 0 || n == 0) {
            break;
        }
        st = sc_file_decrypt_update(&d, chunk->p, n);
        if (st != SC_OK) {
            break; /* the sink is discarded */
        }
        cli_progress_add(&prog, n);
    }
    cli_progress_end(&prog);
    if (err != 0) {
        sc_file_decrypt_abort(&d); /* discards the sink */
        rc = cli_fail(CLI_ERROR, "cannot read %s: %s", j->in_path, strerror(err));
    } else {
        if (st == SC_OK) {
            st = sc_file_decrypt_final(&d, NULL, NULL);
        }
        if (st == SC_OK) {
            rc = CLI_OK;
        } else if (st == SC_ERR_AUTH) {
            rc = CLI_INVALID;
        } else if (st == SC_ERR_IO && s.reported) {
            rc = CLI_ERROR;
        } else if (st == SC_ERR_IO) {
            rc = cli_fail(CLI_ERROR, "cannot write %s: %s", j->out_path, strerror(s.err));
        } else {
            rc = cli_fail_status(st, j->in_path);
        }
    }
    sc_file_decrypt_abort(&d); /* a no-op once the operation ended */
    cli_buf_free(&s.stage);
    return rc;
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
    while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\n' ||
                     buf[n - 1] == '\r')) {
        n--;
    }
    while (start < n && (buf[start] == ' ' || buf[start] == '\t' || buf[start] == '\n' ||
                         buf[start] == '\r')) {
        start++;
    }
    if (n == sizeof buf || n - start != 64 ||
        sc_hex_decode_fixed(key, SC_FILE_KEY_BYTES, buf + start, 64, SC_HEX_ANY_CASE) !=
            SC_OK) {
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
    sc_ctx ctx;
    size_t c;
    int rc, auth_failed = 0;

    memset(&j, 0, sizeof j);
    memset(&ctx, 0, sizeof ctx);
    j.in_fd = -1;
    rc = parse(&j, &key_file, argc, argv, usage);
    if (rc == CLI_OK) {
        rc = cli_ctx_init(&ctx, g);
    }
    if (rc == CLI_OK) {
        rc = cli_file_supported(&ctx);
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
    for (c = 0; rc == CLI_OK && c < j.n_ivs; c++) {
        rc = try_iv(&ctx, &j, c, &chunk);
        auth_failed = rc == CLI_INVALID;
        if (!auth_failed) {
            break; /* decrypted, or an error (printed) */
        }
        if (c + 1 < j.n_ivs) {
            rc = CLI_OK; /* the next IV */
        }
    }
    if (auth_failed) {
        cli_fail(CLI_INVALID, "cannot decrypt %s%s: auth: %s (%s)", j.in_path,
                 j.n_ivs > 1 ? " with the hex IV or the legacy ASCII IV" : "",
                 sc_status_str(SC_ERR_AUTH), sc_status_name(SC_ERR_AUTH));
    }
    if (j.in_fd >= 0) {
        close(j.in_fd);
    }
    cli_buf_free(&chunk); /* it held ciphertext only, but costs nothing to wipe */
    sc_mem_wipe(j.key, sizeof j.key);
    sc_mem_wipe(j.ivs, sizeof j.ivs);
    sc_ctx_clear(&ctx);
    return rc;
}
