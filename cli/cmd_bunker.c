/* softchat bunker: serves NIP-46 remote signing for the user's key over relays, through
 * libsoftchat's relay pool (cli/pool_client.c). It prints its bunker:// URI, subscribes to
 * kind 24133 events p-tagged to the bunker key and answers each (bunker_serve.c) until
 * SIGINT or SIGTERM. */
#include "bunker.h"
#include "dm.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Requests older than this when the bunker starts are not answered (clock skew allowed). */
#define SINCE_SLACK_S 30

static const char usage[] =
    "usage: softchat bunker --key USER_KEY_FILE [--bunker-key FILE] --relay URL...\n"
    "                       [--allow METHOD[:KIND],...]... [--secret S] [--ca-file FILE]\n"
    "                       [--connect nostrconnect://...]\n"
    "\n"
    "  Serves NIP-46 remote signing (\"Nostr Connect\") for the key of --key over the --relay\n"
    "  relays (a URL option may be given several times and each may list URLs separated by\n"
    "  commas). The bunker key, which signs and encrypts the NIP-46 messages, is the key of\n"
    "  --bunker-key (default: the user's key). stdout: first, one line, the bunker URI\n"
    "    bunker://<bunker key hex>?relay=URL...&secret=S\n"
    "  (secret: --secret S, or 16 random bytes in hex; a client's connect must give it; a\n"
    "  --secret is visible to other users of the machine in the process list).\n"
    "  Then it answers every kind 24133 request p-tagged to the bunker key (requests older\n"
    "  than 30 s at start are not fetched or answered; an event id answered once is not run\n"
    "  again; a client gets nothing but connect until it connects with the secret) with\n"
    "  a response, a result or a refusal, published to the same relays, and says one line\n"
    "  per request on stderr:\n"
    "    softchat: nip46 METHOD from CLIENT: allowed | refused: REASON\n"
    "  (CLIENT: the first 8 hex digits of the client key). Granted without --allow: connect,\n"
    "  ping, get_public_key. --allow grants more: sign_event (any kind), sign_event:KIND,\n"
    "  nip44_encrypt, nip44_decrypt (comma-separated, repeatable). nip04_* are always\n"
    "  refused (NIP-04 is unauthenticated). It runs until SIGINT or SIGTERM (exit 0).\n"
    "  --connect URI: a client's nostrconnect:// URI (the client starts the pairing): its\n"
    "  relays join the bunker's (--relay is then optional), its client counts as connected,\n"
    "  and a connect response carrying the URI's secret is sent to it, which tells the client\n"
    "  the bunker key (stderr: softchat: nip46 nostrconnect to CLIENT: connect response\n"
    "  sent). The client must be listening already. The URI's perms are not read: --allow\n"
    "  decides.\n"
    "\n"
    "exit status: 0 stopped by a signal, 1 invalid input, 2 usage, I/O or connection.\n";

static volatile sig_atomic_t stop_now;

static void on_signal(int sig)
{
    (void)sig;
    stop_now = 1;
}

typedef struct bunker_args {
    const char *key_file, *bunker_key, *secret, *ca_file, *connect;
    sc_nip46_uri connect_uri; /* --connect, parsed: its strings in connect_buf */
    cli_buf connect_buf;
    const char *relay[CLI_DM_MAX_RELAYS], *allow[CLI_BUNKER_MAX_GRANTS];
    size_t n_relay, n_allow;
    cli_dm_urls urls;
    sc_str grants[CLI_BUNKER_MAX_GRANTS + 3];
    char *allow_copy[CLI_BUNKER_MAX_GRANTS];
    char secret_hex[33];
} bunker_args;

static int grant_ok(const char *g)
{
    static const char *const names[] = {"connect",       "ping",          "get_public_key",
                                        "nip44_encrypt", "nip44_decrypt", "sign_event"};
    size_t i;

    if (strncmp(g, "sign_event:", 11) == 0) {
        const char *d = g + 11;

        if (*d == '\0' || strlen(d) > 5 || strspn(d, "0123456789") != strlen(d) ||
            strtoul(d, NULL, 10) > 65535) {
            return 0;
        }
        return 1;
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(g, names[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The policy's grants: the defaults, then each of --allow (checked). */
static int take_grants(bunker_args *a, sc_nip46_policy *p)
{
    static const char *const defaults[] = {"connect", "ping", "get_public_key"};
    size_t i, n = 0;

    for (i = 0; i < 3; i++) {
        a->grants[n].ptr = defaults[i];
        a->grants[n++].len = strlen(defaults[i]);
    }
    for (i = 0; i < a->n_allow; i++) {
        char *save = NULL, *g;

        a->allow_copy[i] = strdup(a->allow[i]);
        if (a->allow_copy[i] == NULL) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        for (g = strtok_r(a->allow_copy[i], ",", &save); g != NULL;
             g = strtok_r(NULL, ",", &save)) {
            if (!grant_ok(g)) {
                return cli_usage_error(usage, "--allow: unknown grant '%s'", cli_shown(g));
            }
            if (n == sizeof a->grants / sizeof a->grants[0]) {
                return cli_usage_error(usage, "--allow: more than %u grants",
                                       CLI_BUNKER_MAX_GRANTS);
            }
            a->grants[n].ptr = g;
            a->grants[n++].len = strlen(g);
        }
    }
    p->grants = a->grants;
    p->n_grants = n;
    return CLI_OK;
}

/* --connect: the nostrconnect:// URI parsed, its relays added to the bunker's. */
static int take_connect(bunker_args *a)
{
    sc_nip46_uri *u = &a->connect_uri;
    char url[SC_NIP46_URI_MAX_RELAY_LEN + 1];
    size_t i, len = strlen(a->connect), used = 0;
    sc_status st = SC_ERR_ARG;
    int rc = cli_buf_size(&a->connect_buf, len + 1);

    if (rc == CLI_OK) {
        st = sc_nip46_uri_parse(u, (char *)a->connect_buf.p, a->connect_buf.cap, &used, a->connect,
                                len);
    }
    if (st != SC_OK || u->kind != SC_NIP46_URI_NOSTRCONNECT) {
        return cli_usage_error(usage, "--connect: not a nostrconnect:// URI (%s)",
                               sc_status_name(st != SC_OK ? st : SC_ERR_NIP46_URI));
    }
    for (i = 0; rc == CLI_OK && i < u->n_relays; i++) {
        snprintf(url, sizeof url, "%.*s", (int)u->relays[i].len, u->relays[i].ptr);
        rc = cli_dm_urls_add(&a->urls, url, "--connect");
    }
    return rc;
}

static int parse_args(bunker_args *a, sc_ctx *ctx, sc_nip46_policy *p, int argc, char **argv)
{
    const cli_opt opts[] = {
        {"--key", &a->key_file, NULL, NULL, 0, NULL},
        {"--bunker-key", &a->bunker_key, NULL, NULL, 0, NULL},
        {"--secret", &a->secret, NULL, NULL, 0, NULL},
        {"--ca-file", &a->ca_file, NULL, NULL, 0, NULL},
        {"--connect", &a->connect, NULL, NULL, 0, NULL},
        {"--relay", NULL, NULL, a->relay, CLI_DM_MAX_RELAYS, &a->n_relay},
        {"--allow", NULL, NULL, a->allow, CLI_BUNKER_MAX_GRANTS, &a->n_allow},
    };
    size_t i, n_pos = 0;
    int rc = cli_parse_args(usage, argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &n_pos);

    if (rc != CLI_OK) {
        return rc;
    }
    if (a->key_file == NULL || (a->n_relay == 0 && a->connect == NULL)) {
        return cli_usage_error(usage, "bunker needs --key FILE and --relay URL");
    }
    for (i = 0; rc == CLI_OK && i < a->n_relay; i++) {
        rc = cli_dm_urls_add(&a->urls, a->relay[i], "--relay");
    }
    if (rc == CLI_OK && a->connect != NULL) {
        rc = take_connect(a);
    }
    if (rc == CLI_OK && a->urls.n > SC_NIP46_URI_MAX_RELAYS) {
        rc = cli_usage_error(usage, "at most %u relays", SC_NIP46_URI_MAX_RELAYS);
    }
    if (rc == CLI_OK && a->secret == NULL) {
        uint8_t r[16];
        sc_status st = sc_crypto_rng_fill(ctx, r, sizeof r);

        if (st != SC_OK) {
            return cli_fail_status(st, "cannot draw a secret");
        }
        cli_hex_str(a->secret_hex, r, sizeof r);
        a->secret = a->secret_hex;
    }
    if (rc == CLI_OK) {
        p->secret.ptr = a->secret;
        p->secret.len = strlen(a->secret);
        rc = take_grants(a, p);
    }
    return rc;
}

/* Prints the bunker URI of the bunker key, the relays and the secret. */
static int print_uri(const bunker_args *a, const uint8_t bunker_pub[SC_PUBKEY_BYTES])
{
    cli_buf out = CLI_BUF_INIT;
    sc_nip46_uri u;
    size_t i, len = 0;
    sc_status st;
    int rc;

    memset(&u, 0, sizeof u);
    u.kind = SC_NIP46_URI_BUNKER;
    memcpy(u.pubkey, bunker_pub, SC_PUBKEY_BYTES);
    for (i = 0; i < a->urls.n; i++) {
        u.relays[i].ptr = a->urls.url[i];
        u.relays[i].len = strlen(a->urls.url[i]);
    }
    u.n_relays = a->urls.n;
    u.secret.ptr = a->secret;
    u.secret.len = strlen(a->secret);
    st = sc_nip46_uri_build(NULL, 0, &len, &u);
    rc = st == SC_ERR_BUFFER_TOO_SMALL ? cli_buf_size(&out, len + 1) : CLI_ERROR;
    if (rc == CLI_OK && (st = sc_nip46_uri_build((char *)out.p, out.cap, &len, &u)) != SC_OK) {
        rc = CLI_ERROR;
    }
    if (rc != CLI_OK) {
        cli_buf_free(&out);
        return cli_fail_status(st, "cannot build the bunker URI");
    }
    out.len = len;
    rc = cli_buf_addc(&out, '\n');
    if (rc == CLI_OK) {
        rc = cli_buf_flush_stdout(&out);
    }
    cli_buf_free(&out);
    return rc;
}

static int on_update(void *user, cli_pool *cp, const sc_pool_update *u)
{
    cli_bunker *b = (cli_bunker *)user;

    switch (u->kind) {
    case SC_POOL_U_EVENT:
        return cli_bunker_serve(b, cp, u);
    case SC_POOL_U_PUBLISHED:
        if (u->result != SC_POOL_ACCEPTED) {
            cli_pool_note(cp, "%.*s: response %s: %.*s", (int)u->url.len, u->url.ptr,
                          cli_pool_result_name(u->result), (int)u->text.len, u->text.ptr);
        }
        return CLI_POOL_CONTINUE;
    case SC_POOL_U_PUBLISH_DONE:
        if (u->user != NULL) {
            cli_bunker_reply_free(b, (cli_bunker_reply *)u->user);
        }
        return CLI_POOL_CONTINUE;
    case SC_POOL_U_CLOSED:
        cli_pool_note(cp, "%.*s: the relay closed the subscription: %.*s", (int)u->url.len,
                      u->url.ptr, (int)u->text.len, u->text.ptr);
        return CLI_POOL_CONTINUE;
    default:
        return CLI_POOL_CONTINUE;
    }
}

/* Subscribes to the requests for the bunker key and serves them until a signal. */
static int serve(cli_bunker *b, const bunker_args *a, const char *bunker_hex)
{
    static const uint32_t kinds[1] = {SC_NIP46_KIND};
    sc_str p_value = {bunker_hex, 2 * SC_PUBKEY_BYTES};
    sc_relay_tag_filter tag = {'p', NULL, 1};
    struct sigaction sa, old_int, old_term;
    sc_relay_filter f;
    sc_pool_opts o;
    cli_pool cp;
    uint32_t sub;
    int64_t now = 0;
    size_t i;
    sc_status st;
    int rc;

    cli_dm_pool_opts(&o);
    rc = cli_pool_open(&cp, b->ctx, &o, a->ca_file, 0);
    for (i = 0; rc == CLI_OK && i < a->urls.n; i++) {
        rc = cli_pool_add(&cp, a->urls.url[i], &b->relays[i]);
    }
    b->n_relays = a->urls.n;
    tag.values = &p_value;
    memset(&f, 0, sizeof f);
    f.kinds = kinds;
    f.n_kinds = 1;
    f.tags = &tag;
    f.n_tags = 1;
    if (rc == CLI_OK && (rc = cli_now(&now)) == CLI_OK) {
        f.has = SC_RELAY_FILTER_SINCE;
        f.since = now > SINCE_SLACK_S ? now - SINCE_SLACK_S : 0;
        b->since = (int64_t)f.since;
    }
    if (rc == CLI_OK && (st = sc_pool_subscribe(&cp.p, &sub, SC_STR("nip46"), &f, 1, b->relays,
                                                b->n_relays, NULL)) != SC_OK) {
        rc = cli_fail_status(st, "cannot subscribe");
    }
    if (rc == CLI_OK && a->connect != NULL) {
        rc = cli_bunker_nostrconnect(b, &cp, &a->connect_uri);
    }
    if (rc == CLI_OK) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        stop_now = 0;
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
        cp.stop = &stop_now;
        rc = cli_pool_run(&cp, on_update, b);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    cli_pool_close(&cp);
    while (b->replies != NULL) {
        cli_bunker_reply_free(b, b->replies);
    }
    return rc;
}

/* Loads the keys and serves. */
static int run(sc_ctx *ctx, bunker_args *a, cli_bunker *b)
{
    sc_identity user, bkey;
    uint8_t pub[SC_PUBKEY_BYTES];
    char hex[2 * SC_PUBKEY_BYTES + 1];
    sc_status st;
    int rc;

    memset(&user, 0, sizeof user);
    memset(&bkey, 0, sizeof bkey);
    rc = cli_load_identity(ctx, &user, a->key_file);
    if (rc == CLI_OK && a->bunker_key != NULL) {
        rc = cli_load_identity(ctx, &bkey, a->bunker_key);
    }
    b->user = &user;
    b->bunker = a->bunker_key != NULL ? &bkey : &user;
    if (rc == CLI_OK && (st = sc_identity_pubkey(pub, b->bunker)) != SC_OK) {
        rc = cli_fail_status(st, "cannot read the public key");
    }
    if (rc == CLI_OK) {
        cli_hex_str(hex, pub, SC_PUBKEY_BYTES);
        rc = print_uri(a, pub);
    }
    if (rc == CLI_OK) {
        rc = serve(b, a, hex);
    }
    sc_identity_clear(&user);
    sc_identity_clear(&bkey);
    return rc;
}

int cmd_bunker(const cli_globals *g, int argc, char **argv)
{
    bunker_args *a = calloc(1, sizeof *a);
    cli_bunker b;
    sc_ctx ctx;
    size_t i;
    int rc;

    memset(&b, 0, sizeof b);
    if (a == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    rc = cli_ctx_init(&ctx, g);
    if (rc == CLI_OK) {
        rc = parse_args(a, &ctx, &b.policy, argc - 1, argv + 1);
        b.ctx = &ctx;
        b.seen = rc == CLI_OK ? calloc(CLI_BUNKER_SEEN, sizeof *b.seen) : NULL;
        b.clients = rc == CLI_OK ? calloc(CLI_BUNKER_CLIENTS, sizeof *b.clients) : NULL;
        if (rc == CLI_OK && (b.seen == NULL || b.clients == NULL)) {
            rc = cli_fail(CLI_ERROR, "out of memory");
        }
        if (rc == CLI_OK) {
            rc = run(&ctx, a, &b);
        }
        sc_ctx_clear(&ctx);
    }
    free(b.seen);
    free(b.clients);
    cli_buf_free(&b.scratch);
    cli_buf_free(&b.result);
    for (i = 0; i < a->n_allow; i++) {
        free(a->allow_copy[i]);
    }
    cli_dm_urls_free(&a->urls);
    cli_buf_free(&a->connect_buf);
    sc_mem_wipe(a->secret_hex, sizeof a->secret_hex);
    free(a);
    return rc == CLI_HELP ? CLI_OK : rc;
}
