/* softchat nip17 send | nip17 receive (receive lives in cmd_nip17_receive.c): NIP-17 private
 * chat messages, one kind 14 rumor gift-wrapped for every member of the room. */
#include "cli.h"
#include "user_key.h"

#include <string.h>

#include "util/utf8.h"

/* NIP-17 rooms are meant for small groups (the spec suggests fewer than 100 people); each
 * member costs a gift wrap of about 4/3 of 4/3 of the message. */
#define MAX_RECEIVERS 256u
/* Read limit for the message: more than any message that fits a gift wrap, so that an
 * oversized one is named as such (exit 1) rather than cut. */
#define MESSAGE_MAX 1048576u

static const char usage[] =
    "usage: softchat nip17 send (--sec-file FILE | --signer URI) --to KEY[,KEY...]\n"
    "                           [--subject S] [--reply ID] < message\n"
    "       softchat nip17 receive (--sec-file FILE | --signer URI) < giftwraps\n"
    "\n"
    "  nip17 send     stdin: the message text, UTF-8, taken exactly as read (no newline is\n"
    "                 stripped: use printf '%s', not echo). It becomes one kind 14 rumor\n"
    "                 from the key in --sec-file, created now, with a p tag for every\n"
    "                 receiver in the order given, an e tag for --reply ID (the 64-hex id of\n"
    "                 the message answered) and a subject tag for --subject S (S may be empty:\n"
    "                 that clears the room's title). The rumor is sealed and gift-wrapped\n"
    "                 separately for each receiver, in order, then once more for the sender\n"
    "                 (the sender's own copy; when the sender is one of the receivers, a note\n"
    "                 to self, its wrap in the list is that copy and none is added).\n"
    "                 stdout: one gift wrap (kind 1059) per line, in that order.\n"
    "                 At most 256 receivers, each listed once. A message whose rumor is over\n"
    "                 about 40960 bytes of JSON is refused (exit 1): NIP-44 receivers that only\n"
    "                 read the 2-byte length prefix could not open it.\n"
    "  nip17 receive  stdin: gift wraps separated by whitespace (JSON Lines, pretty-printed,\n"
    "                 or several on one line), read in chunks: memory stays bounded however\n"
    "                 long the stream. Each is authenticated layer by layer (as nip59 unwrap)\n"
    "                 and must hold a kind 14 or 15 rumor with at least one valid p tag.\n"
    "                 stdout: one line per message received, in input order:\n"
    "                   {\"from\":HEX,\"room\":[HEX,...],\"kind\":14,\"id\":HEX,\"created_at\":N,\n"
    "                    \"content\":STR,\"tags\":[[...],...]}\n"
    "                 from is the sender (the seal's signer, who wrote the rumor); room is the\n"
    "                 sender, then each distinct p-tagged key in order of first appearance;\n"
    "                 strings are escaped as in the NIP-01 canonical form.\n"
    "                 A wrap that fails is skipped with one line on stderr:\n"
    "                   softchat: wrap N: <token>: <reason>\n"
    "                 where N counts the wraps from 1 and <token> names the failed check as in\n"
    "                 nip59 unwrap (wrap-sig, seal-decrypt, rumor-author, ...), or message (not\n"
    "                 a NIP-17 message), json, too-large (over 1 MiB). Exit 0 when every wrap\n"
    "                 was received (also for an empty input); 1 when any was skipped; 2 on a\n"
    "                 read or write error.\n"
    "\n"
    "KEY is 64 hex characters or an npub. The secret key file holds 64 hex characters or an\n"
    "nsec; surrounding whitespace is ignored. Messages are private: stdout carries them in\n"
    "clear.\n"
    "--signer URI instead of --sec-file: the key stays in a NIP-46 remote signer (a bunker://\n"
    "URI, e.g. from softchat bunker), reached over its relays as by event sign --signer\n"
    "(--ca-file FILE: the CAs of wss:// ones; --timeout S: each answer's wait, default 30).\n"
    "send asks it for each seal's encryption and signature (grants nip44_encrypt and\n"
    "sign_event:13), receive for each wrap's two decryptions (nip44_decrypt). A wrap the\n"
    "signer declines is skipped with the token signer-refused; a signer that stops answering\n"
    "ends receive (exit 2).\n";

/* The parsed command line of nip17 send. */
typedef struct send_args {
    cli_user_args user;
    const char *to_arg, *subject, *reply_arg;
    uint8_t to[MAX_RECEIVERS][SC_PUBKEY_BYTES];
    size_t n_to;
    uint8_t reply[SC_EVENT_ID_BYTES];
} send_args;

static int parse_send_args(send_args *a, int argc, char **argv)
{
    cli_opt opts[CLI_USER_N_OPTS + 3];
    size_t n = cli_user_opts(opts, &a->user), n_pos;
    int rc;

    opts[n++] = (cli_opt){"--to", &a->to_arg, NULL, NULL, 0, NULL};
    opts[n++] = (cli_opt){"--subject", &a->subject, NULL, NULL, 0, NULL};
    opts[n++] = (cli_opt){"--reply", &a->reply_arg, NULL, NULL, 0, NULL};
    rc = cli_parse_args(usage, argc, argv, opts, n, NULL, 0, &n_pos);
    if (rc != CLI_OK) {
        return rc;
    }
    if (a->to_arg == NULL) {
        return cli_usage_error(usage, "nip17 send needs --to KEY[,KEY...]");
    }
    if (cli_user_check(&a->user, usage, "nip17 send") != CLI_OK) {
        return CLI_ERROR;
    }
    if (cli_parse_pubkey_list(a->to, MAX_RECEIVERS, &a->n_to, a->to_arg, "--to", usage) != CLI_OK) {
        return CLI_ERROR;
    }
    if (a->reply_arg != NULL && cli_hex32(a->reply, a->reply_arg) != 0) {
        return cli_usage_error(usage, "--reply: expected an event id (64 hex characters)");
    }
    if (a->subject != NULL && sc_utf8_check(a->subject, strlen(a->subject)) != SC_OK) {
        return cli_usage_error(usage, "--subject: not valid UTF-8");
    }
    return CLI_OK;
}

int cli_nip17_compose(sc_ctx *ctx, cli_buf *out, const sc_identity *id, const cli_ext_signer *ext,
                      const uint8_t (*to)[SC_PUBKEY_BYTES], size_t n_to, const char *subject,
                      const uint8_t *reply, const cli_buf *text)
{
    sc_nip17_peer peers[MAX_RECEIVERS];
    uint8_t pub[SC_PUBKEY_BYTES];
    cli_buf buf = CLI_BUF_INIT;
    sc_nip59_opts wopts;
    sc_nip17_chat m;
    sc_event rumor;
    const char *names[MAX_RECEIVERS + 1];
    size_t i, need, n_names;
    int rc;
    sc_status st;
    char who[MAX_RECEIVERS][48];

    if (n_to == 0 || n_to > MAX_RECEIVERS) {
        return cli_fail(CLI_ERROR, "a message goes to 1 to %u receivers", MAX_RECEIVERS);
    }
    memset(&m, 0, sizeof m);
    memset(&wopts, 0, sizeof wopts);
    st = ext != NULL ? sc_signer_pubkey(pub, ext->signer) : sc_identity_pubkey(pub, id);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot read the public key");
    }
    for (i = 0; i < n_to; i++) {
        memcpy(peers[i].pubkey, to[i], SC_PUBKEY_BYTES);
        peers[i].relay.ptr = NULL;
        peers[i].relay.len = 0;
    }
    m.content.ptr = (const char *)text->p;
    m.content.len = text->len;
    m.to = peers;
    m.n_to = n_to;
    m.reply_to = reply;
    if (subject != NULL) {
        m.subject.ptr = subject; /* non-NULL even when empty: an empty subject is sent */
        m.subject.len = strlen(subject);
    }
    rc = cli_now(&m.created_at);
    if (rc != CLI_OK) {
        return rc;
    }
    wopts.now = m.created_at;
    need = sc_nip17_chat_rumor_buf_max(&m);
    if (cli_buf_reserve(&buf, need > 0 ? need : 1) != CLI_OK) { /* 0: the call says why */
        return CLI_ERROR;
    }
    st = sc_nip17_chat_rumor(ctx, &rumor, buf.p, buf.cap, &m, pub);
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot build the message");
        goto out;
    }
    /* the wraps' recipients in sc_nip17_send's order: distinct receivers, then the sender */
    for (i = 0, n_names = 0; i < n_to; i++) {
        size_t j;

        for (j = 0; j < i && memcmp(to[j], to[i], SC_PUBKEY_BYTES) != 0; j++) {
        }
        if (j == i) {
            snprintf(who[n_names], sizeof who[n_names], "--to: receiver %zu", i + 1);
            names[n_names] = who[n_names];
            n_names++;
        }
    }
    names[n_names++] = "the sender";
    rc = cli_nip17_send(ctx, out, &rumor, id, ext, &wopts, names, n_names);
out:
    cli_buf_free(&buf); /* it holds the message */
    return rc;
}

static int nip17_send(const cli_globals *g, int argc, char **argv)
{
    send_args a;
    cli_buf in = CLI_BUF_INIT, out = CLI_BUF_INIT;
    cli_user user;
    sc_ctx ctx;
    int rc;

    memset(&a, 0, sizeof a);
    memset(&ctx, 0, sizeof ctx);
    memset(&user, 0, sizeof user);
    rc = parse_send_args(&a, argc, argv);
    if (rc != CLI_OK) {
        return rc;
    }
    rc = cli_ctx_init(&ctx, g);
    if (rc == CLI_OK) {
        rc = cli_read_all(0, &in, MESSAGE_MAX, "stdin");
    }
    if (rc == CLI_OK && in.len > MESSAGE_MAX) {
        rc = cli_fail_status(SC_ERR_TOO_LARGE, "message larger than %u bytes", MESSAGE_MAX);
    }
    if (rc == CLI_OK && sc_utf8_check((const char *)in.p, in.len) != SC_OK) {
        rc = cli_fail(CLI_INVALID, "message: %s (%s); NIP-17 messages are UTF-8 text",
                      sc_status_str(SC_ERR_UTF8), sc_status_name(SC_ERR_UTF8));
    }
    if (rc == CLI_OK) { /* once the message is known good: a remote signer is reached now */
        rc = cli_user_open(&user, &ctx, &a.user);
    }
    if (rc == CLI_OK) {
        rc = cli_nip17_compose(&ctx, &out, NULL, &user.ext, (const uint8_t(*)[SC_PUBKEY_BYTES])a.to,
                               a.n_to, a.subject, a.reply_arg != NULL ? a.reply : NULL, &in);
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

int cmd_nip17(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "nip17", "send", "receive", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? nip17_send(g, argc - 2, argv + 2)
                         : cmd_nip17_receive(g, argc - 2, argv + 2, usage);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
