/* The relay commands' connection loop (cli/relay_client.c): one relay, a libsoftchat session
 * (the protocol state), a WebSocket (cli/ws.c), the clock and the reconnect policy. The
 * library decides what to send and what a message means; this file moves the bytes. */
#ifndef SOFTCHAT_CLI_RELAY_CLIENT_H
#define SOFTCHAT_CLI_RELAY_CLIENT_H

#include "cli.h"
#include "ws.h"

/* What a handler returns: go on, or stop the loop with success or an exit status. */
#define CLI_RELAY_CONTINUE (-100)
#define CLI_RELAY_DONE (-101)

typedef struct cli_relay cli_relay;

/* Called for every relay message the session accepted (m parsed and verified, u what it
 * means); with m and u NULL when the connection opened (or opened again); with m NULL and
 * u->kind SC_RELAY_U_NONE when the time the command set in r->wake_ms came (it is cleared
 * first). Returns CLI_RELAY_CONTINUE, CLI_RELAY_DONE, or an exit status (CLI_INVALID,
 * CLI_ERROR) to stop with, its message printed. */
typedef int (*cli_relay_handler)(void *user, cli_relay *r, const sc_relay_msg *m,
                                 const sc_relay_update *u);

struct cli_relay {
    sc_ctx *ctx;
    const char *url;
    const char *ca_file;       /* wss://: the CAs (PEM) to check the relay's certificate against;
                            NULL: the system's store */
    const cli_ext_signer *who; /* answers AUTH challenges when set (the user's signer) */
    cli_ws *ws;
    sc_relay_session s;
    void *mem;
    cli_buf in, arena, out;
    int64_t deadline_ms, retry_at_ms;
    int64_t wake_ms; /* 0, or when to call the handler (while connected) */
    int reconnect;   /* reconnect after a drop (else the loop fails) */
    int open;        /* the session knows the socket is open */
    int ever_open;
    unsigned drops;              /* connections lost or refused */
    unsigned long bad;           /* relay messages refused by the parser or the session */
    unsigned long oversize;      /* of them, dropped by the socket over their type's limit */
    unsigned long notes, hidden; /* notes on stderr shown (cli_relay_may_note), held back */
    int64_t note_at_ms;          /* when the last one was shown */
    int unnamed;                 /* the OK handed to the command names no event */
    int auth_waiting;            /* an AUTH answer sent, its OK not yet come */
    cli_buf loose;               /* an unnamed OK rewritten for the parser */
    int auth_due;                /* a challenge to answer (answer_auth: when it may) */
    uint64_t auth_seq;           /* the last AUTH answer's place in the socket's queue */
    int64_t auth_at_ms;          /* when it was made */
};

/* Sets up r for url with room for max_subs subscriptions and max_pending publishes;
 * timeout_s bounds everything the command does; who (NULL: none) signs the AUTH events (an
 * external signer's answer is checked before it is sent: sc_relay_session_auth_send).
 * Returns CLI_OK or CLI_ERROR. */
int cli_relay_open(cli_relay *r, sc_ctx *ctx, const char *url, const cli_ext_signer *who,
                   size_t max_subs, size_t max_pending, int64_t resume_slack, int timeout_s);

/* Runs until a handler says stop or the deadline passes (CLI_ERROR, "timed out ..."). A
 * connection that fails or drops is retried with the session's backoff when r->reconnect,
 * else it ends the loop (CLI_ERROR). Returns CLI_OK (a handler said done) or an exit
 * status. */
int cli_relay_run(cli_relay *r, cli_relay_handler fn, void *user);

/* Sends a message outside the session (NEG-*): CLI_OK or CLI_ERROR. */
int cli_relay_send(cli_relay *r, const sc_relay_client_msg *m);

/* Moves the session's outbox to the socket (after subscribe / publish from a handler). */
int cli_relay_flush(cli_relay *r);

/* Closes the connection and frees r; says how many notes were held back, if any. */
void cli_relay_close(cli_relay *r);

/* Whether a note about the relay (a message ignored, a NOTICE, a reconnect) may go to stderr
 * now: the first CLI_RELAY_NOTES may, then one per CLI_RELAY_NOTE_MS; the others are only
 * counted, and the count is said before the next note shown and by cli_relay_close. A relay
 * that floods malformed messages then costs a few lines of stderr, not one per message. */
#define CLI_RELAY_NOTES 10u
#define CLI_RELAY_NOTE_MS 10000
int cli_relay_may_note(cli_relay *r);

/* An OK whose id is not an event id (empty, as PyPI nostr-relay sends one for an event it
 * refused before reading its id, or anything else but 64 lowercase hex): when text[0..n) is
 * one, writes it to out with the id replaced by 64 zeros, for the strict parser, and returns
 * 1; else 0 (-1 out of memory, said). cli_relay_run hands such an OK to the command with
 * r->unnamed set (cli/relay_ok.c). */
int cli_relay_unnamed_ok(const unsigned char *text, size_t n, cli_buf *out);

/* A set of 32-byte ids (dedupe of delivered events). */
typedef struct cli_idset {
    uint8_t (*slot)[32];
    unsigned char *used;
    size_t cap, n;
} cli_idset;

/* 1 when id was added, 0 when it was there, -1 out of memory. */
int cli_idset_add(cli_idset *s, const uint8_t id[32]);
int cli_idset_has(const cli_idset *s, const uint8_t id[32]);
void cli_idset_free(cli_idset *s);

#endif
