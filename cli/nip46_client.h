/* The client side of NIP-46 for the CLI (cli/nip46_client.c): a remote signer named by a
 * bunker:// URI, reached over its relays through one relay pool (cli/pool_client.c), with a
 * fresh client key or the one of a file (--signer-key: the key softchat signer connect paired
 * with the signer). Each request is sealed with sc_nip46_request_build, published, and its
 * response opened with sc_nip46_response_open, within a deadline. */
#ifndef SOFTCHAT_CLI_NIP46_CLIENT_H
#define SOFTCHAT_CLI_NIP46_CLIENT_H

#include "pool_client.h"

typedef struct cli_nip46_sent cli_nip46_sent;

typedef struct cli_nip46 {
    sc_ctx *ctx;
    sc_identity client;
    uint8_t bunker[SC_PUBKEY_BYTES], user[SC_PUBKEY_BYTES];
    cli_pool cp;
    int pool_open;
    uint32_t relays[SC_NIP46_URI_MAX_RELAYS];
    size_t n_relays;
    int timeout_s;
    char id[SC_NIP46_ID_CHARS];
    cli_buf scratch, result;
    sc_status outcome; /* the call's: SC_OK, SC_ERR_SIGNER_REFUSED (result: the error) */
    int answered;
    cli_nip46_sent *sent; /* requests published (kept until close) */
    sc_signer signer;     /* external, over user, once open */
    /* the subscription's filter, kept by reference by the pool */
    char client_hex[2 * SC_PUBKEY_BYTES + 1];
    uint32_t kinds[1];
    sc_str p_value;
    sc_relay_tag_filter tag;
    sc_relay_filter filter;
} cli_nip46;

/* Sets up n before any request: the client key (the key file client_key_file, or a fresh key
 * when NULL), a pool over relays[0..n_relays) and the subscription to kind 24133 events
 * p-tagged to the client key, from n->bunker, or from any author when any_author (the
 * nostrconnect:// flow: the signer's key is not known yet). CLI_OK or an exit status (said). */
int cli_nip46_start(cli_nip46 *n, sc_ctx *ctx, const char *client_key_file, const sc_str *relays,
                    size_t n_relays, const char *ca_file, int timeout_s, int any_author);

/* Parses the URI, connects to the bunker's relays, sends connect (with the URI's secret)
 * and get_public_key, and sets up n->signer over the user's key. client_key_file: the client
 * key's file (NULL: a fresh key); with it and a URI without a secret, a refused connect is
 * said and get_public_key decides (a signer that paired with that key serves it without a
 * new connect). CLI_OK or an exit status (said). */
int cli_nip46_open(cli_nip46 *n, sc_ctx *ctx, const char *uri, const char *client_key_file,
                   const char *ca_file, int timeout_s);

/* get_public_key: n->user. CLI_OK or an exit status (said). */
int cli_nip46_get_user(cli_nip46 *n);

/* One call: CLI_OK with n->outcome SC_OK (n->result: the result) or SC_ERR_SIGNER_REFUSED
 * (n->result: the error text); or an exit status (a timeout, a failure; said). */
int cli_nip46_call(cli_nip46 *n, const sc_nip46_call *call);

/* Drives op over n->signer to its end (cli_ext_signer's drive): the operation's status. */
sc_status cli_nip46_drive(void *n, sc_signer_op *op);

void cli_nip46_close(cli_nip46 *n);

/* cli_nip46_open of a new client in *out (client_key_file as there), and ext over it (its
 * signer, cli_nip46_drive); the user's key in user. CLI_OK or an exit status (said); *out is set even then (NULL: out of
 * memory) and freed by cli_nip46_free. */
int cli_nip46_new(cli_nip46 **out, cli_ext_signer *ext, uint8_t user[SC_PUBKEY_BYTES], sc_ctx *ctx,
                  const char *uri, const char *client_key_file, const char *ca_file, int timeout_s);

/* cli_nip46_close, then the client freed (NULL: nothing). */
void cli_nip46_free(cli_nip46 *n);

#endif
