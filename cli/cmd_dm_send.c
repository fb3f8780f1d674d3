/* softchat dm send: one NIP-17 message, its gift wraps delivered to each receiver's inbox
 * relays (and the sender's copy to the sender's) through one relay pool, tracked by the
 * library's delivery record (delivery.h). */
#include "dm.h"

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
                             : r.outcome == SC_DELIVERY_FAILED ? ",\"outcome\":\"failed\""
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

int cmd_dm_send(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me)
{
    uint8_t users[CLI_DM_MAX_TO + 1][SC_PUBKEY_BYTES], me_pub[SC_PUBKEY_BYTES];
    sc_str routes_url[CLI_DM_MAX_TO + 1][CLI_DM_MAX_RELAYS];
    sc_delivery_route routes[CLI_DM_MAX_TO + 1];
    sc_nip17_wrap wraps[CLI_DM_MAX_TO + 1];
    size_t n_to = 0, n_users, n_wraps, i, total_relays = 0, total_url = 0, missing = 0, off;
    cli_buf text = CLI_BUF_INIT, json = CLI_BUF_INIT, out = CLI_BUF_INIT;
    cli_dm_urls boot;
    cli_dm_dir dir;
    sc_pool_opts o;
    cli_pool cp;
    dm_send s;
    void *dmem = NULL;
    sc_status st;
    int rc = CLI_OK, me_listed = 0, started = 0, undelivered = 0;

    memset(&boot, 0, sizeof boot);
    memset(&dir, 0, sizeof dir);
    memset(&cp, 0, sizeof cp);
    memset(&s, 0, sizeof s);
    if (a->to == NULL || a->n_bootstrap == 0 || a->n_relay || a->n_to_relays || a->state ||
        a->json || a->n_pos > 1 || (a->n_pos == 1 && a->file != NULL)) {
        return cli_usage_error(cli_dm_usage, "dm send takes --key, --to KEY[,KEY...], "
                                             "--bootstrap URL..., and the message as --file "
                                             "PATH, one operand or stdin");
    }
    if (cli_parse_pubkey_list(users, CLI_DM_MAX_TO, &n_to, a->to, "--to", cli_dm_usage) !=
        CLI_OK) {
        return CLI_ERROR;
    }
    if (a->subject != NULL && sc_utf8_check(a->subject, strlen(a->subject)) != SC_OK) {
        return cli_usage_error(cli_dm_usage, "--subject: not valid UTF-8");
    }
    for (i = 0; rc == CLI_OK && i < a->n_bootstrap; i++) {
        rc = cli_dm_urls_add(&boot, a->bootstrap[i], "--bootstrap");
    }
    if (rc == CLI_OK && (st = sc_identity_pubkey(me_pub, me)) != SC_OK) {
        rc = cli_fail_status(st, "cannot read the public key");
    }
    if (rc == CLI_OK) {
        rc = read_message(a, &text);
    }
    if (rc == CLI_OK && sc_utf8_check((const char *)text.p, text.len) != SC_OK) {
        rc = cli_fail(CLI_INVALID, "message: %s (%s); NIP-17 messages are UTF-8 text",
                      sc_status_str(SC_ERR_UTF8), sc_status_name(SC_ERR_UTF8));
    }
    if (rc != CLI_OK) {
        goto out;
    }
    /* the wraps' recipients, in sc_nip17_send's order: the receivers, then the sender */
    for (i = 0; i < n_to; i++) {
        me_listed |= memcmp(users[i], me_pub, SC_PUBKEY_BYTES) == 0;
    }
    n_users = n_to;
    if (!me_listed) {
        memcpy(users[n_users++], me_pub, SC_PUBKEY_BYTES);
    }
    rc = cli_dm_discover(ctx, &boot, a->ca_file, a->timeout_s,
                         (const uint8_t(*)[SC_PUBKEY_BYTES])users, n_users, &dir);
    for (i = 0; rc == CLI_OK && i < n_users; i++) {
        int self = memcmp(users[i], me_pub, SC_PUBKEY_BYTES) == 0;
        char npub[SC_NIP19_NPUB_LEN + 1];

        /* the sender's own copy goes to the bootstrap relays when it has no inbox list */
        rc = route_of(&dir, &boot, users[i], self || a->allow_no_inbox, routes_url[i],
                      &routes[i].n_relays);
        routes[i].relays = routes_url[i];
        npub_of(npub, users[i]);
        if (rc == CLI_OK && routes[i].n_relays == 0) {
            missing++;
            cli_fail(CLI_OK, "%s has no kind 10050 inbox list (NIP-17: not ready to receive "
                             "direct messages; --allow-no-inbox sends to the bootstrap relays)",
                     npub);
        } else if (rc == CLI_OK &&
                   sc_inboxes_get(&dir.b, NULL, 0, &off, NULL, users[i], 0) == SC_ERR_NO_INBOX) {
            cli_fail(CLI_OK, "%s has no inbox list: %s to the bootstrap relays", npub,
                     self ? "the sender's copy goes" : "sending (--allow-no-inbox)");
        }
        for (off = 0; off < routes[i].n_relays; off++) {
            total_relays++;
            total_url += routes[i].relays[off].len;
        }
    }
    if (rc == CLI_OK && missing > 0) {
        rc = CLI_DM_NO_INBOX;
    }
    if (rc == CLI_OK) {
        rc = cli_nip17_compose(ctx, &json, me, (const uint8_t(*)[SC_PUBKEY_BYTES])users, n_to,
                               a->subject, NULL, &text);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    /* one wrap per line of json, for users[0..n_users) in order */
    for (n_wraps = 0, off = 0; n_wraps < n_users && off < json.len; n_wraps++) {
        const unsigned char *nl = memchr(json.p + off, '\n', json.len - off);
        size_t len = nl != NULL ? (size_t)(nl - (json.p + off)) : json.len - off;

        memcpy(wraps[n_wraps].recipient, users[n_wraps], SC_PUBKEY_BYTES);
        wraps[n_wraps].offset = off;
        wraps[n_wraps].len = len;
        off += len + 1;
    }
    if (n_wraps != n_users) {
        rc = cli_fail(CLI_ERROR, "internal error: %zu wraps for %zu receivers", n_wraps, n_users);
        goto out;
    }
    {
        size_t need = sc_delivery_mem_max(n_wraps, json.len, total_relays, total_url);

        dmem = need > 0 ? calloc(1, need) : NULL;
        if (dmem == NULL) {
            rc = cli_fail(CLI_ERROR, "out of memory");
            goto out;
        }
        st = sc_delivery_init(&s.d, dmem, need, (const char *)json.p, json.len, wraps, n_wraps,
                              routes);
        if (st != SC_OK) {
            rc = cli_fail_status(st, "cannot set up the delivery");
            goto out;
        }
    }
    s.n_wraps = n_wraps;
    cli_dm_pool_opts(&o);
    o.max_relays = 64;
    rc = cli_pool_open(&cp, ctx, &o, a->ca_file, a->timeout_s);
    if (rc == CLI_OK && (st = sc_pool_auth_identity(&cp.p, me)) != SC_OK) {
        rc = cli_fail_status(st, "relay pool");
    }
    if (rc == CLI_OK && (st = sc_delivery_start(&s.d, &cp.p)) != SC_OK) {
        rc = cli_fail_status(st, "cannot start the delivery");
    }
    if (rc == CLI_OK) {
        started = 1;
        rc = cli_pool_run(&cp, on_send, &s);
    }
    for (i = 0; started && i < n_wraps; i++) {
        int delivered = 0;

        if (report(&out, &s.d, i, me_pub, &delivered) != CLI_OK) {
            rc = CLI_ERROR;
            break;
        }
        /* the sender's own copy is reported, not required */
        undelivered += !delivered && (i < n_to);
    }
    if (started && cli_buf_flush_stdout(&out) != CLI_OK) {
        rc = CLI_ERROR;
    }
    if (rc == CLI_OK && undelivered > 0) {
        rc = cli_fail(CLI_DM_UNDELIVERED, "%d receiver%s accepted by no relay", undelivered,
                      undelivered == 1 ? "" : "s");
    }
out:
    cli_pool_close(&cp);
    sc_delivery_clear(&s.d);
    free(dmem);
    cli_dm_dir_free(&dir);
    cli_dm_urls_free(&boot);
    cli_buf_free(&text);
    cli_buf_free(&json);
    cli_buf_free(&out);
    return rc;
}
