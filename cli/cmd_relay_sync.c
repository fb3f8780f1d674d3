/* softchat relay sync: NIP-77 Negentropy between the key's gift wraps on the relay (kind 1059,
 * p-tagged to it) and those of --have, then a fetch of the ones missing here, printed. A relay
 * without NIP-77 (silent after NEG-OPEN for NEG_WAIT_MS, or a NOTICE about it) is listed by
 * REQ instead (relay_list.c), and the wraps missing here printed the same. */
#include "relay_cmd.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FETCH_BATCH 500u /* ids per REQ of the fetch */
/* The most ids the relay may list as missing here (32 MiB of them): a relay that lists more,
 * or never ends the reconciliation, stops the sync instead of growing the list without end. */
#define NEED_MAX 1000000u
/* A relay that answers NEG-OPEN with nothing for this long lacks NIP-77 (it ignores the
 * message, as PyPI nostr-relay does): a relay that has it answers within milliseconds. */
#define NEG_WAIT_MS 5000

typedef struct sync_state {
    sc_negentropy neg;
    sc_negentropy_item *items; /* the local wraps, sorted, each once */
    size_t n_items;
    sc_relay_filter filter; /* kind 1059, #p the key */
    sc_relay_tag_filter ptag;
    sc_str pval;
    char phex[SC_PUBKEY_HEX_LEN + 1];
    uint32_t kind;
    uint8_t (*need)[32]; /* ids only on the relay */
    size_t n_need, cap_need, only_here;
    size_t fold_at; /* n_need at which need[] is sorted and its duplicates dropped */
    cli_buf msg;
    size_t *have;
    int phase;    /* 0 reconciling, 1 fetching, 2 listing by REQ (no NIP-77) */
    int neg_seen; /* the relay answered a NEG-OPEN (NEG-MSG or NEG-ERR): it has NIP-77 */
    cli_relay_list list;
    size_t listed_here; /* events listed by REQ that --have holds */
    int neg_auth;       /* NEG-ERR auth-required: open again after the AUTH */
    size_t batch;       /* the next need[] index to fetch */
    sc_relay_filter batch_filter;
    char batch_id[32];
    cli_idset got;
    cli_buf out;
    size_t frame_limit;
} sync_state;

/* Sends a NEG-OPEN (with the filter), NEG-MSG or NEG-CLOSE of neg[0..len) for "sync". */
static int neg_send(cli_relay *r, sc_relay_client_type type, const sc_relay_filter *filter,
                    const uint8_t *neg, size_t len)
{
    sc_relay_client_msg m;

    memset(&m, 0, sizeof m);
    m.type = type;
    m.sub_id = SC_STR("sync");
    m.filters = filter;
    m.n_filters = filter != NULL ? 1 : 0;
    m.neg = neg;
    m.neg_len = len;
    return cli_relay_send(r, &m);
}

/* Starts a reconciliation over: a fresh Negentropy state, its first message in a NEG-OPEN. */
static int sync_open(sync_state *s, cli_relay *r)
{
    sc_negentropy_opts o = {0};
    size_t len = 0;
    sc_status st;

    s->n_need = 0;
    s->fold_at = 0;
    s->only_here = 0;
    memset(&s->neg, 0, sizeof s->neg);
    o.frame_limit = s->frame_limit;
    st = sc_negentropy_init(&s->neg, s->items, s->n_items, &o);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot set up Negentropy");
    }
    if (!s->neg_seen) {
        r->wake_ms = cli_ws_now_ms() + NEG_WAIT_MS; /* sync_handler: no answer, no NIP-77 */
    }
    if (cli_buf_size(&s->msg, sc_negentropy_initiate_max(&s->neg)) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sc_negentropy_initiate(r->ctx, &s->neg, s->msg.p, s->msg.cap, &len);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot start Negentropy");
    }
    return neg_send(r, SC_RELAY_CLIENT_NEG_OPEN, &s->filter, s->msg.p, len);
}

static int cmp_id(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

/* A frame limit may report an id twice: keep each once. Sorted, not hashed: the relay
 * chooses these bytes, and ids built to collide in a hash table cost quadratic time. */
static void sync_need_unique(sync_state *s)
{
    size_t w = 1, k;

    if (s->n_need < 2) {
        return;
    }
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

/* Adds an id to fetch. At most NEED_MAX distinct: when the list reaches fold_at its
 * duplicates are dropped, and the next fold is set halfway to NEED_MAX (a relay repeating
 * ids costs a sort per half of the room left, not one per id). */
static int sync_need_add(sync_state *s, const uint8_t id[32])
{
    if (s->n_need == (s->fold_at != 0 ? s->fold_at : NEED_MAX)) {
        sync_need_unique(s);
        if (s->n_need == NEED_MAX) {
            return cli_fail(CLI_INVALID,
                            "the relay lists more than %u events missing here, the most relay "
                            "sync fetches: stopped",
                            NEED_MAX);
        }
        s->fold_at = s->n_need + (NEED_MAX - s->n_need + 1) / 2;
    }
    if (s->n_need == s->cap_need) {
        size_t cap = s->cap_need == 0 ? 1024 : 2 * s->cap_need;
        uint8_t(*v)[32];

        cap = cap < NEED_MAX ? cap : NEED_MAX;
        v = realloc(s->need, cap * 32);
        if (v == NULL) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        s->need = v;
        s->cap_need = cap;
    }
    memcpy(s->need[s->n_need++], id, 32);
    return CLI_OK;
}

/* The next REQ of the fetch phase: up to FETCH_BATCH ids, kind 1059, #p the key. */
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
    /* the sync's filter with the ids: the session then drops any event the relay sends
     * for them that is no gift wrap to the key, as it drops any that was not asked for */
    s->batch_filter = s->filter;
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

/* One round: the relay's NEG-MSG answered, or, when reconciled, NEG-CLOSE and the fetch. The
 * reply goes into s->msg as it is; when it does not fit, the call's answer is the exact size
 * and it runs again into a buffer of that size (sc_negentropy_reconcile_max, the bound from
 * the message's length, is hundreds of times a NEG-MSG of ids: never reserved). */
static int sync_reconcile(sync_state *s, cli_relay *r, const sc_relay_msg *m)
{
    size_t len = 0, hl = 0, nl = 0, need_cap = sc_negentropy_need_max(m->neg_len), k;
    uint8_t(*need)[32] = malloc((need_cap > 0 ? need_cap : 1) * 32);
    sc_status st;
    int rc = CLI_OK;

    if (need == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_negentropy_reconcile(r->ctx, &s->neg, s->msg.p, s->msg.cap, &len, s->have, s->n_items,
                                 &hl, need, need_cap, &nl, m->neg, m->neg_len);
    if (st == SC_ERR_BUFFER_TOO_SMALL && len > s->msg.cap) {
        if (cli_buf_size(&s->msg, len) != CLI_OK) {
            free(need);
            return CLI_ERROR;
        }
        st = sc_negentropy_reconcile(r->ctx, &s->neg, s->msg.p, s->msg.cap, &len, s->have,
                                     s->n_items, &hl, need, need_cap, &nl, m->neg, m->neg_len);
    }
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
        rc = neg_send(r, SC_RELAY_CLIENT_NEG_MSG, NULL, s->msg.p, len);
        return rc == CLI_OK ? CLI_RELAY_CONTINUE : CLI_ERROR;
    }
    if (neg_send(r, SC_RELAY_CLIENT_NEG_CLOSE, NULL, NULL, 0) != CLI_OK) {
        return CLI_ERROR;
    }
    sync_need_unique(s);
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

/* The relay lacks NIP-77: the reconciliation is given up (NEG-CLOSE, for a relay that was
 * only slow) and the wraps are listed by REQ. */
static int sync_fall_back(sync_state *s, cli_relay *r, const char *why, sc_str said)
{
    r->wake_ms = 0;
    cli_fail(CLI_OK, "the relay lacks NIP-77 (Negentropy): %s%.*s%s; listing its wraps by REQ", why,
             (int)said.len, said.ptr, said.len > 0 ? "\"" : "");
    if (neg_send(r, SC_RELAY_CLIENT_NEG_CLOSE, NULL, NULL, 0) != CLI_OK) {
        return CLI_ERROR;
    }
    s->phase = 2;
    return cli_relay_list_start(&s->list, r, &s->filter);
}

/* Whether the event with this id and time is one of --have's (items is sorted). */
static int sync_is_local(const sync_state *s, const sc_event *ev)
{
    size_t lo = 0, hi = s->n_items;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const sc_negentropy_item *it = &s->items[mid];
        int c = it->timestamp != (uint64_t)ev->created_at
                    ? (it->timestamp < (uint64_t)ev->created_at ? -1 : 1)
                    : memcmp(it->id, ev->id, 32);

        if (c == 0) {
            return 1;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return 0;
}

/* The listing's messages (phase 2): each wrap once, printed unless --have holds it. */
static int sync_on_list(sync_state *s, cli_relay *r, const sc_relay_msg *m,
                        const sc_relay_update *u)
{
    int k;

    if (u->kind == SC_RELAY_U_EOSE) {
        k = cli_relay_list_eose(&s->list, r);
        s->only_here = s->n_items - s->listed_here;
        return k;
    }
    if (u->kind != SC_RELAY_U_EVENT) {
        return CLI_RELAY_CONTINUE;
    }
    k = cli_relay_list_event(&s->list, &m->event);
    if (k != 1) {
        return k == 0 ? CLI_RELAY_CONTINUE : CLI_ERROR;
    }
    if (sync_is_local(s, &m->event)) {
        s->listed_here++;
        return CLI_RELAY_CONTINUE;
    }
    s->n_need++;
    if (cli_idset_add(&s->got, m->event.id) < 0) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    return cli_print_event(&s->out, &m->event) == CLI_OK ? CLI_RELAY_CONTINUE : CLI_ERROR;
}

/* The reconciliation phase's messages: NEG-MSG, NEG-ERR, a NOTICE instead of either. */
static int sync_on_neg(sync_state *s, cli_relay *r, const sc_relay_msg *m)
{
    if (m->type == SC_RELAY_NEG_MSG || m->type == SC_RELAY_NEG_ERR) {
        s->neg_seen = 1;
        r->wake_ms = 0;
    }
    if (m->type == SC_RELAY_NEG_MSG) {
        return cli_str_is(m->sub_id, "sync") ? sync_reconcile(s, r, m) : CLI_RELAY_CONTINUE;
    }
    if (m->type == SC_RELAY_NEG_ERR) {
        if (m->prefix == SC_RELAY_PREFIX_AUTH_REQUIRED) {
            s->neg_auth = 1;
            return CLI_RELAY_CONTINUE;
        }
        return cli_fail(CLI_INVALID, "the relay refused the sync: %.*s", (int)m->message.len,
                        m->message.ptr);
    }
    /* a relay without NIP-77 may answer NEG-OPEN with a NOTICE instead of a NEG-ERR */
    if (!s->neg_seen && mentions_negentropy(m->message)) {
        return sync_fall_back(s, r, "its notice \"", m->message);
    }
    if (cli_relay_may_note(r)) {
        cli_fail(CLI_OK, "relay notice: %.*s", (int)m->message.len, m->message.ptr);
    }
    return CLI_RELAY_CONTINUE;
}

static int sync_handler(void *user, cli_relay *r, const sc_relay_msg *m, const sc_relay_update *u)
{
    sync_state *s = user;
    int k;

    if (m == NULL && u != NULL) {
        /* the NEG-OPEN's wait is over without an answer */
        return s->phase == 0 ? sync_fall_back(s, r, "no answer to NEG-OPEN in 5 s", SC_STR(""))
                             : CLI_RELAY_CONTINUE;
    }
    if (m == NULL) {
        /* (re)connected: a reconciliation starts over; a fetch or a listing resumes by itself */
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
    if (s->phase == 0 && (m->type == SC_RELAY_NEG_MSG || m->type == SC_RELAY_NEG_ERR ||
                          m->type == SC_RELAY_NOTICE)) {
        return sync_on_neg(s, r, m);
    }
    if (s->phase == 2 && u->kind != SC_RELAY_U_CLOSED) {
        return sync_on_list(s, r, m, u);
    }
    if (u->kind == SC_RELAY_U_EVENT) {
        k = cli_idset_add(&s->got, m->event.id);
        if (k < 0) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        return (k == 0 || cli_print_event(&s->out, &m->event) == CLI_OK) ? CLI_RELAY_CONTINUE
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

/* The local side: the events of --have (none without it) as Negentropy items, sorted, each
 * once (a wrap listed twice counts once). */
static int sync_load_have(sc_ctx *ctx, const cli_relay_args *a, sync_state *s)
{
    cli_event_list local;
    size_t i, w = 0;
    int rc = CLI_OK;

    memset(&local, 0, sizeof local);
    if (a->have != NULL) {
        int fd = open(a->have, O_RDONLY);

        if (fd < 0) {
            return cli_fail(CLI_ERROR, "cannot open %s", a->have);
        }
        rc = cli_events_read(ctx, &local, fd, a->have, 0);
        close(fd);
    }
    if (rc == CLI_OK) {
        s->items = calloc(local.n + 1, sizeof *s->items);
        s->have = calloc(local.n + 1, sizeof *s->have);
        rc = s->items != NULL && s->have != NULL ? CLI_OK : cli_fail(CLI_ERROR, "out of memory");
    }
    for (i = 0; rc == CLI_OK && i < local.n; i++) {
        s->items[i].timestamp = (uint64_t)local.ev[i].created_at;
        memcpy(s->items[i].id, local.ev[i].id, 32);
    }
    if (rc == CLI_OK && sc_negentropy_sort(s->items, local.n) != SC_OK) {
        rc = CLI_ERROR;
    }
    for (i = 0; rc == CLI_OK && i < local.n; i++) {
        if (w == 0 || s->items[i].timestamp != s->items[w - 1].timestamp ||
            memcmp(s->items[i].id, s->items[w - 1].id, 32) != 0) {
            s->items[w++] = s->items[i];
        }
    }
    s->n_items = w;
    cli_events_free(&local);
    return rc;
}

/* The relay side: the key's gift wraps (kind 1059, p-tagged to it). */
static int sync_set_filter(sync_state *s, const cli_ext_signer *who)
{
    uint8_t pub[SC_PUBKEY_BYTES];

    if (sc_signer_pubkey(pub, who->signer) != SC_OK) {
        return cli_fail(CLI_ERROR, "cannot read the public key");
    }
    cli_hex_str(s->phex, pub, sizeof pub);
    s->pval.ptr = s->phex;
    s->pval.len = SC_PUBKEY_HEX_LEN;
    s->ptag.letter = 'p';
    s->ptag.values = &s->pval;
    s->ptag.n_values = 1;
    s->kind = SC_NIP59_KIND_WRAP;
    s->filter.kinds = &s->kind;
    s->filter.n_kinds = 1;
    s->filter.tags = &s->ptag;
    s->filter.n_tags = 1;
    return CLI_OK;
}

/* Reconciles and fetches over one connection, then says what it found. */
static int sync_run(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who, sync_state *s)
{
    cli_relay r;
    int rc = cli_relay_open(&r, ctx, a->url, who, 2, 0, 0, a->timeout);

    if (rc == CLI_OK) {
        r.reconnect = 1;
        r.ca_file = a->ca_file;
        rc = cli_relay_run(&r, sync_handler, s);
    }
    if (rc == CLI_OK) {
        cli_fail(CLI_OK, "relay sync: %zu local, %zu only on the relay (%s %zu), %zu only here",
                 s->n_items, s->n_need, s->phase == 2 ? "listed by REQ, printed" : "fetched",
                 s->got.n, s->only_here);
        if (s->got.n < s->n_need) {
            rc = cli_fail(CLI_INVALID, "the relay did not send %zu of the events it listed",
                          s->n_need - s->got.n);
        }
    }
    cli_relay_close(&r);
    return rc;
}

int cmd_relay_sync(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who)
{
    sync_state s;
    int rc;

    memset(&s, 0, sizeof s);
    s.frame_limit = a->frame;
    rc = sync_load_have(ctx, a, &s);
    if (rc == CLI_OK) {
        rc = sync_set_filter(&s, who);
    }
    if (rc == CLI_OK) {
        rc = sync_run(ctx, a, who, &s);
    }
    free(s.items);
    free(s.have);
    free(s.need);
    cli_buf_free(&s.msg);
    cli_buf_free(&s.out);
    cli_idset_free(&s.got);
    cli_relay_list_free(&s.list);
    return rc;
}
