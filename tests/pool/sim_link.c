/* The simulator's links: frames in flight between a client and a relay, with the faults a
 * network brings (delay, reordering, duplication, loss with the cut that follows it) and
 * the end of a connection seen from both sides. */
#include "sim.h"

#include <string.h>

void sim_link_reset(sim_conn *k)
{
    size_t i;

    for (i = 0; i < SIM_QUEUE; i++) {
        k->to_relay[i].used = 0;
        k->to_client[i].used = 0;
    }
    for (i = 0; i < SIM_SUBS; i++) {
        k->subs[i].used = 0;
    }
    k->last_at[0] = k->last_at[1] = 0;
    k->authed = 0;
    k->challenge[0] = '\0';
}

static sim_frame *free_slot(sim_frame *q)
{
    size_t i;

    for (i = 0; i < SIM_QUEUE; i++) {
        if (!q[i].used) {
            return &q[i];
        }
    }
    return NULL;
}

static int queue(sim_world *w, sim_conn *k, int dir, const char *text, size_t len, int64_t at)
{
    sim_frame *f = free_slot(dir == 0 ? k->to_relay : k->to_client);

    if (f == NULL || len > SIM_TEXT) {
        return -1;
    }
    f->used = 1;
    f->at = at;
    f->seq = ++w->seq;
    f->len = (uint32_t)len;
    memcpy(f->text, text, len);
    w->st->frames++;
    sim_trace(w, "  %s %.*s", dir == 0 ? "->" : "<-", (int)(len < 110 ? len : 110), text);
    return 0;
}

void sim_link_send(sim_world *w, int c, int r, int dir, const char *text, size_t len)
{
    sim_conn *k = &w->conn[c][r];
    int faulty = w->now < w->fault_end;
    int64_t at = w->now + sim_between(&w->g, 1, 40);
    int is_event;

    if (k->state != SIM_OPEN) {
        return;
    }
    if (faulty && sim_chance(&w->g, w->p_drop)) {
        /* a frame lost: the transport notices and the connection ends soon after */
        w->st->drops++;
        sim_trace(w, "  drop c%d r%d dir %d: %.60s", c, r, dir, text);
        k->open_at = w->now + sim_between(&w->g, 1, 500);
        k->open_ok = -1;
        return;
    }
    if (faulty && sim_chance(&w->g, w->p_delay)) {
        w->st->delays++;
        at += sim_between(&w->g, 100, 8000);
    }
    /* events repeat and come out of order (a relay sends one twice, a client retries, relays
     * keep no order); control frames (OK, EOSE, CLOSED, AUTH) come once and in order, as a
     * WebSocket over TCP brings them */
    is_event = len > 9 && memcmp(text, "[\"EVENT\",", 9) == 0;
    if (faulty && is_event && dir == 1 && sim_chance(&w->g, w->p_reorder)) {
        w->st->reorders++; /* may pass the frames before it */
        at = w->now + sim_between(&w->g, 0, 30);
    } else if (at < k->last_at[dir]) {
        at = k->last_at[dir]; /* otherwise in order */
    }
    k->last_at[dir] = at;
    if (queue(w, k, dir, text, len, at) != 0) {
        /* a full link: the connection gives up */
        k->open_at = w->now;
        k->open_ok = -1;
        return;
    }
    if (faulty && is_event && sim_chance(&w->g, w->p_dup)) {
        w->st->dups++;
        (void)queue(w, k, dir, text, len, at + sim_between(&w->g, 0, 50));
    }
}

int64_t sim_link_next(const sim_world *w)
{
    int64_t t = INT64_MAX;
    int c, r;
    size_t i;

    for (c = 0; c < SIM_CLIENTS; c++) {
        for (r = 0; r < SIM_RELAYS; r++) {
            const sim_conn *k = &w->conn[c][r];

            if (k->state == SIM_CLOSED) {
                continue;
            }
            if ((k->state == SIM_OPENING || k->open_ok < 0) && k->open_at < t) {
                t = k->open_at;
            }
            for (i = 0; i < SIM_QUEUE; i++) {
                if (k->to_relay[i].used && k->to_relay[i].at < t) {
                    t = k->to_relay[i].at;
                }
                if (k->to_client[i].used && k->to_client[i].at < t) {
                    t = k->to_client[i].at;
                }
            }
        }
    }
    return t;
}

/* The oldest frame due now on any link: its connection and direction. */
static sim_frame *due(sim_world *w, int *cc, int *rr, int *dd)
{
    sim_frame *best = NULL;
    int c, r, d;
    size_t i;

    for (c = 0; c < SIM_CLIENTS; c++) {
        for (r = 0; r < SIM_RELAYS; r++) {
            sim_conn *k = &w->conn[c][r];

            if (k->state != SIM_OPEN) {
                continue;
            }
            for (d = 0; d < 2; d++) {
                sim_frame *q = d == 0 ? k->to_relay : k->to_client;

                for (i = 0; i < SIM_QUEUE; i++) {
                    if (q[i].used && q[i].at <= w->now &&
                        (best == NULL || q[i].at < best->at ||
                         (q[i].at == best->at && q[i].seq < best->seq))) {
                        best = &q[i];
                        *cc = c;
                        *rr = r;
                        *dd = d;
                    }
                }
            }
        }
    }
    return best;
}

int sim_link_deliver(sim_world *w)
{
    static char text[SIM_TEXT];
    int c = 0, r = 0, d = 0, n;
    sim_frame *f;

    for (n = 0; (f = due(w, &c, &r, &d)) != NULL; n++) {
        size_t len = f->len;

        if (n > 100000) {
            return sim_fail(w, "frames never stop coming");
        }
        memcpy(text, f->text, len);
        f->used = 0;
        sim_trace(w, "c%d r%d %s %.*s", c, r, d == 0 ? "relay gets" : "client gets",
                  (int)(len < 110 ? len : 110), text);
        if ((d == 0 ? sim_relay_text(w, c, r, text, len) : sim_app_text(w, c, r, text, len)) != 0) {
            return -1;
        }
    }
    return 0;
}

int sim_conn_cut(sim_world *w, int c, int r, int tell_client)
{
    sim_conn *k = &w->conn[c][r];
    int was = k->state;

    if (was == SIM_CLOSED) {
        return 0;
    }
    sim_link_reset(k);
    k->state = SIM_CLOSED;
    k->open_ok = 0;
    k->epoch++;
    sim_trace(w, "cut c%d r%d", c, r);
    if (tell_client && w->c[c].alive) {
        if (sc_pool_disconnected(&w->c[c].p, k->handle, w->now) != SC_OK) {
            return sim_fail(w, "sc_pool_disconnected refused client %d relay %d", c, r);
        }
    }
    return 0;
}
