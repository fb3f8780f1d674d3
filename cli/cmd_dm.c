/* softchat dm inbox set | inbox get | send | listen: NIP-17 direct messages over relays,
 * through libsoftchat's relay pool (cli/pool_client.c). The group: its usage, dispatch, the
 * context and the key; each command in its own file (cmd_dm_inbox.c, cmd_dm_send.c,
 * cmd_dm_listen.c). */
#include "dm.h"

#include <string.h>

const char cli_dm_usage[] =
    "usage: softchat dm inbox set (--key FILE | --signer URI) --relay URL [--relay URL]...\n"
    "                             [--to-relays URL]...\n"
    "       softchat dm inbox get KEY --bootstrap URL[,URL...] [--json]\n"
    "       softchat dm send (--key FILE | --signer URI) --to KEY[,KEY...]\n"
    "                        --bootstrap URL[,URL...] [--subject S] [--allow-no-inbox]\n"
    "                        [--file PATH | MESSAGE]\n"
    "       softchat dm listen (--key FILE | --signer URI) --state DB\n"
    "                          (--relay URL... | --bootstrap URL...)\n"
    "\n"
    "  Every dm command also takes --ca-file FILE (wss:// relays: the CAs, PEM, instead of\n"
    "  the system's store) and --timeout S (default 30 seconds), which bounds each stage:\n"
    "  each round of inbox lookups, the publishing. With --signer URI, --signer-key FILE:\n"
    "  the NIP-46 client key of FILE (the one softchat signer connect paired) instead of a\n"
    "  fresh one.\n"
    "  A URL option may be given several times and each may list URLs separated by commas.\n"
    "  --key FILE holds a secret key (64 hex characters or an nsec); KEY is 64 hex characters\n"
    "  or an npub.\n"
    "  dm inbox set   publishes the key's NIP-17 inbox list (kind 10050: a [\"relay\", URL]\n"
    "                 tag per --relay) to the --to-relays relays (default: the --relay ones).\n"
    "                 stdout: one line per relay once it answered (or the pool gave up:\n"
    "                 3 attempts, each waiting 10 s for an OK):\n"
    "                   {\"relay\":URL,\"result\":\"accepted\"|\"refused\"|\"failed\",\"message\":STR}\n"
    "                 Exit 0 when every relay accepted, 4 otherwise. --signer URI instead\n"
    "                 of --key: the list is signed by a NIP-46 remote signer, reached as by\n"
    "                 dm send (a sign_event request for kind 10050, its answer verified;\n"
    "                 a refusal or no answer is exit 2 and nothing is published; a relay's\n"
    "                 AUTH is signed there as for dm send).\n"
    "  dm inbox get   fetches KEY's kind 10050 and 10002 lists from the --bootstrap relays\n"
    "                 (until each sent EOSE, failed, or 8 s passed), then, without a kind\n"
    "                 10050 there, from its NIP-65 write relays (where its own lists live),\n"
    "                 and prints its inbox relays, one per line; --json: one object\n"
    "                   {\"pubkey\":HEX,\"npub\":NPUB,\"inbox\":[URL,...],\"write\":[URL,...]}\n"
    "                 (write: its NIP-65 write relays, where its own lists live). Exit 0 with\n"
    "                 an inbox list, 3 without one (NIP-17: not ready to receive DMs).\n"
    "  dm send        sends one NIP-17 message (kind 14, as nip17 send) from the key to the\n"
    "                 receivers: the text of --file PATH, of the MESSAGE operand, or of stdin\n"
    "                 (UTF-8, taken exactly as read). It looks up each receiver's inbox list,\n"
    "                 and the sender's, through the --bootstrap relays; a receiver without\n"
    "                 one is exit 3 and nothing is sent (NIP-17), unless --allow-no-inbox:\n"
    "                 its wrap goes to the bootstrap relays. The sender's own copy goes to\n"
    "                 the sender's inbox relays (the bootstrap relays when it has none,\n"
    "                 said on stderr). Every gift wrap is published through one relay pool to\n"
    "                 its receiver's relays (3 attempts per relay; AUTH answered as the key\n"
    "                 when a relay requires it). stdout: one line per wrap, the receivers in\n"
    "                 order, then the sender's copy:\n"
    "                   {\"to\":HEX,\"npub\":NPUB,\"self\":BOOL,\"wrap\":ID,\"outcome\":\n"
    "                    \"delivered\"|\"failed\"|\"pending\",\"relays\":[{\"relay\":URL,\n"
    "                    \"result\":\"accepted\"|\"refused\"|\"failed\"|\"pending\",\n"
    "                    \"attempts\":N,\"message\":STR},...]}\n"
    "                 (message: the relay's words, e.g. a refusal's reason). Exit 0 when every\n"
    "                 receiver's wrap was accepted by at least one of its relays (the\n"
    "                 sender's copy is reported, not required), 4 otherwise; on a timeout\n"
    "                 the lines are printed with what was settled, and the exit is 2.\n"
    "                 --signer URI instead of --key: the sender's key stays in a NIP-46\n"
    "                 remote signer (a bunker:// URI, e.g. from softchat bunker): dm send\n"
    "                 connects to it over its relays with a fresh client key (connect with\n"
    "                 the URI's secret, then get_public_key: the sender), and each seal's\n"
    "                 nip44_encrypt and sign_event (kind 13) is a NIP-46 request, its answer\n"
    "                 verified; each waits --timeout S. A refusal or no answer is exit 2 and\n"
    "                 nothing is sent. A relay that refuses a wrap until it gets AUTH\n"
    "                 (NIP-42) gets one signed there (sign_event, kind 22242; checked before\n"
    "                 it is sent), and only such a relay: the sender is named to no other.\n"
    "                 A signer that refuses it (no sign_event:22242 grant) is said on stderr\n"
    "                 and that relay refuses the wrap (auth-required:, after 10 s).\n"
    "  dm listen      subscribes to the key's gift wraps (kind 1059, #p = the key) on the\n"
    "                 --relay relays, or on the key's inbox relays found through --bootstrap\n"
    "                 (exit 3 when it has no inbox list), through one relay pool (AUTH\n"
    "                 answered as the key; dropped connections reopened, 0.25 s to 4 s\n"
    "                 apart), and prints each message once, as one line:\n"
    "                   {\"wrap\":ID,\"from\":HEX,\"npub\":NPUB,\"room\":[HEX,...],\"kind\":14,\n"
    "                    \"id\":ID,\"created_at\":N,\"content\":STR,\"tags\":[...],\"relay\":URL}\n"
    "                 (from: the seal's signer; room and the rest as nip17 receive; relay:\n"
    "                 where it came from first). A wrap that does not open is skipped with\n"
    "                 one line on stderr. Once every relay sent its stored wraps (EOSE, or\n"
    "                 down, or 10 s) stderr says \"caught up on N relays: listening\". It runs\n"
    "                 until SIGINT or SIGTERM (exit 0), or --timeout S if given (exit 2).\n"
    "                 --state DB (SQLite, created mode 0600, one key per file) keeps the ids\n"
    "                 of the wraps handled and the subscription's cursor (each relay's resume\n"
    "                 point, minus 2 days: gift wraps are backdated), written after each line\n"
    "                 is printed: a restart with the same DB prints no message twice (a crash\n"
    "                 between the line and its write may print that one again).\n"
    "                 --signer URI instead of --key: the key stays in a NIP-46 remote\n"
    "                 signer, reached as by dm send; each wrap's two NIP-44 decryptions (the\n"
    "                 wrap, then the seal) are nip44_decrypt requests, each waiting --timeout\n"
    "                 S (default 30), and the lines are the same. A wrap the signer refuses\n"
    "                 is skipped with one line on stderr (\"... skipped: the signer refused\n"
    "                 to decrypt it\") and recorded in --state like a wrap that does not open\n"
    "                 (a fresh --state reads it again); no answer is exit 2. A relay's AUTH\n"
    "                 is signed there as for dm send, when the relay asks for it.\n"
    "\n"
    "exit status: 0 success, 1 invalid input, 2 usage, I/O, connection or timeout, 3 a user\n"
    "has no inbox list, 4 not accepted where required.\n";

int cmd_dm(const cli_globals *g, int argc, char **argv)
{
    enum {
        SET,
        GET,
        SEND,
        LISTEN
    } which;
    cli_dm_args a;
    sc_identity me;
    sc_ctx ctx;
    int rc, skip = 2;

    if (argc < 2) {
        return cli_usage_error(cli_dm_usage,
                               "dm needs a command: inbox set, inbox get, send, listen");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        return cli_help(cli_dm_usage);
    }
    if (strcmp(argv[1], "inbox") == 0 && argc >= 3 && strcmp(argv[2], "set") == 0) {
        which = SET;
        skip = 3;
    } else if (strcmp(argv[1], "inbox") == 0 && argc >= 3 && strcmp(argv[2], "get") == 0) {
        which = GET;
        skip = 3;
    } else if (strcmp(argv[1], "send") == 0) {
        which = SEND;
    } else if (strcmp(argv[1], "listen") == 0) {
        which = LISTEN;
    } else {
        return cli_usage_error(cli_dm_usage, "unknown dm command '%s'", cli_shown(argv[1]));
    }
    memset(&a, 0, sizeof a);
    rc = cli_dm_parse(&a, argc - skip, argv + skip);
    if (rc != CLI_OK) {
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    if (which != GET && (a.key_file == NULL) == (a.signer == NULL)) {
        return cli_usage_error(cli_dm_usage, "this dm command needs --key FILE or --signer URI "
                                             "(one)");
    }
    if (which == GET && a.signer != NULL) {
        return cli_usage_error(cli_dm_usage, "dm inbox get takes no --signer");
    }
    if ((rc = cli_ctx_init(&ctx, g)) != CLI_OK) {
        return rc;
    }
    memset(&me, 0, sizeof me);
    if (a.key_file != NULL) {
        rc = cli_load_identity(&ctx, &me, a.key_file);
    }
    if (rc == CLI_OK) {
        rc = which == SET    ? cmd_dm_inbox_set(&ctx, &a, &me)
             : which == GET  ? cmd_dm_inbox_get(&ctx, &a)
             : which == SEND ? cmd_dm_send(&ctx, &a, &me)
                             : cmd_dm_listen(&ctx, &a, &me);
    }
    sc_identity_clear(&me);
    sc_ctx_clear(&ctx);
    return rc;
}
