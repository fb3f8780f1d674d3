/* softchat key new | key pub: make a secret key, show a secret key's public key. */
#include "cli.h"

#include <string.h>

static const char usage[] =
    "usage: softchat key new [--out FILE]\n"
    "       softchat key pub --sec-file FILE\n"
    "\n"
    "  key new   a fresh secret key from the backend's CSPRNG, as 64 lowercase hex characters\n"
    "            and a newline, written to FILE (mode 0600; written under a temporary name\n"
    "            beside it and linked into place, so FILE appears whole or not at all; an\n"
    "            existing FILE is never overwritten: exit 2) or to stdout\n"
    "  key pub   the BIP-340 x-only public key of the secret key in FILE: 64 lowercase hex\n"
    "            characters and a newline\n"
    "\n"
    "A secret key file holds 64 hex characters or an nsec; surrounding whitespace is ignored.\n"
    "Secret keys are never taken on the command line.\n";

static int key_new(const cli_globals *g, int argc, char **argv)
{
    const char *out_path = NULL;
    const cli_opt opts[] = {{"--out", &out_path, NULL, NULL, 0, NULL}};
    sc_ctx ctx;
    sc_identity id;
    uint8_t sec[SC_SECKEY_BYTES];
    cli_buf out = CLI_BUF_INIT;
    size_t n_pos;
    sc_status st;
    int rc;

    memset(&ctx, 0, sizeof ctx);
    memset(&id, 0, sizeof id);
    memset(sec, 0, sizeof sec);
    rc = cli_parse_args(usage, argc, argv, opts, 1, NULL, 0, &n_pos);
    if (rc == CLI_OK) {
        rc = cli_ctx_init(&ctx, g);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_identity_generate(&ctx, &id);
    if (st == SC_OK) {
        st = sc_identity_seckey(sec, &id);
    }
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot generate a key");
        goto out;
    }
    rc = cli_buf_hex(&out, sec, sizeof sec);
    if (rc == CLI_OK) {
        rc = cli_buf_addc(&out, '\n');
    }
    if (rc == CLI_OK) {
        rc = out_path != NULL ? cli_write_key_file(out_path, out.p, out.len)
                              : cli_write_all(1, out.p, out.len);
    }
out:
    sc_identity_clear(&id);
    sc_mem_wipe(sec, sizeof sec);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

static int key_pub(const cli_globals *g, int argc, char **argv)
{
    const char *sec_file = NULL;
    const cli_opt opts[] = {{"--sec-file", &sec_file, NULL, NULL, 0, NULL}};
    sc_ctx ctx;
    sc_identity id;
    uint8_t pub[SC_PUBKEY_BYTES];
    cli_buf out = CLI_BUF_INIT;
    size_t n_pos;
    sc_status st;
    int rc;

    memset(&ctx, 0, sizeof ctx);
    memset(&id, 0, sizeof id);
    rc = cli_parse_args(usage, argc, argv, opts, 1, NULL, 0, &n_pos);
    if (rc == CLI_OK && sec_file == NULL) {
        rc = cli_usage_error(usage, "key pub needs --sec-file FILE");
    }
    if (rc == CLI_OK) {
        rc = cli_ctx_init(&ctx, g);
    }
    if (rc == CLI_OK) {
        rc = cli_load_identity(&ctx, &id, sec_file);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_identity_pubkey(pub, &id);
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot read the public key");
        goto out;
    }
    rc = cli_buf_hex(&out, pub, sizeof pub);
    if (rc == CLI_OK) {
        rc = cli_buf_addc(&out, '\n');
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
out:
    sc_identity_clear(&id);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

int cmd_key(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "key", "new", "pub", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? key_new(g, argc - 2, argv + 2) : key_pub(g, argc - 2, argv + 2);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
