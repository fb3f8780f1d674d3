/* The pool's deterministic fault simulator (sim.h):
 *   test_pool_sim --backend NAME [--scenarios N] [--seed S] [--replay SEED] [--trace 1]
 * runs N scenarios (10000 by default; SOFTCHAT_POOL_SIM_SCENARIOS in the environment lowers
 * it) from seed S, each drawn from its own seed, and checks
 * after each: every message alice sent is settled, delivered to each receiver through at
 * least one inbox relay or failed there with every relay's reason; every message that
 * reached a receiver's relay reached the receiving app exactly once across crashes; nothing
 * but alice's messages was opened (forged wraps are dropped by the pool or refused by
 * sc_nip17_receive); no region the library was given was written past its stated size. The
 * first broken invariant prints the seed that replays it (--replay SEED). */
#include "sim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vectors_util.h"

#define T0_MS INT64_C(1700001000000)

/* ---- randomness (splitmix64) ------------------------------------------------------------ */

uint64_t sim_u64(sim_rng *g)
{
    uint64_t z = (g->s += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint32_t sim_below(sim_rng *g, uint32_t n)
{
    return (uint32_t)(sim_u64(g) % n);
}

int sim_chance(sim_rng *g, uint32_t permille)
{
    return sim_below(g, 1000) < permille;
}

int64_t sim_between(sim_rng *g, int64_t lo, int64_t hi)
{
    return hi <= lo ? lo : lo + (int64_t)(sim_u64(g) % (uint64_t)(hi - lo + 1));
}

void sim_hex(char out[65], const uint8_t in[32])
{
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < 32; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[64] = '\0';
}

int sim_fail(sim_world *w, const char *fmt, ...)
{
    va_list ap;

    if (w->fail[0] == '\0') {
        va_start(ap, fmt);
        vsnprintf(w->fail, sizeof w->fail, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void sim_trace(const sim_world *w, const char *fmt, ...)
{
    va_list ap;

    if (!w->trace) {
        return;
    }
    printf("%9.3f ", (double)(w->now - T0_MS) / 1000.0);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* ---- the book: keys, messages and forgeries, made once ---------------------------------- */

static int add_event(sim_book *b, const char *json, size_t len, int msg, int wrap, int opens)
{
    sim_event *e = &b->ev[b->n_ev];
    size_t cap = sc_event_parse_arena_max(len), used = 0;

    e->arena = malloc(cap);
    if (e->arena == NULL ||
        sc_event_parse(&e->ev, e->arena, cap, &used, json, len, NULL) != SC_OK) {
        return -1;
    }
    sim_hex(e->hex, e->ev.id);
    e->json = json;
    e->len = len;
    e->msg = msg;
    e->wrap = wrap;
    e->opens = opens;
    b->n_ev++;
    return 0;
}

static int make_message(sim_book *b, int i)
{
    sc_nip17_peer to[2];
    sc_nip17_chat m;
    sc_nip59_opts o;
    sc_event rumor;
    uint8_t buf[1024];
    char text[32];
    void *scratch;
    size_t cap, scap, n = 0, j;
    int c;

    memset(to, 0, sizeof to);
    memcpy(to[0].pubkey, b->pub[1], 32);
    memcpy(to[1].pubkey, b->pub[2], 32);
    memset(&m, 0, sizeof m);
    snprintf(text, sizeof text, "sim message %d", i);
    m.content = (sc_str){text, strlen(text)};
    m.to = to;
    m.n_to = 2;
    m.created_at = T0_MS / 1000 - 60 + i;
    memset(&o, 0, sizeof o);
    o.now = T0_MS / 1000; /* every wrap made before the scenarios' clocks start */
    if (sc_nip17_chat_rumor(b->ctx, &rumor, buf, sizeof buf, &m, b->pub[SIM_ALICE]) != SC_OK) {
        return -1;
    }
    cap = sc_nip17_send_max(&rumor, b->pub[SIM_ALICE], &o);
    scap = sc_nip17_send_scratch_max(&rumor, b->pub[SIM_ALICE], &o);
    b->wraps_json[i] = malloc(cap);
    scratch = malloc(scap);
    if (b->wraps_json[i] == NULL || scratch == NULL ||
        sc_nip17_send(b->ctx, b->wraps_json[i], cap, &b->wraps_len[i], b->wraps[i], SIM_WRAPS, &n,
                      scratch, scap, &rumor, &b->who[SIM_ALICE], &o) != SC_OK ||
        n != SIM_WRAPS) {
        free(scratch);
        return -1;
    }
    free(scratch);
    for (j = 0; j < SIM_WRAPS; j++) {
        for (c = 0; c < SIM_CLIENTS && memcmp(b->pub[c], b->wraps[i][j].recipient, 32) != 0; c++) {
        }
        if (c == SIM_CLIENTS || add_event(b, b->wraps_json[i] + b->wraps[i][j].offset,
                                          b->wraps[i][j].len, i, c, 1) != 0) {
            return -1;
        }
    }
    return 0;
}

/* For receiver c: a copy of its wrap of message 0 with one content character changed (its id
 * no longer matches: the pool must drop it), and a wrap mallory signed whose content is not
 * NIP-44 at all (it verifies; sc_nip17_receive must refuse it). */
static int make_forgeries(sim_book *b, int c, const sc_identity *mallory)
{
    const sim_event *genuine = NULL;
    char *copy, *content;
    size_t i, len = 0;
    sc_str items[2] = {SC_STR("p"), {b->pub_hex[c], 64}};
    sc_tag tag = {items, 2};
    sc_event ev;
    char *json;

    for (i = 0; i < b->n_ev; i++) {
        if (b->ev[i].msg == 0 && b->ev[i].wrap == c) {
            genuine = &b->ev[i];
        }
    }
    if (genuine == NULL || (copy = malloc(genuine->len)) == NULL) {
        return -1;
    }
    memcpy(copy, genuine->json, genuine->len);
    content = strstr(copy, "\"content\":\"");
    if (content == NULL) {
        return -1;
    }
    content[20] = content[20] == 'A' ? 'B' : 'A';
    if (add_event(b, copy, genuine->len, -1, c, 0) != 0) {
        return -1;
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = 1059;
    ev.created_at = T0_MS / 1000 - 100;
    ev.content = SC_STR("bm90IGEgbmlwLTQ0IHBheWxvYWQ=");
    ev.tags = &tag;
    ev.n_tags = 1;
    ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    if (sc_event_sign(b->ctx, &ev, mallory) != SC_OK ||
        (json = malloc(sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT))) == NULL ||
        sc_event_to_json(json, sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT), &len, &ev,
                         SC_EVENT_JSON_OBJECT) != SC_OK) {
        return -1;
    }
    return add_event(b, json, len, -1, c, 0);
}

int sim_book_make(sim_book *b, sc_ctx *ctx)
{
    sc_identity mallory;
    uint8_t sk[32];
    int c, i, rc = 0;

    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    b->t0_ms = T0_MS;
    for (c = 0; c <= SIM_CLIENTS; c++) {
        memset(sk, 0x31 + c, sizeof sk);
        if (sc_identity_import(ctx, c < SIM_CLIENTS ? &b->who[c] : &mallory, sk) != SC_OK) {
            return -1;
        }
        if (c < SIM_CLIENTS) {
            if (sc_identity_pubkey(b->pub[c], &b->who[c]) != SC_OK) {
                return -1;
            }
            sim_hex(b->pub_hex[c], b->pub[c]);
        }
    }
    for (i = 0; rc == 0 && i < SIM_MSGS; i++) {
        rc = make_message(b, i);
    }
    for (c = 1; rc == 0 && c < SIM_CLIENTS; c++) {
        rc = make_forgeries(b, c, &mallory);
    }
    sc_identity_clear(&mallory);
    return rc;
}

void sim_book_free(sim_book *b)
{
    size_t i;

    for (i = 0; i < b->n_ev; i++) {
        if (b->ev[i].msg < 0) {
            free((void *)b->ev[i].json);
        }
        free(b->ev[i].arena);
    }
    for (i = 0; i < SIM_MSGS; i++) {
        free(b->wraps_json[i]);
    }
    for (i = 0; i < SIM_CLIENTS; i++) {
        sc_identity_clear(&b->who[i]);
    }
}

const sim_event *sim_book_find(const sim_book *b, const char *hex)
{
    size_t i;

    for (i = 0; i < b->n_ev; i++) {
        if (memcmp(b->ev[i].hex, hex, 64) == 0) {
            return &b->ev[i];
        }
    }
    return NULL;
}

/* ---- a scenario ------------------------------------------------------------------------- */

static void draw(sim_world *w, uint64_t seed)
{
    static const uint32_t weather[3][5] = {
        {0, 0, 0, 0, 0}, {5, 10, 20, 30, 2}, {30, 40, 80, 150, 10}};
    const uint32_t *p;
    size_t i;
    int c, r;

    w->seed = seed;
    w->g.s = seed;
    { /* drawn aside, so that the world drawn from a seed is the one it always was */
        sim_rng aside = {seed ^ UINT64_C(0x5c0ffee5a17ed5e7)};

        w->auth_external = sim_chance(&aside, 500);
    }
    w->now = T0_MS;
    w->fault_end = T0_MS + 60000;
    w->t_end = w->fault_end + 600000;
    p = weather[sim_below(&w->g, 3)];
    w->p_drop = p[0];
    w->p_dup = p[1];
    w->p_delay = p[2];
    w->p_reorder = p[3];
    w->p_cut = p[4];
    for (r = 0; r < SIM_RELAYS; r++) {
        sim_relay_draw(w, r);
    }
    for (c = 0; c < SIM_CLIENTS; c++) {
        sim_client *a = &w->c[c];
        uint32_t set;

        do {
            set = 1 + sim_below(&w->g, (1u << SIM_RELAYS) - 1);
        } while (set == (1u << SIM_RELAYS) - 1);
        for (r = 0; r < SIM_RELAYS; r++) {
            a->inbox[r] = (set >> r) & 1;
        }
        a->alive = 0;
        a->restart_at = T0_MS;
        a->crash_at = sim_chance(&w->g, 300) ? T0_MS + sim_between(&w->g, 0, 59000) : INT64_MAX;
        memset(a->got, 0, sizeof a->got);
        a->cur_saved_len = 0;
        a->n_out = 0;
    }
    {
        sim_client *a = &w->c[SIM_ALICE];
        uint32_t used = 0;

        a->n_out = 1 + sim_below(&w->g, SIM_SEND);
        for (i = 0; i < a->n_out; i++) {
            int m;

            do {
                m = (int)sim_below(&w->g, SIM_MSGS);
            } while (used & (1u << m));
            used |= 1u << m;
            a->out[i].planned = 1;
            a->out[i].msg = m;
            a->out[i].send_at = T0_MS + sim_between(&w->g, 0, 20000);
            a->out[i].sent = 0;
            a->out[i].live = 0;
            a->out[i].saved_len = 0;
        }
    }
}

static int64_t next_time(const sim_world *w)
{
    int64_t t = sim_link_next(w), x;
    int i;

    for (i = 0; i < SIM_RELAYS; i++) {
        x = sim_relay_next(w, i);
        t = x < t ? x : t;
    }
    for (i = 0; i < SIM_CLIENTS; i++) {
        x = sim_app_next(w, i);
        t = x < t ? x : t;
    }
    return t;
}

/* Connections due to open (or to fail), lost frames' cuts, and random cuts. */
static int links_tick(sim_world *w)
{
    int c, r;

    for (c = 0; c < SIM_CLIENTS; c++) {
        for (r = 0; r < SIM_RELAYS; r++) {
            sim_conn *k = &w->conn[c][r];

            if (k->state == SIM_OPENING && k->open_at <= w->now) {
                if (sim_app_opened(w, c, r, w->r[r].up) != 0) {
                    return -1;
                }
            } else if (k->state == SIM_OPEN && k->open_ok < 0 && k->open_at <= w->now) {
                w->st->cuts++;
                if (sim_conn_cut(w, c, r, 1) != 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

static int quiet(const sim_world *w)
{
    int c, r;
    size_t i;

    if (w->now < w->fault_end + 15000 || sim_link_next(w) != INT64_MAX) {
        return 0;
    }
    for (c = 0; c < SIM_CLIENTS; c++) {
        if (!w->c[c].alive) {
            return 0;
        }
        for (r = 0; c != SIM_ALICE && r < SIM_RELAYS; r++) {
            if (w->c[c].inbox[r] && w->r[r].up && w->conn[c][r].state != SIM_OPEN) {
                return 0;
            }
        }
    }
    for (r = 0; r < SIM_RELAYS; r++) {
        for (i = 0; i < SIM_ACKS; i++) {
            if (w->r[r].acks[i].used) {
                return 0;
            }
        }
    }
    for (i = 0; i < w->c[SIM_ALICE].n_out; i++) {
        if (sc_delivery_outcome_get(&w->c[SIM_ALICE].out[i].d) == SC_DELIVERY_PENDING) {
            return 0;
        }
    }
    return 1;
}

static int run(sim_world *w)
{
    unsigned long steps;
    int c, r;

    for (steps = 0; w->now <= w->t_end; steps++) {
        int64_t t;

        if (steps > 200000) {
            return sim_fail(w, "no end after %lu steps (sim time %" PRId64 " ms)", steps,
                            w->now - T0_MS);
        }
        if (w->now < w->fault_end && w->p_cut > 0 && sim_chance(&w->g, w->p_cut)) {
            c = (int)sim_below(&w->g, SIM_CLIENTS);
            r = (int)sim_below(&w->g, SIM_RELAYS);
            if (w->conn[c][r].state == SIM_OPEN) {
                w->st->cuts++;
                if (sim_conn_cut(w, c, r, 1) != 0) {
                    return -1;
                }
            }
        }
        for (r = 0; r < SIM_RELAYS; r++) {
            if (sim_relay_tick(w, r) != 0) {
                return -1;
            }
        }
        if (links_tick(w) != 0 || sim_link_deliver(w) != 0) {
            return -1;
        }
        for (c = 0; c < SIM_CLIENTS; c++) {
            if (sim_app_tick(w, c) != 0) {
                return -1;
            }
        }
        if (quiet(w)) {
            break;
        }
        t = next_time(w);
        if (t == INT64_MAX) {
            break;
        }
        w->now = t > w->now ? t : w->now + 1;
    }
    w->st->steps += steps;
    w->st->sim_ms += w->now - T0_MS;
    return 0;
}

/* Whether receiver c had an inbox relay that neither refuses nor is down for good. */
static int honest_inbox(const sim_world *w, int c)
{
    int r;

    for (r = 0; r < SIM_RELAYS; r++) {
        if (w->c[c].inbox[r] && !(w->r[r].flags & (SIM_R_BLOCK | SIM_R_DEAD))) {
            return 1;
        }
    }
    return 0;
}

static int check_message(sim_world *w, const sim_out *o, uint8_t *mem, size_t cap)
{
    sc_delivery d;
    size_t i, j;
    int c;

    if (!o->sent) {
        return sim_fail(w, "message %d was never sent", o->msg);
    }
    if (sc_delivery_load(&d, mem, cap, o->saved, o->saved_len) != SC_OK) {
        return sim_fail(w, "message %d: its persisted record does not load", o->msg);
    }
    w->st->checks++;
    if (sc_delivery_outcome_get(&d) == SC_DELIVERY_PENDING) {
        return sim_fail(w, "message %d never settled", o->msg);
    }
    w->st->messages++;
    for (i = 0; i < sc_delivery_receivers(&d); i++) {
        sc_delivery_receiver rc;

        if (sc_delivery_receiver_get(&d, &rc, i) != SC_OK) {
            return sim_fail(w, "sc_delivery_receiver_get");
        }
        for (c = 0; c < SIM_CLIENTS && memcmp(w->b->pub[c], rc.pubkey, 32) != 0; c++) {
        }
        w->st->checks += 2;
        if (rc.outcome == SC_DELIVERY_DELIVERED) {
            w->st->delivered++;
            if (c != SIM_ALICE && w->c[c].got[o->msg] != 1) {
                return sim_fail(
                    w, "message %d delivered to client %d's relays, reached its app %u times",
                    o->msg, c, w->c[c].got[o->msg]);
            }
            continue;
        }
        w->st->failed++;
        w->st->failed_honest += c != SIM_ALICE && honest_inbox(w, c);
        for (j = 0; j < rc.n_relays; j++) {
            sc_delivery_relay rl;

            w->st->checks++;
            if (sc_delivery_relay_get(&d, &rl, i, j) != SC_OK ||
                (rl.result != SC_POOL_REFUSED && rl.result != SC_POOL_FAILED) || rl.text.len == 0) {
                return sim_fail(w, "message %d failed for client %d without every relay's reason",
                                o->msg, c);
            }
        }
        if (c != SIM_ALICE && w->c[c].got[o->msg] > 1) {
            return sim_fail(w, "message %d reached client %d's app twice", o->msg, c);
        }
    }
    sc_delivery_clear(&d);
    return 0;
}

static int check(sim_world *w)
{
    static uint8_t mem[2 * SIM_SAVE];
    sim_client *alice = &w->c[SIM_ALICE];
    size_t i;
    int c, m;

    for (i = 0; i < alice->n_out; i++) {
        if (check_message(w, &alice->out[i], mem, sizeof mem) != 0) {
            return -1;
        }
    }
    for (c = 0; c < SIM_CLIENTS; c++) {
        for (m = 0; m < SIM_MSGS; m++) {
            w->st->checks++;
            if (w->c[c].got[m] > 1) {
                return sim_fail(w, "client %d's app got message %d %u times", c, m, w->c[c].got[m]);
            }
        }
        w->st->checks += 3;
        if (!sim_guard_ok(w->c[c].pool_mem, w->c[c].pool_len) ||
            !sim_guard_ok(w->c[c].cur_mem, w->c[c].cur_len)) {
            return sim_fail(w, "client %d: the pool or cursor wrote past its memory", c);
        }
        for (i = 0; i < w->c[c].n_out; i++) {
            if (w->c[c].out[i].mem_cap > 0 &&
                !sim_guard_ok(w->c[c].out[i].mem, w->c[c].out[i].mem_cap)) {
                return sim_fail(w, "a delivery record wrote past its memory");
            }
        }
    }
    return 0;
}

/* Ends every process of the scenario (the pools, records and cursors wiped). */
static void teardown(sim_world *w)
{
    int c, r;
    size_t i;

    for (c = 0; c < SIM_CLIENTS; c++) {
        if (w->c[c].alive) {
            sim_app_crash(w, c);
            w->st->crashes--;
        }
        for (i = 0; i < w->c[c].n_out; i++) {
            w->c[c].out[i].mem_cap = 0;
        }
        for (r = 0; r < SIM_RELAYS; r++) {
            sim_link_reset(&w->conn[c][r]);
            w->conn[c][r].state = SIM_CLOSED;
            w->conn[c][r].open_ok = 0;
        }
    }
}

static int scenario(sim_world *w, uint64_t seed)
{
    int rc;

    w->fail[0] = '\0';
    draw(w, seed);
    if (w->trace) {
        int r, c;
        size_t i;

        printf("faults per mille: drop %u dup %u delay %u reorder %u cut %u\n", w->p_drop, w->p_dup,
               w->p_delay, w->p_reorder, w->p_cut);
        for (r = 0; r < SIM_RELAYS; r++) {
            printf(
                "relay %d: flags 0x%x rate %u ack %lld restart %.3f outage %.3f\n", r,
                w->r[r].flags, w->r[r].rate_left, (long long)w->r[r].ack_delay,
                w->r[r].restart_at == INT64_MAX ? -1.0 : (double)(w->r[r].restart_at - T0_MS) / 1e3,
                w->r[r].outage_at == INT64_MAX ? -1.0 : (double)(w->r[r].outage_at - T0_MS) / 1e3);
        }
        for (c = 0; c < SIM_CLIENTS; c++) {
            printf("client %d: inbox %d%d%d%d crash %.3f\n", c, w->c[c].inbox[0], w->c[c].inbox[1],
                   w->c[c].inbox[2], w->c[c].inbox[3],
                   w->c[c].crash_at == INT64_MAX ? -1.0 : (double)(w->c[c].crash_at - T0_MS) / 1e3);
        }
        for (i = 0; i < w->c[SIM_ALICE].n_out; i++) {
            printf("message %d at %.3f\n", w->c[SIM_ALICE].out[i].msg,
                   (double)(w->c[SIM_ALICE].out[i].send_at - T0_MS) / 1e3);
        }
    }
    rc = run(w);
    if (rc == 0) {
        rc = check(w);
    }
    teardown(w);
    w->st->scenarios++;
    return rc;
}

static int world_alloc(sim_world *w)
{
    size_t pool_len = sc_pool_mem_max(&sim_pool_opts), i;
    int c;

    for (c = 0; c < SIM_CLIENTS; c++) {
        sim_client *a = &w->c[c];

        a->pool_len = pool_len; /* exactly what the pool says it needs */
        a->pool_mem = malloc(a->pool_len + SIM_GUARD);
        a->cur_len = sc_pool_cursor_mem_max(256, SIM_RELAYS, 32);
        a->cur_mem = malloc(a->cur_len + SIM_GUARD);
        a->arena_cap = sc_pool_receive_arena_max(SIM_TEXT);
        a->arena = malloc(a->arena_cap);
        a->open_cap = sc_nip17_receive_arena_max(SIM_TEXT);
        a->open_arena = malloc(a->open_cap);
        if (a->pool_mem == NULL || a->cur_mem == NULL || a->arena == NULL ||
            a->open_arena == NULL) {
            return -1;
        }
        memset(a->pool_mem, 0xA5, a->pool_len + SIM_GUARD);
        memset(a->cur_mem, 0xA5, a->cur_len + SIM_GUARD);
        for (i = 0; i < SIM_SEND; i++) {
            if ((a->out[i].mem = malloc(2 * SIM_SAVE + SIM_GUARD)) == NULL) {
                return -1;
            }
        }
    }
    return 0;
}

static void world_free(sim_world *w)
{
    size_t i;
    int c;

    for (c = 0; c < SIM_CLIENTS; c++) {
        free(w->c[c].pool_mem);
        free(w->c[c].cur_mem);
        free(w->c[c].arena);
        free(w->c[c].open_arena);
        for (i = 0; i < SIM_SEND; i++) {
            free(w->c[c].out[i].mem);
        }
    }
}

static uint64_t parse_u64(const char *s)
{
    return s != NULL ? strtoull(s, NULL, 0) : 0;
}

int main(int argc, char **argv)
{
    static sim_world w;
    static sim_book book;
    static sim_stats st;
    const char *o_scen = NULL, *o_seed = NULL, *o_replay = NULL, *o_trace = NULL;
    const vt_suite_opt extra[] = {{"--scenarios", &o_scen},
                                  {"--seed", &o_seed},
                                  {"--replay", &o_replay},
                                  {"--trace", &o_trace}};
    unsigned long n, k;
    uint64_t base;
    vt_suite s;
    sc_ctx ctx;
    clock_t t0;
    double secs;
    int failed;

    failed = vt_suite_start(&s, &ctx, argc, argv, "test_pool_sim", "pool fault simulator", NULL,
                            extra, sizeof extra / sizeof extra[0]);
    if (failed != 0) {
        return failed;
    }
    n = o_scen != NULL ? strtoul(o_scen, NULL, 10) : 10000;
    if (getenv("SOFTCHAT_POOL_SIM_SCENARIOS") != NULL &&
        strtoul(getenv("SOFTCHAT_POOL_SIM_SCENARIOS"), NULL, 10) < n) {
        /* the slow passes (ASan, memcheck) lower it: scripts/test.sh */
        n = strtoul(getenv("SOFTCHAT_POOL_SIM_SCENARIOS"), NULL, 10);
        printf("[ SCENARIOS] %lu (SOFTCHAT_POOL_SIM_SCENARIOS)\n", n);
    }
    base = o_seed != NULL ? parse_u64(o_seed) : 1;
    if (sim_book_make(&book, &ctx) != 0 || world_alloc(&w) != 0) {
        fprintf(stderr, "test_pool_sim: setup failed\n");
        return 1;
    }
    w.b = &book;
    w.ctx = &ctx;
    w.st = &st;
    w.trace = o_trace != NULL && o_trace[0] == '1';
    t0 = clock();
    for (k = 0; k < (o_replay != NULL ? 1 : n); k++) {
        sim_rng mix = {base + k};
        uint64_t seed = o_replay != NULL ? parse_u64(o_replay) : sim_u64(&mix);

        if (scenario(&w, seed) != 0) {
            fprintf(stderr,
                    "[  FAILED  ] pool.sim %s: scenario %lu: %s\n"
                    "             replay: test_pool_sim --backend %s --replay 0x%016" PRIx64 "\n",
                    s.backend, k, w.fail, s.backend, seed);
            failed = 1;
            break;
        }
    }
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("[  STATS   ] %lu scenarios (%.0f/s CPU), %lu messages, %lu steps, %.1f h simulated\n",
           st.scenarios, secs > 0 ? (double)st.scenarios / secs : 0.0, st.messages, st.steps,
           (double)st.sim_ms / 3.6e6);
    printf("[  STATS   ] faults: %lu frames: %lu dropped (then cut), %lu cut, %lu duplicated, "
           "%lu delayed, %lu reordered; relays: %lu restarts (%lu unacknowledged events lost), "
           "%lu outages, %lu down for good, %lu rate-limited, %lu refusals, %lu AUTH challenges "
           "(%lu AUTH_WANTED answered over an external signer), %lu forged wraps served; %lu "
           "app crashes\n",
           st.frames, st.drops, st.cuts, st.dups, st.delays, st.reorders, st.restarts,
           st.lost_unacked, st.outages, st.dead, st.rate, st.refusals, st.auth, st.auth_signed,
           st.forged_sent, st.crashes);
    printf(
        "[  STATS   ] outcomes: %lu receivers delivered, %lu failed with reasons (%lu of them with "
        "an inbox relay that neither refuses nor is down for good), %lu messages opened, %lu "
        "forgeries refused by sc_nip17_receive; %lu invariant checks\n",
        st.delivered, st.failed, st.failed_honest, st.received, st.forged_rejected, st.checks);
    printf("[  STATS   ] memory: pool %zu bytes (sc_pool_mem_max), cursor %zu bytes, each "
           "guarded and never written past\n",
           w.c[0].pool_len, w.c[1].cur_len);
    if (failed == 0) {
        printf("[  PASSED  ] pool.sim %s\n", s.backend);
    }
    world_free(&w);
    sim_book_free(&book);
    sc_ctx_clear(&ctx);
    return failed;
}
