/* The CLI's WebSocket client: over libwebsockets (cli/ws.c) or, in a build without a
 * transport, failing to connect (cli/ws_none.c); URLs and the clock in cli/ws_url.c. */
#ifndef SOFTCHAT_CLI_WS_H
#define SOFTCHAT_CLI_WS_H

#include "cli.h"

#define CLI_WS_CLOSED 0
#define CLI_WS_CONNECTING 1
#define CLI_WS_OPEN 2

typedef struct cli_ws cli_ws;

/* The most bytes an incoming message starting with head[0..n) may have, or 0 when n bytes
 * cannot tell yet (asked again as more arrive; n reaches CLI_WS_HEAD before the message is
 * stored any further, and the answer must not be 0 then). */
#define CLI_WS_HEAD 32u
typedef size_t (*cli_ws_limit_fn)(const char *head, size_t n);

/* A client whose incoming messages are each held to limit()'s answer: a longer one is
 * dropped as it arrives (the rest of it read and discarded, never stored) and counted
 * (cli_ws_dropped). NULL when out of memory. */
cli_ws *cli_ws_new(cli_ws_limit_fn limit);
void cli_ws_free(cli_ws *w);

/* Messages dropped over their limit since the client was made. */
unsigned long cli_ws_dropped(const cli_ws *w);

/* Splits a ws:// or wss:// URL; 0, or -1 when it is not one. */
int cli_ws_parse_url(const char *url, int *secure, char *host, size_t host_cap, int *port,
                     char *path, size_t path_cap);

/* Starts connecting (closing any earlier connection); for wss://, the server's certificate
 * must chain to a CA of ca_file (PEM) when it is not NULL, else of the system's store, and
 * name the URL's host. 0, or -1 (cli_ws_error says why). */
int cli_ws_connect(cli_ws *w, const char *url, const char *ca_file);
int cli_ws_state(const cli_ws *w);
const char *cli_ws_error(const cli_ws *w);

/* 1 when the connection failed in a way no retry changes (the relay answered with a
 * redirect, or its certificate was refused), else 0. */
int cli_ws_permanent(const cli_ws *w);

/* Queues a text frame (sent once the connection is open). 0, or -1 out of memory. */
int cli_ws_send(cli_ws *w, const char *text, size_t len);

/* Bytes queued and not yet written. */
size_t cli_ws_pending_out(const cli_ws *w);

/* Messages queued since the connection started, and of them written: the message queued as
 * the n-th has gone to the socket once cli_ws_written() >= n. */
uint64_t cli_ws_queued(const cli_ws *w);
uint64_t cli_ws_written(const cli_ws *w);

/* Runs the connection for up to timeout_ms (returns sooner when a message is waiting). */
void cli_ws_service(cli_ws *w, int timeout_ms);

/* Moves the oldest received text message into `into` (its buffer handed over, not copied;
 * into's own freed): 1, or 0 when none. */
int cli_ws_take(cli_ws *w, cli_buf *into);

void cli_ws_close(cli_ws *w);

/* A monotonic clock in milliseconds: deadlines, waits and rate limits. */
int64_t cli_ws_now_ms(void);

/* The wall clock in unix milliseconds: the relay session's now_ms (it caps resume points at
 * its seconds, so an event dated in the future cannot move a resume past the present). */
int64_t cli_ws_wall_ms(void);

#endif
