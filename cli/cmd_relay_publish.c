/* softchat relay publish: the signed events of stdin (each verified before anything is sent)
 * published through the session, one answer line per event in input order as the relay
 * answers. */
#include "relay_cmd.h"

#include <stdlib.h>
#include <string.h>

typedef struct pub_state {
    cli_event_list events;
    int *answered;  /* 0 waiting, 1 accepted, 2 refused */
    char **message; /* the relay's text per event (heap) */
    size_t next_print, refused;
} pub_state;

/* Records the relay's answer m to the events with its id (an id given twice is answered for
 * each); a refusal is said on stderr at once. */
static int record_answer(pub_state *p, const sc_relay_msg *m, const sc_relay_update *u)
{
    size_t i;

    for (i = 0; i < p->events.n; i++) {
        if (p->answered[i] != 0 || memcmp(p->events.ev[i].id, u->event_id, 32) != 0) {
            continue;
        }
        p->answered[i] = u->kind == SC_RELAY_U_ACCEPTED ? 1 : 2;
        p->message[i] = malloc(m->message.len + 1);
        if (p->message[i] == NULL) {
            return cli_fail(CLI_ERROR, "out of memory");
        }
        memcpy(p->message[i], m->message.ptr, m->message.len);
        p->message[i][m->message.len] = '\0';
        if (p->answered[i] == 2) {
            char hex[SC_EVENT_ID_HEX_LEN + 1];

            cli_hex_str(hex, u->event_id, 32);
            p->refused++;
            cli_fail(CLI_OK, "the relay refused event %s: %s", hex, p->message[i]);
        }
    }
    return CLI_OK;
}

/* Prints the answer lines that are due: in input order, up to the first event unanswered. */
static int print_answers(pub_state *p)
{
    cli_buf out = CLI_BUF_INIT;
    int rc = CLI_OK;

    while (rc == CLI_OK && p->next_print < p->events.n && p->answered[p->next_print] != 0) {
        size_t k = p->next_print++;

        if (cli_buf_adds(&out, "{\"id\":") != CLI_OK ||
            cli_buf_json_hex(&out, p->events.ev[k].id, 32) != CLI_OK ||
            cli_buf_adds(&out, p->answered[k] == 1
                                   ? ",\"accepted\":true,\"message\":"
                                   : ",\"accepted\":false,\"message\":") != CLI_OK ||
            cli_buf_json_str(&out, p->message[k], strlen(p->message[k])) != CLI_OK ||
            cli_buf_adds(&out, "}\n") != CLI_OK || cli_buf_flush_stdout(&out) != CLI_OK) {
            rc = CLI_ERROR;
        }
    }
    cli_buf_free(&out);
    return rc;
}

/* An OK that names no event (r->unnamed: its id was empty or no event id). A relay answers
 * the EVENTs of a connection in the order it got them, so a refusal is taken as the answer
 * to the oldest event still unanswered, and said so; an acceptance is only noted (counting
 * an event as stored on a guess would be a lie if the guess were wrong), and so is any such
 * OK while an AUTH awaits its answer, which it may be. */
static int unnamed_answer(pub_state *p, cli_relay *r, const sc_relay_msg *m,
                          const sc_relay_update *u)
{
    sc_relay_update as = *u;
    size_t k = p->next_print;

    while (k < p->events.n && p->answered[k] != 0) {
        k++;
    }
    if (m->accepted || r->auth_waiting || k == p->events.n) {
        if (cli_relay_may_note(r)) {
            cli_fail(CLI_OK, "the relay sent an OK naming no event (%s, \"%.*s\"): not counted",
                     m->accepted ? "accepted" : "refused", (int)m->message.len, m->message.ptr);
        }
        return CLI_OK;
    }
    cli_fail(CLI_OK, "the relay's OK names no event: taken as its answer to the oldest event "
                     "unanswered");
    memcpy(as.event_id, p->events.ev[k].id, 32);
    return record_answer(p, m, &as);
}

static int pub_handler(void *user, cli_relay *r, const sc_relay_msg *m, const sc_relay_update *u)
{
    pub_state *p = user;

    if (m != NULL && u->kind == SC_RELAY_U_AUTH_REQUIRED && r->who == NULL) {
        return cli_fail(CLI_INVALID,
                        "the relay requires AUTH (NIP-42): %.*s; give --sec-file or --signer",
                        (int)m->message.len, m->message.ptr);
    }
    if (m != NULL && u->kind == SC_RELAY_U_AUTH_REFUSED) {
        return cli_fail(CLI_INVALID, "the relay refused the AUTH: %.*s", (int)m->message.len,
                        m->message.ptr);
    }
    if (m == NULL || (u->kind != SC_RELAY_U_ACCEPTED && u->kind != SC_RELAY_U_REJECTED)) {
        return CLI_RELAY_CONTINUE;
    }
    if ((r->unnamed ? unnamed_answer(p, r, m, u) : record_answer(p, m, u)) != CLI_OK ||
        print_answers(p) != CLI_OK) {
        return CLI_ERROR;
    }
    return p->next_print == p->events.n ? CLI_RELAY_DONE : CLI_RELAY_CONTINUE;
}

/* Queues every event and runs the connection until each is answered. */
static int publish_all(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who,
                       pub_state *p)
{
    cli_relay r;
    size_t i;
    int rc = cli_relay_open(&r, ctx, a->url, who, 0, p->events.n, 0, a->timeout);

    r.reconnect = 1;
    r.ca_file = a->ca_file;
    for (i = 0; rc == CLI_OK && i < p->events.n; i++) {
        sc_status st = sc_relay_session_publish(&r.s, &p->events.ev[i]);

        if (st != SC_OK) {
            rc = cli_fail_status(st, "cannot queue an event");
        }
    }
    if (rc == CLI_OK) {
        rc = cli_relay_run(&r, pub_handler, p);
        if (rc == CLI_OK && p->refused > 0) {
            rc = CLI_INVALID;
        }
    }
    cli_relay_close(&r);
    return rc;
}

int cmd_relay_publish(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who)
{
    pub_state p;
    size_t i;
    int rc;

    memset(&p, 0, sizeof p);
    rc = cli_events_read(ctx, &p.events, 0, "stdin", 1);
    if (rc == CLI_OK && p.events.n == 0) {
        /* most likely a producer upstream in a pipeline failed: not a successful publish */
        rc = cli_fail(CLI_INVALID, "no event on stdin: nothing published");
    }
    if (rc == CLI_OK) {
        p.answered = calloc(p.events.n, sizeof *p.answered);
        p.message = calloc(p.events.n, sizeof *p.message);
        rc = p.answered != NULL && p.message != NULL ? publish_all(ctx, a, who, &p)
                                                     : cli_fail(CLI_ERROR, "out of memory");
    }
    for (i = 0; p.message != NULL && i < p.events.n; i++) {
        free(p.message[i]);
    }
    free(p.message);
    free(p.answered);
    cli_events_free(&p.events);
    return rc;
}
