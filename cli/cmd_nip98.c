/* softchat nip98 sign | verify: NIP-98 HTTP auth. sign prints the value of an Authorization
 * header for a request; verify checks one as a server must and prints the signed event. */
#include "cli.h"
#include "user_key.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char usage[] =
    "usage: softchat nip98 sign --sec-file FILE --url URL --method METHOD\n"
    "                           [--payload-file FILE | --payload-sha256 HEX] [--created-at T]\n"
    "       softchat nip98 sign --signer URI [--ca-file FILE] [--timeout S] --url URL\n"
    "                           --method METHOD [--payload-file FILE | --payload-sha256 HEX]\n"
    "                           [--created-at T]\n"
    "       softchat nip98 verify --url URL --method METHOD\n"
    "                             [--payload-file FILE | --payload-sha256 HEX] [--now T]\n"
    "                             [--window SECONDS] [HEADER|-]\n"
    "\n"
    "  sign     signs a kind 27235 event for the request (tags u, method and, with a body,\n"
    "           payload: its SHA-256, read from FILE or given) and prints the value of its\n"
    "           Authorization header, \"Nostr <base64>\", and a newline. created_at is now\n"
    "           unless --created-at gives unix seconds.\n"
    "           --signer URI instead of --sec-file: the key stays in a NIP-46 remote signer\n"
    "           (a bunker:// URI, e.g. from softchat bunker), reached over its relays as by\n"
    "           event sign --signer (--ca-file FILE: the CAs of wss:// ones); the event is a\n"
    "           sign_event request (the bunker needs the grant sign_event or\n"
    "           sign_event:27235), and the signed event is verified (id, signature by the\n"
    "           signer's key, kind, tags) before its header is printed. A refusal, or no\n"
    "           answer within --timeout S (default 30), is exit 2 and nothing is printed\n"
    "  verify   checks HEADER (or one line on stdin: -, the default), the header's value with\n"
    "           or without \"Authorization:\" before it, as NIP-98 asks a server to: the scheme,\n"
    "           kind 27235, created_at within --window seconds of now (default 60; --now gives\n"
    "           the time), the u tag exactly URL, the method tag METHOD in any case, with a body\n"
    "           the payload tag its hash, then the id and signature; prints the signed event as\n"
    "           one JSON line (its pubkey is the signer). Exit 1 names the failed check\n"
    "           (nip98-url, nip98-time, ..., id-mismatch, invalid-sig)\n"
    "\n"
    "URL is the absolute request URL, query included, exactly as the client addressed it.\n"
    "The secret key file holds 64 hex characters or an nsec; surrounding whitespace is ignored.\n";

/* The longest header value verify reads. */
#define HEADER_INPUT_MAX (1024u * 1024u)

/* --payload-file FILE: the SHA-256 of the file's bytes, streamed. */
static int hash_file(sc_ctx *ctx, uint8_t out[SC_SHA256_BYTES], const char *path)
{
    uint8_t buf[65536];
    sc_sha256_state s;
    sc_status st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY), rc = CLI_OK;

    if (fd < 0) {
        return cli_fail(CLI_ERROR, "cannot open %s: %s", cli_shown(path), strerror(errno));
    }
    st = sc_crypto_sha256_init(ctx, &s);
    while (st == SC_OK) {
        ssize_t n = read(fd, buf, sizeof buf);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            rc = cli_fail(CLI_ERROR, "cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (n == 0) {
            st = sc_crypto_sha256_final(ctx, &s, out);
            break;
        }
        st = sc_crypto_sha256_update(ctx, &s, buf, (size_t)n);
    }
    close(fd);
    sc_mem_wipe(&s, sizeof s);
    if (rc == CLI_OK && st != SC_OK) {
        rc = cli_fail_status(st, "cannot hash %s", path);
    }
    return rc;
}

/* The request of the options: url, method and, from --payload-file or --payload-sha256, the
 * body's hash in hash (req->payload_sha256 then points at it). */
static int make_request(sc_ctx *ctx, sc_nip98_request *req, uint8_t hash[SC_SHA256_BYTES],
                        const char *url, const char *method, const char *file, const char *hex)
{
    if (url == NULL || method == NULL) {
        return cli_usage_error(usage, "nip98 needs --url URL and --method METHOD");
    }
    if (url[0] == '\0' || method[0] == '\0') {
        return cli_usage_error(usage, "--url and --method must not be empty");
    }
    if (file != NULL && hex != NULL) {
        return cli_usage_error(usage, "--payload-file and --payload-sha256 exclude each other");
    }
    req->url.ptr = url;
    req->url.len = strlen(url);
    req->method.ptr = method;
    req->method.len = strlen(method);
    req->payload_sha256 = NULL;
    if (hex != NULL) {
        if (cli_hex32(hash, hex) != 0) {
            return cli_usage_error(usage, "--payload-sha256: 64 hex characters");
        }
        req->payload_sha256 = hash;
    } else if (file != NULL) {
        int rc = hash_file(ctx, hash, file);

        if (rc != CLI_OK) {
            return rc;
        }
        req->payload_sha256 = hash;
    }
    return CLI_OK;
}

/* A time option: unix seconds (0 and up), or now when absent. */
static int parse_time(const char *arg, const char *opt, int64_t *out)
{
    char *end = NULL;
    long long v;

    if (arg == NULL) {
        return cli_now(out);
    }
    errno = 0;
    v = strtoll(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0) {
        return cli_usage_error(usage, "%s: unix seconds, a whole number from 0", opt);
    }
    *out = (int64_t)v;
    return CLI_OK;
}

/* The header of req at created_at, signed by the user's key (local or remote: one path, an
 * sc_event_sign_start operation), verified by sc_nip98_header and appended to out with a
 * newline. */
static int sign_header(sc_ctx *ctx, cli_buf *out, const cli_user *user, const sc_nip98_request *req,
                       int64_t created_at)
{
    sc_nip98_auth a;
    size_t need, n = 0;
    sc_status st;
    int rc;

    st = sc_nip98_template(&a, req, created_at, user->pub);
    if (st == SC_OK) {
        st = cli_event_sign(ctx, &a.event, NULL, &user->ext);
    }
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot sign the auth event");
    }
    need = sc_nip98_header_len(&a.event);
    rc = cli_buf_reserve(out, need + 1);
    if (rc != CLI_OK) {
        return rc;
    }
    /* the signed event is checked again here: a signer's answer is never printed unverified */
    st = sc_nip98_header(ctx, (char *)out->p, need, &n, &a.event);
    if (st != SC_OK) {
        return cli_fail_status(st, "the signed auth event is not valid");
    }
    out->len = n;
    return cli_buf_addc(out, '\n');
}

static int nip98_sign(const cli_globals *g, int argc, char **argv)
{
    const char *url = NULL, *method = NULL, *file = NULL, *hex = NULL, *at = NULL;
    cli_opt opts[CLI_USER_N_OPTS + 5];
    uint8_t hash[SC_SHA256_BYTES];
    sc_nip98_request req;
    cli_buf out = CLI_BUF_INIT;
    cli_user_args ua;
    cli_user user;
    sc_ctx ctx;
    int64_t created_at = 0;
    size_t n_opts, n_pos;
    int rc;

    memset(&ctx, 0, sizeof ctx);
    memset(&ua, 0, sizeof ua);
    memset(&user, 0, sizeof user);
    n_opts = cli_user_opts(opts, &ua);
    {
        const cli_opt own[5] = {{"--url", &url, NULL, NULL, 0, NULL},
                                {"--method", &method, NULL, NULL, 0, NULL},
                                {"--payload-file", &file, NULL, NULL, 0, NULL},
                                {"--payload-sha256", &hex, NULL, NULL, 0, NULL},
                                {"--created-at", &at, NULL, NULL, 0, NULL}};

        memcpy(opts + n_opts, own, sizeof own);
        n_opts += 5;
    }
    rc = cli_parse_args(usage, argc, argv, opts, n_opts, NULL, 0, &n_pos);
    rc = rc == CLI_OK ? cli_user_check(&ua, usage, "nip98 sign") : rc;
    rc = rc == CLI_OK ? parse_time(at, "--created-at", &created_at) : rc;
    rc = rc == CLI_OK ? cli_ctx_init(&ctx, g) : rc;
    /* the request is read and checked before a remote signer is reached */
    rc = rc == CLI_OK ? make_request(&ctx, &req, hash, url, method, file, hex) : rc;
    if (rc == CLI_OK) { /* the template makes the request's checks and says which failed */
        static const uint8_t any[SC_PUBKEY_BYTES];
        sc_nip98_auth a;
        sc_status st = sc_nip98_template(&a, &req, created_at, any);

        rc = st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot sign the auth event");
    }
    rc = rc == CLI_OK ? cli_user_open(&user, &ctx, &ua) : rc;
    rc = rc == CLI_OK ? sign_header(&ctx, &out, &user, &req, created_at) : rc;
    rc = rc == CLI_OK ? cli_write_all(1, out.p, out.len) : rc;
    cli_user_close(&user);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

/* The header value to verify: the operand, or stdin; an "Authorization:" before it and the
 * line end after it are dropped. */
static int read_header(cli_buf *in, const char *arg, const char **s, size_t *n)
{
    static const char name[] = "authorization:";
    int rc;

    if (arg != NULL && strcmp(arg, "-") != 0) {
        *s = arg;
        *n = strlen(arg);
    } else {
        rc = cli_read_all(0, in, HEADER_INPUT_MAX, "stdin");
        if (rc != CLI_OK) {
            return rc;
        }
        if (in->len > HEADER_INPUT_MAX) {
            return cli_fail(CLI_INVALID, "stdin: not a header value (over %u bytes)",
                            HEADER_INPUT_MAX);
        }
        *s = (const char *)in->p;
        *n = in->len;
    }
    while (*n > 0 && ((*s)[*n - 1] == '\n' || (*s)[*n - 1] == '\r')) {
        (*n)--;
    }
    if (*n >= sizeof name - 1 && strncasecmp(*s, name, sizeof name - 1) == 0) {
        *s += sizeof name - 1;
        *n -= sizeof name - 1;
    }
    return CLI_OK;
}

static int nip98_verify(const cli_globals *g, int argc, char **argv)
{
    const char *url = NULL, *method = NULL, *file = NULL, *hex = NULL, *now_arg = NULL,
               *window_arg = NULL, *pos[1] = {NULL}, *h = NULL;
    const cli_opt opts[] = {{"--url", &url, NULL, NULL, 0, NULL},
                            {"--method", &method, NULL, NULL, 0, NULL},
                            {"--payload-file", &file, NULL, NULL, 0, NULL},
                            {"--payload-sha256", &hex, NULL, NULL, 0, NULL},
                            {"--now", &now_arg, NULL, NULL, 0, NULL},
                            {"--window", &window_arg, NULL, NULL, 0, NULL}};
    uint8_t hash[SC_SHA256_BYTES];
    cli_buf in = CLI_BUF_INIT, scratch = CLI_BUF_INIT, out = CLI_BUF_INIT;
    sc_nip98_request req;
    sc_event ev;
    sc_ctx ctx;
    int64_t now = 0, window = 0;
    size_t n_pos = 0, hn = 0, used = 0;
    sc_status st;
    int rc;

    memset(&ctx, 0, sizeof ctx);
    rc = cli_parse_args(usage, argc, argv, opts, 6, pos, 1, &n_pos);
    rc = rc == CLI_OK ? parse_time(now_arg, "--now", &now) : rc;
    if (rc == CLI_OK && window_arg != NULL) {
        rc = parse_time(window_arg, "--window", &window);
    }
    rc = rc == CLI_OK ? cli_ctx_init(&ctx, g) : rc;
    rc = rc == CLI_OK ? make_request(&ctx, &req, hash, url, method, file, hex) : rc;
    rc = rc == CLI_OK ? read_header(&in, pos[0], &h, &hn) : rc;
    rc = rc == CLI_OK ? cli_buf_reserve(&scratch, sc_nip98_verify_scratch_max(hn)) : rc;
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_nip98_verify(&ctx, &ev, scratch.p, scratch.cap, &used, h, hn, &req, now, window);
    if (st != SC_OK) {
        rc = cli_fail_token(st, "the auth header does not authorise this request");
        goto out;
    }
    rc = cli_buf_event_line(&out, &ev, "the auth event");
    rc = rc == CLI_OK ? cli_write_all(1, out.p, out.len) : rc;
out:
    cli_buf_free(&in);
    cli_buf_free(&scratch);
    cli_buf_free(&out);
    sc_ctx_clear(&ctx);
    return rc;
}

int cmd_nip98(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "nip98", "sign", "verify", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? nip98_sign(g, argc - 2, argv + 2) : nip98_verify(g, argc - 2, argv + 2);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
