/* softchat bunker: a NIP-46 remote signer for the user's key over relays (cmd_bunker.c: the
 * command, its options and its relay loop; bunker_serve.c: one request answered). */
#ifndef SOFTCHAT_CLI_BUNKER_H
#define SOFTCHAT_CLI_BUNKER_H

#include "pool_client.h"

#define CLI_BUNKER_MAX_GRANTS 32u
#define CLI_BUNKER_SEEN 4096u   /* answered request ids remembered (a ring) */
#define CLI_BUNKER_CLIENTS 256u /* connected client keys remembered (a ring) */

/* A response in flight: its JSON and parsed event live until the pool's PUBLISH_DONE. */
typedef struct cli_bunker_reply {
    struct cli_bunker_reply *next, *prev;
    sc_event ev;
    char *json;
    void *arena;
} cli_bunker_reply;

typedef struct cli_bunker {
    sc_ctx *ctx;
    const sc_identity *user, *bunker;
    sc_nip46_policy policy;
    uint32_t relays[16];
    size_t n_relays;
    uint8_t (*seen)[SC_EVENT_ID_BYTES]; /* CLI_BUNKER_SEEN ids, a ring */
    size_t n_seen, seen_next;
    uint8_t (*clients)[SC_PUBKEY_BYTES]; /* CLI_BUNKER_CLIENTS keys that connected, a ring */
    size_t n_clients, clients_next;
    int64_t since;             /* requests created before this are not answered */
    cli_bunker_reply *replies; /* in flight */
    cli_buf scratch, result;
} cli_bunker;

/* Answers one kind 24133 event from the subscription: opens it, runs it under the policy
 * (a client that connected with the secret is remembered: only those get more than connect),
 * publishes the response, logs one line on stderr. A request created before b->since is
 * skipped, whatever the relay sent. Returns CLI_POOL_CONTINUE or an exit
 * status (an internal failure). */
int cli_bunker_serve(cli_bunker *b, cli_pool *cp, const sc_pool_update *u);

/* Remembers client as connected (the oldest forgotten when the ring is full). */
void cli_bunker_add_client(cli_bunker *b, const uint8_t client[SC_PUBKEY_BYTES]);

/* The nostrconnect:// flow, the bunker's half: the client of u (which the user handed to the
 * bunker) is connected, and a response carrying u's secret goes to it over the bunker's
 * relays, so that the client learns the bunker key. Returns CLI_OK or an exit status. */
int cli_bunker_nostrconnect(cli_bunker *b, cli_pool *cp, const sc_nip46_uri *u);

/* Frees a reply (wiping its text). */
void cli_bunker_reply_free(cli_bunker *b, cli_bunker_reply *r);

#endif
