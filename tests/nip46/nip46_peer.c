/* nip46_peer: libsoftchat's NIP-46 ends as a program, for tests/nip46/interop.mjs (nostr-tools
 * on the other end).
 *   nip46_peer BACKEND bunker BUNKER_SEC USER_SEC GRANTS SECRET
 *       a bunker: reads request events, one JSON per line, on stdin; writes for each the
 *       response event's JSON line, or "refused <STATUS>" when the request does not open.
 *       GRANTS: comma-separated grants ("-" for none); SECRET: "-" for none.
 *   nip46_peer BACKEND uri-parse URI
 *       prints kind, pubkey, each relay, secret, perms, name, url and image, one a line.
 *   nip46_peer BACKEND uri-build PUBKEY SECRET RELAY...
 *       prints the bunker:// URI (SECRET "-" for none).
 * Exit 0, or 1 with a message on stderr. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GRANTS 16
#define MAX_CLIENTS 64
#define LINE_MAX_BYTES (1u << 20)

static int fail(const char *what, sc_status st)
{
    fprintf(stderr, "nip46_peer: %s: %s\n", what, sc_status_name(st));
    return 1;
}

static int key_of(sc_ctx *ctx, sc_identity *id, const char *hex)
{
    uint8_t sec[SC_SECKEY_BYTES];
    sc_status st = sc_hex_decode_fixed(sec, sizeof sec, hex, strlen(hex), SC_HEX_LOWER_ONLY);

    if (st == SC_OK) {
        st = sc_identity_import(ctx, id, sec);
    }
    sc_mem_wipe(sec, sizeof sec);
    return st == SC_OK ? 0 : fail("key", st);
}

/* One request line: the response written to stdout. A client whose connect is answered joins
 * clients (the policy's connected clients). */
static int serve(sc_ctx *ctx, const sc_identity *bunker, const sc_identity *user,
                 sc_nip46_policy *pol, uint8_t (*clients)[SC_PUBKEY_BYTES], const char *line,
                 size_t len)
{
    size_t scap = sc_nip46_open_scratch_max(len), used = 0, rcap, rlen = 0, olen = 0, need = 0;
    void *scratch = malloc(scap);
    char *result = NULL, *out = NULL;
    const char *error = NULL;
    sc_nip46_request r;
    sc_status st = sc_nip46_request_open(ctx, &r, scratch, scap, &used, bunker, line, len);

    if (st != SC_OK) {
        printf("refused %s\n", sc_status_name(st));
        free(scratch);
        return 0;
    }
    rcap = sc_nip46_bunker_result_max(&r);
    result = malloc(rcap);
    st = sc_nip46_bunker_handle(ctx, result, rcap, &rlen, &error, user, pol, &r);
    if (st == SC_OK && r.call.method.len == 7 && memcmp(r.call.method.ptr, "connect", 7) == 0 &&
        pol->n_clients < MAX_CLIENTS) {
        memcpy(clients[pol->n_clients++], r.client, SC_PUBKEY_BYTES); /* now connected */
    }
    if (st != SC_OK) {
        fprintf(stderr, "nip46_peer: refused: %s (%s)\n", sc_status_name(st), error);
    }
    {
        sc_str res = {result, rlen}, err = {error ? error : "", error ? strlen(error) : 0};

        st = sc_nip46_response_build(ctx, NULL, 0, &need, bunker, r.client, r.id, res, err,
                                     1700000000);
        if (st == SC_ERR_BUFFER_TOO_SMALL) {
            out = malloc(need);
            st = sc_nip46_response_build(ctx, out, need, &olen, bunker, r.client, r.id, res, err,
                                         1700000000);
        }
    }
    if (st == SC_OK) {
        printf("%.*s\n", (int)olen, out);
    }
    free(out);
    free(result);
    free(scratch);
    return st == SC_OK ? 0 : fail("response", st);
}

static int run_bunker(sc_ctx *ctx, char **argv)
{
    sc_identity bunker, user;
    sc_str grants[MAX_GRANTS];
    uint8_t clients[MAX_CLIENTS][SC_PUBKEY_BYTES];
    sc_nip46_policy pol;
    char *line = malloc(LINE_MAX_BYTES), *g = argv[2];
    int rc = 0;

    memset(&pol, 0, sizeof pol);
    if (key_of(ctx, &bunker, argv[0]) != 0 || key_of(ctx, &user, argv[1]) != 0) {
        return 1;
    }
    while (strcmp(g, "-") != 0 && *g != '\0' && pol.n_grants < MAX_GRANTS) {
        char *comma = strchr(g, ',');
        size_t n = comma ? (size_t)(comma - g) : strlen(g);

        grants[pol.n_grants++] = (sc_str){g, n};
        g += n + (comma ? 1 : 0);
    }
    pol.grants = grants;
    pol.clients = (const uint8_t(*)[SC_PUBKEY_BYTES])clients;
    if (strcmp(argv[3], "-") != 0) {
        pol.secret = (sc_str){argv[3], strlen(argv[3])};
    }
    while (rc == 0 && fgets(line, (int)LINE_MAX_BYTES, stdin) != NULL) {
        size_t len = strcspn(line, "\r\n");

        if (len > 0) {
            rc = serve(ctx, &bunker, &user, &pol, clients, line, len);
            fflush(stdout);
        }
    }
    free(line);
    sc_identity_clear(&bunker);
    sc_identity_clear(&user);
    return rc;
}

static void print_str(const char *name, sc_str s)
{
    printf("%s=%.*s\n", name, (int)s.len, s.ptr);
}

static int run_uri_parse(const char *uri)
{
    size_t len = strlen(uri), used = 0, i;
    char *buf = malloc(len + 1), hex[65];
    sc_nip46_uri u;
    sc_status st = sc_nip46_uri_parse(&u, buf, len, &used, uri, len);

    if (st != SC_OK) {
        free(buf);
        return fail("uri-parse", st);
    }
    st = sc_hex_encode(hex, sizeof hex, &used, u.pubkey, SC_PUBKEY_BYTES);
    if (st != SC_OK) {
        free(buf);
        return fail("hex", st);
    }
    printf("kind=%s\npubkey=%.64s\n", u.kind == SC_NIP46_URI_BUNKER ? "bunker" : "nostrconnect",
           hex);
    for (i = 0; i < u.n_relays; i++) {
        print_str("relay", u.relays[i]);
    }
    print_str("secret", u.secret);
    print_str("perms", u.perms);
    print_str("name", u.name);
    print_str("url", u.url);
    print_str("image", u.image);
    free(buf);
    return 0;
}

static int run_uri_build(int argc, char **argv)
{
    sc_nip46_uri u;
    char out[4096];
    size_t len = 0;
    int i;
    sc_status st;

    memset(&u, 0, sizeof u);
    u.kind = SC_NIP46_URI_BUNKER;
    st =
        sc_hex_decode_fixed(u.pubkey, SC_PUBKEY_BYTES, argv[0], strlen(argv[0]), SC_HEX_LOWER_ONLY);
    if (st != SC_OK) {
        return fail("pubkey", st);
    }
    if (strcmp(argv[1], "-") != 0) {
        u.secret = (sc_str){argv[1], strlen(argv[1])};
    }
    for (i = 2; i < argc && u.n_relays < SC_NIP46_URI_MAX_RELAYS; i++) {
        u.relays[u.n_relays++] = (sc_str){argv[i], strlen(argv[i])};
    }
    st = sc_nip46_uri_build(out, sizeof out, &len, &u);
    if (st != SC_OK) {
        return fail("uri-build", st);
    }
    printf("%.*s\n", (int)len, out);
    return 0;
}

int main(int argc, char **argv)
{
    sc_ctx ctx;
    sc_status st;
    int rc = 2;

    if (argc < 3) {
        fprintf(stderr, "usage: nip46_peer BACKEND bunker|uri-parse|uri-build ...\n");
        return 2;
    }
    st = sc_ctx_init(&ctx, argv[1]);
    if (st != SC_OK) {
        return fail("context", st);
    }
    if (strcmp(argv[2], "bunker") == 0 && argc == 7) {
        rc = run_bunker(&ctx, argv + 3);
    } else if (strcmp(argv[2], "uri-parse") == 0 && argc == 4) {
        rc = run_uri_parse(argv[3]);
    } else if (strcmp(argv[2], "uri-build") == 0 && argc >= 6) {
        rc = run_uri_build(argc - 3, argv + 3);
    } else {
        fprintf(stderr, "nip46_peer: bad arguments\n");
    }
    sc_ctx_clear(&ctx);
    return rc;
}
