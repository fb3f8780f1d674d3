/* softchat nip17 receive: a stream of gift wraps on stdin, one line per authenticated message
 * on stdout, one line on stderr per wrap skipped. stdin is read in fixed chunks and split by
 * the jscan splitter, so memory is bounded by the largest wrap accepted (1 MiB, plus its
 * arena), never by the stream. Every message's plaintext is wiped once written. */
#include "cli.h"
#include "jscan.h"
#include "user_key.h"

#include <string.h>

#define WRAP_MAX 1048576u

typedef struct receiver {
    sc_ctx *ctx;
    const cli_ext_signer *me;
    cli_buf arena; /* the unwrap arena, grown to the largest wrap seen */
    cli_buf out;   /* message lines not yet written */
    unsigned long n_wraps;
    unsigned long n_skipped;
} receiver;

/* Reports wrap number n_wraps as skipped. An environment failure (not the wrap's fault)
 * ends the run instead: returns CLI_ERROR then. */
static int skip(receiver *r, sc_status st, const char *why)
{
    char token[48];

    r->n_wraps++;
    r->n_skipped++;
    /* the messages before it reach stdout before its stderr line, for a reader of both */
    if (r->out.len > 0 && cli_buf_flush_stdout(&r->out) != CLI_OK) {
        return CLI_ERROR;
    }
    cli_status_token(token, sizeof token, st);
    cli_fail(CLI_INVALID, "wrap %lu: %s: %s (%s)", r->n_wraps, token, why, sc_status_name(st));
    /* a signer that declines a wrap (not the user's: it cannot decrypt it) skips that one */
    return cli_exit_for(st) == CLI_ERROR && st != SC_ERR_SIGNER_REFUSED ? CLI_ERROR : CLI_OK;
}

/* Appends the JSON line of one received message. */
static int add_message(cli_buf *b, const sc_nip17_received *m)
{
    char num[32];
    size_t i;

    if (cli_buf_adds(b, "{\"from\":") != CLI_OK ||
        cli_buf_json_hex(b, m->wrap.sender, SC_PUBKEY_BYTES) != CLI_OK ||
        cli_buf_adds(b, ",\"room\":[") != CLI_OK) {
        return CLI_ERROR;
    }
    for (i = 0; i < m->n_room; i++) {
        if ((i > 0 && cli_buf_addc(b, ',') != CLI_OK) ||
            cli_buf_json_hex(b, m->room[i], SC_PUBKEY_BYTES) != CLI_OK) {
            return CLI_ERROR;
        }
    }
    snprintf(num, sizeof num, "%lu", (unsigned long)m->rumor.kind);
    if (cli_buf_adds(b, "],\"kind\":") != CLI_OK || cli_buf_adds(b, num) != CLI_OK ||
        cli_buf_adds(b, ",\"id\":") != CLI_OK ||
        cli_buf_json_hex(b, m->rumor.id, SC_EVENT_ID_BYTES) != CLI_OK) {
        return CLI_ERROR;
    }
    snprintf(num, sizeof num, "%lld", (long long)m->rumor.created_at);
    if (cli_buf_adds(b, ",\"created_at\":") != CLI_OK || cli_buf_adds(b, num) != CLI_OK ||
        cli_buf_adds(b, ",\"content\":") != CLI_OK ||
        cli_buf_json_str(b, m->rumor.content.ptr, m->rumor.content.len) != CLI_OK ||
        cli_buf_adds(b, ",\"tags\":") != CLI_OK || cli_buf_json_tags(b, &m->rumor) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_adds(b, "}\n");
}

static int receive_one(receiver *r, const unsigned char *json, size_t len)
{
    sc_nip17_received msg;
    size_t used = 0;
    sc_status st;
    int rc;

    st = cli_nip17_open(r->ctx, r->me, &msg, &r->arena, &used, (const char *)json, len);
    if (st == SC_ERR_NOMEM) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    if (st != SC_OK) {
        return skip(r, st, sc_status_str(st));
    }
    r->n_wraps++;
    rc = add_message(&r->out, &msg);
    sc_mem_wipe(r->arena.p, used);
    memset(&msg, 0, sizeof msg);
    return rc;
}

/* The reader's callbacks. */
static int on_value(void *user, const unsigned char *json, size_t len)
{
    return receive_one((receiver *)user, json, len);
}

static int on_skip(void *user, sc_status st, const char *reason)
{
    return skip((receiver *)user, st, reason);
}

int cmd_nip17_receive(const cli_globals *g, int argc, char **argv, const char *usage)
{
    cli_user_args ua;
    cli_opt opts[CLI_USER_N_OPTS];
    cli_user user;
    sc_ctx ctx;
    receiver r;
    const cli_jscan_reader reader = {on_value, on_skip, "gift wrap", "a gift wrap", &r};
    cli_jscan s;
    size_t n_pos;
    int rc;

    memset(&ua, 0, sizeof ua);
    memset(&ctx, 0, sizeof ctx);
    memset(&user, 0, sizeof user);
    rc = cli_parse_args(usage, argc, argv, opts, cli_user_opts(opts, &ua), NULL, 0, &n_pos);
    if (rc == CLI_OK) {
        rc = cli_user_check(&ua, usage, "nip17 receive");
    }
    if (rc != CLI_OK) {
        return rc;
    }
    rc = cli_ctx_init(&ctx, g);
    if (rc == CLI_OK) {
        rc = cli_user_open(&user, &ctx, &ua);
    }
    if (rc == CLI_OK) {
        memset(&r, 0, sizeof r);
        r.ctx = &ctx;
        r.me = &user.ext;
        cli_jscan_init(&s, WRAP_MAX);
        rc = cli_jscan_stream(&s, &r.out, &reader);
        if (rc == CLI_OK && r.n_skipped > 0) {
            rc = CLI_INVALID;
        }
        cli_jscan_free(&s);
        cli_buf_free(&r.arena);
        cli_buf_free(&r.out);
    }
    cli_user_close(&user);
    sc_ctx_clear(&ctx);
    return rc;
}
