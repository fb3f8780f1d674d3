/* softchat nip59 wrap | nip59 unwrap: NIP-59 gift wraps of any rumor, and their authenticated
 * opening. */
#include "cli.h"
#include "user_key.h"

#include <string.h>

/* The largest gift wrap read: the event parser's default limit, far above any wrap a
 * u16-prefix NIP-44 receiver can open (about 117 KB). */
#define WRAP_MAX_INPUT 1048576u

static const char usage[] =
    "usage: softchat nip59 wrap (--sec-file FILE | --signer URI) --to KEY [--ephemeral]\n"
    "                           < template.json\n"
    "       softchat nip59 unwrap (--sec-file FILE | --signer URI) < giftwrap.json\n"
    "\n"
    "  nip59 wrap    stdin: an unsigned event as for \"event sign\" (\"kind\" and \"content\";\n"
    "                \"tags\" defaults to [] and \"created_at\" to the current time; \"id\" and\n"
    "                \"sig\" are ignored; a \"pubkey\" must be the key's own). It becomes the\n"
    "                rumor: pubkey set, id computed, never signed. It is sealed (kind 13,\n"
    "                signed by the key in --sec-file) and gift-wrapped (kind 1059, or 21059\n"
    "                with --ephemeral, signed by a fresh one-time key) for KEY; the seal and\n"
    "                wrap times are randomised up to two days into the past.\n"
    "                stdout: the gift wrap as one line of JSON.\n"
    "                A rumor over about 40960 bytes of JSON is refused (exit 1): NIP-44\n"
    "                receivers that only read the 2-byte length prefix could not open it.\n"
    "  nip59 unwrap  stdin: one gift wrap (at most 1 MiB). Every layer is authenticated\n"
    "                before anything is written. stdout: the rumor as one line of JSON\n"
    "                {\"id\",\"pubkey\",\"created_at\",\"kind\",\"tags\",\"content\"} (no sig);\n"
    "                its pubkey is the sender, the signer of the seal.\n"
    "                Exit 1 names the failed check by its token, the layer first:\n"
    "                  wrap-kind, wrap-id, wrap-sig, wrap-decrypt (not for this key),\n"
    "                  seal-json, seal-kind, seal-id, seal-sig, seal-decrypt,\n"
    "                  rumor-json, rumor-signed, rumor-author (the seal's signer did not\n"
    "                  write the rumor), rumor-id;\n"
    "                json, utf8, event-field, event-range or too-large for a wrap that is\n"
    "                not a well-formed event.\n"
    "\n"
    "KEY is 64 hex characters or an npub. The secret key file holds 64 hex characters or an\n"
    "nsec; surrounding whitespace is ignored.\n"
    "--signer URI instead of --sec-file: the key stays in a NIP-46 remote signer (a bunker://\n"
    "URI, e.g. from softchat bunker), reached over its relays as by event sign --signer\n"
    "(--ca-file FILE: the CAs of wss:// ones; --timeout S: each answer's wait, default 30).\n"
    "wrap asks it for the seal's NIP-44 encryption and signature (grants nip44_encrypt and\n"
    "sign_event:13); unwrap for the two decryptions (nip44_decrypt), each asked only once the\n"
    "layer around it has passed its checks. The one-time wrap key never leaves this process,\n"
    "and every answer is checked: a signer cannot make a forged layer pass. A refusal to\n"
    "decrypt is the token signer-refused (exit 2).\n";

static int nip59_wrap(const cli_globals *g, int argc, char **argv)
{
    cli_user_args ua;
    const char *to_arg = NULL;
    int ephemeral = 0;
    cli_opt opts[CLI_USER_N_OPTS + 2];
    size_t n = cli_user_opts(opts, &ua), n_pos;
    uint8_t to[SC_PUBKEY_BYTES];
    cli_buf in = CLI_BUF_INIT, arena = CLI_BUF_INIT, out = CLI_BUF_INIT;
    sc_nip59_opts wopts;
    cli_user user;
    sc_event rumor;
    sc_ctx ctx;
    sc_status st;
    int rc;

    memset(&ua, 0, sizeof ua);
    memset(&ctx, 0, sizeof ctx);
    memset(&user, 0, sizeof user);
    memset(&wopts, 0, sizeof wopts);
    opts[n++] = (cli_opt){"--to", &to_arg, NULL, NULL, 0, NULL};
    opts[n++] = (cli_opt){"--ephemeral", NULL, &ephemeral, NULL, 0, NULL};
    rc = cli_parse_args(usage, argc, argv, opts, n, NULL, 0, &n_pos);
    if (rc != CLI_OK) {
        return rc;
    }
    if (to_arg == NULL) {
        return cli_usage_error(usage, "nip59 wrap needs --to KEY");
    }
    if (cli_user_check(&ua, usage, "nip59 wrap") != CLI_OK ||
        cli_parse_pubkey(to, to_arg, "--to", usage) != CLI_OK) {
        return CLI_ERROR;
    }
    rc = cli_ctx_init(&ctx, g);
    if (rc == CLI_OK) { /* read before a remote signer is reached */
        rc = cli_read_all(0, &in, CLI_TEMPLATE_MAX, "stdin");
    }
    if (rc == CLI_OK) {
        rc = cli_user_open(&user, &ctx, &ua);
    }
    if (rc == CLI_OK) {
        rc = cli_parse_template(&rumor, &arena, in.p, in.len, user.pub);
    }
    if (rc == CLI_OK) {
        st = sc_nip59_rumor(&ctx, &rumor, user.pub);
        rc = st == SC_OK ? CLI_OK : cli_fail_status(st, "invalid event template");
    }
    if (rc == CLI_OK) {
        rc = cli_now(&wopts.now);
    }
    if (rc == CLI_OK) {
        wopts.flags = ephemeral ? SC_NIP59_EPHEMERAL : 0u;
        rc = cli_gift_wrap(&ctx, &out, &rumor, &user.ext, to, &wopts, "--to");
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
    cli_user_close(&user);
    cli_buf_free(&in);
    cli_buf_free(&arena);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

/* Unwraps the wrap in[0..) as user into rumor (its views in arena). */
static int unwrap(sc_ctx *ctx, sc_event *rumor, cli_buf *arena, const cli_buf *in,
                  const cli_user *user)
{
    size_t need = sc_nip59_unwrap_arena_max(in->len), used = 0;
    sc_signer_op op;
    sc_status st;

    if (cli_buf_reserve(arena, need > 0 ? need : 1) != CLI_OK) { /* 0: the call says why */
        return CLI_ERROR;
    }
    st = sc_nip59_unwrap_start(ctx, &op, rumor, NULL, arena->p, arena->cap, &used,
                               (const char *)in->p, in->len, user->ext.signer, -1);
    if (st == SC_OK) {
        st = user->ext.drive(user->ext.user, &op);
    }
    sc_signer_op_clear(&op);
    if (st != SC_OK) {
        return cli_fail_token(st, "cannot unwrap");
    }
    arena->len = used;
    return CLI_OK;
}

static int nip59_unwrap(const cli_globals *g, int argc, char **argv)
{
    cli_user_args ua;
    cli_opt opts[CLI_USER_N_OPTS];
    cli_buf in = CLI_BUF_INIT, arena = CLI_BUF_INIT, out = CLI_BUF_INIT;
    size_t n_pos;
    cli_user user;
    sc_event rumor;
    sc_ctx ctx;
    int rc;

    memset(&ua, 0, sizeof ua);
    memset(&ctx, 0, sizeof ctx);
    memset(&user, 0, sizeof user);
    memset(&rumor, 0, sizeof rumor);
    rc = cli_parse_args(usage, argc, argv, opts, cli_user_opts(opts, &ua), NULL, 0, &n_pos);
    if (rc == CLI_OK) {
        rc = cli_user_check(&ua, usage, "nip59 unwrap");
    }
    if (rc != CLI_OK) {
        return rc;
    }
    rc = cli_ctx_init(&ctx, g);
    if (rc == CLI_OK) {
        rc = cli_read_all(0, &in, WRAP_MAX_INPUT, "stdin");
    }
    if (rc == CLI_OK && in.len > WRAP_MAX_INPUT) {
        rc = cli_fail_token(SC_ERR_TOO_LARGE, "cannot unwrap: the gift wrap is over 1048576 "
                                              "bytes");
    }
    if (rc == CLI_OK) {
        rc = cli_user_open(&user, &ctx, &ua);
    }
    if (rc == CLI_OK) {
        rc = unwrap(&ctx, &rumor, &arena, &in, &user);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_event_line(&out, &rumor, "the rumor");
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
    cli_user_close(&user);
    cli_buf_free(&in);
    cli_buf_free(&arena); /* the rumor's content is private */
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

int cmd_nip59(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "nip59", "wrap", "unwrap", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? nip59_wrap(g, argc - 2, argv + 2) : nip59_unwrap(g, argc - 2, argv + 2);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
