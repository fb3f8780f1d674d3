/* softchat relay publish | fetch | sync: a real WebSocket connection (libwebsockets) driven by
 * libsoftchat's sans-IO relay session; sync is NIP-77 Negentropy for a key's gift wraps,
 * then a fetch of the missing ones. */
#include "relay_client.h"

#include <fcntl.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INPUT_MAX (256u << 20)
#define MAX_FILTERS 16u
#define FETCH_BATCH 500u /* ids per REQ of sync's fetch */

static const char usage[] =
    "usage: softchat relay publish --url URL [--sec-file FILE] [--timeout S] < events\n"
    "       softchat relay fetch --url URL --filter JSON [--filter JSON]... [--sec-file FILE]\n"
    "                            [--follow [--count N] [--slack S]] [--timeout S]\n"
    "       softchat relay sync --url URL --sec-file FILE [--have FILE] [--frame-limit N]\n"
    "                           [--timeout S]\n"
    "\n"
    "  URL is ws://HOST[:PORT][/PATH] or wss://... (TLS, the system's CA store). --timeout S\n"
    "  bounds the whole command (default 30 seconds). With --sec-file FILE the command\n"
    "  answers the relay's AUTH challenges (NIP-42) as that key, and REQs or EVENTs the relay\n"
    "  refused with auth-required: are sent again once it accepts the AUTH. A dropped\n"
    "  connection is reopened with a doubling delay (250 ms to 4 s): subscriptions resume\n"
    "  past what was already delivered and unacknowledged events are sent again.\n"
    "  relay publish  stdin: signed events, one JSON object per line (JSON Lines), each\n"
    "                 verified before anything is sent (a bad one: exit 1, nothing sent).\n"
    "                 A stdin without any event (empty, or blank lines only) is exit 1\n"
    "                 without connecting: nothing to publish is taken for a failure\n"
    "                 upstream (a producer in a pipeline that wrote nothing).\n"
    "                 stdout: one line per event, in input order, once the relay answered:\n"
    "                   {\"id\":HEX,\"accepted\":BOOL,\"message\":STR}\n"
    "                 Exit 0 when every event was accepted (a duplicate counts), 1 when the\n"
    "                 relay refused any (its reason, e.g. \"blocked: ...\", on stderr too).\n"
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
    "                 sends (0: none, the default; else at least 4096). A relay without NIP-77\n"
    "                 (NEG-ERR, or a NOTICE about it) is exit 1 with its reason.\n"
    "\n"
    "exit status: 0 success, 1 refused or invalid events or messages, 2 usage, connection or\n"
    "timeout.\n";

typedef struct common_args {
    const char *url, *sec_file, *timeout_arg;
    int timeout;
} common_args;

static int parse_uint_arg(const char *s, unsigned long max, unsigned long *v)
{
    char *end;

    if (s == NULL || *s < '0' || *s > '9') {
        return -1;
    }
    *v = strtoul(s, &end, 10);
    return (*end != '\0' || *v > max) ? -1 : 0;
}

static int finish_common(common_args *a)
{
    unsigned long t = 30;
    int secure, port;
    char host[256], path[512];

    if (a->url == NULL) {
        return cli_usage_error(usage, "relay commands need --url URL");
    }
    if (cli_ws_parse_url(a->url, &secure, host, sizeof host, &port, path, sizeof path) != 0) {
        return cli_usage_error(usage, "--url must be ws://HOST[:PORT][/PATH] or wss://...");
    }
    if (a->timeout_arg != NULL && (parse_uint_arg(a->timeout_arg, 86400, &t) != 0 || t == 0)) {
        return cli_usage_error(usage, "--timeout takes seconds, 1 to 86400");
    }
    a->timeout = (int)t;
    return CLI_OK;
}

/* ---- events read from a file or stdin ------------------------------------------------------ */

typedef struct event_list {
    sc_event *ev;
    cli_buf *arena;
    size_t n, cap;
} event_list;

static void events_free(event_list *l)
{
    size_t i;

    for (i = 0; i < l->n; i++) {
        cli_buf_free(&l->arena[i]);
    }
    free(l->ev);
    free(l->arena);
    memset(l, 0, sizeof *l);
}

/* Parses JSON Lines of signed events; verify: check id and signature too. */
static int events_read(sc_ctx *ctx, event_list *l, int fd, const char *what, int verify)
{
    cli_buf in = CLI_BUF_INIT;
    size_t at = 0, line = 0;
    int rc = cli_read_all(fd, &in, INPUT_MAX, what);

    if (rc != CLI_OK) {
        return rc;
    }
    if (in.len > INPUT_MAX) {
        cli_buf_free(&in);
        return cli_fail(CLI_INVALID, "%s: over %u bytes", what, INPUT_MAX);
    }
    while (at < in.len) {
        size_t end = at, need = 0, used = 0;
        sc_status st;

        while (end < in.len && in.p[end] != '\n') {
            end++;
        }
        line++;
        while (at < end && (in.p[at] == ' ' || in.p[at] == '\t' || in.p[at] == '\r')) {
            at++;
        }
        if (at == end) {
            at = end + 1;
            continue;
        }
        if (l->n == l->cap) {
            size_t cap = l->cap == 0 ? 64 : 2 * l->cap;
            sc_event *ev = realloc(l->ev, cap * sizeof *ev);
            cli_buf *ar;

            if (ev == NULL) {
                rc = cli_fail(CLI_ERROR, "out of memory");
                break;
            }
            l->ev = ev;
            ar = realloc(l->arena, cap * sizeof *ar);
            if (ar == NULL) {
                rc = cli_fail(CLI_ERROR, "out of memory");
                break;
            }
            l->arena = ar;
            l->cap = cap;
        }
        memset(&l->arena[l->n], 0, sizeof l->arena[l->n]);
        need = sc_event_parse_arena_max(end - at);
        if (cli_buf_reserve(&l->arena[l->n], need > 0 ? need : 1) != CLI_OK) {
            rc = CLI_ERROR;
            break;
        }
        l->n++;
        st = sc_event_parse(&l->ev[l->n - 1], l->arena[l->n - 1].p, l->arena[l->n - 1].cap, &used,
                            (const char *)in.p + at, end - at, NULL);
        if (st == SC_OK && verify) {
            st = sc_event_verify(ctx, &l->ev[l->n - 1]);
        }
        if (st != SC_OK) {
            rc = cli_fail_status(st, "%s line %zu", what, line);
            break;
        }
        at = end + 1;
    }
    cli_buf_free(&in);
    return rc;
}

static int print_event(cli_buf *out, const sc_event *ev)
{
    if (cli_buf_event_line(out, ev, "the event") != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_flush_stdout(out);
}

/* ---- publish ------------------------------------------------------------------------------- */

typedef struct pub_state {
    event_list events;
    int *answered;  /* 0 waiting, 1 accepted, 2 refused */
    char **message; /* the relay's text per event (heap) */
    size_t next_print, refused;
} pub_state;

static int pub_handler(void *user, cli_relay *r, const sc_relay_msg *m, const sc_relay_update *u)
{
    pub_state *p = user;
    size_t i;
    cli_buf out = CLI_BUF_INIT;

    if (m != NULL && u->kind == SC_RELAY_U_AUTH_REQUIRED && r->who == NULL) {
        return cli_fail(CLI_INVALID, "the relay requires AUTH (NIP-42): %.*s; give --sec-file",
                        (int)m->message.len, m->message.ptr);
    }
    if (m != NULL && u->kind == SC_RELAY_U_AUTH_REFUSED) {
        return cli_fail(CLI_INVALID, "the relay refused the AUTH: %.*s", (int)m->message.len,
                        m->message.ptr);
    }
    if (m == NULL || (u->kind != SC_RELAY_U_ACCEPTED && u->kind != SC_RELAY_U_REJECTED)) {
        return CLI_RELAY_CONTINUE;
    }
    for (i = 0; i < p->events.n; i++) {
        if (p->answered[i] == 0 && memcmp(p->events.ev[i].id, u->event_id, 32) == 0) {
            p->answered[i] = u->kind == SC_RELAY_U_ACCEPTED ? 1 : 2;
            p->message[i] = malloc(m->message.len + 1);
            if (p->message[i] == NULL) {
                return cli_fail(CLI_ERROR, "out of memory");
            }
            memcpy(p->message[i], m->message.ptr, m->message.len);
            p->message[i][m->message.len] = '\0';
            if (p->answered[i] == 2) {
                char hex[SC_EVENT_ID_HEX_LEN + 1];

                cli_hex_str(hex, u->event_id, 32);
                p->refused++;
                cli_fail(CLI_OK, "the relay refused event %s: %s", hex, p->message[i]);
            }
        }
    }
    /* print in input order as answers arrive */
    while (p->next_print < p->events.n && p->answered[p->next_print] != 0) {
        size_t k = p->next_print++;

        if (cli_buf_adds(&out, "{\"id\":") != CLI_OK ||
            cli_buf_json_hex(&out, p->events.ev[k].id, 32) != CLI_OK ||
            cli_buf_adds(&out, p->answered[k] == 1 ? ",\"accepted\":true,\"message\":"
                                                   : ",\"accepted\":false,\"message\":") !=
                CLI_OK ||
            cli_buf_json_str(&out, p->message[k], strlen(p->message[k])) != CLI_OK ||
            cli_buf_adds(&out, "}\n") != CLI_OK || cli_buf_flush_stdout(&out) != CLI_OK) {
            cli_buf_free(&out);
            return CLI_ERROR;
        }
    }
    cli_buf_free(&out);
    return p->next_print == p->events.n ? CLI_RELAY_DONE : CLI_RELAY_CONTINUE;
}

static int cmd_publish(sc_ctx *ctx, const common_args *a, const sc_identity *who)
{
    pub_state p;
    cli_relay r;
    size_t i;
    int rc;

    memset(&p, 0, sizeof p);
    memset(&r, 0, sizeof r); /* closable whichever step fails */
    rc = events_read(ctx, &p.events, 0, "stdin", 1);
    if (rc == CLI_OK && p.events.n == 0) {
        /* most likely a producer upstream in a pipeline failed: not a successful publish */
        rc = cli_fail(CLI_INVALID, "no event on stdin: nothing published");
    }
    if (rc != CLI_OK) {
        events_free(&p.events);
        return rc;
    }
    p.answered = calloc(p.events.n, sizeof *p.answered);
    p.message = calloc(p.events.n, sizeof *p.message);
    rc = p.answered != NULL && p.message != NULL ? CLI_OK : cli_fail(CLI_ERROR, "out of memory");
    if (rc == CLI_OK) {
        rc = cli_relay_open(&r, ctx, a->url, who, 0, p.events.n, 0, a->timeout);
        r.reconnect = 1;
    }
    for (i = 0; rc == CLI_OK && i < p.events.n; i++) {
        sc_status st = sc_relay_session_publish(&r.s, &p.events.ev[i]);

        if (st != SC_OK) {
            rc = cli_fail_status(st, "cannot queue an event");
        }
    }
    if (rc == CLI_OK) {
        rc = cli_relay_run(&r, pub_handler, &p);
        if (rc == CLI_OK && p.refused > 0) {
            rc = CLI_INVALID;
        }
    }
    cli_relay_close(&r);
    for (i = 0; p.message != NULL && i < p.events.n; i++) {
        free(p.message[i]);
    }
    free(p.message);
    free(p.answered);
    events_free(&p.events);
    return rc;
}

/* ---- fetch --------------------------------------------------------------------------------- */

typedef struct fetch_state {
    cli_idset seen;
    int follow;
    unsigned long count;
    int closed; /* the relay closed the subscription */
    cli_buf out;
} fetch_state;

static int fetch_handler(void *user, cli_relay *r, const sc_relay_msg *m,
                         const sc_relay_update *u)
{
    fetch_state *f = user;
    int k;

    (void)r;
    if (m == NULL) {
        return CLI_RELAY_CONTINUE;
    }
    switch (u->kind) {
    case SC_RELAY_U_EVENT:
        k = cli_idset_add(&f->seen, m->event.id);
        if (k < 0) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        if (k == 1 && print_event(&f->out, &m->event) != CLI_OK) {
            return CLI_ERROR;
        }
        if (f->follow && f->count > 0 && f->seen.n >= f->count) {
            return CLI_RELAY_DONE;
        }
        return CLI_RELAY_CONTINUE;
    case SC_RELAY_U_EOSE:
        return f->follow ? CLI_RELAY_CONTINUE : CLI_RELAY_DONE;
    case SC_RELAY_U_CLOSED:
        return cli_fail(CLI_INVALID, "the relay closed the subscription: %.*s",
                        (int)m->message.len, m->message.ptr);
    case SC_RELAY_U_AUTH_REQUIRED:
        if (r->who == NULL) {
            return cli_fail(CLI_INVALID, "the relay requires AUTH (NIP-42): %.*s; give --sec-file",
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

static int cmd_fetch(sc_ctx *ctx, const common_args *a, const sc_identity *who,
                     const char *const *filters, size_t n_filters, int follow,
                     unsigned long count, long slack)
{
    sc_relay_filter f[MAX_FILTERS];
    cli_buf arenas[MAX_FILTERS];
    fetch_state st;
    cli_relay r;
    size_t i;
    int rc = CLI_OK;

    memset(arenas, 0, sizeof arenas);
    memset(&st, 0, sizeof st);
    for (i = 0; i < n_filters && rc == CLI_OK; i++) {
        size_t len = strlen(filters[i]), used = 0;
        size_t need = sc_relay_filter_parse_arena_max(len);
        sc_status s;

        if (cli_buf_reserve(&arenas[i], need > 0 ? need : 1) != CLI_OK) {
            rc = CLI_ERROR;
            break;
        }
        s = sc_relay_filter_parse(&f[i], arenas[i].p, arenas[i].cap, &used, filters[i], len);
        if (s != SC_OK) {
            rc = cli_usage_error(usage, "--filter %s: %s (%s)", filters[i], sc_status_str(s),
                                 sc_status_name(s));
        }
    }
    if (rc == CLI_OK) {
        st.follow = follow;
        st.count = count;
        rc = cli_relay_open(&r, ctx, a->url, who, 1, 0, slack, a->timeout);
        if (rc == CLI_OK) {
            sc_status s = sc_relay_session_subscribe(&r.s, SC_STR("fetch"), f, n_filters);

            r.reconnect = follow;
            rc = s == SC_OK ? cli_relay_run(&r, fetch_handler, &st)
                            : cli_fail_status(s, "cannot subscribe");
            if (rc == CLI_ERROR && follow && count > 0 && st.seen.n < count) {
                cli_fail(CLI_OK, "%zu of %lu events received", st.seen.n, count);
            }
        }
        cli_relay_close(&r);
    }
    for (i = 0; i < MAX_FILTERS; i++) {
        cli_buf_free(&arenas[i]);
    }
    cli_idset_free(&st.seen);
    cli_buf_free(&st.out);
    return rc;
}

/* ---- sync ---------------------------------------------------------------------------------- */

typedef struct sync_state {
    sc_negentropy neg;
    sc_negentropy_item *items;
    size_t n_items;
    sc_relay_filter filter;
    sc_relay_tag_filter ptag;
    sc_str pval;
    char phex[SC_PUBKEY_HEX_LEN + 1];
    uint32_t kind;
    uint8_t (*need)[32];
    size_t n_need, cap_need, only_here;
    cli_buf msg;
    size_t *have;
    int phase;      /* 0 reconciling, 1 fetching */
    int opened;     /* NEG-OPEN sent on this connection */
    int neg_auth;   /* NEG-ERR auth-required: open again after the AUTH */
    size_t batch;   /* the next need[] index to fetch */
    sc_relay_filter batch_filter;
    char batch_id[32];
    cli_idset got;
    cli_buf out;
    size_t frame_limit;
} sync_state;

static int sync_open(sync_state *s, cli_relay *r)
{
    sc_relay_client_msg m;
    size_t len = 0, cap;
    sc_status st;

    s->n_need = 0;
    s->only_here = 0;
    memset(&s->neg, 0, sizeof s->neg);
    {
        sc_negentropy_opts o = {s->frame_limit};

        st = sc_negentropy_init(&s->neg, s->items, s->n_items, &o);
    }
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot set up Negentropy");
    }
    cap = sc_negentropy_initiate_max(&s->neg);
    if (cli_buf_reserve(&s->msg, cap) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sc_negentropy_initiate(r->ctx, &s->neg, s->msg.p, s->msg.cap, &len);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot start Negentropy");
    }
    memset(&m, 0, sizeof m);
    m.type = SC_RELAY_CLIENT_NEG_OPEN;
    m.sub_id = SC_STR("sync");
    m.filters = &s->filter;
    m.n_filters = 1;
    m.neg = s->msg.p;
    m.neg_len = len;
    s->opened = 1;
    return cli_relay_send(r, &m);
}

static int sync_need_add(sync_state *s, const uint8_t id[32])
{
    if (s->n_need == s->cap_need) {
        size_t cap = s->cap_need == 0 ? 1024 : 2 * s->cap_need;
        uint8_t(*v)[32] = realloc(s->need, cap * 32);

        if (v == NULL) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        s->need = v;
        s->cap_need = cap;
    }
    memcpy(s->need[s->n_need++], id, 32);
    return CLI_OK;
}

/* The next REQ of the fetch phase: up to FETCH_BATCH ids. */
static int sync_next_batch(sync_state *s, cli_relay *r)
{
    size_t n = s->n_need - s->batch;
    sc_status st;

    if (n == 0) {
        return CLI_RELAY_DONE;
    }
    if (n > FETCH_BATCH) {
        n = FETCH_BATCH;
    }
    if (s->batch_id[0] != '\0') {
        sc_str old = {s->batch_id, strlen(s->batch_id)};

        st = sc_relay_session_unsubscribe(&r->s, old); /* its EOSE came: CLOSE it */
        if (st != SC_OK && st != SC_ERR_SUBSCRIPTION) {
            return cli_fail_status(st, "cannot close a subscription");
        }
    }
    memset(&s->batch_filter, 0, sizeof s->batch_filter);
    s->batch_filter.ids = (const uint8_t(*)[32])s->need[s->batch];
    s->batch_filter.n_ids = n;
    snprintf(s->batch_id, sizeof s->batch_id, "get-%zu", s->batch / FETCH_BATCH);
    s->batch += n;
    {
        sc_str id = {s->batch_id, strlen(s->batch_id)};

        st = sc_relay_session_subscribe(&r->s, id, &s->batch_filter, 1);
    }
    return st == SC_OK ? CLI_RELAY_CONTINUE : cli_fail_status(st, "cannot subscribe");
}

static int cmp_id(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

static int sync_reconcile(sync_state *s, cli_relay *r, const sc_relay_msg *m)
{
    size_t out_cap = sc_negentropy_reconcile_max(&s->neg, m->neg_len), len = 0, hl = 0, nl = 0;
    size_t need_cap = sc_negentropy_need_max(m->neg_len), k;
    uint8_t(*need)[32] = NULL;
    sc_status st;
    int rc = CLI_OK;

    if (out_cap == 0 || cli_buf_reserve(&s->msg, out_cap) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    need = malloc((need_cap > 0 ? need_cap : 1) * 32);
    if (need == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_negentropy_reconcile(r->ctx, &s->neg, s->msg.p, s->msg.cap, &len, s->have,
                                 s->n_items, &hl, need, need_cap, &nl, m->neg, m->neg_len);
    if (st != SC_OK) {
        free(need);
        return cli_fail_token(st, "the relay's Negentropy message");
    }
    s->only_here += hl;
    for (k = 0; k < nl && rc == CLI_OK; k++) {
        rc = sync_need_add(s, need[k]);
    }
    free(need);
    if (rc != CLI_OK) {
        return rc;
    }
    if (len > 0) {
        sc_relay_client_msg out;

        memset(&out, 0, sizeof out);
        out.type = SC_RELAY_CLIENT_NEG_MSG;
        out.sub_id = SC_STR("sync");
        out.neg = s->msg.p;
        out.neg_len = len;
        return cli_relay_send(r, &out) == CLI_OK ? CLI_RELAY_CONTINUE : CLI_ERROR;
    }
    {
        sc_relay_client_msg out;

        memset(&out, 0, sizeof out);
        out.type = SC_RELAY_CLIENT_NEG_CLOSE;
        out.sub_id = SC_STR("sync");
        if (cli_relay_send(r, &out) != CLI_OK) {
            return CLI_ERROR;
        }
    }
    /* a frame limit may report an id twice: keep each once. Sorted, not hashed: the relay
     * chooses these bytes, and ids built to collide in a hash table cost quadratic time */
    if (s->n_need > 1) {
        size_t w = 1;

        qsort(s->need, s->n_need, sizeof s->need[0], cmp_id);
        for (k = 1; k < s->n_need; k++) {
            if (memcmp(s->need[k], s->need[w - 1], 32) != 0) {
                if (k != w) {
                    memcpy(s->need[w], s->need[k], 32);
                }
                w++;
            }
        }
        s->n_need = w;
    }
    s->phase = 1;
    return sync_next_batch(s, r);
}

/* Whether a NOTICE is about Negentropy ("negentropy" or "NEG-" in any case). */
static int mentions_negentropy(sc_str text)
{
    static const char *const words[] = {"negentropy", "neg-"};
    size_t w, i, j;

    for (w = 0; w < 2; w++) {
        size_t n = strlen(words[w]);

        for (i = 0; i + n <= text.len; i++) {
            for (j = 0; j < n && tolower((unsigned char)text.ptr[i + j]) == words[w][j]; j++) {
            }
            if (j == n) {
                return 1;
            }
        }
    }
    return 0;
}

static int sync_handler(void *user, cli_relay *r, const sc_relay_msg *m, const sc_relay_update *u)
{
    sync_state *s = user;
    int k;

    if (m == NULL) {
        /* (re)connected: a reconciliation starts over; a fetch resumes by itself */
        return s->phase == 0 ? (sync_open(s, r) == CLI_OK ? CLI_RELAY_CONTINUE : CLI_ERROR)
                             : CLI_RELAY_CONTINUE;
    }
    if (u->kind == SC_RELAY_U_AUTHENTICATED && s->neg_auth && s->phase == 0) {
        s->neg_auth = 0;
        return sync_open(s, r) == CLI_OK ? CLI_RELAY_CONTINUE : CLI_ERROR;
    }
    if (u->kind == SC_RELAY_U_AUTH_REFUSED) {
        return cli_fail(CLI_INVALID, "the relay refused the AUTH: %.*s", (int)m->message.len,
                        m->message.ptr);
    }
    if (m->type == SC_RELAY_NEG_MSG && s->phase == 0 && m->sub_id.len == 4 &&
        memcmp(m->sub_id.ptr, "sync", 4) == 0) {
        return sync_reconcile(s, r, m);
    }
    if (m->type == SC_RELAY_NEG_ERR && s->phase == 0) {
        if (m->prefix == SC_RELAY_PREFIX_AUTH_REQUIRED) {
            s->neg_auth = 1;
            return CLI_RELAY_CONTINUE;
        }
        return cli_fail(CLI_INVALID, "the relay refused the sync: %.*s", (int)m->message.len,
                        m->message.ptr);
    }
    if (m->type == SC_RELAY_NOTICE && s->phase == 0) {
        /* a relay without NIP-77 may answer NEG-OPEN with a NOTICE instead of a NEG-ERR */
        if (mentions_negentropy(m->message)) {
            return cli_fail(CLI_INVALID, "the relay refused the sync: %.*s",
                            (int)m->message.len, m->message.ptr);
        }
        cli_fail(CLI_OK, "relay notice: %.*s", (int)m->message.len, m->message.ptr);
        return CLI_RELAY_CONTINUE;
    }
    if (u->kind == SC_RELAY_U_EVENT) {
        k = cli_idset_add(&s->got, m->event.id);
        if (k < 0) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        return (k == 0 || print_event(&s->out, &m->event) == CLI_OK) ? CLI_RELAY_CONTINUE
                                                                     : CLI_ERROR;
    }
    if (u->kind == SC_RELAY_U_EOSE) {
        return sync_next_batch(s, r);
    }
    if (u->kind == SC_RELAY_U_CLOSED) {
        return cli_fail(CLI_INVALID, "the relay closed the fetch: %.*s", (int)m->message.len,
                        m->message.ptr);
    }
    return CLI_RELAY_CONTINUE;
}

static int cmd_sync(sc_ctx *ctx, const common_args *a, const sc_identity *who,
                    const char *have_file, size_t frame_limit)
{
    uint8_t pub[SC_PUBKEY_BYTES];
    event_list local;
    sync_state s;
    cli_relay r;
    size_t i;
    int rc = CLI_OK;
    static const uint32_t kind_wrap = SC_NIP59_KIND_WRAP;

    memset(&local, 0, sizeof local);
    memset(&s, 0, sizeof s);
    if (have_file != NULL) {
        int fd = open(have_file, O_RDONLY);

        if (fd < 0) {
            return cli_fail(CLI_ERROR, "cannot open %s", have_file);
        }
        rc = events_read(ctx, &local, fd, have_file, 0);
        close(fd);
        if (rc != CLI_OK) {
            events_free(&local);
            return rc;
        }
    }
    s.frame_limit = frame_limit;
    s.n_items = local.n;
    s.items = calloc(local.n + 1, sizeof *s.items);
    s.have = calloc(local.n + 1, sizeof *s.have);
    if (s.items == NULL || s.have == NULL) {
        rc = cli_fail(CLI_ERROR, "out of memory");
    }
    for (i = 0; rc == CLI_OK && i < local.n; i++) {
        s.items[i].timestamp = (uint64_t)local.ev[i].created_at;
        memcpy(s.items[i].id, local.ev[i].id, 32);
    }
    if (rc == CLI_OK && sc_negentropy_sort(s.items, s.n_items) != SC_OK) {
        rc = CLI_ERROR;
    }
    /* duplicates in the local file count once */
    if (rc == CLI_OK && s.n_items > 1) {
        size_t w = 1;

        for (i = 1; i < s.n_items; i++) {
            if (s.items[i].timestamp != s.items[w - 1].timestamp ||
                memcmp(s.items[i].id, s.items[w - 1].id, 32) != 0) {
                s.items[w++] = s.items[i];
            }
        }
        s.n_items = w;
    }
    if (rc == CLI_OK && sc_identity_pubkey(pub, who) != SC_OK) {
        rc = cli_fail(CLI_ERROR, "cannot read the public key");
    }
    if (rc == CLI_OK) {
        cli_hex_str(s.phex, pub, sizeof pub);
        s.pval.ptr = s.phex;
        s.pval.len = SC_PUBKEY_HEX_LEN;
        s.ptag.letter = 'p';
        s.ptag.values = &s.pval;
        s.ptag.n_values = 1;
        s.kind = kind_wrap;
        s.filter.kinds = &s.kind;
        s.filter.n_kinds = 1;
        s.filter.tags = &s.ptag;
        s.filter.n_tags = 1;
        rc = cli_relay_open(&r, ctx, a->url, who, 2, 0, 0, a->timeout);
        if (rc == CLI_OK) {
            r.reconnect = 1;
            rc = cli_relay_run(&r, sync_handler, &s);
        }
        if (rc == CLI_OK) {
            fprintf(stderr,
                    "softchat: relay sync: %zu local, %zu only on the relay (fetched %zu), %zu "
                    "only here\n",
                    s.n_items, s.n_need, s.got.n, s.only_here);
            if (s.got.n < s.n_need) {
                rc = cli_fail(CLI_INVALID, "the relay did not send %zu of the events it listed",
                              s.n_need - s.got.n);
            }
        }
        cli_relay_close(&r);
    }
    free(s.items);
    free(s.have);
    free(s.need);
    cli_buf_free(&s.msg);
    cli_buf_free(&s.out);
    cli_idset_free(&s.got);
    events_free(&local);
    return rc;
}

/* ---- the group ------------------------------------------------------------------------------ */

int cmd_relay(const cli_globals *g, int argc, char **argv)
{
    common_args a;
    const char *filters[MAX_FILTERS], *count_arg = NULL, *slack_arg = NULL, *have = NULL;
    const char *frame_arg = NULL;
    size_t n_filters = 0, n_pos = 0;
    int follow = 0, rc;
    unsigned long count = 0, slack = 0, frame = 0;
    sc_identity who;
    sc_ctx ctx;
    const char *sub;

    if (argc < 2) {
        return cli_usage_error(usage, "relay needs a subcommand: publish, fetch or sync");
    }
    sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        return cli_help(usage);
    }
    memset(&a, 0, sizeof a);
    {
        const cli_opt opts[] = {
            {"--url", &a.url, NULL, NULL, 0, NULL},
            {"--sec-file", &a.sec_file, NULL, NULL, 0, NULL},
            {"--timeout", &a.timeout_arg, NULL, NULL, 0, NULL},
            {"--filter", NULL, NULL, filters, MAX_FILTERS, &n_filters},
            {"--follow", NULL, &follow, NULL, 0, NULL},
            {"--count", &count_arg, NULL, NULL, 0, NULL},
            {"--slack", &slack_arg, NULL, NULL, 0, NULL},
            {"--have", &have, NULL, NULL, 0, NULL},
            {"--frame-limit", &frame_arg, NULL, NULL, 0, NULL},
        };

        rc = cli_parse_args(usage, argc - 2, argv + 2, opts, sizeof opts / sizeof opts[0], NULL,
                            0, &n_pos);
    }
    if (rc == CLI_HELP) {
        return CLI_OK;
    }
    if (rc != CLI_OK) {
        return rc;
    }
    if ((rc = finish_common(&a)) != CLI_OK) {
        return rc;
    }
    if (strcmp(sub, "publish") == 0) {
        if (n_filters || follow || count_arg || slack_arg || have || frame_arg) {
            return cli_usage_error(usage, "relay publish takes --url, --sec-file and --timeout");
        }
    } else if (strcmp(sub, "fetch") == 0) {
        if (n_filters == 0) {
            return cli_usage_error(usage, "relay fetch needs --filter JSON");
        }
        if (have || frame_arg || ((count_arg || slack_arg) && !follow)) {
            return cli_usage_error(usage, "--count and --slack go with --follow; --have and "
                                          "--frame-limit with sync");
        }
        if ((count_arg && parse_uint_arg(count_arg, 100000000, &count) != 0) ||
            (slack_arg && parse_uint_arg(slack_arg, 31536000, &slack) != 0)) {
            return cli_usage_error(usage, "--count and --slack take non-negative integers");
        }
    } else if (strcmp(sub, "sync") == 0) {
        if (a.sec_file == NULL) {
            return cli_usage_error(usage, "relay sync needs --sec-file FILE (whose wraps)");
        }
        if (n_filters || follow || count_arg || slack_arg) {
            return cli_usage_error(usage, "relay sync takes --url, --sec-file, --have, "
                                          "--frame-limit and --timeout");
        }
        if (frame_arg && (parse_uint_arg(frame_arg, 1u << 30, &frame) != 0 ||
                          (frame != 0 && frame < SC_NEGENTROPY_FRAME_MIN))) {
            return cli_usage_error(usage, "--frame-limit is 0 or at least 4096");
        }
    } else {
        return cli_usage_error(usage, "unknown relay subcommand '%s'", sub);
    }
    if (cli_ctx_init(&ctx, g) != CLI_OK) {
        return CLI_ERROR;
    }
    memset(&who, 0, sizeof who);
    if (a.sec_file != NULL && (rc = cli_load_identity(&ctx, &who, a.sec_file)) != CLI_OK) {
        sc_ctx_clear(&ctx);
        return rc;
    }
    if (strcmp(sub, "publish") == 0) {
        rc = cmd_publish(&ctx, &a, a.sec_file ? &who : NULL);
    } else if (strcmp(sub, "fetch") == 0) {
        rc = cmd_fetch(&ctx, &a, a.sec_file ? &who : NULL, filters, n_filters, follow, count,
                       (long)slack);
    } else {
        rc = cmd_sync(&ctx, &a, &who, have, frame);
    }
    sc_identity_clear(&who);
    sc_ctx_clear(&ctx);
    return rc;
}
