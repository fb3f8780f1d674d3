/* The user's key for a command that signs or decrypts for the user (cli/user_key.c): the key
 * file of --sec-file (a local identity), or a NIP-46 remote signer named by --signer
 * (cli/nip46_client.h). Either way the command sees one cli_ext_signer and runs one code
 * path: the library's operations (signer.h), which a local identity completes at once. */
#ifndef SOFTCHAT_CLI_USER_KEY_H
#define SOFTCHAT_CLI_USER_KEY_H

#include "nip46_client.h"

/* --timeout's default for a remote signer's answers, in seconds. */
#define CLI_USER_TIMEOUT_S 30

/* The options that name the user's key, as given. */
typedef struct cli_user_args {
    const char *sec_file, *signer, *ca_file, *timeout;
    const char *signer_key; /* --signer-key: the client key's file (NULL: a fresh key) */
    int timeout_s;          /* checked --timeout (default CLI_USER_TIMEOUT_S) */
} cli_user_args;

/* Writes the five options' entries (--sec-file, --signer, --ca-file, --timeout,
 * --signer-key) into opts[0..5), for a command's option table; returns 5. */
#define CLI_USER_N_OPTS 5u
size_t cli_user_opts(cli_opt *opts, cli_user_args *a);

/* Checks which key the options name: not both --sec-file and --signer ("<what> takes
 * --sec-file FILE or --signer URI, not both"), one of them when required ("<what> needs
 * ..."), --signer-key only with --signer. CLI_OK, or CLI_ERROR (usage error said, with
 * usage). */
int cli_user_check_key(const cli_user_args *a, const char *usage, const char *what, int required);

/* Checks the options once parsed: cli_user_check_key with a key required, --ca-file and
 * --timeout only with --signer, --timeout 1 to 86400 seconds. CLI_OK, or CLI_ERROR (usage
 * error said, with usage). */
int cli_user_check(cli_user_args *a, const char *usage, const char *what);

/* The user's key, open. */
typedef struct cli_user {
    sc_ctx *ctx;
    sc_identity id;     /* --sec-file */
    sc_signer local;    /* over id */
    cli_nip46 *remote;  /* --signer */
    cli_ext_signer ext; /* the signer either way */
    uint8_t pub[SC_PUBKEY_BYTES];
} cli_user;

/* Opens the user's key of a (checked): loads the key file, or reaches the remote signer
 * (connect, get_public_key). CLI_OK or an exit status (said); u is closed either way by
 * cli_user_close. */
int cli_user_open(cli_user *u, sc_ctx *ctx, const cli_user_args *a);

/* The local identity (--sec-file), or NULL for a remote signer. */
const sc_identity *cli_user_identity(const cli_user *u);

/* Wipes the key (a local identity) and closes the remote signer's connections. */
void cli_user_close(cli_user *u);

#endif
