/* softchat nip19 decode | nip19 encode: NIP-19 bech32 entities to and from JSON and
 * arguments. A secret key (nsec) is only ever read from a file or stdin: decode refuses one
 * given on the command line. */
#include "cli.h"

#include <string.h>

#include "util/utf8.h"

#define STDIN_SLACK 4096u /* whitespace read around a string given on stdin */

static const char usage[] =
    "usage: softchat nip19 decode STRING|-\n"
    "       softchat nip19 encode npub KEY\n"
    "       softchat nip19 encode note HEX\n"
    "       softchat nip19 encode nsec --sec-file FILE\n"
    "       softchat nip19 encode nprofile KEY [--relay URL]...\n"
    "       softchat nip19 encode nevent HEX [--relay URL]... [--author KEY] [--kind N]\n"
    "       softchat nip19 encode naddr --identifier S --author KEY --kind N [--relay URL]...\n"
    "\n"
    "  decode  one line of JSON per type (hex is lowercase, strings are JSON-escaped; an\n"
    "          nevent has \"author\" and \"kind\" only when the string carries them):\n"
    "            {\"type\":\"npub\",\"pubkey\":HEX}\n"
    "            {\"type\":\"nsec\",\"seckey\":HEX}\n"
    "            {\"type\":\"note\",\"id\":HEX}\n"
    "            {\"type\":\"nprofile\",\"pubkey\":HEX,\"relays\":[URL,...]}\n"
    "            {\"type\":\"nevent\",\"id\":HEX,\"relays\":[URL,...],\"author\":HEX,\"kind\":N}\n"
    "            {\"type\":\"naddr\",\"identifier\":S,\"pubkey\":HEX,\"kind\":N,"
    "\"relays\":[URL,...]}\n"
    "          STRING \"-\" reads the string from stdin (surrounding whitespace ignored). An\n"
    "          nsec is read only that way: one given as STRING is refused (exit 2), never\n"
    "          decoded or echoed. An invalid string is exit 1.\n"
    "  encode  the lowercase bech32 string and a newline. HEX is 32 bytes as 64 hex\n"
    "          characters; KEY, a public key, is 64 hex characters or an npub; N is a kind,\n"
    "          0..65535; S and each URL are UTF-8 of at most 255 bytes (S may be empty); at\n"
    "          most 16 relays. An nsec is made from the key in FILE (64 hex characters or an\n"
    "          nsec), never from the command line.\n";

/* ---- decode ------------------------------------------------------------------------------- */

static int add_kind_field(cli_buf *b, uint32_t kind)
{
    char num[24];

    snprintf(num, sizeof num, ",\"kind\":%lu", (unsigned long)kind);
    return cli_buf_adds(b, num);
}

static int add_relays_field(cli_buf *b, const sc_nip19_entity *e)
{
    size_t i;

    if (cli_buf_adds(b, ",\"relays\":[") != CLI_OK) {
        return CLI_ERROR;
    }
    for (i = 0; i < e->n_relays; i++) {
        if ((i > 0 && cli_buf_addc(b, ',') != CLI_OK) ||
            cli_buf_json_str(b, e->relays[i].ptr, e->relays[i].len) != CLI_OK) {
            return CLI_ERROR;
        }
    }
    return cli_buf_addc(b, ']');
}

/* The strings of an entity become JSON strings: they must be UTF-8. */
static int entity_text_ok(const sc_nip19_entity *e)
{
    size_t i;

    if (e->type == SC_NIP19_NADDR && sc_utf8_check(e->identifier.ptr, e->identifier.len) != SC_OK) {
        return cli_fail_status(SC_ERR_UTF8, "invalid NIP-19 string: its identifier");
    }
    for (i = 0; i < e->n_relays; i++) {
        if (sc_utf8_check(e->relays[i].ptr, e->relays[i].len) != SC_OK) {
            return cli_fail_status(SC_ERR_UTF8, "invalid NIP-19 string: relay %zu", i + 1);
        }
    }
    return CLI_OK;
}

static int entity_json(cli_buf *b, const sc_nip19_entity *e)
{
    const char *prefix = sc_nip19_prefix(e->type);
    int rc;

    if (prefix == NULL) {
        return cli_fail(CLI_ERROR, "internal error: unknown NIP-19 type %d", (int)e->type);
    }
    if (cli_buf_adds(b, "{\"type\":\"") != CLI_OK || cli_buf_adds(b, prefix) != CLI_OK ||
        cli_buf_addc(b, '"') != CLI_OK) {
        return CLI_ERROR;
    }
    switch (e->type) {
    case SC_NIP19_NPUB:
        rc = cli_buf_json_hex_field(b, "pubkey", e->key, sizeof e->key);
        break;
    case SC_NIP19_NSEC:
        rc = cli_buf_json_hex_field(b, "seckey", e->key, sizeof e->key);
        break;
    case SC_NIP19_NOTE:
        rc = cli_buf_json_hex_field(b, "id", e->key, sizeof e->key);
        break;
    case SC_NIP19_NPROFILE:
        rc = cli_buf_json_hex_field(b, "pubkey", e->key, sizeof e->key);
        if (rc == CLI_OK) {
            rc = add_relays_field(b, e);
        }
        break;
    case SC_NIP19_NEVENT:
        rc = cli_buf_json_hex_field(b, "id", e->key, sizeof e->key);
        if (rc == CLI_OK) {
            rc = add_relays_field(b, e);
        }
        if (rc == CLI_OK && e->has_author) {
            rc = cli_buf_json_hex_field(b, "author", e->author, sizeof e->author);
        }
        if (rc == CLI_OK && e->has_kind) {
            rc = add_kind_field(b, e->kind);
        }
        break;
    case SC_NIP19_NADDR:
        rc = cli_buf_adds(b, ",\"identifier\":");
        if (rc == CLI_OK) {
            rc = cli_buf_json_str(b, e->identifier.ptr, e->identifier.len);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_json_hex_field(b, "pubkey", e->author, sizeof e->author);
        }
        if (rc == CLI_OK) {
            rc = add_kind_field(b, e->kind);
        }
        if (rc == CLI_OK) {
            rc = add_relays_field(b, e);
        }
        break;
    default:
        rc = cli_fail(CLI_ERROR, "internal error: unknown NIP-19 type %d", (int)e->type);
        break;
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, "}\n");
    }
    return rc;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether a command-line string is (or starts like) an nsec: "nsec1" in either case. */
static int is_nsec(const char *s)
{
    static const char hrp[] = "nsec1";
    size_t i;

    for (i = 0; i < sizeof hrp - 1; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != hrp[i]) {
            return 0;
        }
    }
    return 1;
}

static int nip19_decode(int argc, char **argv)
{
    const char *pos[1];
    sc_nip19_entity e;
    cli_buf in = CLI_BUF_INIT, scratch = CLI_BUF_INIT, out = CLI_BUF_INIT;
    const char *s;
    size_t n_pos, n, used = 0;
    sc_status st;
    int rc;

    memset(&e, 0, sizeof e);
    rc = cli_parse_args(usage, argc, argv, NULL, 0, pos, 1, &n_pos);
    if (rc == CLI_OK && n_pos != 1) {
        rc = cli_usage_error(usage, "nip19 decode needs one STRING (or - for stdin)");
    }
    if (rc != CLI_OK) {
        goto out;
    }
    s = pos[0];
    n = strlen(s);
    if (is_nsec(s)) {
        /* checked before decoding: a mistyped nsec is still most of a secret key */
        rc = cli_usage_error(usage, "nip19 decode: that is a secret key (nsec); secret keys are "
                                    "never taken on the command line: give - and pass it on "
                                    "stdin");
        goto out;
    }
    if (strcmp(s, "-") == 0) {
        rc = cli_read_all(0, &in, SC_NIP19_MAX_CHARS + STDIN_SLACK, "stdin");
        if (rc != CLI_OK) {
            goto out;
        }
        if (in.len > SC_NIP19_MAX_CHARS + STDIN_SLACK) {
            rc = cli_fail(CLI_INVALID, "invalid NIP-19 string: longer than %u characters (%s)",
                          SC_NIP19_MAX_CHARS, sc_status_name(SC_ERR_BECH32));
            goto out;
        }
        s = (const char *)in.p;
        n = in.len;
        while (n > 0 && is_space((unsigned char)s[0])) {
            s++;
            n--;
        }
        while (n > 0 && is_space((unsigned char)s[n - 1])) {
            n--;
        }
    }
    rc = cli_buf_reserve(&scratch, sc_nip19_decode_scratch_max(n) + 1);
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_nip19_decode(&e, scratch.p, scratch.cap, &used, s, n);
    if (st != SC_OK) {
        rc = cli_fail_status(st, "invalid NIP-19 string");
        goto out;
    }
    rc = entity_text_ok(&e);
    if (rc == CLI_OK) {
        rc = entity_json(&out, &e);
    }
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
out:
    sc_mem_wipe(&e, sizeof e);
    cli_buf_free(&in);
    cli_buf_free(&scratch);
    cli_buf_free(&out);
    return rc;
}

/* ---- encode ------------------------------------------------------------------------------- */

typedef struct encode_args {
    const char *relays[SC_NIP19_MAX_RELAYS];
    size_t n_relays;
    const char *author;
    const char *kind;
    const char *identifier;
    const char *sec_file;
    const char *pos[1];
    size_t n_pos;
} encode_args;

/* A kind argument: decimal digits only, 0..65535. */
static int parse_kind(uint32_t *kind, const char *s)
{
    uint32_t k = 0;
    size_t i;

    if (s[0] == '\0' || strlen(s) > 5) {
        return -1;
    }
    for (i = 0; s[i] != '\0'; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        k = k * 10u + (uint32_t)(s[i] - '0');
    }
    if (k > SC_EVENT_KIND_MAX) {
        return -1;
    }
    *kind = k;
    return 0;
}

/* A relay or identifier argument: UTF-8 of at most 255 bytes (one TLV record). */
static int check_text(const char *opt, const char *s)
{
    size_t n = strlen(s);

    if (n > 255) {
        return cli_usage_error(usage, "%s: longer than 255 bytes", opt);
    }
    if (sc_utf8_check(s, n) != SC_OK) {
        return cli_usage_error(usage, "%s: not valid UTF-8", opt);
    }
    return CLI_OK;
}

/* Fills e from the parsed arguments for type t (all but nsec). */
static int fill_entity(sc_nip19_entity *e, sc_nip19_type t, const encode_args *a)
{
    const char *name = sc_nip19_prefix(t);
    size_t i;

    e->type = t;
    if (t == SC_NIP19_NADDR) {
        if (a->identifier == NULL || a->author == NULL || a->kind == NULL || a->n_pos != 0) {
            return cli_usage_error(usage, "nip19 encode naddr needs --identifier S, --author KEY "
                                          "and --kind N, and no operand");
        }
        if (check_text("--identifier", a->identifier) != CLI_OK) {
            return CLI_ERROR;
        }
        e->identifier.ptr = a->identifier;
        e->identifier.len = strlen(a->identifier);
    } else if (a->n_pos != 1) {
        return cli_usage_error(usage, "nip19 encode %s needs one %s", name,
                               (t == SC_NIP19_NPUB || t == SC_NIP19_NPROFILE) ? "KEY" : "HEX");
    } else if (t == SC_NIP19_NPUB || t == SC_NIP19_NPROFILE) {
        if (cli_parse_pubkey(e->key, a->pos[0], name, usage) != CLI_OK) {
            return CLI_ERROR;
        }
    } else if (cli_hex32(e->key, a->pos[0]) != 0) {
        return cli_usage_error(usage, "%s: expected 64 hex characters", name);
    }
    for (i = 0; i < a->n_relays; i++) {
        if (check_text("--relay", a->relays[i]) != CLI_OK) {
            return CLI_ERROR;
        }
        e->relays[i].ptr = a->relays[i];
        e->relays[i].len = strlen(a->relays[i]);
    }
    e->n_relays = a->n_relays;
    if (a->author != NULL) {
        if (cli_parse_pubkey(e->author, a->author, "--author", usage) != CLI_OK) {
            return CLI_ERROR;
        }
        e->has_author = 1;
    }
    if (a->kind != NULL) {
        if (parse_kind(&e->kind, a->kind) != 0) {
            return cli_usage_error(usage, "--kind: expected a decimal kind, 0..65535");
        }
        e->has_kind = 1;
    }
    return CLI_OK;
}

/* Which options each type takes: the others are usage errors. */
static int check_options(sc_nip19_type t, const encode_args *a)
{
    int relays = t == SC_NIP19_NPROFILE || t == SC_NIP19_NEVENT || t == SC_NIP19_NADDR;
    int author_kind = t == SC_NIP19_NEVENT || t == SC_NIP19_NADDR;
    const char *name = sc_nip19_prefix(t);

    if (a->n_relays > 0 && !relays) {
        return cli_usage_error(usage, "nip19 encode %s takes no --relay", name);
    }
    if ((a->author != NULL || a->kind != NULL) && !author_kind) {
        return cli_usage_error(usage, "nip19 encode %s takes no --author or --kind", name);
    }
    if (a->identifier != NULL && t != SC_NIP19_NADDR) {
        return cli_usage_error(usage, "nip19 encode %s takes no --identifier", name);
    }
    if (a->sec_file != NULL && t != SC_NIP19_NSEC) {
        return cli_usage_error(usage, "nip19 encode %s takes no --sec-file", name);
    }
    return CLI_OK;
}

static int parse_type(sc_nip19_type *t, const char *s)
{
    static const sc_nip19_type types[] = {SC_NIP19_NPUB,     SC_NIP19_NSEC,   SC_NIP19_NOTE,
                                          SC_NIP19_NPROFILE, SC_NIP19_NEVENT, SC_NIP19_NADDR};
    size_t i;

    for (i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(s, sc_nip19_prefix(types[i])) == 0) {
            *t = types[i];
            return 0;
        }
    }
    return -1;
}

/* The nsec of the key in a file. */
static int fill_nsec(const cli_globals *g, sc_nip19_entity *e, const encode_args *a)
{
    sc_ctx ctx;
    sc_identity id;
    sc_status st;
    int rc;

    if (a->sec_file == NULL || a->n_pos != 0) {
        return cli_usage_error(usage, "nip19 encode nsec takes only --sec-file FILE (a secret key "
                                      "is never taken on the command line)");
    }
    memset(&id, 0, sizeof id);
    if (cli_ctx_init(&ctx, g) != CLI_OK) {
        return CLI_ERROR;
    }
    e->type = SC_NIP19_NSEC;
    rc = cli_load_identity(&ctx, &id, a->sec_file);
    if (rc == CLI_OK) {
        st = sc_identity_seckey(e->key, &id);
        if (st != SC_OK) {
            rc = cli_fail_status(st, "cannot read the secret key");
        }
    }
    sc_identity_clear(&id);
    sc_ctx_clear(&ctx);
    return rc;
}

static int nip19_encode(const cli_globals *g, int argc, char **argv)
{
    encode_args a;
    const cli_opt opts[] = {
        {"--relay", NULL, NULL, a.relays, SC_NIP19_MAX_RELAYS, &a.n_relays},
        {"--author", &a.author, NULL, NULL, 0, NULL},
        {"--kind", &a.kind, NULL, NULL, 0, NULL},
        {"--identifier", &a.identifier, NULL, NULL, 0, NULL},
        {"--sec-file", &a.sec_file, NULL, NULL, 0, NULL},
    };
    sc_nip19_entity e;
    sc_nip19_type t;
    cli_buf out = CLI_BUF_INIT;
    size_t used = 0;
    sc_status st;
    int rc;

    memset(&a, 0, sizeof a);
    memset(&e, 0, sizeof e);
    if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        cli_help(usage);
        return CLI_HELP;
    }
    if (argc < 1 || parse_type(&t, argv[0]) != 0) {
        return cli_usage_error(usage, argc < 1 ? "nip19 encode needs a TYPE"
                                               : "nip19 encode: unknown TYPE");
    }
    rc = cli_parse_args(usage, argc - 1, argv + 1, opts, sizeof opts / sizeof opts[0], a.pos, 1,
                        &a.n_pos);
    if (rc == CLI_OK) {
        rc = check_options(t, &a);
    }
    if (rc == CLI_OK) {
        rc = t == SC_NIP19_NSEC ? fill_nsec(g, &e, &a) : fill_entity(&e, t, &a);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    used = sc_nip19_encode_len(&e);
    if (used == 0 || cli_buf_reserve(&out, used + 1) != CLI_OK) {
        rc = used == 0 ? cli_fail(CLI_ERROR,
                                  "cannot encode: the entity is invalid or longer "
                                  "than %u characters",
                                  SC_NIP19_MAX_CHARS)
                       : CLI_ERROR;
        goto out;
    }
    st = sc_nip19_encode((char *)out.p, out.cap, &used, &e);
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot encode");
        goto out;
    }
    out.len = used;
    rc = cli_buf_addc(&out, '\n');
    if (rc == CLI_OK) {
        rc = cli_write_all(1, out.p, out.len);
    }
out:
    sc_mem_wipe(&e, sizeof e);
    cli_buf_free(&out);
    return rc;
}

int cmd_nip19(const cli_globals *g, int argc, char **argv)
{
    int second = 0, rc = cli_subcommand(usage, "nip19", "decode", "encode", argc, argv, &second);

    if (rc == CLI_OK) {
        rc = second == 0 ? nip19_decode(argc - 2, argv + 2) : nip19_encode(g, argc - 2, argv + 2);
    }
    return rc == CLI_HELP ? CLI_OK : rc;
}
