/* softchat dm inbox set | dm inbox get: a key's NIP-17 inbox list (kind 10050), published
 * through the pool to chosen relays, or looked up through bootstrap relays (sc_inboxes). */
#include "dm.h"
#include "nip46_client.h"

#include <string.h>

void cli_dm_pool_opts(sc_pool_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_attempts = 3;
    o->retry_min_ms = 500;
    o->retry_max_ms = 4000;
    o->session.backoff_min_ms = 250;
    o->session.backoff_max_ms = 4000;
}

int cli_dm_publish_line(cli_buf *b, const char *who_field, const uint8_t *who,
                        const sc_pool_update *u)
{
    int rc = cli_buf_addc(b, '{');

    if (rc == CLI_OK && who_field != NULL) {
        rc = cli_buf_adds(b, "\"");
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, who_field);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, "\":");
        }
        if (rc == CLI_OK) {
            rc = cli_buf_json_hex(b, who, SC_PUBKEY_BYTES);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_addc(b, ',');
        }
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, "\"relay\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_str(b, u->url.ptr, u->url.len);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"result\":\"");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, cli_pool_result_name(u->result));
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, "\",\"message\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_str(b, u->text.ptr, u->text.len);
    }
    return rc == CLI_OK ? cli_buf_adds(b, "}\n") : rc;
}

/* ---- inbox set ---------------------------------------------------------------------------- */

typedef struct inbox_set {
    cli_buf line;
    size_t accepted, settled;
} inbox_set;

static int on_set(void *user, cli_pool *cp, const sc_pool_update *u)
{
    inbox_set *s = (inbox_set *)user;

    (void)cp;
    if (u->kind == SC_POOL_U_PUBLISHED) {
        s->settled++;
        s->accepted += u->result == SC_POOL_ACCEPTED;
        if (u->result != SC_POOL_ACCEPTED) {
            cli_fail(CLI_OK, "%.*s: %s: %.*s", (int)u->url.len, u->url.ptr,
                     cli_pool_result_name(u->result), (int)u->text.len, u->text.ptr);
        }
        if (cli_dm_publish_line(&s->line, NULL, NULL, u) != CLI_OK ||
            cli_buf_flush_stdout(&s->line) != CLI_OK) {
            return CLI_ERROR;
        }
    } else if (u->kind == SC_POOL_U_PUBLISH_DONE) {
        return CLI_POOL_DONE;
    }
    return CLI_POOL_CONTINUE;
}

/* The signed kind 10050 event listing the URLs of inbox (normalised), in buf. */
static int make_list(sc_ctx *ctx, const sc_identity *me, const cli_ext_signer *ext,
                     const cli_dm_urls *inbox, cli_buf *buf, sc_event *ev)
{
    sc_str norm[CLI_DM_MAX_RELAYS];
    char norm_buf[CLI_DM_MAX_RELAYS][256];
    size_t i, need;
    int64_t now;
    sc_status st;
    int rc = CLI_OK;

    for (i = 0; rc == CLI_OK && i < inbox->n; i++) {
        sc_str u = {inbox->url[i], strlen(inbox->url[i])};

        st = sc_relay_url_normalize(norm_buf[i], sizeof norm_buf[i], &norm[i].len, u);
        norm[i].ptr = norm_buf[i];
        if (st != SC_OK) {
            rc = cli_fail_status(st, "--relay %s", cli_shown(inbox->url[i]));
        }
    }
    if (rc == CLI_OK) {
        rc = cli_now(&now);
    }
    need = sc_nip17_inbox_build_buf_max(norm, inbox->n);
    if (rc == CLI_OK) {
        rc = cli_buf_size(buf, need > 0 ? need : 1);
    }
    if (rc != CLI_OK) {
        return rc;
    }
    st = sc_nip17_inbox_build(ev, buf->p, buf->cap, norm, inbox->n, now);
    if (st == SC_OK) {
        st = cli_event_sign(ctx, ev, me, ext);
    }
    return st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot make the inbox list");
}

/* Publishes ev to the relays of t through one pool, a line per relay. AUTH is answered as me,
 * or (ext, --signer) with an AUTH the signer signs when a relay asks for it. */
static int publish_list(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me,
                        const cli_ext_signer *ext, const cli_dm_urls *t, const sc_event *ev)
{
    uint32_t relays[CLI_DM_MAX_RELAYS], pub;
    sc_pool_opts o;
    inbox_set s;
    cli_pool cp;
    size_t i;
    sc_status st;
    int rc;

    memset(&s, 0, sizeof s);
    cli_dm_pool_opts(&o);
    rc = cli_pool_open(&cp, ctx, &o, a->ca_file, a->timeout_s);
    if (rc == CLI_OK && me != NULL && (st = sc_pool_auth_identity(&cp.p, me)) != SC_OK) {
        rc = cli_fail_status(st, "relay pool");
    }
    cp.auth_signer = ext;
    for (i = 0; rc == CLI_OK && i < t->n; i++) {
        rc = cli_pool_add(&cp, t->url[i], &relays[i]);
    }
    if (rc == CLI_OK && (st = sc_pool_publish(&cp.p, &pub, ev, relays, t->n, NULL)) != SC_OK) {
        rc = cli_fail_status(st, "cannot publish the inbox list");
    }
    if (rc == CLI_OK) {
        rc = cli_pool_run(&cp, on_set, &s);
    }
    if (rc == CLI_OK && s.accepted < t->n) {
        rc = CLI_DM_UNDELIVERED;
    }
    cli_pool_close(&cp);
    cli_buf_free(&s.line);
    return rc;
}

int cmd_dm_inbox_set(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me)
{
    uint8_t user[SC_PUBKEY_BYTES];
    cli_nip46 *remote = NULL;
    cli_ext_signer ext;
    cli_dm_urls inbox, targets;
    cli_buf evbuf = CLI_BUF_INIT;
    sc_event ev;
    size_t i;
    int rc = CLI_OK;

    memset(&inbox, 0, sizeof inbox);
    memset(&targets, 0, sizeof targets);
    if (a->n_relay == 0 || a->n_bootstrap || a->state || a->file || a->to || a->n_pos ||
        a->allow_no_inbox || a->json || a->subject) {
        return cli_usage_error(cli_dm_usage, "dm inbox set takes --key or --signer, --relay "
                                             "URL... and --to-relays URL...");
    }
    for (i = 0; rc == CLI_OK && i < a->n_relay; i++) {
        rc = cli_dm_urls_add(&inbox, a->relay[i], "--relay");
    }
    for (i = 0; rc == CLI_OK && i < a->n_to_relays; i++) {
        rc = cli_dm_urls_add(&targets, a->to_relays[i], "--to-relays");
    }
    if (rc == CLI_OK && a->signer != NULL) {
        rc = cli_nip46_new(&remote, &ext, user, ctx, a->signer, a->signer_key, a->ca_file,
                           a->timeout_s);
        me = NULL;
    }
    if (rc == CLI_OK) {
        rc = make_list(ctx, me, remote != NULL ? &ext : NULL, &inbox, &evbuf, &ev);
    }
    if (rc == CLI_OK) {
        rc = publish_list(ctx, a, me, remote != NULL ? &ext : NULL,
                          targets.n > 0 ? &targets : &inbox, &ev);
    }
    cli_nip46_free(remote);
    cli_buf_free(&evbuf);
    cli_dm_urls_free(&inbox);
    cli_dm_urls_free(&targets);
    return rc;
}

/* ---- inbox get ---------------------------------------------------------------------------- */

static int add_list(cli_buf *b, const sc_str *l, size_t n)
{
    size_t i;
    int rc = cli_buf_addc(b, '[');

    for (i = 0; rc == CLI_OK && i < n; i++) {
        if (i > 0) {
            rc = cli_buf_addc(b, ',');
        }
        if (rc == CLI_OK) {
            rc = cli_buf_json_str(b, l[i].ptr, l[i].len);
        }
    }
    return rc == CLI_OK ? cli_buf_addc(b, ']') : rc;
}

static int inbox_json(cli_buf *out, const uint8_t *user, const sc_str *inbox, size_t n_inbox,
                      const sc_str *write, size_t n_write)
{
    int rc = cli_buf_adds(out, "{\"pubkey\":");

    if (rc == CLI_OK) {
        rc = cli_buf_json_hex(out, user, SC_PUBKEY_BYTES);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(out, ",\"npub\":");
    }
    if (rc == CLI_OK) {
        rc = cli_dm_json_npub(out, user);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(out, ",\"inbox\":");
    }
    if (rc == CLI_OK) {
        rc = add_list(out, inbox, n_inbox);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(out, ",\"write\":");
    }
    if (rc == CLI_OK) {
        rc = add_list(out, write, n_write);
    }
    return rc == CLI_OK ? cli_buf_adds(out, "}\n") : rc;
}

int cmd_dm_inbox_get(sc_ctx *ctx, const cli_dm_args *a)
{
    uint8_t user[1][SC_PUBKEY_BYTES];
    sc_str inbox[CLI_DM_MAX_RELAYS], write[CLI_DM_MAX_RELAYS];
    size_t n_inbox = 0, n_write = 0, i;
    cli_dm_urls boot;
    cli_dm_dir dir;
    cli_buf out = CLI_BUF_INIT;
    sc_status st;
    int rc = CLI_OK;

    memset(&boot, 0, sizeof boot);
    memset(&dir, 0, sizeof dir);
    if (a->n_pos != 1 || a->n_bootstrap == 0 || a->n_relay || a->n_to_relays || a->state ||
        a->file || a->to || a->allow_no_inbox || a->subject) {
        return cli_usage_error(cli_dm_usage, "dm inbox get takes KEY, --bootstrap URL... and "
                                             "--json");
    }
    if (cli_parse_pubkey(user[0], a->pos[0], "KEY", cli_dm_usage) != CLI_OK) {
        return CLI_ERROR;
    }
    for (i = 0; rc == CLI_OK && i < a->n_bootstrap; i++) {
        rc = cli_dm_urls_add(&boot, a->bootstrap[i], "--bootstrap");
    }
    if (rc == CLI_OK) {
        rc = cli_dm_discover(ctx, &boot, a->ca_file, a->timeout_s,
                             (const uint8_t(*)[SC_PUBKEY_BYTES])user, 1, &dir);
    }
    if (rc == CLI_OK) {
        st = sc_inboxes_get(&dir.b, inbox, CLI_DM_MAX_RELAYS, &n_inbox, NULL, user[0], 0);
        if (st != SC_OK && st != SC_ERR_NO_INBOX) {
            rc = cli_fail_status(st, "inbox lookup");
        }
        st = sc_inboxes_get(&dir.b, write, CLI_DM_MAX_RELAYS, &n_write, NULL, user[0],
                            SC_INBOXES_WRITE);
        if (st != SC_OK) {
            n_write = 0;
        }
    }
    if (rc == CLI_OK && a->json) {
        rc = inbox_json(&out, user[0], inbox, n_inbox, write, n_write);
    } else {
        for (i = 0; rc == CLI_OK && i < n_inbox; i++) {
            rc = cli_buf_add(&out, inbox[i].ptr, inbox[i].len);
            if (rc == CLI_OK) {
                rc = cli_buf_addc(&out, '\n');
            }
        }
    }
    if (rc == CLI_OK) {
        rc = cli_buf_flush_stdout(&out);
    }
    if (rc == CLI_OK && n_inbox == 0) {
        char npub[SC_NIP19_NPUB_LEN + 1];
        size_t len = 0;

        if (sc_nip19_encode_npub(npub, sizeof npub, &len, user[0]) != SC_OK) {
            len = 0;
        }
        npub[len] = '\0';
        rc = cli_fail(CLI_DM_NO_INBOX,
                      "%s has no kind 10050 inbox list (NIP-17: not ready to "
                      "receive direct messages)",
                      npub);
    }
    cli_buf_free(&out);
    cli_dm_dir_free(&dir);
    cli_dm_urls_free(&boot);
    return rc;
}
