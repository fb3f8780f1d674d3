/* The simulator's relays: NIP-01 storage and subscriptions, NIP-42 AUTH checked as a relay
 * checks it, and the behaviours real relays show (refusals in three dialects, rate limits,
 * restarts that lose what was not acknowledged, outages, forged wraps). */
#include "sim.h"

#include <stdio.h>
#include <string.h>

void sim_relay_draw(sim_world *w, int r)
{
    sim_relay *x = &w->r[r];
    sim_rng *g = &w->g;

    memset(x, 0, sizeof *x);
    snprintf(x->url, sizeof x->url, "ws://relay%d.sim", r);
    x->up = 1;
    x->restart_at = INT64_MAX;
    x->outage_at = INT64_MAX;
    x->up_at = INT64_MAX;
    x->ack_delay = sim_between(g, 0, sim_chance(g, 200) ? 3000 : 200);
    if (sim_chance(g, 250)) {
        x->flags |= SIM_R_AUTH;
    }
    if (sim_chance(g, 120)) {
        x->flags |= SIM_R_BLOCK;
        x->flags |= sim_chance(g, 300) ? SIM_R_EMPTY_ID : sim_chance(g, 300) ? SIM_R_NOTICE : 0;
    }
    if (sim_chance(g, 250)) {
        x->flags |= SIM_R_RATE;
        x->rate_left = 1 + sim_below(g, 3);
    }
    if (sim_chance(g, 300)) {
        x->flags |= SIM_R_RESTART;
        x->restart_at = w->now + sim_between(g, 500, w->fault_end - w->now);
    }
    if (sim_chance(g, 200)) {
        x->flags |= SIM_R_OUTAGE;
        x->outage_at = w->now + sim_between(g, 0, w->fault_end - w->now);
    }
    if (sim_chance(g, 60)) {
        x->flags |= SIM_R_DEAD;
        x->up = 0;
        w->st->dead++;
    }
    if (sim_chance(g, 200)) {
        x->flags |= SIM_R_FORGE;
    }
}

static void say(sim_world *w, int c, int r, const char *fmt, const char *a, const char *b)
{
    char text[512];
    int n = snprintf(text, sizeof text, fmt, a, b);

    sim_link_send(w, c, r, 1, text, (size_t)n);
}

static void ok(sim_world *w, int c, int r, const char *id, int accepted, const char *why)
{
    say(w, c, r, accepted ? "[\"OK\",\"%s\",true,\"%s\"]" : "[\"OK\",\"%s\",false,\"%s\"]", id,
        why);
}

static void send_event(sim_world *w, int c, int r, const char *sub, const sim_event *e)
{
    static char text[SIM_TEXT];
    int n = snprintf(text, sizeof text, "[\"EVENT\",\"%s\",%.*s]", sub, (int)e->len, e->json);

    if (n > 0 && (size_t)n < sizeof text) {
        sim_link_send(w, c, r, 1, text, (size_t)n);
    }
}

/* Sends ev to every subscription it matches on open connections (a new event, live). */
static void broadcast(sim_world *w, int r, int e)
{
    int c;
    size_t s;

    for (c = 0; c < SIM_CLIENTS; c++) {
        sim_conn *k = &w->conn[c][r];

        for (s = 0; k->state == SIM_OPEN && s < SIM_SUBS; s++) {
            if (k->subs[s].used &&
                sc_relay_filter_match(&k->subs[s].f, 1, &w->b->ev[e].ev) == SC_OK) {
                send_event(w, c, r, k->subs[s].id, &w->b->ev[e]);
            }
        }
    }
}

int sim_relay_open(sim_world *w, int c, int r)
{
    sim_conn *k = &w->conn[c][r];

    if (w->r[r].flags & SIM_R_AUTH) {
        snprintf(k->challenge, sizeof k->challenge, "c%08x", (unsigned)sim_u64(&w->g));
        say(w, c, r, "[\"AUTH\",\"%s\"]%s", k->challenge, "");
        w->st->auth++;
    }
    return 0;
}

static int on_event(sim_world *w, int c, int r, const char *text, size_t len)
{
    sim_relay *x = &w->r[r];
    const char *p = strstr(text, "\"id\":\"");
    const sim_event *e;
    size_t i;
    int ei;

    if (p == NULL || (size_t)(p - text) + 6 + 64 > len) {
        return sim_fail(w, "the pool sent an EVENT without an id: %.80s", text);
    }
    {
        char hex[65];

        memcpy(hex, p + 6, 64);
        hex[64] = '\0';
        e = sim_book_find(w->b, hex);
    }
    if (e == NULL || e->msg < 0) {
        return sim_fail(w, "the pool sent an event it was not given: %.80s", text);
    }
    ei = (int)(e - w->b->ev);
    if ((x->flags & SIM_R_AUTH) && !w->conn[c][r].authed) {
        ok(w, c, r, e->hex, 0, "auth-required: registered users only");
        return 0;
    }
    if (x->flags & SIM_R_BLOCK) {
        w->st->refusals++;
        if (x->flags & SIM_R_NOTICE) {
            say(w, c, r, "[\"NOTICE\",\"%s%s\"]", "blocked: not on the list", "");
        } else {
            ok(w, c, r, (x->flags & SIM_R_EMPTY_ID) ? "" : e->hex, 0, "blocked: not on the list");
        }
        return 0;
    }
    if ((x->flags & SIM_R_RATE) && x->rate_left > 0) {
        x->rate_left--;
        w->st->rate++;
        ok(w, c, r, e->hex, 0, "rate-limited: slow down");
        return 0;
    }
    if (x->stored[ei] == 2) {
        ok(w, c, r, e->hex, 1, "duplicate: already have it");
        return 0;
    }
    x->stored[ei] = 1;
    for (i = 0; i < SIM_ACKS; i++) {
        if (!x->acks[i].used) {
            x->acks[i].used = 1;
            x->acks[i].ev = ei;
            x->acks[i].client = c;
            x->acks[i].epoch = w->conn[c][r].epoch;
            x->acks[i].at = w->now + x->ack_delay;
            return 0;
        }
    }
    ok(w, c, r, e->hex, 0, "error: too busy"); /* a retryable refusal */
    return 0;
}

static int on_req(sim_world *w, int c, int r, const char *text, size_t len)
{
    sim_conn *k = &w->conn[c][r];
    const char *id = text + 8, *q = memchr(id, '"', len - 8);
    const char *f = q != NULL ? q + 2 : NULL;
    size_t s, free_s = SIM_SUBS, n_id, used = 0, e;

    if (q == NULL || f >= text + len || *f != '{' || (size_t)(q - id) >= sizeof k->subs[0].id) {
        return sim_fail(w, "a REQ the simulator cannot read: %.80s", text);
    }
    n_id = (size_t)(q - id);
    if ((w->r[r].flags & SIM_R_AUTH) && !k->authed) {
        char sub[72];

        memcpy(sub, id, n_id);
        sub[n_id] = '\0';
        say(w, c, r, "[\"CLOSED\",\"%s\",\"%s\"]", sub, "auth-required: registered users only");
        return 0;
    }
    for (s = 0; s < SIM_SUBS; s++) {
        if (k->subs[s].used && strlen(k->subs[s].id) == n_id &&
            memcmp(k->subs[s].id, id, n_id) == 0) {
            free_s = s; /* replaced */
            break;
        }
        if (!k->subs[s].used && free_s == SIM_SUBS) {
            free_s = s;
        }
    }
    if (free_s == SIM_SUBS) {
        return sim_fail(w, "more subscriptions than the pool was asked for");
    }
    s = free_s;
    if (sc_relay_filter_parse(&k->subs[s].f, k->subs[s].arena, sizeof k->subs[s].arena, &used, f,
                              (size_t)(text + len - 1 - f)) != SC_OK) {
        return sim_fail(w, "the pool sent a filter it cannot parse: %.120s", text);
    }
    k->subs[s].used = 1;
    memcpy(k->subs[s].id, id, n_id);
    k->subs[s].id[n_id] = '\0';
    for (e = 0; e < w->b->n_ev; e++) {
        const sim_event *x = &w->b->ev[e];
        int serve = x->msg >= 0 ? w->r[r].stored[e] == 2 : (w->r[r].flags & SIM_R_FORGE) != 0;

        if (serve && sc_relay_filter_match(&k->subs[s].f, 1, &x->ev) == SC_OK) {
            send_event(w, c, r, k->subs[s].id, x);
            if (x->msg < 0) {
                w->st->forged_sent++;
            }
        }
    }
    say(w, c, r, "[\"EOSE\",\"%s\"]%s", k->subs[s].id, "");
    return 0;
}

static int on_auth(sim_world *w, int c, int r, const char *text, size_t len)
{
    sim_conn *k = &w->conn[c][r];
    static uint8_t arena[8192];
    sc_event ev;
    size_t used = 0;
    char hex[65];
    sc_status st;

    if (len < 10 ||
        sc_event_parse(&ev, arena, sizeof arena, &used, text + 8, len - 9, NULL) != SC_OK) {
        return sim_fail(w, "an AUTH the simulator cannot read: %.80s", text);
    }
    st = sc_relay_auth_verify(w->ctx, &ev, (sc_str){w->r[r].url, strlen(w->r[r].url)},
                              (sc_str){k->challenge, strlen(k->challenge)}, w->now / 1000, 0);
    if (st != SC_OK) {
        return sim_fail(w, "the pool's AUTH does not verify: %s", sc_status_str(st));
    }
    k->authed = 1;
    sim_hex(hex, ev.id);
    ok(w, c, r, hex, 1, "");
    return 0;
}

int sim_relay_text(sim_world *w, int c, int r, const char *text, size_t len)
{
    if (!w->r[r].up) {
        return 0;
    }
    if (len > 10 && memcmp(text, "[\"EVENT\",{", 10) == 0) {
        return on_event(w, c, r, text, len);
    }
    if (len > 8 && memcmp(text, "[\"REQ\",\"", 8) == 0) {
        return on_req(w, c, r, text, len);
    }
    if (len > 10 && memcmp(text, "[\"CLOSE\",\"", 10) == 0) {
        size_t s;

        for (s = 0; s < SIM_SUBS; s++) {
            size_t n = strlen(w->conn[c][r].subs[s].id);

            if (w->conn[c][r].subs[s].used && len == n + 12 &&
                memcmp(text + 10, w->conn[c][r].subs[s].id, n) == 0) {
                w->conn[c][r].subs[s].used = 0;
            }
        }
        return 0;
    }
    if (len > 9 && memcmp(text, "[\"AUTH\",{", 9) == 0) {
        return on_auth(w, c, r, text, len);
    }
    return sim_fail(w, "the pool sent what no relay understands: %.80s", text);
}

/* The relay goes down: every connection ends; a restart loses what was not acknowledged. */
static int go_down(sim_world *w, int r, int lose, int64_t until)
{
    sim_relay *x = &w->r[r];
    size_t i;
    int c;

    for (c = 0; c < SIM_CLIENTS; c++) {
        if (sim_conn_cut(w, c, r, 1) != 0) {
            return -1;
        }
    }
    for (i = 0; i < SIM_EVENTS; i++) {
        if (lose && x->stored[i] == 1) {
            x->stored[i] = 0;
            w->st->lost_unacked++;
        }
    }
    for (i = 0; i < SIM_ACKS; i++) {
        x->acks[i].used = 0;
    }
    x->up = 0;
    x->up_at = until;
    sim_trace(w, "relay %d down until %.3f%s", r, (double)(until - w->b->t0_ms) / 1000.0,
              lose ? " (restart)" : "");
    return 0;
}

int sim_relay_tick(sim_world *w, int r)
{
    sim_relay *x = &w->r[r];
    size_t i;

    if (x->flags & SIM_R_DEAD) {
        return 0;
    }
    if (!x->up && x->up_at <= w->now) {
        x->up = 1;
        x->up_at = INT64_MAX;
        sim_trace(w, "relay %d up", r);
    }
    if (x->up && x->restart_at <= w->now) {
        w->st->restarts++;
        x->restart_at = sim_chance(&w->g, 300) && w->now < w->fault_end
                            ? w->now + sim_between(&w->g, 1000, 20000)
                            : INT64_MAX;
        return go_down(w, r, 1, w->now + sim_between(&w->g, 10, 3000));
    }
    if (x->up && x->outage_at <= w->now) {
        w->st->outages++;
        x->outage_at = INT64_MAX;
        return go_down(w, r, 0, w->now + sim_between(&w->g, 1000, 40000));
    }
    for (i = 0; x->up && i < SIM_ACKS; i++) {
        sim_conn *k;

        if (!x->acks[i].used || x->acks[i].at > w->now) {
            continue;
        }
        x->acks[i].used = 0;
        k = &w->conn[x->acks[i].client][r];
        if (x->stored[x->acks[i].ev] != 2) {
            x->stored[x->acks[i].ev] = 2;
            broadcast(w, r, x->acks[i].ev);
        }
        if (k->state == SIM_OPEN && k->epoch == x->acks[i].epoch) {
            ok(w, x->acks[i].client, r, w->b->ev[x->acks[i].ev].hex, 1, "");
        }
    }
    return 0;
}

int64_t sim_relay_next(const sim_world *w, int r)
{
    const sim_relay *x = &w->r[r];
    int64_t t = INT64_MAX;
    size_t i;

    if (x->flags & SIM_R_DEAD) {
        return t;
    }
    if (!x->up) {
        return x->up_at;
    }
    t = x->restart_at < x->outage_at ? x->restart_at : x->outage_at;
    for (i = 0; i < SIM_ACKS; i++) {
        if (x->acks[i].used && x->acks[i].at < t) {
            t = x->acks[i].at;
        }
    }
    return t;
}
