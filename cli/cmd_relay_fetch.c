/* softchat relay fetch: one subscription with the --filter filters; every event the relay
 * sends (verified and matching, by the session) printed once, until EOSE or, with --follow,
 * until --count distinct events or the timeout. */
#include "relay_cmd.h"

#include <string.h>

typedef struct fetch_state {
    cli_idset seen;
    int follow;
    unsigned long count;
    cli_buf out;
} fetch_state;

static int fetch_handler(void *user, cli_relay *r, const sc_relay_msg *m, const sc_relay_update *u)
{
    fetch_state *f = user;
    int k;

    if (m == NULL) {
        return CLI_RELAY_CONTINUE;
    }
    switch (u->kind) {
    case SC_RELAY_U_EVENT:
        k = cli_idset_add(&f->seen, m->event.id);
        if (k < 0) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        if (k == 1 && cli_print_event(&f->out, &m->event) != CLI_OK) {
            return CLI_ERROR;
        }
        if (f->follow && f->count > 0 && f->seen.n >= f->count) {
            return CLI_RELAY_DONE;
        }
        return CLI_RELAY_CONTINUE;
    case SC_RELAY_U_EOSE:
        return f->follow ? CLI_RELAY_CONTINUE : CLI_RELAY_DONE;
    case SC_RELAY_U_CLOSED:
        return cli_fail(CLI_INVALID, "the relay closed the subscription: %.*s", (int)m->message.len,
                        m->message.ptr);
    case SC_RELAY_U_AUTH_REQUIRED:
        if (r->who == NULL) {
            return cli_fail(CLI_INVALID,
                            "the relay requires AUTH (NIP-42): %.*s; give --sec-file or --signer",
                            (int)m->message.len, m->message.ptr);
        }
        return CLI_RELAY_CONTINUE;
    case SC_RELAY_U_AUTH_REFUSED:
        return cli_fail(CLI_INVALID, "the relay refused the AUTH: %.*s", (int)m->message.len,
                        m->message.ptr);
    default:
        return CLI_RELAY_CONTINUE;
    }
}

/* Parses the --filter texts into f[], each into its own arena. A bad one is a usage error. */
static int parse_filters(const cli_relay_args *a, sc_relay_filter *f, cli_buf *arenas)
{
    size_t i;

    for (i = 0; i < a->n_filters; i++) {
        size_t len = strlen(a->filters[i]), used = 0;
        size_t need = sc_relay_filter_parse_arena_max(len);
        sc_status s;

        if (cli_buf_reserve(&arenas[i], need > 0 ? need : 1) != CLI_OK) {
            return CLI_ERROR;
        }
        s = sc_relay_filter_parse(&f[i], arenas[i].p, arenas[i].cap, &used, a->filters[i], len);
        if (s != SC_OK) {
            return cli_usage_error(a->usage, "--filter %s: %s (%s)", a->filters[i],
                                   sc_status_str(s), sc_status_name(s));
        }
    }
    return CLI_OK;
}

int cmd_relay_fetch(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who)
{
    sc_relay_filter f[CLI_RELAY_MAX_FILTERS];
    cli_buf arenas[CLI_RELAY_MAX_FILTERS];
    fetch_state st;
    cli_relay r;
    size_t i;
    int rc;

    memset(arenas, 0, sizeof arenas);
    memset(&st, 0, sizeof st);
    rc = parse_filters(a, f, arenas);
    if (rc == CLI_OK) {
        st.follow = a->follow;
        st.count = a->count;
        rc = cli_relay_open(&r, ctx, a->url, who, 1, 0, (int64_t)a->slack, a->timeout);
        if (rc == CLI_OK) {
            sc_status s = sc_relay_session_subscribe(&r.s, SC_STR("fetch"), f, a->n_filters);

            r.reconnect = a->follow;
            r.ca_file = a->ca_file;
            rc = s == SC_OK ? cli_relay_run(&r, fetch_handler, &st)
                            : cli_fail_status(s, "cannot subscribe");
            if (rc == CLI_ERROR && a->follow && a->count > 0 && st.seen.n < a->count) {
                cli_fail(CLI_OK, "%zu of %lu events received", st.seen.n, a->count);
            }
        }
        cli_relay_close(&r);
    }
    for (i = 0; i < CLI_RELAY_MAX_FILTERS; i++) {
        cli_buf_free(&arenas[i]);
    }
    cli_idset_free(&st.seen);
    cli_buf_free(&st.out);
    return rc;
}
