/* The dm commands' loop over a relay pool: the pool's CONNECT opens a socket, a socket that
 * opens or ends is told to the pool, the pool's outbox goes to the sockets, text frames go to
 * sc_pool_receive and each is followed by the updates it means (sc_pool_poll), which the
 * command's handler sees. Each socket is serviced in short turns, so time (OK deadlines,
 * retries, reconnects: sc_pool_wakeup) is never waited past by more than one turn. */
#include "pool_client.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An incoming message is held to the pool's own largest limit (an EVENT: 1 MiB); the pool
 * refuses longer ones per type before parsing. */
#define MSG_MAX (1u << 20)
/* Each socket's service turn, in ms: short enough for several relays and the pool's timers. */
#define TURN_MS 10
#define NOTES_MAX 20u
/* How long new connections wait for a wss:// one that is opening (start_connects). */
#define CONNECT_HOLD_MS 3000

static size_t message_limit(const char *head, size_t n)
{
    (void)head;
    (void)n;
    return MSG_MAX;
}

const char *cli_pool_result_name(sc_pool_result r)
{
    switch (r) {
    case SC_POOL_ACCEPTED:
        return "accepted";
    case SC_POOL_REFUSED:
        return "refused";
    case SC_POOL_FAILED:
        return "failed";
    default:
        return "pending";
    }
}

void cli_pool_note(cli_pool *cp, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    if (cp->notes++ >= NOTES_MAX) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_fail(CLI_OK, "%s", msg);
}

int cli_pool_open(cli_pool *cp, sc_ctx *ctx, const sc_pool_opts *opts, const char *ca_file,
                  int timeout_s)
{
    size_t need = sc_pool_mem_max(opts);
    sc_status st;

    memset(cp, 0, sizeof *cp);
    cp->ctx = ctx;
    cp->ca_file = ca_file;
    if (need == 0) {
        return cli_fail(CLI_ERROR, "internal error: pool options refused");
    }
    cp->mem = calloc(1, need);
    if (cp->mem == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_pool_init(&cp->p, cp->mem, need, opts);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot set up the relay pool");
    }
    cp->deadline_ms = timeout_s > 0 ? cli_ws_now_ms() + (int64_t)timeout_s * 1000 : 0;
    return CLI_OK;
}

int cli_pool_add(cli_pool *cp, const char *url, uint32_t *relay)
{
    sc_str u = {url, strlen(url)};
    sc_status st = sc_pool_relay_add(&cp->p, relay, u);

    if (st != SC_OK) {
        return cli_fail_status(st, "relay %s", cli_shown(url));
    }
    return CLI_OK;
}

/* The socket of relay, made when first asked for: NULL out of memory (said). */
static cli_pool_conn *conn_of(cli_pool *cp, uint32_t relay, sc_str url)
{
    cli_pool_conn *c, *grown;
    size_t i;

    for (i = 0; i < cp->n_conns; i++) {
        if (cp->conns[i].relay == relay) {
            return &cp->conns[i];
        }
    }
    grown = realloc(cp->conns, (cp->n_conns + 1) * sizeof *grown);
    if (grown == NULL) {
        cli_fail(CLI_ERROR, "out of memory");
        return NULL;
    }
    cp->conns = grown;
    c = &cp->conns[cp->n_conns];
    memset(c, 0, sizeof *c);
    c->relay = relay;
    c->url = malloc(url.len + 1);
    c->ws = cli_ws_new(message_limit);
    if (c->url == NULL || c->ws == NULL) {
        free(c->url);
        cli_ws_free(c->ws);
        cli_fail(CLI_ERROR, "out of memory");
        return NULL;
    }
    memcpy(c->url, url.ptr, url.len);
    c->url[url.len] = '\0';
    cp->n_conns++;
    return c;
}

/* The socket of c ended (or never opened): the pool is told, which schedules a reconnect. */
static void conn_lost(cli_pool *cp, cli_pool_conn *c)
{
    if (c->busy) {
        sc_status st;

        cli_pool_note(cp, "%s: %s%s", c->url,
                      c->open ? "connection lost: " : "cannot connect: ", cli_ws_error(c->ws));
        st = sc_pool_disconnected(&cp->p, c->relay, cli_ws_wall_ms());
        if (st != SC_OK) {
            cli_pool_note(cp, "%s: relay pool: %s", c->url, sc_status_str(st));
        }
    }
    c->busy = 0;
    c->open = 0;
    c->waiting = 0;
    cli_ws_close(c->ws);
}

/* Starts the connections the pool asked for, together. Debian's libwebsockets 4.1 takes new
 * OpenSSL ex_data indexes with every lws context it makes (one per connection here) and finds
 * a TLS connection by the latest when it checks the server's certificate: a context made while
 * another connection's TLS handshake runs fails that check. So new connections wait while a
 * wss:// connection is opening, for at most CONNECT_HOLD_MS (a relay that does not answer
 * holds the others back no longer; at worst that attempt fails and the pool retries). */
static void start_connects(cli_pool *cp)
{
    int64_t now = cli_ws_now_ms();
    size_t i;
    int any = 0;

    for (i = 0; i < cp->n_conns; i++) {
        const cli_pool_conn *c = &cp->conns[i];

        if (c->waiting) {
            any = 1;
        } else if (c->busy && !c->open && cli_ws_state(c->ws) == CLI_WS_CONNECTING &&
                   strncmp(c->url, "wss:", 4) == 0 && now - c->started_ms < CONNECT_HOLD_MS) {
            return;
        }
    }
    for (i = 0; any && i < cp->n_conns; i++) {
        cli_pool_conn *c = &cp->conns[i];

        if (c->waiting) {
            c->waiting = 0;
            c->started_ms = now;
            if (cli_ws_connect(c->ws, c->url, cp->ca_file) != 0) {
                conn_lost(cp, c);
            }
        }
    }
}

/* AUTH_WANTED: the relay refused something until it knows who the user is. The AUTH event
 * (kind 22242, the relay's URL and challenge) is signed by the external signer and checked
 * by the pool (sc_pool_auth_send) before it goes out. A signer that refuses or fails is said
 * here, and what waits for the AUTH ends by the pool's deadline (refused, auth-required:),
 * through the command's own failure path. */
static void answer_auth(cli_pool *cp, const sc_pool_update *u)
{
    const cli_ext_signer *ext = cp->auth_signer;
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_relay_auth a;
    sc_status st;

    if (ext == NULL) {
        cli_pool_note(cp, "%.*s: the relay wants AUTH (NIP-42); not answered", (int)u->url.len,
                      u->url.ptr);
        return;
    }
    st = sc_signer_pubkey(pub, ext->signer);
    if (st == SC_OK) {
        st = sc_pool_auth_template(&cp->p, &a, u->relay, pub, cli_ws_wall_ms() / 1000);
    }
    if (st == SC_OK) {
        st = cli_event_sign(cp->ctx, &a.event, NULL, ext);
    }
    if (st == SC_OK) {
        st = sc_pool_auth_send(&cp->p, cp->ctx, u->relay, &a.event, cli_ws_wall_ms() / 1000);
    }
    if (st != SC_OK) {
        cli_fail(CLI_OK,
                 "%.*s: the relay requires AUTH (NIP-42) and the signer did not sign it: "
                 "%s (%s); what needs it is not sent there",
                 (int)u->url.len, u->url.ptr, sc_status_str(st), sc_status_name(st));
        return;
    }
    cli_pool_note(cp, "%.*s: AUTH (NIP-42) signed by the signer", (int)u->url.len, u->url.ptr);
}

/* Reports every update waiting: CONNECT and DISCONNECT acted on here, AUTH_WANTED answered
 * (answer_auth), each handed to fn. */
static int drain(cli_pool *cp, cli_pool_handler fn, void *user)
{
    for (;;) {
        sc_pool_update u;
        cli_pool_conn *c;
        int rc;
        sc_status st = sc_pool_poll(&cp->p, cp->ctx, cli_ws_wall_ms(), &u);

        if (st != SC_OK) {
            return cli_fail_status(st, "relay pool");
        }
        if (u.kind == SC_POOL_U_NONE) {
            return CLI_POOL_CONTINUE;
        }
        if (u.kind == SC_POOL_U_CONNECT) {
            c = conn_of(cp, u.relay, u.url);
            if (c == NULL) {
                return CLI_ERROR;
            }
            c->busy = 1;
            c->open = 0;
            c->waiting = 1; /* started by start_connects */
        } else if (u.kind == SC_POOL_U_DISCONNECT) {
            c = conn_of(cp, u.relay, u.url);
            if (c == NULL) {
                return CLI_ERROR;
            }
            c->busy = 0;
            c->open = 0;
            c->waiting = 0;
            cli_ws_close(c->ws);
        } else if (u.kind == SC_POOL_U_NOTICE) {
            cli_pool_note(cp, "%.*s: notice: %.*s", (int)u.url.len, u.url.ptr, (int)u.text.len,
                          u.text.ptr);
        } else if (u.kind == SC_POOL_U_AUTH_WANTED) {
            answer_auth(cp, &u);
        } else if (u.kind == SC_POOL_U_DROPPED) {
            cli_pool_note(cp, "%.*s: ignored %lu message%s: %s", (int)u.url.len, u.url.ptr,
                          (unsigned long)u.count, u.count == 1 ? "" : "s", sc_status_str(u.status));
        }
        rc = fn(user, cp, &u);
        if (rc != CLI_POOL_CONTINUE) {
            return rc;
        }
    }
}

/* The pool's outbox of every open relay to its socket. */
static int flush(cli_pool *cp)
{
    size_t i;

    for (i = 0; i < cp->n_conns; i++) {
        cli_pool_conn *c = &cp->conns[i];

        while (c->open) {
            size_t need = sc_pool_next_len(&cp->p, c->relay), len = 0;
            sc_status st;

            if (need == 0) {
                need = 1;
            }
            if (cli_buf_size(&cp->out, need) != CLI_OK) {
                return CLI_ERROR;
            }
            st = sc_pool_next(&cp->p, c->relay, (char *)cp->out.p, cp->out.cap, &len);
            if (st == SC_ERR_STATE || st == SC_ERR_NOT_FOUND || st == SC_ERR_ARG) {
                return cli_fail_status(st, "%s: relay pool", c->url);
            }
            if (st != SC_OK && st != SC_ERR_BUFFER_TOO_SMALL) {
                cli_pool_note(cp, "%s: cannot write a message: %s", c->url, sc_status_str(st));
                continue; /* that entry was dropped by the pool */
            }
            if (st == SC_ERR_BUFFER_TOO_SMALL) {
                if (cli_buf_size(&cp->out, len) != CLI_OK) {
                    return CLI_ERROR;
                }
                continue;
            }
            if (len == 0) {
                break;
            }
            if (cli_ws_send(c->ws, (const char *)cp->out.p, len) != 0) {
                return cli_fail(CLI_ERROR, "out of memory");
            }
        }
    }
    return CLI_OK;
}

/* One text frame from c: taken by the pool (after reporting what the last one meant). */
static int receive(cli_pool *cp, cli_pool_conn *c, cli_pool_handler fn, void *user)
{
    size_t need = sc_pool_receive_arena_max(cp->in.len);
    sc_status st;

    if (cp->in.len == 0) {
        return CLI_POOL_CONTINUE;
    }
    if (need == 0 || cli_buf_size(&cp->arena, need) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_pool_receive(&cp->p, cp->ctx, c->relay, (const char *)cp->in.p, cp->in.len,
                         cli_ws_wall_ms(), cp->arena.p, cp->arena.cap);
    if (st == SC_ERR_UNSUPPORTED || st == SC_ERR_BUFFER_TOO_SMALL || st == SC_ERR_ARG) {
        return cli_fail_status(st, "%s: cannot take a message", c->url);
    }
    /* any other failure is a message the pool dropped and counted (SC_POOL_U_DROPPED) */
    return drain(cp, fn, user);
}

int cli_pool_run(cli_pool *cp, cli_pool_handler fn, void *user)
{
    for (;;) {
        size_t i, busy = 0;
        int rc;

        if (cp->stop != NULL && *cp->stop) {
            return CLI_OK;
        }
        if (cp->deadline_ms != 0 && cli_ws_now_ms() >= cp->deadline_ms) {
            return cli_fail(CLI_ERROR, "timed out");
        }
        rc = drain(cp, fn, user);
        if (rc == CLI_POOL_CONTINUE && flush(cp) != CLI_OK) {
            rc = CLI_ERROR;
        }
        if (rc != CLI_POOL_CONTINUE) {
            return rc == CLI_POOL_DONE ? CLI_OK : rc;
        }
        start_connects(cp);
        for (i = 0; i < cp->n_conns; i++) {
            if (cp->conns[i].busy && !cp->conns[i].waiting) {
                cli_ws_service(cp->conns[i].ws, TURN_MS);
                busy++;
            }
        }
        if (busy == 0) {
            struct timespec ts = {0, TURN_MS * 1000000L};

            nanosleep(&ts, NULL);
        }
        for (i = 0; i < cp->n_conns; i++) {
            cli_pool_conn *c = &cp->conns[i];
            int state = cli_ws_state(c->ws);

            if (!c->busy || c->waiting) {
                continue;
            }
            if (state == CLI_WS_OPEN && !c->open) {
                sc_status st = sc_pool_connected(&cp->p, c->relay, cli_ws_wall_ms());

                if (st != SC_OK) {
                    return cli_fail_status(st, "%s: relay pool", c->url);
                }
                c->open = 1;
                c->ever_open = 1;
            }
            while (c->open && cli_ws_take(c->ws, &cp->in) == 1) {
                rc = receive(cp, c, fn, user);
                if (rc != CLI_POOL_CONTINUE) {
                    return rc == CLI_POOL_DONE ? CLI_OK : rc;
                }
                c = &cp->conns[i]; /* a CONNECT may have grown the array */
            }
            if (state == CLI_WS_CLOSED) {
                conn_lost(cp, c);
            }
        }
    }
}

void cli_pool_close(cli_pool *cp)
{
    size_t i;

    if (cp->notes > NOTES_MAX) {
        cli_fail(CLI_OK, "%lu more notes about relays not shown", cp->notes - NOTES_MAX);
    }
    for (i = 0; i < cp->n_conns; i++) {
        cli_ws_free(cp->conns[i].ws);
        free(cp->conns[i].url);
    }
    free(cp->conns);
    sc_pool_clear(&cp->p);
    free(cp->mem);
    cli_buf_free(&cp->in);
    cli_buf_free(&cp->arena);
    cli_buf_free(&cp->out);
    memset(cp, 0, sizeof *cp);
}
