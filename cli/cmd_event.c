/* softchat event sign | event verify (verify lives in cmd_event_verify.c). */
#include "cli.h"
#include "user_key.h"

#include <string.h>

static const char usage[] =
    "usage: softchat event sign --sec-file FILE < template.json\n"
    "       softchat event sign --signer URI [--signer-key FILE] [--ca-file FILE]\n"
    "                               [--timeout S] < template.json\n"
    "       softchat event verify < events\n"
    "\n"
    "  event sign    stdin: one JSON object (at most 1 MiB) with \"kind\" and \"content\";\n"
    "                \"tags\" defaults to [] and \"created_at\" to the current time. \"id\" and\n"
    "                \"sig\", if present, must be well-formed and are replaced; a \"pubkey\" must\n"
    "                be the signing key's own (otherwise exit 1); unknown fields are dropped.\n"
    "                stdout: the signed event as one line of JSON.\n"
    "                --signer URI instead of --sec-file: the key stays in a NIP-46 remote\n"
    "                signer (a bunker:// URI, e.g. from softchat bunker), reached over its\n"
    "                relays as by dm send --signer (--ca-file FILE: the CAs of wss:// ones);\n"
    "                the event is a sign_event request (the bunker needs the grant\n"
    "                sign_event or sign_event:KIND), its signature verified against the\n"
    "                signer's key, and the line is the one --sec-file gives (the signature\n"
    "                aside). A refusal, or no answer within --timeout S (default 30), is\n"
    "                exit 2 and nothing is printed. --signer-key FILE: the NIP-46 client\n"
    "                key of FILE (the one softchat signer connect paired; the URI it prints\n"
    "                has no secret) instead of a fresh one; so for every --signer command.\n"
    "  event verify  stdin: one or more JSON events separated by whitespace (JSON Lines,\n"
    "                pretty-printed, or several on one line), read in chunks: memory stays\n"
    "                bounded however long the stream. stdout: one line per event, in order:\n"
    "                  valid <id>\n"
    "                  invalid <token>: <reason>\n"
    "                where <token> is the status name without SC_ERR_, lowercased, with '-'\n"
    "                for '_' (json, utf8, event-field, event-range, id-mismatch, invalid-sig,\n"
    "                too-large, ...). An event over 1 MiB is \"invalid too-large\" and skipped.\n"
    "                Data between events that does not start with '{' is one \"invalid json\"\n"
    "                line, and is skipped up to the next '{'; so is an event with a raw\n"
    "                control character (such as a line break) inside a string, or with a\n"
    "                mismatched bracket.\n"
    "                Exit 0 when every event is valid; 1 when any is invalid, or when the\n"
    "                input holds no event at all; 2 on a read or write error.\n"
    "\n"
    "The secret key file holds 64 hex characters or an nsec; surrounding whitespace is ignored.\n";

/* The template in `in` signed through ext's signer for the user key pub, as one line in
 * out. */
static int sign_template(sc_ctx *ctx, cli_buf *out, const cli_ext_signer *ext,
                         const uint8_t pub[SC_PUBKEY_BYTES], const cli_buf *in)
{
    cli_buf arena = CLI_BUF_INIT;
    sc_event ev;
    sc_status st;
    int rc;

    rc = cli_parse_template(&ev, &arena, in->p, in->len, pub);
    if (rc != CLI_OK) {
        goto out;
    }
    st = cli_event_sign(ctx, &ev, NULL, ext);
    if (st == SC_OK) {
        /* a faulty signature (a glitch, a miscompiled backend) must never leave the tool */
        st = sc_event_verify(ctx, &ev);
        if (st != SC_OK) {
            rc = cli_fail(CLI_ERROR, "internal error: the new signature does not verify (%s)",
                          sc_status_name(st));
            goto out;
        }
    }
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot sign the event");
        goto out;
    }
    rc = cli_buf_event_line(out, &ev, "the event");
out:
    cli_buf_free(&arena);
    return rc;
}

static int event_sign(const cli_globals *g, int argc, char **argv)
{
    cli_user_args a;
    cli_opt opts[CLI_USER_N_OPTS];
    sc_ctx ctx;
    cli_user user;
    cli_buf in = CLI_BUF_INIT, out = CLI_BUF_INIT;
    size_t n_pos;
    int rc;

    memset(&a, 0, sizeof a);
    memset(&ctx, 0, sizeof ctx);
    memset(&user, 0, sizeof user);
    rc = cli_parse_args(usage, argc, argv, opts, cli_user_opts(opts, &a), NULL, 0, &n_pos);
    if (rc == CLI_OK) {
        rc = cli_user_check(&a, usage, "event sign");
    }
    if (rc == CLI_OK) {
        rc = cli_ctx_init(&ctx, g);
    }
    if (rc == CLI_OK) { /* the template is read before a remote signer is reached */
        rc = cli_read_all(0, &in, CLI_TEMPLATE_MAX, "stdin");
    }
    if (rc == CLI_OK) {
        rc = cli_user_open(&user, &ctx, &a);
    }
    if (rc == CLI_OK) {
        rc = sign_template(&ctx, &out, &user.ext, user.pub, &in);
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
    cli_user_close(&user);
    cli_buf_free(&in);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

int cmd_event(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "event", "sign", "verify", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? event_sign(g, argc - 2, argv + 2)
                         : cmd_event_verify(g, argc - 2, argv + 2, usage);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
