/* The dm group (NIP-17 direct messages over relays): the group (cmd_dm.c: usage, dispatch,
 * inbox set / get), one file per command (cmd_dm_send.c, cmd_dm_listen.c), and what they
 * share: relay lists from the command line and inbox discovery (dm_common.c), the listener's
 * state store (dm_state.c over SQLite, or dm_state_none.c in a build without it). */
#ifndef SOFTCHAT_CLI_DM_H
#define SOFTCHAT_CLI_DM_H

#include "pool_client.h"

/* The dm commands' own exit statuses, beyond 0 / 1 / 2 (cli.h). */
#define CLI_DM_NO_INBOX 3    /* a user has no kind 10050 inbox list */
#define CLI_DM_UNDELIVERED 4 /* a receiver (or, for inbox set, a relay) did not accept */

#define CLI_DM_MAX_RELAYS 16u
#define CLI_DM_MAX_TO 32u

extern const char cli_dm_usage[];

/* Relay URLs from the command line (each option value may list several, comma-separated). */
typedef struct cli_dm_urls {
    char *url[CLI_DM_MAX_RELAYS]; /* heap copies */
    size_t n;
} cli_dm_urls;

/* Adds the URLs of arg (checked: ws:// or wss://; duplicates skipped). CLI_OK, or CLI_ERROR
 * (usage error said, naming opt). */
int cli_dm_urls_add(cli_dm_urls *l, const char *arg, const char *opt);
void cli_dm_urls_free(cli_dm_urls *l);

/* The common options of the dm commands, as given. */
typedef struct cli_dm_args {
    const char *key_file, *ca_file, *timeout, *state, *file, *to, *subject, *signer;
    const char *signer_key; /* --signer-key: the NIP-46 client key's file (with --signer) */
    const char *relay[CLI_DM_MAX_RELAYS];
    size_t n_relay;
    const char *to_relays[CLI_DM_MAX_RELAYS];
    size_t n_to_relays;
    const char *bootstrap[CLI_DM_MAX_RELAYS];
    size_t n_bootstrap;
    int json, allow_no_inbox;
    const char *pos[2];
    size_t n_pos;
    int timeout_s; /* checked --timeout (default 30) */
} cli_dm_args;

/* Parses argv (past "dm <command>") into a. CLI_OK, CLI_HELP or CLI_ERROR (said). */
int cli_dm_parse(cli_dm_args *a, int argc, char **argv);

/* A directory of users' relay lists (delivery.h), fetched from bootstrap relays. */
typedef struct cli_dm_dir {
    sc_inboxes b;
    void *mem;
} cli_dm_dir;

/* Fetches the kind 10050 and 10002 lists of users[0..n) from the relays of boot (until every
 * relay sent EOSE, failed, or 8 s passed since it connected) into dir. CLI_OK; CLI_ERROR
 * (no relay could be reached, or the timeout; said). */
int cli_dm_discover(sc_ctx *ctx, const cli_dm_urls *boot, const char *ca_file, int timeout_s,
                    const uint8_t (*users)[SC_PUBKEY_BYTES], size_t n, cli_dm_dir *dir);
void cli_dm_dir_free(cli_dm_dir *dir);

/* Appends the JSON string of the npub of pub. */
int cli_dm_json_npub(cli_buf *b, const uint8_t pub[SC_PUBKEY_BYTES]);

/* The listener's state store: wrap ids already handled and the subscription's cursor
 * (sc_pool_cursor_save bytes), for one key. */
typedef struct cli_dm_state cli_dm_state;

/* Opens (creating) the store at path for the key me: a store of another key is refused.
 * NULL on failure (said; *rc the exit status). */
cli_dm_state *cli_dm_state_open(const char *path, const uint8_t me[SC_PUBKEY_BYTES], int *rc);

/* The saved cursor into out (emptied; len 0 when none). CLI_OK or CLI_ERROR (said). */
int cli_dm_state_cursor(cli_dm_state *s, cli_buf *out);

/* 1 when the wrap id was handled, 0 when not, -1 on a storage error (said). */
int cli_dm_state_seen(cli_dm_state *s, const uint8_t id[SC_EVENT_ID_BYTES]);

/* Records id as handled and the cursor bytes, in one transaction. CLI_OK or CLI_ERROR. */
int cli_dm_state_commit(cli_dm_state *s, const uint8_t id[SC_EVENT_ID_BYTES], const uint8_t *cursor,
                        size_t cursor_len);

void cli_dm_state_close(cli_dm_state *s);

/* The pool options of the dm commands: 3 attempts per relay, retries from 0.5 s to 4 s,
 * reconnects from 0.25 s to 4 s. */
void cli_dm_pool_opts(sc_pool_opts *o);

/* Appends one publish result as a JSON line: {["<who_field>":HEX,]"relay":URL,"result":
 * "accepted"|"refused"|"failed","message":STR}. */
int cli_dm_publish_line(cli_buf *b, const char *who_field, const uint8_t *who,
                        const sc_pool_update *u);

/* The commands. */
int cmd_dm_inbox_set(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me);
int cmd_dm_inbox_get(sc_ctx *ctx, const cli_dm_args *a);
int cmd_dm_send(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me);
int cmd_dm_listen(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me);

#endif
