/* The pool's deterministic fault simulator (test_pool_sim): one process plays the relays,
 * the links between them and the applications, on a simulated clock, and drives the real
 * pool (pool.h) and delivery record (delivery.h) through them.
 *
 * A scenario: alice sends 1..4 NIP-17 messages to bob and carol (and her own copy), each
 * routed to its receiver's inbox relays through a delivery record; bob and carol listen on
 * their inbox relays through a pool subscription with a cursor. Four relays, each with a
 * drawn behaviour (sim_relay.c): it may require AUTH, refuse ("blocked:", with an empty OK
 * id or a NOTICE instead of OK), rate-limit, restart and lose what it had not acknowledged,
 * be down for a while or for good, and serve forged wraps. Links (sim_link.c) delay,
 * reorder, duplicate, drop and cut frames. Applications (sim_app.c) crash and resume from
 * what they persisted: the delivery records and the cursor with the messages it led to. In
 * half the scenarios they hold their keys as an external signer would: the pool gets no
 * identity and they answer SC_POOL_U_AUTH_WANTED through the signer seam.
 * Faults stop at fault_end; the world then runs quiet for a while and the invariants are
 * checked (sim_main.c). Everything is drawn from one 64-bit seed: a failure prints the seed
 * that replays it (--replay SEED). */
#ifndef SOFTCHAT_TESTS_POOL_SIM_H
#define SOFTCHAT_TESTS_POOL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include <softchat/softchat.h>

#define SIM_RELAYS 4
#define SIM_CLIENTS 3 /* 0 alice (sends), 1 bob, 2 carol (listen) */
#define SIM_ALICE 0
#define SIM_MSGS 8 /* messages made at start; a scenario sends up to SIM_SEND of them */
#define SIM_SEND 4
#define SIM_WRAPS 3  /* per message: bob's, carol's, alice's own copy */
#define SIM_FORGED 4 /* per receiver: a tampered wrap and a signed wrap that does not open */
#define SIM_EVENTS (SIM_MSGS * SIM_WRAPS + SIM_FORGED)
#define SIM_QUEUE 32   /* frames in flight per link and direction */
#define SIM_TEXT 4096  /* the longest frame */
#define SIM_SUBS 4     /* subscriptions per connection at a relay */
#define SIM_ACKS 32    /* acknowledgements a relay has pending */
#define SIM_SAVE 32768 /* persisted bytes of a record or a cursor */
#define SIM_GUARD 64   /* guard bytes after each region the library is given */

/* ---- randomness ------------------------------------------------------------------------- */

typedef struct sim_rng {
    uint64_t s;
} sim_rng;
uint64_t sim_u64(sim_rng *g);
/* Uniform in [0, n), n >= 1. */
uint32_t sim_below(sim_rng *g, uint32_t n);
/* 1 with probability permille / 1000. */
int sim_chance(sim_rng *g, uint32_t permille);
/* lo + uniform [0, hi - lo]. */
int64_t sim_between(sim_rng *g, int64_t lo, int64_t hi);

/* Lowercase hex of 32 bytes. */
void sim_hex(char out[65], const uint8_t in[32]);

/* ---- the events of the world ------------------------------------------------------------ */

/* An event some party may publish or a relay may serve: a wrap of a message, or a forgery. */
typedef struct sim_event {
    char hex[65];
    const char *json;
    size_t len;
    sc_event ev; /* parsed (for relays' filters) */
    uint8_t *arena;
    int msg;   /* message index, or -1 for a forgery */
    int wrap;  /* SIM_ALICE.. receiver index of the wrap (forgery: its target) */
    int opens; /* 1 when the target can open it */
} sim_event;

/* What every scenario shares: the keys, the messages and the forgeries (made once). */
typedef struct sim_book {
    sc_ctx *ctx;
    sc_identity who[SIM_CLIENTS];
    uint8_t pub[SIM_CLIENTS][32];
    char pub_hex[SIM_CLIENTS][65];
    sim_event ev[SIM_EVENTS];
    size_t n_ev;
    char *wraps_json[SIM_MSGS];
    size_t wraps_len[SIM_MSGS];
    sc_nip17_wrap wraps[SIM_MSGS][SIM_WRAPS];
    int64_t t0_ms;
} sim_book;

int sim_book_make(sim_book *b, sc_ctx *ctx);
void sim_book_free(sim_book *b);
/* The event with this 64-hex id, or NULL. */
const sim_event *sim_book_find(const sim_book *b, const char *hex);

/* ---- links ------------------------------------------------------------------------------ */

typedef struct sim_frame {
    int used;
    int64_t at;
    uint64_t seq;
    uint32_t len;
    char text[SIM_TEXT];
} sim_frame;

#define SIM_CLOSED 0
#define SIM_OPENING 1
#define SIM_OPEN 2

/* One client's connection to one relay, both directions, and the relay's view of it. */
typedef struct sim_conn {
    int state;
    int64_t open_at; /* OPENING: when it opens (or fails: open_ok 0) */
    int open_ok;
    uint32_t epoch;  /* counts connections: acknowledgements name theirs */
    uint32_t handle; /* the client's pool handle of the relay */
    int authed;
    uint32_t wanted_epoch; /* the connection AUTH_WANTED was last reported on */
    char challenge[24];
    struct {
        int used;
        char id[72];
        sc_relay_filter f;
        uint8_t arena[1024];
    } subs[SIM_SUBS];
    sim_frame to_relay[SIM_QUEUE], to_client[SIM_QUEUE];
    int64_t last_at[2];
} sim_conn;

/* ---- relays ----------------------------------------------------------------------------- */

#define SIM_R_AUTH 1u     /* EVENT and REQ need AUTH */
#define SIM_R_BLOCK 2u    /* refuses every EVENT: "blocked:" */
#define SIM_R_EMPTY_ID 4u /* ... with an OK whose id is empty */
#define SIM_R_NOTICE 8u   /* ... with a NOTICE instead of an OK */
#define SIM_R_RATE 16u    /* "rate-limited:" for the first few EVENTs */
#define SIM_R_RESTART 32u /* restarts, losing what it had not acknowledged */
#define SIM_R_OUTAGE 64u  /* down for a while */
#define SIM_R_DEAD 128u   /* down for good */
#define SIM_R_FORGE 256u  /* serves forged wraps with every REQ */

typedef struct sim_relay {
    char url[32];
    unsigned flags;
    uint32_t rate_left;
    int up;
    int64_t up_at;      /* down: when it comes back */
    int64_t restart_at; /* the next restart (INT64_MAX: none) */
    int64_t outage_at;  /* the start of its outage (INT64_MAX: none) */
    int64_t ack_delay;
    unsigned char stored[SIM_EVENTS]; /* 0 no, 1 held (not acknowledged), 2 durable */
    struct {
        int used;
        int ev;
        int client;
        uint32_t epoch;
        int64_t at;
    } acks[SIM_ACKS];
} sim_relay;

/* ---- applications ----------------------------------------------------------------------- */

typedef struct sim_out {
    int planned; /* this message is sent in the scenario */
    int msg;
    int64_t send_at;
    int sent; /* its intent is persisted */
    int live; /* d is set up in the running process */
    sc_delivery d;
    uint8_t *mem;
    size_t mem_cap;
    uint8_t saved[SIM_SAVE];
    size_t saved_len;
} sim_out;

typedef struct sim_client {
    int alive;
    int64_t restart_at;
    int64_t crash_at; /* INT64_MAX: none */
    sc_pool p;
    uint8_t *pool_mem;
    size_t pool_len;
    int inbox[SIM_RELAYS]; /* 1 when the relay is one of its inbox relays */
    /* alice */
    sim_out out[SIM_SEND];
    size_t n_out;
    /* bob and carol */
    sc_pool_cursor cur;
    uint8_t *cur_mem;
    size_t cur_len;
    uint8_t cur_saved[SIM_SAVE];
    size_t cur_saved_len;
    uint32_t sub;
    sc_relay_filter filter;
    sc_relay_tag_filter tf;
    sc_str pval;
    uint32_t kind;
    unsigned got[SIM_MSGS]; /* times each message reached the app (persisted) */
    char text[SIM_TEXT];
    uint8_t *arena;
    size_t arena_cap;
    uint8_t *open_arena;
    size_t open_cap;
} sim_client;

/* ---- the world -------------------------------------------------------------------------- */

typedef struct sim_stats {
    unsigned long scenarios, messages, steps, frames, drops, cuts, dups, delays, reorders;
    unsigned long restarts, outages, dead, crashes, auth, rate, refusals, forged_sent;
    unsigned long forged_rejected, received, delivered, failed, failed_honest, checks;
    unsigned long lost_unacked, auth_signed;
    int64_t sim_ms;
} sim_stats;

typedef struct sim_world {
    const sim_book *b;
    sc_ctx *ctx;
    sim_rng g;
    uint64_t seed;
    int64_t now, fault_end, t_end;
    uint64_t seq;
    /* link fault rates, per mille of frames */
    uint32_t p_drop, p_dup, p_delay, p_reorder, p_cut;
    sim_relay r[SIM_RELAYS];
    sim_client c[SIM_CLIENTS];
    sim_conn conn[SIM_CLIENTS][SIM_RELAYS];
    sim_stats *st;
    int auth_external; /* the applications give the pool no identity: they answer
                          AUTH_WANTED with an AUTH signed over an external signer */
    char fail[512];    /* the first invariant broken */
    int trace;         /* --trace: print what happens */
} sim_world;

/* Records the first failure (printf-style) and returns -1. */
int sim_fail(sim_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints a line of the trace when --trace is on. */
void sim_trace(const sim_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* sim_link.c */
void sim_link_reset(sim_conn *k);
/* Queues a frame; dir 0 to the relay, 1 to the client. Faults apply before fault_end. */
void sim_link_send(sim_world *w, int c, int r, int dir, const char *text, size_t len);
/* The earliest frame due on any link (INT64_MAX: none). */
int64_t sim_link_next(const sim_world *w);
/* Delivers the frames due at w->now, oldest first. */
int sim_link_deliver(sim_world *w);
/* The connection ends: queues emptied, the relay forgets it; the client's pool is told
 * unless tell_client is 0 (a crashed client). */
int sim_conn_cut(sim_world *w, int c, int r, int tell_client);

/* sim_relay.c */
void sim_relay_draw(sim_world *w, int r);
int sim_relay_open(sim_world *w, int c, int r);
int sim_relay_text(sim_world *w, int c, int r, const char *text, size_t len);
int sim_relay_tick(sim_world *w, int r);
int64_t sim_relay_next(const sim_world *w, int r);

/* sim_app.c: the pool options every application uses */
extern const sc_pool_opts sim_pool_opts;
int sim_app_start(sim_world *w, int c);
void sim_app_crash(sim_world *w, int c);
int sim_app_tick(sim_world *w, int c);
int64_t sim_app_next(const sim_world *w, int c);
int sim_app_text(sim_world *w, int c, int r, const char *text, size_t len);
int sim_app_opened(sim_world *w, int c, int r, int ok);
int sim_guard_ok(const uint8_t *mem, size_t len);

#endif
