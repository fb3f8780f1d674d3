/* Events for the relay commands: JSON Lines read into a list (publish's stdin, sync's --have
 * file), and events printed one per line as they arrive (fetch, sync). */
#include "relay_cmd.h"

#include <stdlib.h>
#include <string.h>

#define INPUT_MAX (256u << 20)

void cli_events_free(cli_event_list *l)
{
    size_t i;

    for (i = 0; i < l->n; i++) {
        cli_buf_free(&l->arena[i]);
    }
    free(l->ev);
    free(l->arena);
    memset(l, 0, sizeof *l);
}

/* Room for one more event. CLI_OK or CLI_ERROR (said). */
static int events_grow(cli_event_list *l)
{
    size_t cap = l->cap == 0 ? 64 : 2 * l->cap;
    sc_event *ev;
    cli_buf *ar;

    if (l->n < l->cap) {
        return CLI_OK;
    }
    ev = realloc(l->ev, cap * sizeof *ev);
    if (ev == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    l->ev = ev;
    ar = realloc(l->arena, cap * sizeof *ar);
    if (ar == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    l->arena = ar;
    l->cap = cap;
    return CLI_OK;
}

/* Appends the event in json[0..len), line `line` of `what`. */
static int events_add(sc_ctx *ctx, cli_event_list *l, const char *json, size_t len,
                      const char *what, size_t line, int verify)
{
    size_t need = sc_event_parse_arena_max(len), used = 0;
    cli_buf *arena;
    sc_status st;

    if (events_grow(l) != CLI_OK) {
        return CLI_ERROR;
    }
    arena = &l->arena[l->n];
    memset(arena, 0, sizeof *arena);
    if (cli_buf_reserve(arena, need > 0 ? need : 1) != CLI_OK) {
        return CLI_ERROR;
    }
    l->n++;
    st = sc_event_parse(&l->ev[l->n - 1], arena->p, arena->cap, &used, json, len, NULL);
    if (st == SC_OK && verify) {
        st = sc_event_verify(ctx, &l->ev[l->n - 1]);
    }
    return st == SC_OK ? CLI_OK : cli_fail_status(st, "%s line %zu", what, line);
}

int cli_events_read(sc_ctx *ctx, cli_event_list *l, int fd, const char *what, int verify)
{
    cli_buf in = CLI_BUF_INIT;
    size_t at = 0, line = 0;
    int rc = cli_read_all(fd, &in, INPUT_MAX, what);

    if (rc != CLI_OK) {
        return rc;
    }
    if (in.len > INPUT_MAX) {
        cli_buf_free(&in);
        return cli_fail(CLI_INVALID, "%s: over %u bytes", what, INPUT_MAX);
    }
    while (rc == CLI_OK && at < in.len) {
        size_t end = at;

        while (end < in.len && in.p[end] != '\n') {
            end++;
        }
        line++;
        while (at < end && (in.p[at] == ' ' || in.p[at] == '\t' || in.p[at] == '\r')) {
            at++;
        }
        if (at < end) {
            rc = events_add(ctx, l, (const char *)in.p + at, end - at, what, line, verify);
        }
        at = end + 1;
    }
    cli_buf_free(&in);
    return rc;
}

int cli_print_event(cli_buf *out, const sc_event *ev)
{
    if (cli_buf_event_line(out, ev, "the event") != CLI_OK) {
        return CLI_ERROR;
    }
    return cli_buf_flush_stdout(out);
}
