/* softchat nip44 encrypt | nip44 decrypt: NIP-44 v2 payloads between the key in --sec-file
 * and the peer's public key --pub. */
#include "cli.h"
#include "user_key.h"

#include <string.h>

#include "util/utf8.h"

/* The largest plaintext encrypted (with --extended), and the largest payload decrypted:
 * every payload this tool can produce (at most 4/3 of 9/8 of 32 MiB, about 48 MiB) decrypts. */
#define MAX_PLAINTEXT 33554432u /* 32 MiB */
#define MAX_PAYLOAD 67108864u   /* 64 MiB of base64 */
#define PAYLOAD_SLACK 4096u     /* trailing whitespace read beyond MAX_PAYLOAD */

static const char usage[] =
    "usage: softchat nip44 encrypt --sec-file FILE --pub KEY [--nonce HEX] [--extended]\n"
    "                              < plaintext\n"
    "       softchat nip44 decrypt --sec-file FILE --pub KEY < payload\n"
    "       softchat nip44 encrypt|decrypt --signer URI [--ca-file FILE] [--timeout S]\n"
    "                              --pub KEY < input\n"
    "\n"
    "  nip44 encrypt  stdin: the plaintext, 1 to 65535 bytes of UTF-8. --extended admits\n"
    "                 up to 32 MiB, written from 65536 bytes on with the NIP-44 extended length\n"
    "                 prefix, which decoders that only know the 2-byte prefix cannot read.\n"
    "                 stdout: the base64 payload and a newline.\n"
    "                 --nonce HEX: the 32-byte nonce as 64 hex characters, for test vectors\n"
    "                 only (a nonce must never be reused); by default a fresh one comes from\n"
    "                 the backend's CSPRNG.\n"
    "  nip44 decrypt  stdin: the payload (trailing whitespace ignored; at most 64 MiB).\n"
    "                 stdout: exactly the plaintext bytes, no newline added, written only\n"
    "                 after the MAC has been verified and the plaintext is valid UTF-8.\n"
    "\n"
    "KEY, the peer's public key, is 64 hex characters or an npub. The secret key file holds\n"
    "64 hex characters or an nsec; surrounding whitespace is ignored.\n"
    "--signer URI instead of --sec-file: the key stays in a NIP-46 remote signer (a bunker://\n"
    "URI, e.g. from softchat bunker), reached over its relays as by event sign --signer\n"
    "(--ca-file FILE: the CAs of wss:// ones; --timeout S: each answer's wait, default 30).\n"
    "The text goes to the signer as a nip44_encrypt or nip44_decrypt request (grant\n"
    "nip44_encrypt or nip44_decrypt), and its answer is checked before it is written (a\n"
    "payload of the one length NIP-44 gives the plaintext; a plaintext of UTF-8 that fills the\n"
    "payload's padding exactly). --nonce and --extended need --sec-file. A refusal, or no\n"
    "answer in time, is exit 2 and nothing is written.\n";

/* What both directions share: the arguments, the context and the user's key. */
typedef struct nip44_job {
    cli_user_args user_args;
    const char *pub_arg;
    const char *nonce_arg;
    int extended;
    uint8_t pub[SC_PUBKEY_BYTES];
    uint8_t nonce[SC_NIP44_NONCE_BYTES];
    cli_user user;
    sc_ctx ctx;
} nip44_job;

/* Parses the arguments and sets up the context (the key is opened once the input is read:
 * a remote signer is reached only for input that can be sent). */
static int setup(nip44_job *j, const cli_globals *g, int encrypt, int argc, char **argv)
{
    cli_opt opts[CLI_USER_N_OPTS + 3];
    size_t n = cli_user_opts(opts, &j->user_args), n_pos;
    int rc;

    opts[n++] = (cli_opt){"--pub", &j->pub_arg, NULL, NULL, 0, NULL};
    if (encrypt) {
        opts[n++] = (cli_opt){"--nonce", &j->nonce_arg, NULL, NULL, 0, NULL};
        opts[n++] = (cli_opt){"--extended", NULL, &j->extended, NULL, 0, NULL};
    }
    rc = cli_parse_args(usage, argc, argv, opts, n, NULL, 0, &n_pos);
    if (rc != CLI_OK) {
        return rc;
    }
    if (j->pub_arg == NULL) {
        return cli_usage_error(usage, "nip44 %s needs --pub KEY", encrypt ? "encrypt" : "decrypt");
    }
    if (cli_user_check(&j->user_args, usage, encrypt ? "nip44 encrypt" : "nip44 decrypt") !=
        CLI_OK) {
        return CLI_ERROR;
    }
    if (j->user_args.signer != NULL && (j->nonce_arg != NULL || j->extended)) {
        return cli_usage_error(usage, "--nonce and --extended go with --sec-file: a remote "
                                      "signer draws its own nonce and knows no extended prefix");
    }
    if (cli_parse_pubkey(j->pub, j->pub_arg, "--pub", usage) != CLI_OK) {
        return CLI_ERROR;
    }
    if (j->nonce_arg != NULL && cli_hex32(j->nonce, j->nonce_arg) != 0) {
        return cli_usage_error(usage, "--nonce: expected 64 hex characters");
    }
    return cli_ctx_init(&j->ctx, g);
}

/* The message for a failed encryption or decryption. */
static int op_failure(sc_status st, const char *what)
{
    if (st == SC_ERR_INVALID_KEY) {
        return cli_fail(CLI_INVALID,
                        "--pub: not a valid public key (no point on the curve has "
                        "that x coordinate) (%s)",
                        sc_status_name(st));
    }
    return cli_fail_status(st, "%s", what);
}

static int run_encrypt(nip44_job *j, cli_buf *in, cli_buf *out)
{
    sc_signer_op op;
    int rc;
    size_t limit = j->extended ? MAX_PLAINTEXT : SC_NIP44_MAX_SHORT_PLAINTEXT, used = 0;
    unsigned flags = j->extended ? SC_NIP44_EXTENDED : 0u;
    sc_status st;

    if (cli_read_all(0, in, limit, "stdin") != CLI_OK) {
        return CLI_ERROR;
    }
    if (in->len == 0) {
        return cli_fail(CLI_INVALID, "empty plaintext: NIP-44 encrypts 1 byte or more");
    }
    if (in->len > limit && !j->extended) {
        return cli_fail(CLI_INVALID,
                        "plaintext of 65536 bytes or more: %s (%s); pass --extended to use the "
                        "NIP-44 extended length prefix (decoders that only know the 2-byte "
                        "prefix cannot read it)",
                        sc_status_str(SC_ERR_POLICY), sc_status_name(SC_ERR_POLICY));
    }
    if (in->len > limit) {
        return cli_fail_status(SC_ERR_TOO_LARGE,
                               "plaintext larger than %u bytes, this tool's limit", MAX_PLAINTEXT);
    }
    if (sc_utf8_check((const char *)in->p, in->len) != SC_OK) {
        return cli_fail(CLI_INVALID, "plaintext: %s (%s); NIP-44 encrypts UTF-8 text",
                        sc_status_str(SC_ERR_UTF8), sc_status_name(SC_ERR_UTF8));
    }
    if (cli_buf_reserve(out, sc_nip44_encrypt_len(in->len) + 1) != CLI_OK) {
        return CLI_ERROR;
    }
    if ((rc = cli_user_open(&j->user, &j->ctx, &j->user_args)) != CLI_OK) {
        return rc;
    }
    if (j->nonce_arg != NULL) {
        st = sc_nip44_encrypt_start_with_rand(&j->ctx, &op, (char *)out->p, out->cap, &used,
                                              j->user.ext.signer, j->pub, j->nonce, in->p, in->len,
                                              flags);
    } else {
        st = sc_nip44_encrypt_start(&j->ctx, &op, (char *)out->p, out->cap, &used,
                                    j->user.ext.signer, j->pub, in->p, in->len, flags);
    }
    if (st == SC_OK) {
        st = j->user.ext.drive(j->user.ext.user, &op);
    }
    sc_signer_op_clear(&op);
    if (st != SC_OK) {
        return op_failure(st, "cannot encrypt");
    }
    out->len = used;
    return cli_buf_addc(out, '\n');
}

static int run_decrypt(nip44_job *j, cli_buf *in, cli_buf *out)
{
    sc_signer_op op;
    int rc;
    size_t n, used = 0;
    sc_status st;

    if (cli_read_all(0, in, MAX_PAYLOAD + PAYLOAD_SLACK, "stdin") != CLI_OK) {
        return CLI_ERROR;
    }
    n = in->len;
    /* a read that stopped at its limit is never trimmed: what follows it is unknown */
    while (n > 0 && in->len <= MAX_PAYLOAD + PAYLOAD_SLACK &&
           (in->p[n - 1] == ' ' || in->p[n - 1] == '\t' || in->p[n - 1] == '\n' ||
            in->p[n - 1] == '\r')) {
        n--;
    }
    if (n > MAX_PAYLOAD) {
        return cli_fail_status(SC_ERR_TOO_LARGE,
                               "payload larger than %u characters, this tool's limit", MAX_PAYLOAD);
    }
    if (cli_buf_reserve(out, sc_nip44_decrypt_max(n) + 1) != CLI_OK) {
        return CLI_ERROR;
    }
    if ((rc = cli_user_open(&j->user, &j->ctx, &j->user_args)) != CLI_OK) {
        return rc;
    }
    st = sc_nip44_decrypt_start(&j->ctx, &op, out->p, out->cap, &used, j->user.ext.signer, j->pub,
                                (const char *)in->p, n, MAX_PAYLOAD);
    if (st == SC_OK) {
        st = j->user.ext.drive(j->user.ext.user, &op);
    }
    sc_signer_op_clear(&op);
    if (st != SC_OK) {
        return op_failure(st, "cannot decrypt");
    }
    out->len = used;
    if (sc_utf8_check((const char *)out->p, out->len) != SC_OK) {
        return cli_fail(CLI_INVALID, "decrypted plaintext: %s (%s); NIP-44 carries UTF-8 text",
                        sc_status_str(SC_ERR_UTF8), sc_status_name(SC_ERR_UTF8));
    }
    return CLI_OK;
}

int cmd_nip44(const cli_globals *g, int argc, char **argv)
{
    nip44_job j;
    cli_buf in = CLI_BUF_INIT, out = CLI_BUF_INIT;
    int rc, enc, second = 0;

    rc = cli_subcommand(usage, "nip44", "encrypt", "decrypt", argc, argv, &second);
    if (rc != CLI_OK) {
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    enc = !second;
    memset(&j, 0, sizeof j);
    rc = setup(&j, g, enc, argc - 2, argv + 2);
    if (rc == CLI_OK) {
        rc = enc ? run_encrypt(&j, &in, &out) : run_decrypt(&j, &in, &out);
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
    cli_buf_free(&in);
    cli_buf_free(&out);
    cli_user_close(&j.user);
    sc_ctx_clear(&j.ctx);
    return rc == CLI_HELP ? CLI_OK : rc;
}
