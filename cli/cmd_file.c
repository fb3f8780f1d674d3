/* softchat file encrypt | file decrypt (decrypt lives in cmd_file_decrypt.c): NIP-17 kind 15
 * attachments, streamed through AES-256-GCM in bounded chunks, with OUT written atomically. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/utf8.h"

static const char usage[] =
    "usage: softchat file encrypt IN OUT [--mime TYPE]\n"
    "       softchat file decrypt (--key-file FILE | --key HEX) --nonce HEX IN OUT\n"
    "\n"
    "  file encrypt  Encrypts the file IN for a NIP-17 kind 15 message: AES-256-GCM under a\n"
    "                fresh random 32-byte key and 16-byte IV, no AAD. OUT receives the blob\n"
    "                to upload: ciphertext || 16-byte tag. stdout: one line of JSON holding\n"
    "                the kind 15 tags:\n"
    "                  {\"file-type\":TYPE,\"encryption-algorithm\":\"aes-gcm\",\n"
    "                   \"decryption-key\":HEX64,\"decryption-nonce\":HEX32,\"x\":HEX64,\n"
    "                   \"ox\":HEX64,\"size\":\"N\"}\n"
    "                x is the sha256 of the blob, ox that of IN, size the blob's length in\n"
    "                bytes; TYPE is --mime (default application/octet-stream).\n"
    "                stdout carries the decryption key: whoever reads it can read the file.\n"
    "                If stdout cannot be written, OUT is removed (exit 2): the key is lost.\n"
    "  file decrypt  Decrypts the blob IN (ciphertext || tag) with the decryption-key and\n"
    "                decryption-nonce of a kind 15 message. --nonce: 24 or 32 hex characters\n"
    "                (a 12- or 16-byte IV); with 32, if the tag does not verify, the legacy\n"
    "                IV of early 0xChat (those 32 ASCII characters themselves) is tried\n"
    "                next, IN being read again. An IN that cannot be read again (a pipe or\n"
    "                a FIFO, e.g. /dev/stdin in a pipeline) is decrypted under both IVs in\n"
    "                one pass, each into its own temporary file in OUT's directory (twice\n"
    "                the space meanwhile); the one whose tag verifies becomes OUT, the other\n"
    "                is removed. OUT receives the plaintext only after a tag has verified;\n"
    "                nothing is written to stdout.\n"
    "                --key-file FILE: a file holding the 64 hex characters of the key\n"
    "                (surrounding whitespace ignored). --key HEX takes the key on the\n"
    "                command line instead, where other local users can read it (ps, /proc)\n"
    "                and the shell history keeps it: a known exposure; prefer --key-file.\n"
    "                Exit 1, and no OUT, when no IV verifies (auth: a tampered, truncated or\n"
    "                foreign blob).\n"
    "\n"
    "Both stream the file in 64 KiB chunks (memory does not grow with the file) and write OUT\n"
    "atomically: into a temporary file in OUT's directory (mode 0600, which OUT keeps), synced,\n"
    "then moved to OUT. An existing OUT is never replaced (exit 2). On any failure, and on\n"
    "SIGINT, SIGTERM, SIGHUP or SIGQUIT, the temporary files are removed and OUT is not\n"
    "created. A progress line is shown on stderr when stderr is a terminal and the file is\n"
    "over 8 MiB. The plain sodium backend cannot run these commands (libsodium has no\n"
    "streaming AES-GCM and no 16-byte IVs): exit 2.\n";

/* What one encryption produced. */
typedef struct enc_result {
    uint8_t x[32], ox[32];
    uint64_t blob_size;
} enc_result;

/* Streams in_fd through the encryption into of. */
static int encrypt_stream(sc_ctx *ctx, int in_fd, const char *in_path, uint64_t size,
                          cli_outfile *of, const uint8_t key[SC_FILE_KEY_BYTES],
                          const uint8_t iv[SC_FILE_IV_BYTES], enc_result *res)
{
    cli_buf pt = CLI_BUF_INIT, ct = CLI_BUF_INIT;
    cli_progress prog;
    sc_file_enc e;
    size_t n = 0, out_len = 0;
    const char *failed = NULL;
    sc_status st = SC_OK;
    int err = 0, rc;

    memset(&e, 0, sizeof e);
    prog.shown = 0;
    rc = cli_buf_reserve(&pt, CLI_FILE_CHUNK);
    if (rc == CLI_OK) {
        rc = cli_buf_reserve(&ct, CLI_FILE_CHUNK + SC_FILE_FINAL_BYTES);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_file_encrypt_init(ctx, &e, key, iv, SC_FILE_IV_BYTES);
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot start the encryption");
        goto out;
    }
    cli_progress_start(&prog, "encrypting", size);
    for (;;) {
        err = cli_file_read(in_fd, pt.p, CLI_FILE_CHUNK, &n);
        if (err != 0 || n == 0) {
            failed = err != 0 ? in_path : NULL;
            break;
        }
        st = sc_file_encrypt_update(&e, ct.p, ct.cap, &out_len, pt.p, n);
        if (st != SC_OK) {
            break;
        }
        err = cli_write_fd(of->fd, ct.p, out_len);
        if (err != 0) {
            failed = of->path;
            break;
        }
        cli_progress_add(&prog, n);
    }
    if (err == 0 && st == SC_OK) {
        st = sc_file_encrypt_final(&e, ct.p, ct.cap, &out_len, res->x, res->ox, &res->blob_size);
        if (st == SC_OK) {
            err = cli_write_fd(of->fd, ct.p, out_len);
            failed = of->path;
        }
    }
    cli_progress_end(&prog);
    if (err != 0) {
        rc = cli_fail(CLI_ERROR, "cannot %s %s: %s", failed == in_path ? "read" : "write", failed,
                      strerror(err));
    } else if (st != SC_OK) {
        rc = cli_fail_status(st, "%s", in_path);
    }
out:
    sc_file_encrypt_abort(&e); /* a no-op after final; wipes the state on failure */
    cli_buf_free(&pt);
    cli_buf_free(&ct);
    return rc;
}

/* Appends ,"name":"<lowercase hex of p[0..n)>". */
/* The kind 15 tags as one line of JSON. The buffer holds the key: it is wiped when freed. */
static int tags_json(cli_buf *b, const char *mime, const uint8_t key[SC_FILE_KEY_BYTES],
                     const uint8_t iv[SC_FILE_IV_BYTES], const enc_result *res)
{
    char size[32];

    snprintf(size, sizeof size, "%llu", (unsigned long long)res->blob_size);
    if (cli_buf_adds(b, "{\"file-type\":") != CLI_OK ||
        cli_buf_json_str(b, mime, strlen(mime)) != CLI_OK ||
        cli_buf_adds(b, ",\"encryption-algorithm\":\"aes-gcm\"") != CLI_OK ||
        cli_buf_json_hex_field(b, "decryption-key", key, SC_FILE_KEY_BYTES) != CLI_OK ||
        cli_buf_json_hex_field(b, "decryption-nonce", iv, SC_FILE_IV_BYTES) != CLI_OK ||
        cli_buf_json_hex_field(b, "x", res->x, sizeof res->x) != CLI_OK ||
        cli_buf_json_hex_field(b, "ox", res->ox, sizeof res->ox) != CLI_OK ||
        cli_buf_adds(b, ",\"size\":\"") != CLI_OK || cli_buf_adds(b, size) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_adds(b, "\"}\n");
}

static int file_encrypt(const cli_globals *g, int argc, char **argv)
{
    const char *mime = NULL, *pos[2];
    const cli_opt opts[] = {{"--mime", &mime, NULL, NULL, 0, NULL}};
    uint8_t key[SC_FILE_KEY_BYTES], iv[SC_FILE_IV_BYTES];
    cli_outfile of;
    cli_buf json = CLI_BUF_INIT;
    enc_result res;
    uint64_t size = 0;
    size_t n_pos;
    sc_ctx ctx;
    sc_status st;
    int rc, in_fd = -1, committed = 0;

    memset(&ctx, 0, sizeof ctx);
    memset(&res, 0, sizeof res);
    of.fd = -1;
    of.tmp = NULL;
    of.dir = NULL;
    rc = cli_parse_args(usage, argc, argv, opts, 1, pos, 2, &n_pos);
    if (rc != CLI_OK) {
        return rc;
    }
    if (n_pos != 2) {
        return cli_usage_error(usage, "file encrypt needs IN and OUT");
    }
    if (mime == NULL) {
        mime = "application/octet-stream";
    }
    if (mime[0] == '\0' || sc_utf8_check(mime, strlen(mime)) != SC_OK) {
        return cli_usage_error(usage, "--mime: expected a MIME type (non-empty UTF-8)");
    }
    rc = cli_ctx_init(&ctx, g);
    if (rc == CLI_OK) {
        rc = cli_file_supported(&ctx);
    }
    if (rc == CLI_OK) {
        rc = cli_file_open_in(pos[0], &in_fd, &size);
    }
    if (rc == CLI_OK) {
        rc = cli_outfile_open(&of, pos[1]);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_file_keygen(&ctx, key, iv);
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot generate the file key");
        goto out;
    }
    rc = encrypt_stream(&ctx, in_fd, pos[0], size, &of, key, iv, &res);
    if (rc == CLI_OK) {
        rc = tags_json(&json, mime, key, iv, &res);
    }
    if (rc == CLI_OK) {
        rc = cli_outfile_commit(&of);
        committed = rc == CLI_OK;
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, json.p, json.len);
        if (rc != CLI_OK) {
            unlink(pos[1]); /* without its key the blob is of no use to anyone */
        }
    }
out:
    if (!committed) {
        cli_outfile_discard(&of);
    }
    if (in_fd >= 0) {
        close(in_fd);
    }
    sc_mem_wipe(key, sizeof key);
    sc_mem_wipe(iv, sizeof iv);
    cli_buf_free(&json);
    sc_ctx_clear(&ctx);
    return rc;
}

int cmd_file(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "file", "encrypt", "decrypt", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? file_encrypt(g, argc - 2, argv + 2)
                         : cmd_file_decrypt(g, argc - 2, argv + 2, usage);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
