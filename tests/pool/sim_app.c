/* The simulator's applications, written as an application uses the library: alice sends
 * through delivery records she persists before and after every change; bob and carol listen
 * through a pool subscription with a cursor, opening each wrap (sc_nip17_receive) and
 * persisting the message with the cursor in one step. A crash loses the process (pool,
 * records, cursor in memory) and keeps only what was persisted. */
#include "sim.h"

#include <stdio.h>
#include <string.h>

const sc_pool_opts sim_pool_opts = {
    .max_relays = 8,
    .max_subs = 4,
    .max_publishes = 32,
    .seen_per_sub = 256,
    .ok_timeout_ms = 10000,
    .max_attempts = 5,
    .retry_min_ms = 1000,
    .retry_max_ms = 16000,
    .session = {.backoff_min_ms = 200, .backoff_max_ms = 5000},
};

int sim_guard_ok(const uint8_t *mem, size_t len)
{
    size_t i;

    for (i = 0; i < SIM_GUARD; i++) {
        if (mem[len + i] != 0xA5) {
            return 0;
        }
    }
    return 1;
}

static int relay_of(const sim_world *w, sc_str url)
{
    int r;

    for (r = 0; r < SIM_RELAYS; r++) {
        if (strlen(w->r[r].url) == url.len && memcmp(w->r[r].url, url.ptr, url.len) == 0) {
            return r;
        }
    }
    return -1;
}

static int save_out(sim_world *w, sim_out *o)
{
    sc_status st = sc_delivery_save(&o->d, o->saved, sizeof o->saved, &o->saved_len);

    return st == SC_OK ? 0 : sim_fail(w, "sc_delivery_save: %s", sc_status_str(st));
}

static int save_cursor(sim_world *w, sim_client *a)
{
    sc_status st =
        sc_pool_cursor_save(&a->cur, a->cur_saved, sizeof a->cur_saved, &a->cur_saved_len);

    return st == SC_OK ? 0 : sim_fail(w, "sc_pool_cursor_save: %s", sc_status_str(st));
}

/* Alice sends message o now: the record is made and persisted (the intent), then started. */
static int send_out(sim_world *w, sim_out *o)
{
    const sim_book *b = w->b;
    sc_str urls[SIM_WRAPS][SIM_RELAYS];
    sc_delivery_route routes[SIM_WRAPS];
    size_t j, n_urls = 0, total = 0;
    sc_status st;
    int r, c;

    for (j = 0; j < SIM_WRAPS; j++) {
        for (c = 0; c < SIM_CLIENTS && memcmp(b->pub[c], b->wraps[o->msg][j].recipient, 32) != 0;
             c++) {
        }
        if (c == SIM_CLIENTS) {
            return sim_fail(w, "a wrap for nobody");
        }
        routes[j].relays = urls[j];
        routes[j].n_relays = 0;
        for (r = 0; r < SIM_RELAYS; r++) {
            if (w->c[c].inbox[r]) {
                urls[j][routes[j].n_relays++] = (sc_str){w->r[r].url, strlen(w->r[r].url)};
                n_urls++;
                total += strlen(w->r[r].url);
            }
        }
    }
    o->mem_cap = sc_delivery_mem_max(SIM_WRAPS, b->wraps_len[o->msg], n_urls, total);
    if (o->mem_cap == 0 || o->mem_cap > SIM_SAVE * 2) {
        return sim_fail(w, "sc_delivery_mem_max: %zu", o->mem_cap);
    }
    memset(o->mem, 0xA5, o->mem_cap + SIM_GUARD);
    st = sc_delivery_init(&o->d, o->mem, o->mem_cap, b->wraps_json[o->msg], b->wraps_len[o->msg],
                          b->wraps[o->msg], SIM_WRAPS, routes);
    if (st != SC_OK) {
        return sim_fail(w, "sc_delivery_init: %s", sc_status_str(st));
    }
    o->sent = 1;
    o->live = 1;
    if (save_out(w, o) != 0) {
        return -1;
    }
    st = sc_delivery_start(&o->d, &w->c[SIM_ALICE].p);
    return st == SC_OK ? 0 : sim_fail(w, "sc_delivery_start: %s", sc_status_str(st));
}

/* Alice after a restart: each persisted record loaded and, when still pending, started. */
static int resume_outs(sim_world *w, sim_client *a)
{
    size_t i;

    for (i = 0; i < a->n_out; i++) {
        sim_out *o = &a->out[i];
        size_t need;
        sc_status st;

        if (!o->sent) {
            continue;
        }
        need = sc_delivery_load_mem_max(o->saved, o->saved_len);
        if (need == 0 || need > o->mem_cap) {
            return sim_fail(w, "sc_delivery_load_mem_max: %zu of %zu", need, o->mem_cap);
        }
        memset(o->mem, 0xA5, o->mem_cap + SIM_GUARD);
        st = sc_delivery_load(&o->d, o->mem, o->mem_cap, o->saved, o->saved_len);
        if (st != SC_OK) {
            return sim_fail(w, "sc_delivery_load: %s", sc_status_str(st));
        }
        o->live = 1;
        if (sc_delivery_outcome_get(&o->d) == SC_DELIVERY_PENDING) {
            st = sc_delivery_start(&o->d, &a->p);
            if (st != SC_OK) {
                return sim_fail(w, "sc_delivery_start after a restart: %s", sc_status_str(st));
            }
        }
    }
    return 0;
}

/* Bob or carol after a start: the cursor restored, the inbox subscription opened. */
static int listen(sim_world *w, int c)
{
    sim_client *a = &w->c[c];
    uint32_t relays[SIM_RELAYS];
    size_t n = 0;
    sc_pool_sub_opts so;
    sc_status st;
    int r;

    for (r = 0; r < SIM_RELAYS; r++) {
        if (a->inbox[r] && sc_pool_relay_add(&a->p, &relays[n++],
                                             (sc_str){w->r[r].url, strlen(w->r[r].url)}) != SC_OK) {
            return sim_fail(w, "sc_pool_relay_add");
        }
    }
    memset(a->cur_mem, 0xA5, a->cur_len + SIM_GUARD);
    if (sc_pool_cursor_init(&a->cur, a->cur_mem, a->cur_len, 256, SIM_RELAYS, 32) != SC_OK) {
        return sim_fail(w, "sc_pool_cursor_init");
    }
    if (a->cur_saved_len > 0) {
        st = sc_pool_cursor_load(&a->cur, a->cur_saved, a->cur_saved_len);
        if (st != SC_OK) {
            return sim_fail(w, "sc_pool_cursor_load: %s", sc_status_str(st));
        }
    }
    a->kind = 1059;
    a->pval = (sc_str){w->b->pub_hex[c], 64};
    a->tf = (sc_relay_tag_filter){.letter = 'p', .values = &a->pval, .n_values = 1};
    memset(&a->filter, 0, sizeof a->filter);
    a->filter.kinds = &a->kind;
    a->filter.n_kinds = 1;
    a->filter.tags = &a->tf;
    a->filter.n_tags = 1;
    memset(&so, 0, sizeof so);
    so.resume_slack = SC_POOL_SLACK_GIFT_WRAP;
    so.cursor = &a->cur;
    st = sc_pool_subscribe(&a->p, &a->sub, SC_STR("inbox"), &a->filter, 1, relays, n, &so);
    return st == SC_OK ? 0 : sim_fail(w, "sc_pool_subscribe: %s", sc_status_str(st));
}

int sim_app_start(sim_world *w, int c)
{
    sim_client *a = &w->c[c];
    sc_status st;

    memset(a->pool_mem, 0xA5, a->pool_len + SIM_GUARD);
    st = sc_pool_init(&a->p, a->pool_mem, a->pool_len, &sim_pool_opts);
    if (st != SC_OK) {
        return sim_fail(w, "sc_pool_init: %s", sc_status_str(st));
    }
    if (!w->auth_external && sc_pool_auth_identity(&a->p, &w->b->who[c]) != SC_OK) {
        return sim_fail(w, "sc_pool_auth_identity");
    }
    a->alive = 1;
    a->restart_at = INT64_MAX;
    sim_trace(w, "start c%d", c);
    return c == SIM_ALICE ? resume_outs(w, a) : listen(w, c);
}

void sim_app_crash(sim_world *w, int c)
{
    sim_client *a = &w->c[c];
    size_t i;
    int r;

    for (r = 0; r < SIM_RELAYS; r++) {
        (void)sim_conn_cut(w, c, r, 0);
    }
    sc_pool_clear(&a->p);
    for (i = 0; i < a->n_out; i++) {
        if (a->out[i].live) {
            sc_delivery_clear(&a->out[i].d);
            a->out[i].live = 0;
        }
    }
    if (c != SIM_ALICE) {
        sc_pool_cursor_clear(&a->cur);
    }
    a->alive = 0;
    a->crash_at = INT64_MAX;
    a->restart_at = w->now + sim_between(&w->g, 200, 5000);
    w->st->crashes++;
    sim_trace(w, "crash c%d", c);
}

/* An EVENT of bob's or carol's subscription: opened and persisted with the cursor. */
static int on_event(sim_world *w, int c, const sc_pool_update *u)
{
    sim_client *a = &w->c[c];
    sc_nip17_received m;
    size_t used = 0, i;
    const sim_event *e;
    char hex[65];
    int idx = -1, planned = 0;
    sc_status st;

    sim_hex(hex, u->event->id);
    e = sim_book_find(w->b, hex);
    st = sc_nip17_receive_at(w->ctx, &m, a->open_arena, a->open_cap, &used, u->event_json.ptr,
                             u->event_json.len, &w->b->who[c], w->now / 1000);
    if (st != SC_OK) {
        if (e != NULL && e->msg >= 0) {
            return sim_fail(w, "a genuine wrap did not open: %s", sc_status_str(st));
        }
        w->st->forged_rejected++;
        return 0;
    }
    if (e == NULL || e->msg < 0 || e->wrap != c) {
        return sim_fail(w, "client %d opened a wrap that is not its message (%s)", c, hex);
    }
    if (memcmp(m.wrap.sender, w->b->pub[SIM_ALICE], 32) != 0 ||
        sscanf(m.rumor.content.ptr, "sim message %d", &idx) != 1 || idx != e->msg) {
        return sim_fail(w, "client %d: the message is not what alice sent", c);
    }
    for (i = 0; i < w->c[SIM_ALICE].n_out; i++) {
        planned |= w->c[SIM_ALICE].out[i].msg == idx && w->c[SIM_ALICE].out[i].sent;
    }
    if (!planned) {
        return sim_fail(w, "client %d received message %d, never sent", c, idx);
    }
    a->got[idx]++;
    w->st->received++;
    return save_cursor(w, a); /* one transaction: the message and the cursor */
}

/* AUTH_WANTED: the AUTH for the relay's challenge signed the way an application whose key is
 * in an external signer signs it (the template, an operation over the signer, its request
 * answered with the signature the signer makes), then handed to the pool, which checks it.
 * Once per connection. */
static int on_auth_wanted(sim_world *w, int c, const sc_pool_update *u)
{
    static sc_signer_op op;
    sim_conn *k;
    sc_relay_auth t;
    sc_signer signer;
    sc_signer_req req;
    sc_event copy;
    char sig[128];
    size_t len = 0;
    int r = relay_of(w, u->url);
    sc_status st;

    if (!w->auth_external) {
        return sim_fail(w, "AUTH_WANTED, though the pool has an identity");
    }
    k = r >= 0 ? &w->conn[c][r] : NULL;
    if (k == NULL || k->state != SIM_OPEN || k->wanted_epoch == k->epoch) {
        return sim_fail(w, "AUTH_WANTED for client %d relay %d: not open, or twice", c, r);
    }
    k->wanted_epoch = k->epoch;
    st = sc_pool_auth_template(&w->c[c].p, &t, u->relay, w->b->pub[c], w->now / 1000);
    if (st == SC_OK && (st = sc_signer_init_external(&signer, w->b->pub[c], 0)) == SC_OK) {
        st = sc_event_sign_start(w->ctx, &op, &t.event, &signer);
    }
    if (st == SC_OK && (st = sc_signer_op_step(&op, w->ctx, w->now, &req)) == SC_OK &&
        req.kind == SC_SIGNER_REQ_SIGN_EVENT) {
        copy = *req.event; /* the signer's side */
        st = sc_event_sign(w->ctx, &copy, &w->b->who[c]);
        if (st == SC_OK) {
            st = sc_hex_encode(sig, sizeof sig, &len, copy.sig, sizeof copy.sig);
        }
        if (st == SC_OK) {
            st = sc_signer_op_answer(&op, w->ctx, sig, len);
        }
        if (st == SC_OK) {
            st = sc_signer_op_step(&op, w->ctx, w->now, &req);
        }
    }
    sc_signer_op_clear(&op);
    if (st != SC_OK || req.kind != SC_SIGNER_REQ_NONE) {
        return sim_fail(w, "the AUTH over the external signer: %s", sc_status_str(st));
    }
    st = sc_pool_auth_send(&w->c[c].p, w->ctx, u->relay, &t.event, w->now / 1000);
    if (st != SC_OK) {
        return sim_fail(w, "sc_pool_auth_send: %s", sc_status_str(st));
    }
    w->st->auth_signed++;
    return 0;
}

static int on_update(sim_world *w, int c, const sc_pool_update *u)
{
    sim_client *a = &w->c[c];
    size_t i;
    int r;

    sim_trace(w, "c%d update %d relay %.*s result %d text %.*s", c, (int)u->kind, (int)u->url.len,
              u->url.ptr, (int)u->result, (int)u->text.len, u->text.ptr);
    switch (u->kind) {
    case SC_POOL_U_CONNECT:
        r = relay_of(w, u->url);
        if (r < 0 || w->conn[c][r].state != SIM_CLOSED) {
            return sim_fail(w, "CONNECT for client %d relay %d, not closed", c, r);
        }
        w->conn[c][r].state = SIM_OPENING;
        w->conn[c][r].handle = u->relay;
        w->conn[c][r].open_at = w->now + sim_between(&w->g, 5, 150);
        w->conn[c][r].open_ok = 1;
        return 0;
    case SC_POOL_U_DISCONNECT:
        return sim_fail(w, "DISCONNECT, though no relay was removed");
    case SC_POOL_U_EVENT:
        return c == SIM_ALICE ? sim_fail(w, "alice subscribed to nothing") : on_event(w, c, u);
    case SC_POOL_U_PUBLISHED:
    case SC_POOL_U_PUBLISH_DONE:
        for (i = 0; i < a->n_out; i++) {
            if (a->out[i].live && u->user == &a->out[i].d) {
                sc_status st = sc_delivery_apply(&a->out[i].d, u);

                if (st != SC_OK) {
                    return sim_fail(w, "sc_delivery_apply: %s", sc_status_str(st));
                }
                return save_out(w, &a->out[i]);
            }
        }
        return sim_fail(w, "a publish update no record owns");
    case SC_POOL_U_AUTH_WANTED:
        return on_auth_wanted(w, c, u);
    default:
        return 0;
    }
}

static int poll_all(sim_world *w, int c)
{
    sim_client *a = &w->c[c];
    sc_pool_update u;
    int n;

    for (n = 0;; n++) {
        sc_status st = sc_pool_poll(&a->p, w->ctx, w->now, &u);

        if (st != SC_OK) {
            return sim_fail(w, "sc_pool_poll: %s", sc_status_str(st));
        }
        if (u.kind == SC_POOL_U_NONE) {
            break;
        }
        if (n > 10000) {
            return sim_fail(w, "sc_pool_poll never reports NONE");
        }
        if (on_update(w, c, &u) != 0) {
            return -1;
        }
    }
    return 0;
}

static int flush(sim_world *w, int c)
{
    static char out[SIM_TEXT];
    int r;

    for (r = 0; r < SIM_RELAYS; r++) {
        sim_conn *k = &w->conn[c][r];
        size_t len = 0;

        while (k->state == SIM_OPEN) {
            sc_status st = sc_pool_next(&w->c[c].p, k->handle, out, sizeof out, &len);

            if (st != SC_OK) {
                return sim_fail(w, "sc_pool_next: %s", sc_status_str(st));
            }
            if (len == 0) {
                break;
            }
            sim_link_send(w, c, r, 0, out, len);
        }
    }
    return 0;
}

int sim_app_tick(sim_world *w, int c)
{
    sim_client *a = &w->c[c];
    size_t i;

    if (!a->alive) {
        if (a->restart_at > w->now || sim_app_start(w, c) != 0) {
            return a->restart_at > w->now ? 0 : -1;
        }
    }
    if (a->crash_at <= w->now) {
        sim_app_crash(w, c);
        return 0;
    }
    for (i = 0; i < a->n_out; i++) {
        if (!a->out[i].sent && a->out[i].send_at <= w->now && send_out(w, &a->out[i]) != 0) {
            return -1;
        }
    }
    if (poll_all(w, c) != 0) {
        return -1;
    }
    return flush(w, c);
}

int64_t sim_app_next(const sim_world *w, int c)
{
    const sim_client *a = &w->c[c];
    int64_t t;
    size_t i;

    if (!a->alive) {
        return a->restart_at;
    }
    t = sc_pool_wakeup(&a->p);
    if (t < w->now) {
        t = w->now;
    }
    if (a->crash_at < t) {
        t = a->crash_at;
    }
    for (i = 0; i < a->n_out; i++) {
        if (!a->out[i].sent && a->out[i].send_at < t) {
            t = a->out[i].send_at;
        }
    }
    return t;
}

int sim_app_text(sim_world *w, int c, int r, const char *text, size_t len)
{
    sim_client *a = &w->c[c];
    sc_status st;

    memcpy(a->text, text, len);
    st = sc_pool_receive(&a->p, w->ctx, w->conn[c][r].handle, a->text, len, w->now, a->arena,
                         a->arena_cap);
    if (st == SC_ERR_STATE || st == SC_ERR_BUFFER_TOO_SMALL || st == SC_ERR_NOT_FOUND) {
        return sim_fail(w, "sc_pool_receive: %s", sc_status_str(st));
    }
    if (poll_all(w, c) != 0) {
        return -1;
    }
    return flush(w, c);
}

int sim_app_opened(sim_world *w, int c, int r, int ok)
{
    sim_conn *k = &w->conn[c][r];
    sc_status st;

    if (!ok) {
        sim_trace(w, "open c%d r%d: refused", c, r);
        k->state = SIM_CLOSED;
        st = sc_pool_disconnected(&w->c[c].p, k->handle, w->now);
        return st == SC_OK ? 0 : sim_fail(w, "sc_pool_disconnected: %s", sc_status_str(st));
    }
    sim_trace(w, "open c%d r%d: %s", c, r, ok ? "up" : "refused");
    sim_link_reset(k);
    k->state = SIM_OPEN;
    k->open_ok = 0;
    k->epoch++;
    st = sc_pool_connected(&w->c[c].p, k->handle, w->now);
    if (st != SC_OK) {
        return sim_fail(w, "sc_pool_connected: %s", sc_status_str(st));
    }
    return sim_relay_open(w, c, r);
}
