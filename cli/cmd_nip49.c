/* softchat nip49 encrypt | decrypt | inspect: NIP-49 ncryptsec, a secret key sealed under a
 * password. Passwords come from files and are normalised to NFKC here (cli_read_password), as
 * the library's nip49.h asks of its caller. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: softchat nip49 encrypt --sec-file FILE --password-file FILE [--log-n N]\n"
    "                              [--key-security insecure|secure|unknown]\n"
    "       softchat nip49 decrypt --password-file FILE [--out FILE] [NCRYPTSEC|-]\n"
    "       softchat nip49 inspect [NCRYPTSEC|-]\n"
    "\n"
    "  encrypt   seals the secret key in FILE under the password (NIP-49) and prints the\n"
    "            ncryptsec and a newline. --log-n sets scrypt's cost, 1 to 22 (default 16:\n"
    "            64 MiB and about a tenth of a second; each step doubles both); --key-security\n"
    "            records what is known of the key's past (default unknown)\n"
    "  decrypt   the secret key sealed in NCRYPTSEC (or one read from stdin: -, the default)\n"
    "            as 64 lowercase hex characters and a newline, written to FILE (mode 0600,\n"
    "            appearing whole or not at all; an existing FILE is never replaced) or stdout;\n"
    "            exit 1 for a wrong password\n"
    "  inspect   what an ncryptsec costs to open, without opening it: one JSON object with\n"
    "            log_n, the scrypt memory in bytes and the key security\n"
    "\n"
    "A password file holds the password as UTF-8 (one final newline is not part of it); it is\n"
    "normalised to Unicode NFKC first, as NIP-49 requires. Passwords and secret keys are never\n"
    "taken on the command line. A build without a Unicode normaliser takes ASCII passwords only\n"
    "(softchat --version names it). The backend needs scrypt and XChaCha20-Poly1305 (openssl,\n"
    "sodium, sodium+mbedtls).\n";

/* The longest text accepted for an ncryptsec (it is 162 characters; whitespace around it is
 * dropped). */
#define NCRYPTSEC_INPUT_MAX 4096u

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The ncryptsec to work on: the operand, or stdin for "-" or none, trimmed, into in. */
static int read_ncryptsec(cli_buf *in, const char *arg, const char **s, size_t *n)
{
    int rc;

    if (arg != NULL && strcmp(arg, "-") != 0) {
        *s = arg;
        *n = strlen(arg);
    } else {
        rc = cli_read_all(0, in, NCRYPTSEC_INPUT_MAX, "stdin");
        if (rc != CLI_OK) {
            return rc;
        }
        if (in->len > NCRYPTSEC_INPUT_MAX) {
            return cli_fail(CLI_INVALID, "stdin: not an ncryptsec (over %u bytes)",
                            NCRYPTSEC_INPUT_MAX);
        }
        *s = (const char *)in->p;
        *n = in->len;
    }
    while (*n > 0 && is_space((*s)[0])) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_space((*s)[*n - 1])) {
        (*n)--;
    }
    return CLI_OK;
}

static const char *security_name(sc_nip49_security s)
{
    return s == SC_NIP49_KEY_INSECURE ? "insecure"
           : s == SC_NIP49_KEY_SECURE ? "secure"
                                      : "unknown";
}

static int parse_security(const char *arg, sc_nip49_security *out)
{
    if (arg == NULL || strcmp(arg, "unknown") == 0) {
        *out = SC_NIP49_KEY_UNKNOWN;
    } else if (strcmp(arg, "secure") == 0) {
        *out = SC_NIP49_KEY_SECURE;
    } else if (strcmp(arg, "insecure") == 0) {
        *out = SC_NIP49_KEY_INSECURE;
    } else {
        return cli_usage_error(usage, "--key-security: insecure, secure or unknown");
    }
    return CLI_OK;
}

static int parse_log_n(const char *arg, unsigned *out)
{
    char *end = NULL;
    long v;

    if (arg == NULL) {
        *out = SC_NIP49_LOG_N_DEFAULT;
        return CLI_OK;
    }
    v = strtol(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || v < 1 || v > (long)SC_NIP49_LOG_N_MAX) {
        return cli_usage_error(usage, "--log-n: a whole number from 1 to %u", SC_NIP49_LOG_N_MAX);
    }
    *out = (unsigned)v;
    return CLI_OK;
}

/* CLI_OK when the context's backend has what NIP-49 needs; otherwise says why (exit 2: the
 * environment, not the input). */
static int backend_ok(sc_ctx *ctx)
{
    const sc_backend *b = sc_ctx_backend(ctx);
    const char *why = NULL;

    if (sc_backend_has(b, SC_CAP_SCRYPT, &why) != SC_OK ||
        sc_backend_has(b, SC_CAP_XCHACHA20POLY1305, &why) != SC_OK) {
        return cli_fail(CLI_ERROR, "the %s backend cannot do NIP-49: %s", b->name, why);
    }
    return CLI_OK;
}

/* A library refusal, worded for NIP-49 where the status alone would not say it. */
static int fail_nip49(sc_status st, const char *what)
{
    if (st == SC_ERR_AUTH) {
        return cli_fail(CLI_INVALID, "%s: wrong password, or the ncryptsec was altered (%s)", what,
                        sc_status_name(st));
    }
    return cli_fail_status(st, "%s", what);
}

static int nip49_encrypt(const cli_globals *g, int argc, char **argv)
{
    const char *sec_file = NULL, *pw_file = NULL, *log_n_arg = NULL, *sec_arg = NULL;
    const cli_opt opts[] = {{"--sec-file", &sec_file, NULL, NULL, 0, NULL},
                            {"--password-file", &pw_file, NULL, NULL, 0, NULL},
                            {"--log-n", &log_n_arg, NULL, NULL, 0, NULL},
                            {"--key-security", &sec_arg, NULL, NULL, 0, NULL}};
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    cli_buf pw = CLI_BUF_INIT;
    uint8_t sec[SC_SECKEY_BYTES];
    char out[SC_NIP49_LEN + 1];
    unsigned log_n = SC_NIP49_LOG_N_DEFAULT;
    sc_identity id;
    sc_ctx ctx;
    size_t n_pos, n = 0;
    sc_status st;
    int rc;

    memset(&ctx, 0, sizeof ctx);
    memset(&id, 0, sizeof id);
    memset(sec, 0, sizeof sec);
    rc = cli_parse_args(usage, argc, argv, opts, 4, NULL, 0, &n_pos);
    if (rc == CLI_OK && (sec_file == NULL || pw_file == NULL)) {
        rc = cli_usage_error(usage, "nip49 encrypt needs --sec-file FILE and --password-file FILE");
    }
    rc = rc == CLI_OK ? parse_log_n(log_n_arg, &log_n) : rc;
    rc = rc == CLI_OK ? parse_security(sec_arg, &security) : rc;
    rc = rc == CLI_OK ? cli_ctx_init(&ctx, g) : rc;
    rc = rc == CLI_OK ? backend_ok(&ctx) : rc;
    rc = rc == CLI_OK ? cli_load_identity(&ctx, &id, sec_file) : rc;
    rc = rc == CLI_OK ? cli_read_password(&pw, pw_file) : rc;
    if (rc == CLI_OK && pw.len == 0) {
        rc = cli_fail(CLI_INVALID, "%s: the password is empty: it would protect nothing", pw_file);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_identity_seckey(sec, &id);
    if (st == SC_OK) {
        st = sc_nip49_encrypt(&ctx, out, sizeof out, &n, sec, (const char *)pw.p, pw.len, log_n,
                              security);
    }
    if (st != SC_OK) {
        rc = fail_nip49(st, "cannot encrypt the key");
        goto out;
    }
    out[n++] = '\n';
    rc = cli_write_all(1, out, n);
out:
    sc_identity_clear(&id);
    sc_mem_wipe(sec, sizeof sec);
    cli_buf_free(&pw);
    sc_ctx_clear(&ctx);
    return rc;
}

static int nip49_decrypt(const cli_globals *g, int argc, char **argv)
{
    const char *pw_file = NULL, *out_path = NULL, *pos[1] = {NULL}, *s = NULL;
    const cli_opt opts[] = {{"--password-file", &pw_file, NULL, NULL, 0, NULL},
                            {"--out", &out_path, NULL, NULL, 0, NULL}};
    cli_buf pw = CLI_BUF_INIT, in = CLI_BUF_INIT, out = CLI_BUF_INIT;
    uint8_t sec[SC_SECKEY_BYTES];
    sc_ctx ctx;
    size_t n_pos = 0, n = 0;
    sc_status st;
    int rc;

    memset(&ctx, 0, sizeof ctx);
    memset(sec, 0, sizeof sec);
    rc = cli_parse_args(usage, argc, argv, opts, 2, pos, 1, &n_pos);
    if (rc == CLI_OK && pw_file == NULL) {
        rc = cli_usage_error(usage, "nip49 decrypt needs --password-file FILE");
    }
    rc = rc == CLI_OK ? cli_ctx_init(&ctx, g) : rc;
    rc = rc == CLI_OK ? backend_ok(&ctx) : rc;
    rc = rc == CLI_OK ? read_ncryptsec(&in, pos[0], &s, &n) : rc;
    rc = rc == CLI_OK ? cli_read_password(&pw, pw_file) : rc;
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_nip49_decrypt(&ctx, sec, NULL, s, n, (const char *)pw.p, pw.len);
    if (st != SC_OK) {
        rc = fail_nip49(st, "cannot decrypt the ncryptsec");
        goto out;
    }
    rc = cli_buf_hex(&out, sec, sizeof sec);
    rc = rc == CLI_OK ? cli_buf_addc(&out, '\n') : rc;
    if (rc == CLI_OK) {
        rc = out_path != NULL ? cli_write_key_file(out_path, out.p, out.len)
                              : cli_write_all(1, out.p, out.len);
    }
out:
    sc_mem_wipe(sec, sizeof sec);
    cli_buf_free(&pw);
    cli_buf_free(&in);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

static int nip49_inspect(int argc, char **argv)
{
    const char *pos[1] = {NULL}, *s = NULL;
    sc_nip49_security security = SC_NIP49_KEY_UNKNOWN;
    cli_buf in = CLI_BUF_INIT;
    unsigned log_n = 0;
    size_t n_pos = 0, n = 0;
    sc_status st;
    int rc = cli_parse_args(usage, argc, argv, NULL, 0, pos, 1, &n_pos);

    rc = rc == CLI_OK ? read_ncryptsec(&in, pos[0], &s, &n) : rc;
    if (rc == CLI_OK) {
        st = sc_nip49_inspect(&log_n, &security, s, n);
        if (st != SC_OK) {
            rc = fail_nip49(st, "not an ncryptsec this library opens");
        } else {
            printf("{\"log_n\":%u,\"scrypt_memory\":%llu,\"key_security\":\"%s\"}\n", log_n,
                   (unsigned long long)sc_crypto_scrypt_memory(log_n, 8, 1),
                   security_name(security));
        }
    }
    cli_buf_free(&in);
    return rc;
}

int cmd_nip49(const cli_globals *g, int argc, char **argv)
{
    int i, rc;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            break;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return cli_help(usage);
        }
    }
    if (argc < 2) {
        return cli_usage_error(usage, "nip49 needs a subcommand (encrypt, decrypt or inspect)");
    }
    if (strcmp(argv[1], "encrypt") == 0) {
        rc = nip49_encrypt(g, argc - 2, argv + 2);
    } else if (strcmp(argv[1], "decrypt") == 0) {
        rc = nip49_decrypt(g, argc - 2, argv + 2);
    } else if (strcmp(argv[1], "inspect") == 0) {
        rc = nip49_inspect(argc - 2, argv + 2);
    } else {
        return cli_usage_error(usage, "unknown nip49 subcommand");
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
