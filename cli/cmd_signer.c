/* softchat signer connect: the client's side of the nostrconnect:// flow (NIP-46). The client
 * key lives in a file (made once, then reused), a fresh secret goes into the nostrconnect://
 * URI the user hands to the signer, and the first kind 24133 event that proves the secret
 * names the remote signer: a connect response whose result is the secret (the NIP-46 text;
 * nostr-tools, softchat bunker --connect) or a connect request carrying it (rust-nostr's
 * NostrConnectRemoteSigner). get_public_key then tells the user's key; stdout gets the
 * bunker:// URI that, with --signer-key, later commands reach the same signer by. */
#include "nip46_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SECRET_BYTES 16u
#define DEFAULT_TIMEOUT_S 300

static const char usage[] =
    "usage: softchat signer connect --relay URL [--relay URL]... --signer-key FILE\n"
    "                               [--perms LIST] [--name NAME] [--timeout S]\n"
    "                               [--ca-file FILE] [--json]\n"
    "\n"
    "  The client starts a NIP-46 pairing (\"nostrconnect://\"): the remote signer (a\n"
    "  bunker: nsec.app, Amber, softchat bunker --connect) is given a URI and contacts the\n"
    "  client. --signer-key FILE holds the client key (64 hex characters or an nsec); when\n"
    "  FILE does not exist a new key is written there (mode 0600; an existing FILE is never\n"
    "  replaced, only read). stderr: the URI, on a line of its own,\n"
    "    nostrconnect://<client key hex>?relay=URL...&secret=S&perms=LIST&name=NAME\n"
    "  (secret: 16 random bytes in hex, new each run; name: --name, default softchat;\n"
    "  perms: --perms, e.g. sign_event:1,nip44_encrypt, left out when not given), then\n"
    "  \"softchat: listening on N relays: waiting for the signer\" once the relays sent what\n"
    "  they hold. It waits (--timeout S, default 300) for a kind 24133 event p-tagged to the\n"
    "  client key on the --relay relays that carries the secret: a response whose result is\n"
    "  the secret (NIP-46), or a connect request whose second param is the secret and whose\n"
    "  first is its author (rust-nostr's signers). Its author is the remote signer. Events\n"
    "  that do not verify, do not open, or carry another secret (compared in constant time)\n"
    "  are skipped, each said on stderr (the first 20). Then get_public_key asks for the\n"
    "  user's key (which may differ from the remote signer's). stdout: two lines,\n"
    "    bunker://<remote signer hex>?relay=URL...\n"
    "    <the user's npub>\n"
    "  or with --json one object\n"
    "    {\"bunker\":URI,\"nostrconnect\":URI,\"remote_signer\":HEX,\"pubkey\":HEX,\"npub\":NPUB}\n"
    "  The bunker URI carries no secret: later commands reach the signer with\n"
    "  --signer URI --signer-key FILE (the paired client key). --ca-file FILE: the CAs of\n"
    "  wss:// relays (PEM) instead of the system's store.\n"
    "\n"
    "exit status: 0 paired, 1 a --signer-key file that holds no key, 2 usage, I/O,\n"
    "connection, a refusal, an answer that is not a public key, or no signer within the\n"
    "timeout.\n";

typedef struct signer_args {
    const char *key_file, *perms, *name, *timeout, *ca_file;
    const char *relay[SC_NIP46_URI_MAX_RELAYS + 1];
    size_t n_relay;
    int json, timeout_s;
    char urls[SC_NIP46_URI_MAX_RELAYS][SC_NIP46_URI_MAX_RELAY_LEN + 1];
    sc_str relays[SC_NIP46_URI_MAX_RELAYS];
    size_t n_relays;
} signer_args;

/* The wait for the signer: the first event that proves the secret. */
typedef struct pairing {
    cli_nip46 *n;
    sc_str secret;
    int paired;
} pairing;

/* Each --relay, normalised (sc_relay_url_normalize), duplicates kept once. */
static int take_relays(signer_args *a)
{
    char host[256], path[512];
    size_t i, j, len = 0;
    int secure, port;

    for (i = 0; i < a->n_relay; i++) {
        if (cli_ws_parse_url(a->relay[i], &secure, host, sizeof host, &port, path, sizeof path) !=
                0 ||
            sc_relay_url_normalize(a->urls[a->n_relays], SC_NIP46_URI_MAX_RELAY_LEN, &len,
                                   (sc_str){a->relay[i], strlen(a->relay[i])}) != SC_OK) {
            return cli_usage_error(usage, "--relay: %s is not a ws:// or wss:// URL",
                                   cli_shown(a->relay[i]));
        }
        a->urls[a->n_relays][len] = '\0';
        for (j = 0; j < a->n_relays && strcmp(a->urls[j], a->urls[a->n_relays]) != 0; j++) {
        }
        if (j < a->n_relays) {
            continue;
        }
        if (a->n_relays == SC_NIP46_URI_MAX_RELAYS) {
            return cli_usage_error(usage, "at most %u relays", SC_NIP46_URI_MAX_RELAYS);
        }
        a->relays[a->n_relays].ptr = a->urls[a->n_relays];
        a->relays[a->n_relays].len = len;
        a->n_relays++;
    }
    return CLI_OK;
}

static int parse_args(signer_args *a, int argc, char **argv)
{
    const cli_opt opts[] = {
        {"--signer-key", &a->key_file, NULL, NULL, 0, NULL},
        {"--perms", &a->perms, NULL, NULL, 0, NULL},
        {"--name", &a->name, NULL, NULL, 0, NULL},
        {"--timeout", &a->timeout, NULL, NULL, 0, NULL},
        {"--ca-file", &a->ca_file, NULL, NULL, 0, NULL},
        {"--relay", NULL, NULL, a->relay, SC_NIP46_URI_MAX_RELAYS + 1, &a->n_relay},
        {"--json", NULL, &a->json, NULL, 0, NULL},
    };
    size_t n_pos = 0;
    int rc = cli_parse_args(usage, argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &n_pos);

    if (rc != CLI_OK) {
        return rc;
    }
    if (a->key_file == NULL || a->n_relay == 0) {
        return cli_usage_error(usage, "signer connect needs --relay URL and --signer-key FILE");
    }
    if (cli_timeout_arg(usage, a->timeout, DEFAULT_TIMEOUT_S, &a->timeout_s) != CLI_OK) {
        return CLI_ERROR;
    }
    if (a->name == NULL) {
        a->name = "softchat";
    }
    return take_relays(a);
}

/* FILE exists: it is read later. Otherwise a new key is written there (mode 0600, never over
 * a file that appeared meanwhile). */
static int ensure_key_file(sc_ctx *ctx, const char *path)
{
    uint8_t sec[SC_SECKEY_BYTES];
    cli_buf text = CLI_BUF_INIT;
    sc_identity id;
    struct stat sb;
    sc_status st;
    int rc;

    if (lstat(path, &sb) == 0) {
        return CLI_OK;
    }
    if (errno != ENOENT) {
        return cli_fail(CLI_ERROR, "--signer-key %s: %s", path, strerror(errno));
    }
    memset(&id, 0, sizeof id);
    st = sc_identity_generate(ctx, &id);
    if (st == SC_OK) {
        st = sc_identity_seckey(sec, &id);
    }
    rc = st == SC_OK ? cli_buf_hex(&text, sec, sizeof sec)
                     : cli_fail_status(st, "cannot generate a client key");
    if (rc == CLI_OK) {
        rc = cli_buf_addc(&text, '\n');
    }
    if (rc == CLI_OK) {
        rc = cli_write_key_file(path, text.p, text.len);
    }
    if (rc == CLI_OK) {
        cli_fail(CLI_OK, "--signer-key %s: a new client key written (mode 0600)", path);
    }
    sc_identity_clear(&id);
    sc_mem_wipe(sec, sizeof sec);
    sc_mem_wipe(text.p, text.cap);
    cli_buf_free(&text);
    return rc;
}

/* Writes the URI of u into out (a C string). */
static int build_uri(cli_buf *out, const sc_nip46_uri *u)
{
    size_t len = 0;
    sc_status st = sc_nip46_uri_build(NULL, 0, &len, u);

    if (st != SC_ERR_BUFFER_TOO_SMALL) {
        return cli_fail_status(st, "cannot build the URI");
    }
    if (cli_buf_size(out, len + 1) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_nip46_uri_build((char *)out->p, out->cap, &len, u);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot build the URI");
    }
    out->len = len;
    ((char *)out->p)[len] = '\0';
    return CLI_OK;
}

/* The nostrconnect:// URI of the client key, the relays, the secret, perms and name. */
static int connect_uri(cli_buf *out, const signer_args *a, const cli_nip46 *n, sc_str secret)
{
    sc_nip46_uri u;

    memset(&u, 0, sizeof u);
    u.kind = SC_NIP46_URI_NOSTRCONNECT;
    if (sc_hex_decode_fixed(u.pubkey, SC_PUBKEY_BYTES, n->client_hex, 2 * SC_PUBKEY_BYTES,
                            SC_HEX_LOWER_ONLY) != SC_OK) {
        return cli_fail(CLI_ERROR, "internal error: the client key");
    }
    memcpy(u.relays, a->relays, a->n_relays * sizeof a->relays[0]);
    u.n_relays = a->n_relays;
    u.secret = secret;
    if (a->perms != NULL) {
        u.perms.ptr = a->perms;
        u.perms.len = strlen(a->perms);
    }
    u.name.ptr = a->name;
    u.name.len = strlen(a->name);
    return build_uri(out, &u);
}

/* 1 when got is the secret (constant time in its bytes; a length that differs fails). */
static int is_secret(const pairing *pr, sc_str got)
{
    int bad = got.len != pr->secret.len;

    bad |= sc_mem_ct_compare(bad ? pr->secret.ptr : got.ptr, pr->secret.ptr, pr->secret.len) != 0;
    return !bad;
}

/* Opens ev as either form of the signer's answer; *got: the secret it carries. SC_OK, or why
 * it is skipped. */
static sc_status open_answer(pairing *pr, const sc_pool_update *u, sc_str *got, const char **form)
{
    cli_nip46 *n = pr->n;
    const uint8_t *author = u->event->pubkey;
    char author_hex[2 * SC_PUBKEY_BYTES + 1];
    sc_nip46_response r;
    sc_nip46_request req;
    size_t used = 0;
    sc_status st;

    st = sc_nip46_response_open(n->ctx, &r, n->scratch.p, n->scratch.cap, &used, &n->client, author,
                                (sc_str){"", 0}, u->event_json.ptr, u->event_json.len);
    if (st == SC_OK) {
        *got = r.result;
        *form = "connect response";
        return SC_OK;
    }
    if (st != SC_ERR_NIP46) {
        return st;
    }
    st = sc_nip46_request_open(n->ctx, &req, n->scratch.p, n->scratch.cap, &used, &n->client,
                               u->event_json.ptr, u->event_json.len);
    if (st != SC_OK) {
        return st;
    }
    cli_hex_str(author_hex, author, SC_PUBKEY_BYTES);
    if (!cli_str_is(req.call.method, "connect") || req.call.n_params < 2 ||
        req.call.params[0].len != 2 * SC_PUBKEY_BYTES ||
        memcmp(req.call.params[0].ptr, author_hex, 2 * SC_PUBKEY_BYTES) != 0) {
        return SC_ERR_NIP46; /* not a connect naming its author as the remote signer */
    }
    *got = req.call.params[1];
    *form = "connect request";
    return SC_OK;
}

static int on_pair(void *user, cli_pool *cp, const sc_pool_update *u)
{
    pairing *pr = (pairing *)user;
    size_t need;
    const char *form = "";
    sc_str got = {"", 0};
    sc_status st;

    if (u->kind == SC_POOL_U_EOSE) {
        cli_fail(CLI_OK, "listening on %zu relay%s: waiting for the signer", pr->n->n_relays,
                 pr->n->n_relays == 1 ? "" : "s");
        return CLI_POOL_CONTINUE;
    }
    if (u->kind != SC_POOL_U_EVENT) {
        return CLI_POOL_CONTINUE;
    }
    need = sc_nip46_open_scratch_max(u->event_json.len);
    if (need == 0 || cli_buf_size(&pr->n->scratch, need) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = open_answer(pr, u, &got, &form);
    if (st == SC_OK && is_secret(pr, got)) {
        memcpy(pr->n->bunker, u->event->pubkey, SC_PUBKEY_BYTES);
        pr->paired = 1;
        cli_fail(CLI_OK, "paired: a %s from %02x%02x%02x%02x carries the secret", form,
                 u->event->pubkey[0], u->event->pubkey[1], u->event->pubkey[2],
                 u->event->pubkey[3]);
    } else {
        cli_pool_note(cp, "%.*s: a kind 24133 event from %02x%02x%02x%02x skipped: %s",
                      (int)u->url.len, u->url.ptr, u->event->pubkey[0], u->event->pubkey[1],
                      u->event->pubkey[2], u->event->pubkey[3],
                      st == SC_OK ? "not the secret" : sc_status_str(st));
    }
    sc_mem_wipe(pr->n->scratch.p, pr->n->scratch.cap);
    return pr->paired ? CLI_POOL_DONE : CLI_POOL_CONTINUE;
}

/* stdout: the bunker URI and the user's npub, or the JSON object. */
static int print_result(const signer_args *a, const cli_nip46 *n, const cli_buf *nc_uri)
{
    cli_buf uri = CLI_BUF_INIT, out = CLI_BUF_INIT;
    char npub[SC_NIP19_NPUB_LEN + 1];
    size_t len = 0;
    sc_nip46_uri u;
    int rc;

    memset(&u, 0, sizeof u);
    u.kind = SC_NIP46_URI_BUNKER;
    memcpy(u.pubkey, n->bunker, SC_PUBKEY_BYTES);
    memcpy(u.relays, a->relays, a->n_relays * sizeof a->relays[0]);
    u.n_relays = a->n_relays;
    rc = build_uri(&uri, &u);
    if (rc == CLI_OK && sc_nip19_encode_npub(npub, sizeof npub, &len, n->user) != SC_OK) {
        rc = cli_fail(CLI_ERROR, "internal error: cannot encode an npub");
    }
    if (rc == CLI_OK && !a->json) {
        rc = cli_buf_add(&out, uri.p, uri.len);
        rc = rc == CLI_OK ? cli_buf_addc(&out, '\n') : rc;
        rc = rc == CLI_OK ? cli_buf_add(&out, npub, len) : rc;
    } else if (rc == CLI_OK) {
        rc = cli_buf_adds(&out, "{\"bunker\":");
        rc = rc == CLI_OK ? cli_buf_json_str(&out, (const char *)uri.p, uri.len) : rc;
        rc = rc == CLI_OK ? cli_buf_adds(&out, ",\"nostrconnect\":") : rc;
        rc = rc == CLI_OK ? cli_buf_json_str(&out, (const char *)nc_uri->p, nc_uri->len) : rc;
        rc = rc == CLI_OK ? cli_buf_json_hex_field(&out, "remote_signer", n->bunker, 32) : rc;
        rc = rc == CLI_OK ? cli_buf_json_hex_field(&out, "pubkey", n->user, 32) : rc;
        rc = rc == CLI_OK ? cli_buf_adds(&out, ",\"npub\":") : rc;
        rc = rc == CLI_OK ? cli_buf_json_str(&out, npub, len) : rc;
        rc = rc == CLI_OK ? cli_buf_addc(&out, '}') : rc;
    }
    rc = rc == CLI_OK ? cli_buf_addc(&out, '\n') : rc;
    rc = rc == CLI_OK ? cli_buf_flush_stdout(&out) : rc;
    cli_buf_free(&uri);
    cli_buf_free(&out);
    return rc;
}

/* Listens, shows the URI, waits for the signer, asks for the user's key, prints. */
static int pair(sc_ctx *ctx, const signer_args *a, cli_nip46 *n)
{
    uint8_t rnd[SECRET_BYTES];
    char secret[2 * SECRET_BYTES + 1];
    cli_buf nc = CLI_BUF_INIT;
    pairing pr;
    sc_status st = sc_crypto_rng_fill(ctx, rnd, sizeof rnd);
    int rc = st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot draw a secret");

    memset(&pr, 0, sizeof pr);
    pr.n = n;
    cli_hex_str(secret, rnd, sizeof rnd);
    pr.secret.ptr = secret;
    pr.secret.len = 2 * SECRET_BYTES;
    if (rc == CLI_OK) {
        rc = cli_nip46_start(n, ctx, a->key_file, a->relays, a->n_relays, a->ca_file, a->timeout_s,
                             1);
    }
    if (rc == CLI_OK && (rc = connect_uri(&nc, a, n, pr.secret)) == CLI_OK) {
        fprintf(stderr, "softchat: give this URI to the signer (waiting up to %d s):\n%s\n",
                a->timeout_s, (const char *)nc.p);
        fflush(stderr);
        n->cp.deadline_ms = cli_ws_now_ms() + (int64_t)a->timeout_s * 1000;
        rc = cli_pool_run(&n->cp, on_pair, &pr);
    }
    if (rc == CLI_OK && !pr.paired) {
        rc = CLI_ERROR;
    }
    if (rc != CLI_OK && !pr.paired) {
        cli_fail(CLI_OK, "no signer answered with the secret within %d s", a->timeout_s);
    }
    if (rc == CLI_OK) {
        rc = cli_nip46_get_user(n);
    }
    if (rc == CLI_OK) {
        rc = print_result(a, n, &nc);
    }
    sc_mem_wipe(secret, sizeof secret);
    sc_mem_wipe(rnd, sizeof rnd);
    if (nc.p != NULL) {
        sc_mem_wipe(nc.p, nc.cap);
    }
    cli_buf_free(&nc);
    return rc;
}

int cmd_signer(const cli_globals *g, int argc, char **argv)
{
    signer_args *a;
    cli_nip46 *n;
    sc_ctx ctx;
    int rc;

    if (argc < 2) {
        return cli_usage_error(usage, "signer needs a subcommand (connect)");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        return cli_help(usage);
    }
    if (strcmp(argv[1], "connect") != 0) {
        return cli_usage_error(usage, "unknown signer subcommand '%s'", cli_shown(argv[1]));
    }
    a = calloc(1, sizeof *a);
    n = calloc(1, sizeof *n);
    rc = a != NULL && n != NULL ? parse_args(a, argc - 2, argv + 2)
                                : cli_fail(CLI_ERROR, "out of memory");
    if (rc == CLI_OK && (rc = cli_ctx_init(&ctx, g)) == CLI_OK) {
        rc = ensure_key_file(&ctx, a->key_file);
        if (rc == CLI_OK) {
            rc = pair(&ctx, a, n);
        }
        if (n != NULL) {
            cli_nip46_close(n);
        }
        sc_ctx_clear(&ctx);
    }
    free(n);
    free(a);
    return rc == CLI_HELP ? CLI_OK : rc;
}
