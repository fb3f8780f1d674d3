/* softchat relay publish | fetch | sync: the group. Its usage, the options of all three
 * subcommands parsed together and checked for the one given, the context and the key, then
 * the command's own file: cmd_relay_publish.c, cmd_relay_fetch.c, cmd_relay_sync.c. Each runs
 * a real WebSocket connection (relay_client.c over ws.c) driven by libsoftchat's sans-IO relay
 * session. */
#include "relay_cmd.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: softchat relay publish --url URL [--sec-file FILE] [--timeout S] < events\n"
    "       softchat relay fetch --url URL --filter JSON [--filter JSON]... [--sec-file FILE]\n"
    "                            [--follow [--count N] [--slack S]] [--timeout S]\n"
    "       softchat relay sync --url URL --sec-file FILE [--have FILE] [--frame-limit N]\n"
    "                           [--timeout S]\n"
    "\n"
    "  Every relay command also takes --ca-file FILE, and --signer URI [--signer-key FILE]\n"
    "  in place of --sec-file FILE.\n"
    "\n"
    "  URL is ws://HOST[:PORT][/PATH] or wss://... (TLS: the relay's certificate must chain\n"
    "  to a CA of the system's store, or of --ca-file FILE (PEM) instead, and name HOST). No\n"
    "  HTTP redirect is followed. --timeout S bounds the whole command (default 30 seconds).\n"
    "  With --sec-file FILE the command answers the relay's AUTH challenges (NIP-42) as that\n"
    "  key (the latest challenge, at most once a second); with --signer URI the AUTH event\n"
    "  is signed by that NIP-46 remote signer (a bunker:// URI; the grant sign_event:22242),\n"
    "  checked against the relay's URL and challenge before it is sent, and sync's key is the\n"
    "  signer's user key (its wraps are listed, not opened). REQs or EVENTs the relay\n"
    "  refused with auth-required: are sent again once it accepts the AUTH. A dropped\n"
    "  connection is said on stderr and reopened with a doubling delay (250 ms to 4 s):\n"
    "  subscriptions resume past what was already delivered and unacknowledged events are\n"
    "  sent again. A relay message over the limit of its type (NEG-MSG 64 MiB, EVENT 1 MiB,\n"
    "  others 64 KiB) is dropped as it arrives, never stored whole. Notes on stderr about\n"
    "  the relay (messages ignored as malformed, notices, reconnects) stop after 10 lines,\n"
    "  then one per 10 s; the rest are counted and the count is said.\n"
    "  relay publish  stdin: signed events, one JSON object per line (JSON Lines), each\n"
    "                 verified before anything is sent (a bad one: exit 1, nothing sent).\n"
    "                 A stdin without any event (empty, or blank lines only) is exit 1\n"
    "                 without connecting: nothing to publish is taken for a failure\n"
    "                 upstream (a producer in a pipeline that wrote nothing).\n"
    "                 stdout: one line per event, in input order, once the relay answered:\n"
    "                   {\"id\":HEX,\"accepted\":BOOL,\"message\":STR}\n"
    "                 Exit 0 when every event was accepted (a duplicate counts), 1 when the\n"
    "                 relay refused any (its reason, e.g. \"blocked: ...\", on stderr too).\n"
    "                 A refusal whose OK names no event (an empty id, as PyPI nostr-relay\n"
    "                 sends) is taken as the answer to the oldest event unanswered (a relay\n"
    "                 answers in order) and said so on stderr; such an acceptance is noted\n"
    "                 only.\n"
    "  relay fetch    subscribes with the NIP-01 filters (a REQ may carry several: any one\n"
    "                 matching is enough) and prints every event the relay sends, verified\n"
    "                 and matching, each id once, one JSON object per line. Without --follow\n"
    "                 it stops at the relay's EOSE; with it, it stays subscribed until N\n"
    "                 distinct events arrived (--count N) or the timeout (exit 2 if N was not\n"
    "                 reached). --slack S: on resuming, since goes back S seconds before the\n"
    "                 newest event seen (gift wraps are backdated up to 2 days: 172800).\n"
    "                 A relay that closes the subscription: exit 1 with its reason.\n"
    "  relay sync     NIP-77: reconciles the key's gift wraps on the relay (kind 1059\n"
    "                 p-tagged to it) with those in --have FILE (JSON Lines of events; none\n"
    "                 when absent) by Negentropy, then fetches the ones missing here and\n"
    "                 prints them, one per line. stderr: one summary line (local, remote only,\n"
    "                 local only). --frame-limit N: the largest Negentropy message this side\n"
    "                 sends (0: none, the default; else at least 4096). A relay that lacks\n"
    "                 NIP-77 (no answer to NEG-OPEN in 5 s, or a NOTICE about it) is said so\n"
    "                 on stderr and its wraps are listed by REQ instead (pages going back by\n"
    "                 until), those missing here printed the same. A NEG-ERR (the relay\n"
    "                 refused the sync) is exit 1 with its reason. At most\n"
    "                 1,000,000 events missing here are fetched: a relay that lists more\n"
    "                 stops the sync (exit 1).\n"
    "\n"
    "exit status: 0 success, 1 refused or invalid events or messages, 2 usage, connection or\n"
    "timeout.\n";

/* The numeric options as given, before they are checked. */
typedef struct relay_opts {
    const char *timeout, *count, *slack, *frame;
} relay_opts;

static int parse_uint_arg(const char *s, unsigned long max, unsigned long *v)
{
    char *end;

    if (s == NULL || *s < '0' || *s > '9') {
        return -1;
    }
    *v = strtoul(s, &end, 10);
    return (*end != '\0' || *v > max) ? -1 : 0;
}

/* Parses argv (past the subcommand) into a and o, then checks what every subcommand takes:
 * --url and --timeout. */
static int parse_options(cli_relay_args *a, relay_opts *o, int argc, char **argv)
{
    const cli_opt opts[] = {
        {"--url", &a->url, NULL, NULL, 0, NULL},
        {"--sec-file", &a->key.sec_file, NULL, NULL, 0, NULL},
        {"--signer", &a->key.signer, NULL, NULL, 0, NULL},
        {"--signer-key", &a->key.signer_key, NULL, NULL, 0, NULL},
        {"--ca-file", &a->ca_file, NULL, NULL, 0, NULL},
        {"--timeout", &o->timeout, NULL, NULL, 0, NULL},
        {"--filter", NULL, NULL, a->filters, CLI_RELAY_MAX_FILTERS, &a->n_filters},
        {"--follow", NULL, &a->follow, NULL, 0, NULL},
        {"--count", &o->count, NULL, NULL, 0, NULL},
        {"--slack", &o->slack, NULL, NULL, 0, NULL},
        {"--have", &a->have, NULL, NULL, 0, NULL},
        {"--frame-limit", &o->frame, NULL, NULL, 0, NULL},
    };
    size_t n_pos = 0;
    int secure, port, rc;
    char host[256], path[512];

    rc = cli_parse_args(usage, argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &n_pos);
    if (rc != CLI_OK) {
        return rc;
    }
    if (a->url == NULL) {
        return cli_usage_error(usage, "relay commands need --url URL");
    }
    if (cli_ws_parse_url(a->url, &secure, host, sizeof host, &port, path, sizeof path) != 0) {
        return cli_usage_error(usage, "--url must be ws://HOST[:PORT][/PATH] or wss://...");
    }
    if (a->ca_file != NULL && access(a->ca_file, R_OK) != 0) {
        return cli_usage_error(usage, "--ca-file %s: cannot read it", a->ca_file);
    }
    if (a->ca_file != NULL && !secure && a->key.signer == NULL) {
        return cli_usage_error(usage, "--ca-file goes with a wss:// URL or --signer");
    }
    if (cli_user_check_key(&a->key, usage, "a relay command", 0) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_timeout_arg(usage, o->timeout, 30, &a->timeout);
}

static int check_publish(cli_relay_args *a, const relay_opts *o)
{
    if (a->n_filters || a->follow || o->count || o->slack || a->have || o->frame) {
        return cli_usage_error(usage, "relay publish takes --url, --sec-file or --signer, and "
                                      "--timeout");
    }
    return CLI_OK;
}

static int check_fetch(cli_relay_args *a, const relay_opts *o)
{
    if (a->n_filters == 0) {
        return cli_usage_error(usage, "relay fetch needs --filter JSON");
    }
    if (a->have || o->frame || ((o->count || o->slack) && !a->follow)) {
        return cli_usage_error(usage, "--count and --slack go with --follow; --have and "
                                      "--frame-limit with sync");
    }
    if ((o->count && parse_uint_arg(o->count, 100000000, &a->count) != 0) ||
        (o->slack && parse_uint_arg(o->slack, 31536000, &a->slack) != 0)) {
        return cli_usage_error(usage, "--count and --slack take non-negative integers");
    }
    return CLI_OK;
}

static int check_sync(cli_relay_args *a, const relay_opts *o)
{
    if (cli_user_check_key(&a->key, usage, "relay sync (whose wraps)", 1) != CLI_OK) {
        return CLI_ERROR;
    }
    if (a->n_filters || a->follow || o->count || o->slack) {
        return cli_usage_error(usage, "relay sync takes --url, --sec-file or --signer, --have, "
                                      "--frame-limit and --timeout");
    }
    if (o->frame && (parse_uint_arg(o->frame, 1u << 30, &a->frame) != 0 ||
                     (a->frame != 0 && a->frame < SC_NEGENTROPY_FRAME_MIN))) {
        return cli_usage_error(usage, "--frame-limit is 0 or at least 4096");
    }
    return CLI_OK;
}

static const struct relay_sub {
    const char *name;
    int (*check)(cli_relay_args *a, const relay_opts *o);
    int (*run)(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who);
} subs[] = {
    {"publish", check_publish, cmd_relay_publish},
    {"fetch", check_fetch, cmd_relay_fetch},
    {"sync", check_sync, cmd_relay_sync},
};

int cmd_relay(const cli_globals *g, int argc, char **argv)
{
    const struct relay_sub *sub = NULL;
    cli_relay_args a;
    relay_opts o;
    cli_user who;
    sc_ctx ctx;
    size_t i;
    int rc, keyed;

    if (argc < 2) {
        return cli_usage_error(usage, "relay needs a subcommand: publish, fetch or sync");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        return cli_help(usage);
    }
    memset(&a, 0, sizeof a);
    memset(&o, 0, sizeof o);
    a.usage = usage;
    rc = parse_options(&a, &o, argc - 2, argv + 2);
    if (rc != CLI_OK) {
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    for (i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        sub = strcmp(argv[1], subs[i].name) == 0 ? &subs[i] : sub;
    }
    if (sub == NULL) {
        return cli_usage_error(usage, "unknown relay subcommand '%s'", argv[1]);
    }
    if ((rc = sub->check(&a, &o)) != CLI_OK || (rc = cli_ctx_init(&ctx, g)) != CLI_OK) {
        return rc;
    }
    memset(&who, 0, sizeof who);
    a.key.ca_file = a.ca_file;
    a.key.timeout_s = a.timeout; /* the command's bound is each answer's too */
    keyed = a.key.sec_file != NULL || a.key.signer != NULL;
    if (keyed) {
        rc = cli_user_open(&who, &ctx, &a.key);
    }
    if (rc == CLI_OK) {
        rc = sub->run(&ctx, &a, keyed ? &who.ext : NULL);
    }
    cli_user_close(&who);
    sc_ctx_clear(&ctx);
    return rc;
}
