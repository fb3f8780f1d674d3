/* The relay group's commands: the group (cmd_relay.c: usage, options, dispatch), one file per
 * command (cmd_relay_publish.c, cmd_relay_fetch.c, cmd_relay_sync.c), and what they share
 * (relay_events.c: events read from JSON Lines, events printed as lines). */
#ifndef SOFTCHAT_CLI_RELAY_CMD_H
#define SOFTCHAT_CLI_RELAY_CMD_H

#include "relay_client.h"
#include "user_key.h"

#define CLI_RELAY_MAX_FILTERS 16u

/* The relay group's options, checked by cmd_relay for the subcommand given. */
typedef struct cli_relay_args {
    const char *url;     /* --url, a ws:// or wss:// URL */
    cli_user_args key;   /* --sec-file, --signer, --signer-key: none, or the user's key */
    const char *ca_file; /* --ca-file, or NULL */
    int timeout;         /* --timeout in seconds (default 30) */
    const char *filters[CLI_RELAY_MAX_FILTERS]; /* fetch: --filter JSON, n_filters of them */
    size_t n_filters;
    int follow;          /* fetch: --follow */
    unsigned long count; /* fetch: --count (0: none) */
    unsigned long slack; /* fetch: --slack seconds */
    const char *have;    /* sync: --have FILE, or NULL */
    unsigned long frame; /* sync: --frame-limit (0: none) */
    const char *usage;   /* the group's usage text, for usage errors */
} cli_relay_args;

/* The commands, on a context and, for AUTH (and sync's key), the user's signer (NULL: no
 * key given): exit statuses. */
int cmd_relay_publish(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who);
int cmd_relay_fetch(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who);
int cmd_relay_sync(sc_ctx *ctx, const cli_relay_args *a, const cli_ext_signer *who);

/* A listing by REQ (cli/relay_list.c): every event of a filter, in pages going back by until
 * (the oldest event of the page before, inclusive), each event once, until a page brings
 * nothing new. Zero it before use. */
typedef struct cli_relay_list {
    sc_relay_filter base, page;
    char sub_id[32];
    size_t pages, page_new;
    int64_t page_min;
    cli_idset seen;
} cli_relay_list;

/* Subscribes to the first page of base (kept by reference, as the session keeps filters):
 * CLI_RELAY_CONTINUE, or an exit status (said). */
int cli_relay_list_start(cli_relay_list *l, cli_relay *r, const sc_relay_filter *base);

/* An event of the listing's subscription: 1 when listed for the first time, 0 when seen
 * before, CLI_ERROR out of memory (said). */
int cli_relay_list_event(cli_relay_list *l, const sc_event *ev);

/* The current page's EOSE: CLI_RELAY_CONTINUE (the next page is asked for), CLI_RELAY_DONE
 * (the page brought nothing new: the listing is complete), or an exit status (said). */
int cli_relay_list_eose(cli_relay_list *l, cli_relay *r);

void cli_relay_list_free(cli_relay_list *l);

/* Events read from JSON Lines: ev[i]'s views point into arena[i] (wiped when freed). */
typedef struct cli_event_list {
    sc_event *ev;
    cli_buf *arena;
    size_t n, cap;
} cli_event_list;

/* Parses fd (JSON Lines of signed events, blank lines skipped, at most 256 MiB) into l; with
 * verify, each event's id and signature are checked too. `what` names the input in
 * messages ("stdin line 3: ..."). Returns CLI_OK, CLI_INVALID or CLI_ERROR (said). */
int cli_events_read(sc_ctx *ctx, cli_event_list *l, int fd, const char *what, int verify);

void cli_events_free(cli_event_list *l);

/* Writes ev to stdout as one line of JSON through out (emptied). CLI_OK or CLI_ERROR. */
int cli_print_event(cli_buf *out, const sc_event *ev);

#endif
