/* The user's key behind one signer (user_key.h). */
#include "user_key.h"

#include <stdlib.h>
#include <string.h>

size_t cli_user_opts(cli_opt *opts, cli_user_args *a)
{
    const cli_opt o[CLI_USER_N_OPTS] = {
        {"--sec-file", &a->sec_file, NULL, NULL, 0, NULL},
        {"--signer", &a->signer, NULL, NULL, 0, NULL},
        {"--ca-file", &a->ca_file, NULL, NULL, 0, NULL},
        {"--timeout", &a->timeout, NULL, NULL, 0, NULL},
        {"--signer-key", &a->signer_key, NULL, NULL, 0, NULL},
    };

    memcpy(opts, o, sizeof o);
    return CLI_USER_N_OPTS;
}

int cli_user_check_key(const cli_user_args *a, const char *usage, const char *what, int required)
{
    if (a->sec_file != NULL && a->signer != NULL) {
        return cli_usage_error(usage, "%s takes --sec-file FILE or --signer URI, not both", what);
    }
    if (required && a->sec_file == NULL && a->signer == NULL) {
        return cli_usage_error(usage, "%s needs --sec-file FILE or --signer URI", what);
    }
    if (a->signer == NULL && a->signer_key != NULL) {
        return cli_usage_error(usage, "--signer-key goes with --signer");
    }
    return CLI_OK;
}

int cli_user_check(cli_user_args *a, const char *usage, const char *what)
{
    if (cli_user_check_key(a, usage, what, 1) != CLI_OK) {
        return CLI_ERROR;
    }
    if (a->signer == NULL && (a->ca_file != NULL || a->timeout != NULL)) {
        return cli_usage_error(usage, "--ca-file and --timeout go with --signer");
    }
    return cli_timeout_arg(usage, a->timeout, CLI_USER_TIMEOUT_S, &a->timeout_s);
}

/* A local identity's operation: the first step completes it. */
static sc_status local_drive(void *user, sc_signer_op *op)
{
    sc_signer_req req;
    sc_status st = sc_signer_op_step(op, ((cli_user *)user)->ctx, 0, &req);

    return st == SC_OK && req.kind != SC_SIGNER_REQ_NONE ? SC_ERR_INTERNAL : st;
}

int cli_user_open(cli_user *u, sc_ctx *ctx, const cli_user_args *a)
{
    sc_status st;
    int rc;

    memset(u, 0, sizeof *u);
    u->ctx = ctx;
    if (a->signer != NULL) {
        return cli_nip46_new(&u->remote, &u->ext, u->pub, ctx, a->signer, a->signer_key, a->ca_file,
                             a->timeout_s);
    }
    rc = cli_load_identity(ctx, &u->id, a->sec_file);
    if (rc != CLI_OK) {
        return rc;
    }
    st = sc_identity_pubkey(u->pub, &u->id);
    if (st == SC_OK) {
        st = sc_signer_init_local(&u->local, &u->id);
    }
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot read the public key");
    }
    u->ext.signer = &u->local;
    u->ext.drive = local_drive;
    u->ext.user = u;
    return CLI_OK;
}

const sc_identity *cli_user_identity(const cli_user *u)
{
    return u->remote == NULL ? &u->id : NULL;
}

void cli_user_close(cli_user *u)
{
    cli_nip46_free(u->remote);
    sc_signer_clear(&u->local);
    sc_identity_clear(&u->id);
    memset(u, 0, sizeof *u);
}
