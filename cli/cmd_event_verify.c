/* softchat event verify: a stream of JSON events on stdin, one verdict line per event on
 * stdout. stdin is read in fixed chunks and split by the jscan splitter, so memory is bounded
 * by the largest event accepted (1 MiB, plus its parse arena), never by the stream. */
#include "cli.h"
#include "jscan.h"

#include <string.h>

/* The largest event verified: the event parser's default limit. */
#define EVENT_MAX 1048576u

typedef struct verifier {
    sc_ctx *ctx;
    cli_buf arena; /* the parse arena, grown to the largest event seen */
    cli_buf out;   /* verdict lines not yet written */
    unsigned long n_events;
    unsigned long n_invalid;
} verifier;

static int add_invalid(verifier *v, sc_status st, const char *why)
{
    char token[48];

    cli_status_token(token, sizeof token, st);
    v->n_events++;
    v->n_invalid++;
    if (cli_buf_adds(&v->out, "invalid ") != CLI_OK || cli_buf_adds(&v->out, token) != CLI_OK ||
        cli_buf_adds(&v->out, ": ") != CLI_OK || cli_buf_adds(&v->out, why) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_addc(&v->out, '\n');
}

static int verify_one(verifier *v, const unsigned char *json, size_t len)
{
    sc_event_parse_opts opts;
    sc_event ev;
    size_t need = sc_event_parse_arena_max(len), used = 0;
    sc_status st;

    memset(&opts, 0, sizeof opts);
    opts.max_input = EVENT_MAX;
    opts.optional = 0;
    v->arena.len = 0;
    if (cli_buf_reserve(&v->arena, need > 0 ? need : 1) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sc_event_parse(&ev, v->arena.p, v->arena.cap, &used, (const char *)json, len, &opts);
    if (st == SC_OK) {
        st = sc_event_verify(v->ctx, &ev);
    }
    if (st != SC_OK) {
        return add_invalid(v, st, sc_status_str(st));
    }
    v->n_events++;
    if (cli_buf_adds(&v->out, "valid ") != CLI_OK ||
        cli_buf_hex(&v->out, ev.id, sizeof ev.id) != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_addc(&v->out, '\n');
}

/* The reader's callbacks. */
static int on_value(void *user, const unsigned char *json, size_t len)
{
    return verify_one((verifier *)user, json, len);
}

static int on_skip(void *user, sc_status st, const char *reason)
{
    return add_invalid((verifier *)user, st, reason);
}

int cmd_event_verify(const cli_globals *g, int argc, char **argv, const char *usage)
{
    sc_ctx ctx;
    verifier v;
    const cli_jscan_reader reader = {on_value, on_skip, "event", "an event", &v};
    cli_jscan s;
    size_t n_pos;
    int rc;

    rc = cli_parse_args(usage, argc, argv, NULL, 0, NULL, 0, &n_pos);
    if (rc != CLI_OK) {
        return rc;
    }
    if (cli_ctx_init(&ctx, g) != CLI_OK) {
        return CLI_ERROR;
    }
    memset(&v, 0, sizeof v);
    v.ctx = &ctx;
    cli_jscan_init(&s, EVENT_MAX);
    rc = cli_jscan_stream(&s, &v.out, &reader);
    if (rc == CLI_OK && v.n_events == 0) {
        rc = cli_fail(CLI_INVALID, "no event in the input");
    } else if (rc == CLI_OK && v.n_invalid > 0) {
        rc = cli_fail(CLI_INVALID, "%lu of %lu events invalid", v.n_invalid, v.n_events);
    }
    cli_jscan_free(&s);
    cli_buf_free(&v.arena);
    cli_buf_free(&v.out);
    sc_ctx_clear(&ctx);
    return rc;
}
