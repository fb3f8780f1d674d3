/* softchat dm send: one NIP-17 message, its gift wraps delivered to each receiver's inbox
 * relays (and the sender's copy to the sender's) through one relay pool, tracked by the
 * library's delivery record (delivery.h). */
#include "dm.h"
#include "nip46_client.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/utf8.h"

#define MESSAGE_MAX 1048576u

typedef struct dm_send {
    sc_delivery d;
    size_t n_wraps, done;
} dm_send;

static int on_send(void *user, cli_pool *cp, const sc_pool_update *u)
{
    dm_send *s = (dm_send *)user;
    sc_status st;

    if (u->kind != SC_POOL_U_PUBLISHED && u->kind != SC_POOL_U_PUBLISH_DONE) {
        return CLI_POOL_CONTINUE;
    }
    st = sc_delivery_apply(&s->d, u);
    if (st != SC_OK && st != SC_ERR_NOT_FOUND) {
        return cli_fail_status(st, "delivery record");
    }
    if (u->kind == SC_POOL_U_PUBLISHED && u->result != SC_POOL_ACCEPTED) {
        cli_pool_note(cp, "%.*s: %s: %.*s", (int)u->url.len, u->url.ptr,
                      cli_pool_result_name(u->result), (int)u->text.len, u->text.ptr);
    }
    if (u->kind == SC_POOL_U_PUBLISH_DONE && ++s->done == s->n_wraps) {
        return CLI_POOL_DONE;
    }
    return CLI_POOL_CONTINUE;
}

/* Reads the message: --file PATH, the operand, or stdin. */
static int read_message(const cli_dm_args *a, cli_buf *text)
{
    int rc, fd = 0;

    if (a->n_pos == 1) {
        return cli_buf_adds(text, a->pos[0]);
    }
    if (a->file != NULL) {
        fd = open(a->file, O_RDONLY);
        if (fd < 0) {
            return cli_fail(CLI_ERROR, "--file %s: cannot open it", a->file);
        }
    }
    rc = cli_read_all(fd, text, MESSAGE_MAX, a->file != NULL ? a->file : "stdin");
    if (fd != 0) {
        close(fd);
    }
    if (rc == CLI_OK && text->len > MESSAGE_MAX) {
        rc = cli_fail_status(SC_ERR_TOO_LARGE, "message larger than %u bytes", MESSAGE_MAX);
    }
    return rc;
}

/* One receiver's report line. */
static int report(cli_buf *b, const sc_delivery *d, size_t i, const uint8_t me[SC_PUBKEY_BYTES],
                  int *delivered)
{
    sc_delivery_receiver r;
    size_t j;
    char num[32];
    int rc, self;

    if (sc_delivery_receiver_get(d, &r, i) != SC_OK) {
        return cli_fail(CLI_ERROR, "internal error: delivery record");
    }
    self = memcmp(r.pubkey, me, SC_PUBKEY_BYTES) == 0;
    *delivered = r.outcome == SC_DELIVERY_DELIVERED;
    rc = cli_buf_adds(b, "{\"to\":");
    if (rc == CLI_OK) {
        rc = cli_buf_json_hex(b, r.pubkey, SC_PUBKEY_BYTES);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"npub\":");
    }
    if (rc == CLI_OK) {
        rc = cli_dm_json_npub(b, r.pubkey);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, self ? ",\"self\":true" : ",\"self\":false");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_hex_field(b, "wrap", r.wrap_id, SC_EVENT_ID_BYTES);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, r.outcome == SC_DELIVERY_DELIVERED ? ",\"outcome\":\"delivered\""
                             : r.outcome == SC_DELIVERY_FAILED  ? ",\"outcome\":\"failed\""
                                                                : ",\"outcome\":\"pending\"");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"relays\":[");
    }
    for (j = 0; rc == CLI_OK && j < r.n_relays; j++) {
        sc_delivery_relay l;

        if (sc_delivery_relay_get(d, &l, i, j) != SC_OK) {
            return cli_fail(CLI_ERROR, "internal error: delivery record");
        }
        snprintf(num, sizeof num, "%lu", (unsigned long)l.attempts);
        rc = cli_buf_adds(b, j > 0 ? ",{\"relay\":" : "{\"relay\":");
        if (rc == CLI_OK) {
            rc = cli_buf_json_str(b, l.url.ptr, l.url.len);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, ",\"result\":\"");
        }
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, cli_pool_result_name(l.result));
        }
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, "\",\"attempts\":");
        }
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, num);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_adds(b, ",\"message\":");
        }
        if (rc == CLI_OK) {
            rc = cli_buf_json_str(b, l.text.ptr, l.text.len);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_addc(b, '}');
        }
    }
    return rc == CLI_OK ? cli_buf_adds(b, "]}\n") : rc;
}

/* The relays of receiver `user`: its inbox list; without one, the bootstrap relays when
 * fallback, else none (*n 0). Views into dir or boot. */
static int route_of(const cli_dm_dir *dir, const cli_dm_urls *boot, const uint8_t *user,
                    int fallback, sc_str *out, size_t *n)
{
    sc_status st = sc_inboxes_get(&dir->b, out, CLI_DM_MAX_RELAYS, n, NULL, user, 0);
    size_t i;

    if (st == SC_OK) {
        return CLI_OK;
    }
    *n = 0;
    if (st != SC_ERR_NO_INBOX) {
        return cli_fail_status(st, "inbox lookup");
    }
    for (i = 0; fallback && i < boot->n; i++) {
        out[i].ptr = boot->url[i];
        out[i].len = strlen(boot->url[i]);
    }
    *n = fallback ? boot->n : 0;
    return CLI_OK;
}

static void npub_of(char out[SC_NIP19_NPUB_LEN + 1], const uint8_t *pub)
{
    size_t len = 0;

    if (sc_nip19_encode_npub(out, SC_NIP19_NPUB_LEN + 1, &len, pub) != SC_OK) {
        len = 0;
    }
    out[len] = '\0';
}

/* Who gets a wrap and where: the receivers, then the sender unless among them, each with
 * its relays. */
typedef struct send_plan {
    uint8_t users[CLI_DM_MAX_TO + 1][SC_PUBKEY_BYTES], me[SC_PUBKEY_BYTES];
    size_t n_to, n_users, total_relays, total_url;
    sc_str urls[CLI_DM_MAX_TO + 1][CLI_DM_MAX_RELAYS];
    sc_delivery_route routes[CLI_DM_MAX_TO + 1];
    cli_dm_urls boot;
    cli_dm_dir dir;
} send_plan;

/* Looks up every user's inbox and routes its wrap: CLI_OK, CLI_DM_NO_INBOX (said per
 * receiver) or an exit status. */
static int plan_routes(sc_ctx *ctx, const cli_dm_args *a, send_plan *sp)
{
    size_t i, j, missing = 0, probe;
    int rc;

    rc = cli_dm_discover(ctx, &sp->boot, a->ca_file, a->timeout_s,
                         (const uint8_t(*)[SC_PUBKEY_BYTES])sp->users, sp->n_users, &sp->dir);
    for (i = 0; rc == CLI_OK && i < sp->n_users; i++) {
        int self = memcmp(sp->users[i], sp->me, SC_PUBKEY_BYTES) == 0;
        char npub[SC_NIP19_NPUB_LEN + 1];

        /* the sender's own copy goes to the bootstrap relays when it has no inbox list */
        rc = route_of(&sp->dir, &sp->boot, sp->users[i], self || a->allow_no_inbox, sp->urls[i],
                      &sp->routes[i].n_relays);
        sp->routes[i].relays = sp->urls[i];
        npub_of(npub, sp->users[i]);
        if (rc == CLI_OK && sp->routes[i].n_relays == 0) {
            missing++;
            cli_fail(CLI_OK,
                     "%s has no kind 10050 inbox list (NIP-17: not ready to receive direct "
                     "messages; --allow-no-inbox sends to the bootstrap relays)",
                     npub);
        } else if (rc == CLI_OK && sc_inboxes_get(&sp->dir.b, NULL, 0, &probe, NULL, sp->users[i],
                                                  0) == SC_ERR_NO_INBOX) {
            cli_fail(CLI_OK, "%s has no inbox list: %s to the bootstrap relays", npub,
                     self ? "the sender's copy goes" : "sending (--allow-no-inbox)");
        }
        for (j = 0; j < sp->routes[i].n_relays; j++) {
            sp->total_relays++;
            sp->total_url += sp->routes[i].relays[j].len;
        }
    }
    return rc == CLI_OK && missing > 0 ? CLI_DM_NO_INBOX : rc;
}

/* The delivery record of the wraps in json (one per line, for sp->users in order). */
static int make_record(send_plan *sp, const cli_buf *json, dm_send *s, void **dmem)
{
    sc_nip17_wrap wraps[CLI_DM_MAX_TO + 1];
    size_t n, off = 0, need;
    sc_status st;

    for (n = 0; n < sp->n_users && off < json->len; n++) {
        const unsigned char *nl = memchr(json->p + off, '\n', json->len - off);
        size_t len = nl != NULL ? (size_t)(nl - (json->p + off)) : json->len - off;

        memcpy(wraps[n].recipient, sp->users[n], SC_PUBKEY_BYTES);
        wraps[n].offset = off;
        wraps[n].len = len;
        off += len + 1;
    }
    if (n != sp->n_users) {
        return cli_fail(CLI_ERROR, "internal error: %zu wraps for %zu receivers", n, sp->n_users);
    }
    need = sc_delivery_mem_max(n, json->len, sp->total_relays, sp->total_url);
    *dmem = need > 0 ? calloc(1, need) : NULL;
    if (*dmem == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_delivery_init(&s->d, *dmem, need, (const char *)json->p, json->len, wraps, n,
                          sp->routes);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot set up the delivery");
    }
    s->n_wraps = n;
    return CLI_OK;
}

/* Publishes the record's wraps through one pool and prints the report. A relay's AUTH is
 * answered as me, or (ext, --signer) with an AUTH the signer signs, only when the relay
 * refused a wrap for want of it: the sender is named to no other relay. */
static int deliver(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me,
                   const cli_ext_signer *ext, const send_plan *sp, dm_send *s)
{
    cli_buf out = CLI_BUF_INIT;
    sc_pool_opts o;
    cli_pool cp;
    size_t i;
    sc_status st;
    int rc, undelivered = 0;

    cli_dm_pool_opts(&o);
    o.max_relays = 64;
    rc = cli_pool_open(&cp, ctx, &o, a->ca_file, a->timeout_s);
    if (rc == CLI_OK && me != NULL && (st = sc_pool_auth_identity(&cp.p, me)) != SC_OK) {
        rc = cli_fail_status(st, "relay pool");
    }
    cp.auth_signer = ext;
    if (rc == CLI_OK && (st = sc_delivery_start(&s->d, &cp.p)) != SC_OK) {
        rc = cli_fail_status(st, "cannot start the delivery");
    }
    if (rc == CLI_OK) {
        rc = cli_pool_run(&cp, on_send, s);
        for (i = 0; i < s->n_wraps; i++) {
            int delivered = 0;

            if (report(&out, &s->d, i, sp->me, &delivered) != CLI_OK) {
                rc = CLI_ERROR;
                break;
            }
            /* the sender's own copy is reported, not required */
            undelivered += !delivered && i < sp->n_to;
        }
        if (cli_buf_flush_stdout(&out) != CLI_OK) {
            rc = CLI_ERROR;
        }
    }
    if (rc == CLI_OK && undelivered > 0) {
        rc = cli_fail(CLI_DM_UNDELIVERED, "%d receiver%s accepted by no relay", undelivered,
                      undelivered == 1 ? "" : "s");
    }
    cli_pool_close(&cp);
    cli_buf_free(&out);
    return rc;
}

static int check_send_args(const cli_dm_args *a, send_plan *sp)
{
    size_t i;
    int rc = CLI_OK;

    if (a->to == NULL || a->n_bootstrap == 0 || a->n_relay || a->n_to_relays || a->state ||
        a->json || a->n_pos > 1 || (a->n_pos == 1 && a->file != NULL)) {
        return cli_usage_error(cli_dm_usage, "dm send takes --key, --to KEY[,KEY...], "
                                             "--bootstrap URL..., and the message as --file "
                                             "PATH, one operand or stdin");
    }
    if (cli_parse_pubkey_list(sp->users, CLI_DM_MAX_TO, &sp->n_to, a->to, "--to", cli_dm_usage) !=
        CLI_OK) {
        return CLI_ERROR;
    }
    if (a->subject != NULL && sc_utf8_check(a->subject, strlen(a->subject)) != SC_OK) {
        return cli_usage_error(cli_dm_usage, "--subject: not valid UTF-8");
    }
    for (i = 0; rc == CLI_OK && i < a->n_bootstrap; i++) {
        rc = cli_dm_urls_add(&sp->boot, a->bootstrap[i], "--bootstrap");
    }
    return rc;
}

int cmd_dm_send(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me)
{
    send_plan *sp = calloc(1, sizeof *sp);
    cli_nip46 *remote = a->signer != NULL ? calloc(1, sizeof *remote) : NULL;
    cli_ext_signer ext;
    cli_buf text = CLI_BUF_INIT, json = CLI_BUF_INIT;
    dm_send s;
    void *dmem = NULL;
    size_t i;
    sc_status st;
    int rc, me_listed = 0;

    memset(&s, 0, sizeof s);
    if (sp == NULL || (a->signer != NULL && remote == NULL)) {
        free(sp);
        free(remote);
        return cli_fail(CLI_ERROR, "out of memory");
    }
    rc = check_send_args(a, sp);
    if (rc == CLI_OK && remote != NULL) {
        rc = cli_nip46_open(remote, ctx, a->signer, a->signer_key, a->ca_file, a->timeout_s);
        ext.signer = &remote->signer;
        ext.drive = cli_nip46_drive;
        ext.user = remote;
        me = NULL;
        if (rc == CLI_OK) {
            memcpy(sp->me, remote->user, SC_PUBKEY_BYTES);
        }
    } else if (rc == CLI_OK && (st = sc_identity_pubkey(sp->me, me)) != SC_OK) {
        rc = cli_fail_status(st, "cannot read the public key");
    }
    if (rc == CLI_OK) {
        rc = read_message(a, &text);
    }
    if (rc == CLI_OK && sc_utf8_check((const char *)text.p, text.len) != SC_OK) {
        rc = cli_fail(CLI_INVALID, "message: %s (%s); NIP-17 messages are UTF-8 text",
                      sc_status_str(SC_ERR_UTF8), sc_status_name(SC_ERR_UTF8));
    }
    /* the wraps' recipients, in sc_nip17_send's order: the receivers, then the sender */
    for (i = 0; i < sp->n_to; i++) {
        me_listed |= memcmp(sp->users[i], sp->me, SC_PUBKEY_BYTES) == 0;
    }
    sp->n_users = sp->n_to;
    if (!me_listed) {
        memcpy(sp->users[sp->n_users++], sp->me, SC_PUBKEY_BYTES);
    }
    if (rc == CLI_OK) {
        rc = plan_routes(ctx, a, sp);
    }
    if (rc == CLI_OK) {
        rc = cli_nip17_compose(ctx, &json, me, remote != NULL ? &ext : NULL,
                               (const uint8_t(*)[SC_PUBKEY_BYTES])sp->users, sp->n_to, a->subject,
                               NULL, &text);
    }
    if (rc == CLI_OK) {
        rc = make_record(sp, &json, &s, &dmem);
    }
    if (rc == CLI_OK) {
        rc = deliver(ctx, a, me, remote != NULL ? &ext : NULL, sp, &s);
    }
    if (remote != NULL) {
        cli_nip46_close(remote);
        free(remote);
    }
    sc_delivery_clear(&s.d);
    free(dmem);
    cli_dm_dir_free(&sp->dir);
    cli_dm_urls_free(&sp->boot);
    free(sp);
    cli_buf_free(&text);
    cli_buf_free(&json);
    return rc;
}
