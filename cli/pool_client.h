/* The dm commands' connection loop (cli/pool_client.c): a libsoftchat relay pool (pool.h: the
 * protocol state of every relay, publishes settled per relay, subscriptions deduplicated
 * across relays) driven over one WebSocket per relay (cli/ws.c), with the clock. The pool
 * decides what to send, when to connect and what a message means; this file moves bytes. */
#ifndef SOFTCHAT_CLI_POOL_CLIENT_H
#define SOFTCHAT_CLI_POOL_CLIENT_H

#include <signal.h>

#include "cli.h"
#include "ws.h"

/* What a handler returns: go on, or stop the loop with success or an exit status. */
#define CLI_POOL_CONTINUE (-100)
#define CLI_POOL_DONE (-101)

/* One relay's socket. */
typedef struct cli_pool_conn {
    uint32_t relay; /* the pool's handle */
    char *url;      /* its normalised URL (heap) */
    cli_ws *ws;
    int busy;           /* a connection asked for by the pool, opening or open */
    int open;           /* the pool was told it is open */
    int ever_open;      /* it was open at least once */
    int waiting;        /* asked for, not yet started (pool_client.c, start_connects) */
    int64_t started_ms; /* when its connection started (monotonic) */
} cli_pool_conn;

typedef struct cli_pool cli_pool;

/* Called for every update the pool reports (after this loop acted on CONNECT and
 * DISCONNECT). Returns CLI_POOL_CONTINUE, CLI_POOL_DONE or an exit status (said). */
typedef int (*cli_pool_handler)(void *user, cli_pool *cp, const sc_pool_update *u);

struct cli_pool {
    sc_ctx *ctx;
    sc_pool p;
    void *mem;
    const char *ca_file; /* wss://: the CAs (PEM); NULL: the system's store */
    cli_pool_conn *conns;
    size_t n_conns;
    cli_buf in, arena, out;
    int64_t deadline_ms;         /* monotonic; 0: none */
    volatile sig_atomic_t *stop; /* set (by a signal): the loop ends with CLI_OK */
    unsigned long notes;         /* notes about relays shown on stderr */
    /* The user's external signer (--signer): SC_POOL_U_AUTH_WANTED is answered with an AUTH
     * it signs, checked by the pool before it goes out. NULL: not answered (a pool with an
     * identity answers by itself). */
    const cli_ext_signer *auth_signer;
};

/* Sets up cp with a pool of opts (NULL: the defaults); timeout_s bounds cli_pool_run (0:
 * none). Returns CLI_OK or CLI_ERROR (said). */
int cli_pool_open(cli_pool *cp, sc_ctx *ctx, const sc_pool_opts *opts, const char *ca_file,
                  int timeout_s);

/* Adds the relay at url: CLI_OK, or CLI_ERROR (a URL the pool refuses; said). */
int cli_pool_add(cli_pool *cp, const char *url, uint32_t *relay);

/* Runs until a handler says stop, *cp->stop is set (CLI_OK) or the deadline passes
 * (CLI_ERROR, "timed out"). Returns CLI_OK or an exit status. */
int cli_pool_run(cli_pool *cp, cli_pool_handler fn, void *user);

/* A note about a relay on stderr: the first 20 are shown, the rest counted. */
void cli_pool_note(cli_pool *cp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Closes every socket, wipes the pool and frees cp's memory. */
void cli_pool_close(cli_pool *cp);

/* The name of a publish result: "accepted", "refused", "failed" or "pending". */
const char *cli_pool_result_name(sc_pool_result r);

#endif
