/* What the dm commands share: their options, relay lists from the command line, inbox
 * discovery through bootstrap relays (sc_inboxes over a pool), npubs in JSON. */
#include "dm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Users whose lists one discovery fetches (the receivers and the sender), and per list the
 * relays kept. */
#define DIR_MAX_RELAYS 16u
#define DIR_MAX_URL 256u

int cli_dm_urls_add(cli_dm_urls *l, const char *arg, const char *opt)
{
    const char *p = arg;

    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p), i;
        char url[DIR_MAX_URL], host[256], path[512];
        int secure, port;

        if (len == 0 || len >= sizeof url) {
            return cli_usage_error(cli_dm_usage, "%s: an empty or overlong relay URL", opt);
        }
        memcpy(url, p, len);
        url[len] = '\0';
        if (cli_ws_parse_url(url, &secure, host, sizeof host, &port, path, sizeof path) != 0) {
            return cli_usage_error(cli_dm_usage, "%s: %s is not a ws:// or wss:// URL", opt,
                                   cli_shown(url));
        }
        for (i = 0; i < l->n && strcmp(l->url[i], url) != 0; i++) {
        }
        if (i == l->n) {
            if (l->n == CLI_DM_MAX_RELAYS) {
                return cli_usage_error(cli_dm_usage, "%s: at most %u relays", opt,
                                       CLI_DM_MAX_RELAYS);
            }
            l->url[l->n] = malloc(len + 1);
            if (l->url[l->n] == NULL) {
                return cli_fail(CLI_ERROR, "out of memory");
            }
            memcpy(l->url[l->n++], url, len + 1);
        }
        if (end == NULL) {
            return CLI_OK;
        }
        p = end + 1;
    }
}

void cli_dm_urls_free(cli_dm_urls *l)
{
    size_t i;

    for (i = 0; i < l->n; i++) {
        free(l->url[i]);
    }
    memset(l, 0, sizeof *l);
}

int cli_dm_parse(cli_dm_args *a, int argc, char **argv)
{
    const cli_opt opts[] = {
        {"--key", &a->key_file, NULL, NULL, 0, NULL},
        {"--ca-file", &a->ca_file, NULL, NULL, 0, NULL},
        {"--timeout", &a->timeout, NULL, NULL, 0, NULL},
        {"--state", &a->state, NULL, NULL, 0, NULL},
        {"--file", &a->file, NULL, NULL, 0, NULL},
        {"--to", &a->to, NULL, NULL, 0, NULL},
        {"--subject", &a->subject, NULL, NULL, 0, NULL},
        {"--signer", &a->signer, NULL, NULL, 0, NULL},
        {"--signer-key", &a->signer_key, NULL, NULL, 0, NULL},
        {"--relay", NULL, NULL, a->relay, CLI_DM_MAX_RELAYS, &a->n_relay},
        {"--to-relays", NULL, NULL, a->to_relays, CLI_DM_MAX_RELAYS, &a->n_to_relays},
        {"--bootstrap", NULL, NULL, a->bootstrap, CLI_DM_MAX_RELAYS, &a->n_bootstrap},
        {"--json", NULL, &a->json, NULL, 0, NULL},
        {"--allow-no-inbox", NULL, &a->allow_no_inbox, NULL, 0, NULL},
    };
    int rc = cli_parse_args(cli_dm_usage, argc, argv, opts, sizeof opts / sizeof opts[0], a->pos, 2,
                            &a->n_pos);

    if (rc != CLI_OK) {
        return rc;
    }
    if (cli_timeout_arg(cli_dm_usage, a->timeout, 30, &a->timeout_s) != CLI_OK) {
        return CLI_ERROR;
    }
    if (a->signer_key != NULL && a->signer == NULL) {
        return cli_usage_error(cli_dm_usage, "--signer-key goes with --signer");
    }
    if (a->ca_file != NULL && access(a->ca_file, R_OK) != 0) {
        return cli_usage_error(cli_dm_usage, "--ca-file %s: cannot read it", a->ca_file);
    }
    return CLI_OK;
}

int cli_dm_json_npub(cli_buf *b, const uint8_t pub[SC_PUBKEY_BYTES])
{
    char npub[SC_NIP19_NPUB_LEN + 1];
    size_t len = 0;

    if (sc_nip19_encode_npub(npub, sizeof npub, &len, pub) != SC_OK) {
        return cli_fail(CLI_ERROR, "internal error: cannot encode an npub");
    }
    return cli_buf_json_str(b, npub, len);
}

/* ---- inbox discovery -------------------------------------------------------------------- */

typedef struct discovery {
    cli_dm_dir *dir;
    unsigned long events, refused;
} discovery;

static int on_discovery(void *user, cli_pool *cp, const sc_pool_update *u)
{
    discovery *d = (discovery *)user;

    if (u->kind == SC_POOL_U_EVENT) {
        sc_status st = sc_inboxes_add(&d->dir->b, u->event);

        d->events++;
        if (st != SC_OK) {
            d->refused++;
            cli_pool_note(cp, "%.*s: a relay list left out: %s", (int)u->url.len, u->url.ptr,
                          sc_status_str(st));
        }
    } else if (u->kind == SC_POOL_U_CLOSED) {
        cli_pool_note(cp, "%.*s: the relay closed the lookup: %.*s", (int)u->url.len, u->url.ptr,
                      (int)u->text.len, u->text.ptr);
    } else if (u->kind == SC_POOL_U_EOSE) {
        return CLI_POOL_DONE;
    }
    return CLI_POOL_CONTINUE;
}

/* One lookup round: the lists of users[0..n) on the relays of urls, into dir. *opened: how
 * many of the relays could be reached. */
static int lookup(sc_ctx *ctx, const cli_dm_urls *urls, const char *ca_file, int timeout_s,
                  const uint8_t (*users)[SC_PUBKEY_BYTES], size_t n, cli_dm_dir *dir,
                  size_t *opened)
{
    uint32_t relays[CLI_DM_MAX_RELAYS], sub;
    sc_pool_sub_opts so;
    sc_relay_filter f;
    discovery d;
    cli_pool cp;
    size_t i;
    sc_status st = sc_inboxes_filter(&f, users, n);
    int rc;

    *opened = 0;
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot set up the inbox lookup");
    }
    rc = cli_pool_open(&cp, ctx, NULL, ca_file, timeout_s);
    for (i = 0; rc == CLI_OK && i < urls->n; i++) {
        rc = cli_pool_add(&cp, urls->url[i], &relays[i]);
    }
    if (rc == CLI_OK) {
        memset(&so, 0, sizeof so);
        so.eose_timeout_ms = 8000;
        so.flags = SC_POOL_SUB_ONCE;
        st = sc_pool_subscribe(&cp.p, &sub, SC_STR("inboxes"), &f, 1, relays, urls->n, &so);
        rc = st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot look up inboxes");
    }
    memset(&d, 0, sizeof d);
    d.dir = dir;
    if (rc == CLI_OK) {
        rc = cli_pool_run(&cp, on_discovery, &d);
    }
    for (i = 0; i < cp.n_conns; i++) {
        *opened += cp.conns[i].ever_open;
    }
    cli_pool_close(&cp);
    return rc;
}

/* The users of users[0..n) without an inbox list, into late[0..*n_late), and the NIP-65
 * write relays they publish (where their own lists live) that boot does not name, into
 * more. */
static int second_round(const cli_dm_dir *dir, const cli_dm_urls *boot,
                        const uint8_t (*users)[SC_PUBKEY_BYTES], size_t n,
                        uint8_t (*late)[SC_PUBKEY_BYTES], size_t *n_late, cli_dm_urls *more)
{
    sc_str w[DIR_MAX_RELAYS];
    size_t i, j, k, n_w;
    int rc = CLI_OK;

    *n_late = 0;
    for (i = 0; rc == CLI_OK && i < n; i++) {
        if (sc_inboxes_get(&dir->b, NULL, 0, &n_w, NULL, users[i], 0) != SC_ERR_NO_INBOX ||
            sc_inboxes_get(&dir->b, w, DIR_MAX_RELAYS, &n_w, NULL, users[i], SC_INBOXES_WRITE) !=
                SC_OK) {
            continue;
        }
        memcpy(late[(*n_late)++], users[i], SC_PUBKEY_BYTES);
        for (j = 0; rc == CLI_OK && j < n_w && more->n < CLI_DM_MAX_RELAYS; j++) {
            char url[DIR_MAX_URL];

            snprintf(url, sizeof url, "%.*s", (int)w[j].len, w[j].ptr);
            for (k = 0; k < boot->n && strcmp(boot->url[k], url) != 0; k++) {
            }
            if (k == boot->n) {
                rc = cli_dm_urls_add(more, url, "a NIP-65 write relay");
            }
        }
    }
    return rc;
}

int cli_dm_discover(sc_ctx *ctx, const cli_dm_urls *boot, const char *ca_file, int timeout_s,
                    const uint8_t (*users)[SC_PUBKEY_BYTES], size_t n, cli_dm_dir *dir)
{
    size_t need = sc_inboxes_mem_max(n, DIR_MAX_RELAYS, DIR_MAX_URL), opened = 0, n_late = 0;
    uint8_t(*late)[SC_PUBKEY_BYTES] = calloc(n > 0 ? n : 1, SC_PUBKEY_BYTES);
    cli_dm_urls more;
    sc_status st;
    int rc;

    memset(dir, 0, sizeof *dir);
    memset(&more, 0, sizeof more);
    dir->mem = need > 0 ? calloc(1, need) : NULL;
    if (dir->mem == NULL || late == NULL) {
        free(late);
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_inboxes_init(&dir->b, dir->mem, need, n, DIR_MAX_RELAYS, DIR_MAX_URL);
    rc = st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot set up the inbox lookup");
    if (rc == CLI_OK) {
        rc = lookup(ctx, boot, ca_file, timeout_s, users, n, dir, &opened);
    }
    if (rc == CLI_OK && opened == 0) {
        rc = cli_fail(CLI_ERROR, "no bootstrap relay could be reached to look up inboxes");
    }
    /* NIP-65: a user's own lists live on its write relays; those without an inbox list
     * here are asked there once */
    if (rc == CLI_OK) {
        rc = second_round(dir, boot, users, n, late, &n_late, &more);
    }
    if (rc == CLI_OK && n_late > 0 && more.n > 0) {
        rc = lookup(ctx, &more, ca_file, timeout_s, (const uint8_t(*)[SC_PUBKEY_BYTES])late, n_late,
                    dir, &opened);
    }
    cli_dm_urls_free(&more);
    free(late);
    return rc;
}

void cli_dm_dir_free(cli_dm_dir *dir)
{
    sc_inboxes_clear(&dir->b);
    free(dir->mem);
    memset(dir, 0, sizeof *dir);
}
