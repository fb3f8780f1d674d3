/* The relay commands' loop: connect, hand the session's outbox to the socket, parse and apply
 * what arrives, answer AUTH challenges, reconnect with the session's backoff. */
#include "relay_client.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The largest relay message of each type: a NEG-MSG without a frame limit can be megabytes
 * (64 MiB of hex: a million ids); an EVENT holds one event (1 MiB, the event parser's
 * default and the CLI's limit everywhere else) and its subscription id; every other type is
 * a short text (a NOTICE, a reason, a challenge). A longer message is dropped unread. */
#define MAX_NEG_MSG (64u << 20)
#define MAX_EVENT_MSG ((1u << 20) + 4096u)
#define MAX_OTHER_MSG (64u << 10)
/* The session's outbox moves to the socket while less than this waits there to be written:
 * a relay that does not read holds the rest in the session, not in a queue of its own. */
#define OUT_HIGH (1u << 20)
/* AUTH challenges are answered at most once a second, and never while an earlier answer
 * waits to be written: a relay that floods challenges (and need not read) gets one signature
 * a second, for the latest. */
#define AUTH_MIN_MS 1000

/* The limit of a message by its first bytes: ws.c's cli_ws_limit_fn. The type's name must
 * come within CLI_WS_HEAD bytes (a message that pads it further away is held to the short
 * limit). */
static size_t message_limit(const char *head, size_t n)
{
    static const struct {
        const char *name;
        size_t limit;
    } big[] = {{"\"NEG-MSG\"", MAX_NEG_MSG}, {"\"EVENT\"", MAX_EVENT_MSG}};
    size_t i = 0, k;

    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) {
        i++;
    }
    i += i < n && head[i] == '[';
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) {
        i++;
    }
    for (k = 0; k < sizeof big / sizeof big[0]; k++) {
        size_t len = strlen(big[k].name);

        if (n - i >= len && memcmp(head + i, big[k].name, len) == 0) {
            return big[k].limit;
        }
        if (n < CLI_WS_HEAD && n - i < len && memcmp(head + i, big[k].name, n - i) == 0) {
            return 0; /* too few bytes yet to tell */
        }
    }
    return n < CLI_WS_HEAD && i == n ? 0 : MAX_OTHER_MSG;
}

int cli_relay_open(cli_relay *r, sc_ctx *ctx, const char *url, const cli_ext_signer *who,
                   size_t max_subs, size_t max_pending, int64_t resume_slack, int timeout_s)
{
    sc_relay_session_opts o;
    sc_str u = {url, strlen(url)};
    size_t need;
    sc_status st;

    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->url = url;
    r->who = who;
    memset(&o, 0, sizeof o);
    o.backoff_min_ms = 250;
    o.backoff_max_ms = 4000;
    o.resume_slack = resume_slack;
    need = sc_relay_session_mem_max(max_subs, max_pending, u.len, &o);
    r->mem = need > 0 ? calloc(1, need) : NULL;
    r->ws = cli_ws_new(message_limit);
    if (r->mem == NULL || r->ws == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_relay_session_init(&r->s, r->mem, need, max_subs, max_pending, u, &o);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot set up the relay session");
    }
    r->deadline_ms = cli_ws_now_ms() + (int64_t)timeout_s * 1000;
    return CLI_OK;
}

/* Queues text on the socket: CLI_OK, or CLI_ERROR (out of memory, said). */
static int ws_send(cli_relay *r, const char *text, size_t len)
{
    return cli_ws_send(r->ws, text, len) == 0 ? CLI_OK : cli_fail(CLI_ERROR, "out of memory");
}

int cli_relay_flush(cli_relay *r)
{
    for (;;) {
        size_t need = sc_relay_session_next_len(&r->s), len = 0;
        sc_status st;

        if (r->open && cli_ws_pending_out(r->ws) >= OUT_HIGH) {
            return CLI_OK; /* the rest once the socket took this (cli_relay_run) */
        }
        if (need == 0 || !r->open) {
            /* an entry the session cannot write is dropped by next(): let it report */
            if (r->open) {
                st = sc_relay_session_next(&r->s, NULL, 0, &len);
                if (st != SC_OK && st != SC_ERR_BUFFER_TOO_SMALL) {
                    return cli_fail_status(st, "cannot write a message to the relay");
                }
            }
            return CLI_OK;
        }
        if (cli_buf_size(&r->out, need) != CLI_OK) {
            return CLI_ERROR;
        }
        st = sc_relay_session_next(&r->s, (char *)r->out.p, r->out.cap, &len);
        if (st != SC_OK) {
            return cli_fail_status(st, "cannot write a message to the relay");
        }
        if (len == 0) {
            return CLI_OK;
        }
        if (ws_send(r, (const char *)r->out.p, len) != CLI_OK) {
            return CLI_ERROR;
        }
    }
}

int cli_relay_send(cli_relay *r, const sc_relay_client_msg *m)
{
    size_t need = sc_relay_msg_write_len(m), len = 0;
    sc_status st;

    if (need == 0) {
        st = sc_relay_msg_write(NULL, 0, &len, m);
        return cli_fail_status(st, "cannot write a message to the relay");
    }
    if (cli_buf_size(&r->out, need) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sc_relay_msg_write((char *)r->out.p, r->out.cap, &len, m);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot write a message to the relay");
    }
    return ws_send(r, (const char *)r->out.p, len);
}

/* The AUTH event for the session's challenge, signed by the user's signer. */
static sc_status sign_auth(cli_relay *r, sc_relay_auth *a, int64_t now)
{
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_status st = sc_signer_pubkey(pub, r->who->signer);

    if (st == SC_OK) {
        st = sc_relay_session_auth_template(&r->s, a, pub, now);
    }
    return st == SC_OK ? cli_event_sign(r->ctx, &a->event, NULL, r->who) : st;
}

/* Answers the session's AUTH challenge (the latest) if one is due, it is time (AUTH_MIN_MS
 * after the last answer) and the last answer has been written. */
static int answer_auth(cli_relay *r)
{
    sc_relay_auth a;
    size_t len = 0;
    sc_status st;
    int64_t now, mono = cli_ws_now_ms();

    if (!r->auth_due || r->who == NULL || cli_ws_written(r->ws) < r->auth_seq ||
        (r->auth_at_ms != 0 && mono - r->auth_at_ms < AUTH_MIN_MS)) {
        return CLI_OK;
    }
    r->auth_due = 0;
    r->auth_at_ms = mono;
    if (cli_now(&now) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sign_auth(r, &a, now);
    if (st == SC_OK) {
        st = sc_relay_session_auth_send(&r->s, r->ctx, NULL, 0, &len, &a.event, now);
    }
    if (st == SC_ERR_BUFFER_TOO_SMALL && cli_buf_size(&r->out, len) == CLI_OK) {
        st = sc_relay_session_auth_send(&r->s, r->ctx, (char *)r->out.p, r->out.cap, &len, &a.event,
                                        now);
    }
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot answer the relay's AUTH challenge");
    }
    if (sc_signer_is_external(r->who->signer) && cli_relay_may_note(r)) {
        cli_fail(CLI_OK, "%s: AUTH (NIP-42) signed by the signer", r->url);
    }
    if (ws_send(r, (const char *)r->out.p, len) != CLI_OK) {
        return CLI_ERROR;
    }
    r->auth_seq = cli_ws_queued(r->ws);
    r->auth_waiting = 1;
    return CLI_OK;
}

/* Parses text[0..n) into m, its views in r->arena: sized by the parser's own measure when it
 * is too small (its bound, sc_relay_parse_arena_max, is over 7 times the text, which for a
 * NEG-MSG of megabytes is memory the parse never touches). */
static sc_status parse(cli_relay *r, const unsigned char *text, size_t n, sc_relay_msg *m)
{
    sc_relay_parse_opts opts = {MAX_NEG_MSG, 0}; /* whatever the socket took, not 1 MiB */
    size_t used = 0;
    sc_status st =
        sc_relay_parse(r->ctx, m, r->arena.p, r->arena.cap, &used, (const char *)text, n, &opts);

    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        /* the need is the same at any address (the parser counts the alignment) */
        if (cli_buf_size(&r->arena, used) != CLI_OK) {
            return SC_ERR_NOMEM;
        }
        st = sc_relay_parse(r->ctx, m, r->arena.p, r->arena.cap, &used, (const char *)text, n,
                            &opts);
    }
    return st;
}

/* An OK the strict parser refused for its id alone (cli_relay_unnamed_ok), handed to the
 * command as an OK that names no event: m's event_id is zeros and r->unnamed is set. The
 * session cannot match it to a publish; the command may (relay publish: the relay answers
 * in order). */
static int receive_unnamed_ok(cli_relay *r, cli_relay_handler fn, void *user, sc_relay_msg *m)
{
    sc_relay_update u;
    int rc;

    memset(&u, 0, sizeof u);
    u.kind = m->accepted ? SC_RELAY_U_ACCEPTED : SC_RELAY_U_REJECTED;
    r->unnamed = 1;
    rc = fn(user, r, m, &u);
    r->unnamed = 0;
    return rc;
}

/* One received text: parsed, applied, handed to the command. */
static int receive(cli_relay *r, cli_relay_handler fn, void *user)
{
    sc_relay_msg m;
    sc_relay_update u;
    sc_status st = parse(r, r->in.p, r->in.len, &m);
    int rc;

    if (st == SC_ERR_RELAY_MESSAGE && (rc = cli_relay_unnamed_ok(r->in.p, r->in.len, &r->loose))) {
        st = rc < 0 ? SC_ERR_NOMEM : parse(r, r->loose.p, r->loose.len, &m);
        if (st == SC_OK) {
            rc = receive_unnamed_ok(r, fn, user, &m);
            return rc == CLI_RELAY_CONTINUE && cli_relay_flush(r) != CLI_OK ? CLI_ERROR : rc;
        }
    }
    if (st == SC_ERR_NOMEM) {
        return CLI_ERROR;
    }
    if (st == SC_ERR_RELAY_UNKNOWN) {
        return CLI_RELAY_CONTINUE; /* a message type of a later NIP: not ours to judge */
    }
    if (st == SC_OK) {
        st = sc_relay_session_handle(&r->s, &u, &m);
        if (st == SC_ERR_SUBSCRIPTION && m.type != SC_RELAY_EVENT) {
            return CLI_RELAY_CONTINUE; /* an EOSE or CLOSED after our CLOSE */
        }
    }
    if (st != SC_OK) {
        r->bad++;
        if (cli_relay_may_note(r)) {
            cli_fail_status(st, "ignored a message from the relay"); /* and go on */
        }
        return CLI_RELAY_CONTINUE;
    }
    if (u.kind == SC_RELAY_U_AUTH_CHALLENGE) {
        r->auth_due = 1;
        rc = answer_auth(r);
        if (rc != CLI_OK) {
            return rc;
        }
    }
    if (u.kind == SC_RELAY_U_AUTHENTICATED || u.kind == SC_RELAY_U_AUTH_REFUSED) {
        r->auth_waiting = 0;
    }
    rc = fn(user, r, &m, &u);
    if (rc == CLI_RELAY_CONTINUE && cli_relay_flush(r) != CLI_OK) {
        return CLI_ERROR;
    }
    return rc;
}

/* Counts and notes the messages the socket dropped over their type's limit. */
static void note_dropped(cli_relay *r)
{
    unsigned long n = cli_ws_dropped(r->ws);

    if (n > r->oversize) {
        r->bad += n - r->oversize;
        if (cli_relay_may_note(r)) {
            cli_fail(CLI_OK,
                     "ignored %lu message%s from the relay over the size limit of %s type "
                     "(NEG-MSG %u MiB, EVENT 1 MiB, others %u KiB)",
                     n - r->oversize, n - r->oversize == 1 ? "" : "s",
                     n - r->oversize == 1 ? "its" : "their", MAX_NEG_MSG >> 20,
                     MAX_OTHER_MSG >> 10);
        }
        r->oversize = n;
    }
}

/* The command's wake time came: its handler is called (m NULL, u NONE). */
static int wake(cli_relay *r, cli_relay_handler fn, void *user)
{
    sc_relay_update none;
    int k;

    if (!r->open || r->wake_ms == 0 || cli_ws_now_ms() < r->wake_ms) {
        return CLI_RELAY_CONTINUE;
    }
    memset(&none, 0, sizeof none);
    r->wake_ms = 0;
    k = fn(user, r, NULL, &none);
    if (k == CLI_RELAY_CONTINUE && cli_relay_flush(r) != CLI_OK) {
        return CLI_ERROR;
    }
    return k;
}

static void dropped(cli_relay *r, int64_t now)
{
    int64_t at = 0, wall;

    r->drops++;
    if (r->open && cli_relay_may_note(r)) {
        cli_fail(CLI_OK, "%s: connection lost (%s): reconnecting", r->url, cli_ws_error(r->ws));
    }
    r->open = 0;
    r->auth_due = 0; /* the session forgets the challenge: the next connection brings one */
    r->auth_seq = 0;
    r->auth_waiting = 0;
    /* the session counts in wall-clock time; the retry waits on the monotonic one */
    wall = cli_ws_wall_ms();
    r->retry_at_ms =
        sc_relay_session_disconnected(&r->s, wall, &at) == SC_OK ? now + (at - wall) : now + 1000;
    cli_ws_close(r->ws);
}

int cli_relay_run(cli_relay *r, cli_relay_handler fn, void *user)
{
    for (;;) {
        int64_t now = cli_ws_now_ms();
        int state = cli_ws_state(r->ws), k;

        if (now >= r->deadline_ms) {
            return cli_fail(CLI_ERROR, "%s: timed out%s%s", r->url, r->open ? "" : ": ",
                            r->open ? "" : cli_ws_error(r->ws));
        }
        if (state == CLI_WS_CLOSED && !r->open) {
            if (r->ever_open && !r->reconnect) {
                return cli_fail(CLI_ERROR, "%s: %s", r->url, cli_ws_error(r->ws));
            }
            if (now < r->retry_at_ms) {
                struct timespec ts = {0, 20 * 1000000L};

                nanosleep(&ts, NULL);
                continue;
            }
            if (cli_ws_connect(r->ws, r->url, r->ca_file) != 0) {
                return cli_fail(CLI_ERROR, "%s: %s", r->url, cli_ws_error(r->ws));
            }
        }
        cli_ws_service(r->ws, 50);
        state = cli_ws_state(r->ws);
        now = cli_ws_now_ms();
        if (state == CLI_WS_OPEN && !r->open) {
            if (sc_relay_session_connected(&r->s, cli_ws_wall_ms()) != SC_OK) {
                return cli_fail(CLI_ERROR, "relay session in the wrong state");
            }
            r->open = 1;
            r->ever_open = 1;
            k = fn(user, r, NULL, NULL); /* "connected": the command may queue more */
            if (k != CLI_RELAY_CONTINUE) {
                return k == CLI_RELAY_DONE ? CLI_OK : k;
            }
            if (cli_relay_flush(r) != CLI_OK) {
                return CLI_ERROR;
            }
        }
        note_dropped(r);
        if (r->open && (answer_auth(r) != CLI_OK || cli_relay_flush(r) != CLI_OK)) {
            return CLI_ERROR;
        }
        /* the deadline between messages too: a burst of them is work without end */
        while (cli_ws_now_ms() < r->deadline_ms && cli_ws_take(r->ws, &r->in) == 1) {
            int rc = r->open ? receive(r, fn, user) : CLI_RELAY_CONTINUE;

            if (rc != CLI_RELAY_CONTINUE) {
                return rc == CLI_RELAY_DONE ? CLI_OK : rc;
            }
        }
        if ((k = wake(r, fn, user)) != CLI_RELAY_CONTINUE) {
            return k == CLI_RELAY_DONE ? CLI_OK : k;
        }
        if (state == CLI_WS_CLOSED) {
            if (!r->reconnect || cli_ws_permanent(r->ws)) {
                return cli_fail(CLI_ERROR, "%s: %s", r->url, cli_ws_error(r->ws));
            }
            dropped(r, now);
        }
    }
}

int cli_relay_may_note(cli_relay *r)
{
    int64_t now = cli_ws_now_ms();

    if (r->notes >= CLI_RELAY_NOTES && now - r->note_at_ms < CLI_RELAY_NOTE_MS) {
        r->hidden++;
        return 0;
    }
    if (r->hidden > 0) {
        cli_fail(CLI_OK, "%s: %lu more notes about the relay not shown", r->url, r->hidden);
        r->hidden = 0;
    }
    r->notes++;
    r->note_at_ms = now;
    return 1;
}

void cli_relay_close(cli_relay *r)
{
    if (r->hidden > 0) {
        cli_fail(CLI_OK,
                 "%s: %lu more notes about the relay not shown (%lu messages ignored in "
                 "all)",
                 r->url, r->hidden, r->bad);
    }
    if (r->ws != NULL) {
        cli_ws_free(r->ws);
    }
    sc_relay_session_clear(&r->s);
    free(r->mem);
    cli_buf_free(&r->in);
    cli_buf_free(&r->arena);
    cli_buf_free(&r->out);
    cli_buf_free(&r->loose);
    memset(r, 0, sizeof *r);
}

/* ---- the id set ---------------------------------------------------------------------------- */

static size_t slot_of(const uint8_t id[32], size_t cap)
{
    uint64_t h;

    memcpy(&h, id, sizeof h); /* ids are hashes: their bytes are uniform */
    return (size_t)(h & (cap - 1));
}

int cli_idset_has(const cli_idset *s, const uint8_t id[32])
{
    size_t i;

    if (s->cap == 0) {
        return 0;
    }
    for (i = slot_of(id, s->cap); s->used[i]; i = (i + 1) & (s->cap - 1)) {
        if (memcmp(s->slot[i], id, 32) == 0) {
            return 1;
        }
    }
    return 0;
}

int cli_idset_add(cli_idset *s, const uint8_t id[32])
{
    size_t i;

    if (cli_idset_has(s, id)) {
        return 0;
    }
    if (2 * (s->n + 1) > s->cap) {
        cli_idset bigger;
        size_t k;

        bigger.cap = s->cap == 0 ? 1024 : 2 * s->cap;
        bigger.n = 0;
        bigger.slot = calloc(bigger.cap, 32);
        bigger.used = calloc(bigger.cap, 1);
        if (bigger.slot == NULL || bigger.used == NULL) {
            free(bigger.slot);
            free(bigger.used);
            return -1;
        }
        for (k = 0; k < s->cap; k++) {
            if (s->used[k]) {
                (void)cli_idset_add(&bigger, s->slot[k]);
            }
        }
        cli_idset_free(s);
        *s = bigger;
    }
    for (i = slot_of(id, s->cap); s->used[i]; i = (i + 1) & (s->cap - 1)) {
    }
    memcpy(s->slot[i], id, 32);
    s->used[i] = 1;
    s->n++;
    return 1;
}

void cli_idset_free(cli_idset *s)
{
    free(s->slot);
    free(s->used);
    memset(s, 0, sizeof *s);
}
