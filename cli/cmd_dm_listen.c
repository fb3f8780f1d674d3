/* softchat dm listen: the key's gift wraps (kind 1059, #p = the key) on its inbox relays,
 * through one relay pool subscription with a cursor, each opened (sc_nip17_receive, or with
 * --signer sc_nip17_receive_start over a NIP-46 bunker: nip46_client.h) and printed once as a JSON line, until SIGINT or SIGTERM. The cursor and the wrap ids handled
 * live in a SQLite store (dm_state.c), written after each line, so a restart prints nothing
 * twice. */
#include "dm.h"
#include "nip46_client.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The cursor's memory: the ids one resume window (2 days of gift wraps) can bring again. */
#define CURSOR_IDS 4096u
#define CURSOR_RELAYS 16u
#define CURSOR_URL 256u

static volatile sig_atomic_t stop_now;

static void on_signal(int sig)
{
    (void)sig;
    stop_now = 1;
}

typedef struct listener {
    sc_ctx *ctx;
    const sc_identity *me;
    const cli_ext_signer *ext; /* --signer: the unwraps go to the bunker; me is NULL */
    cli_dm_state *state;
    sc_pool_cursor cursor;
    cli_buf arena, line, saved;
    int caught_up;
    size_t n_relays;
} listener;

/* Saves the cursor with the wrap id (NULL: the cursor only). */
static int commit(listener *l, const uint8_t *id)
{
    size_t need = sc_pool_cursor_save_len(&l->cursor), len = 0;
    sc_status st;

    if (cli_buf_size(&l->saved, need > 0 ? need : 1) != CLI_OK) {
        return CLI_ERROR;
    }
    st = sc_pool_cursor_save(&l->cursor, l->saved.p, l->saved.cap, &len);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot save the cursor");
    }
    return cli_dm_state_commit(l->state, id, l->saved.p, len);
}

static int message_line(cli_buf *b, const sc_nip17_received *m, const sc_pool_update *u)
{
    char num[32];
    size_t i;
    int rc = cli_buf_adds(b, "{\"wrap\":");

    if (rc == CLI_OK) {
        rc = cli_buf_json_hex(b, u->event->id, SC_EVENT_ID_BYTES);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_hex_field(b, "from", m->wrap.sender, SC_PUBKEY_BYTES);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"npub\":");
    }
    if (rc == CLI_OK) {
        rc = cli_dm_json_npub(b, m->wrap.sender);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"room\":[");
    }
    for (i = 0; rc == CLI_OK && i < m->n_room; i++) {
        if (i > 0) {
            rc = cli_buf_addc(b, ',');
        }
        if (rc == CLI_OK) {
            rc = cli_buf_json_hex(b, m->room[i], SC_PUBKEY_BYTES);
        }
    }
    snprintf(num, sizeof num, "%lu", (unsigned long)m->rumor.kind);
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, "],\"kind\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, num);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_hex_field(b, "id", m->rumor.id, SC_EVENT_ID_BYTES);
    }
    snprintf(num, sizeof num, "%lld", (long long)m->rumor.created_at);
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"created_at\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, num);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"content\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_str(b, m->rumor.content.ptr, m->rumor.content.len);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"tags\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_tags(b, &m->rumor);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_adds(b, ",\"relay\":");
    }
    if (rc == CLI_OK) {
        rc = cli_buf_json_str(b, u->url.ptr, u->url.len);
    }
    return rc == CLI_OK ? cli_buf_adds(b, "}\n") : rc;
}

/* sc_nip17_receive of the wrap, or over the remote signer: its two NIP-44 decryptions are
 * NIP-46 nip44_decrypt requests (no NIP-40 checks, as sc_nip17_receive). */
static sc_status open_wrap(listener *l, sc_nip17_received *msg, size_t *used,
                           const sc_pool_update *u)
{
    if (l->ext == NULL) {
        return sc_nip17_receive(l->ctx, msg, l->arena.p, l->arena.cap, used, u->event_json.ptr,
                                u->event_json.len, l->me);
    }
    return cli_nip17_open(l->ctx, l->ext, msg, &l->arena, used, u->event_json.ptr,
                          u->event_json.len);
}

/* A wrap the bunker refused to open: said, then skipped and recorded as any wrap that does not
 * open (the cursor remembers it too: a fresh --state reads it again). */
static void refused(const sc_pool_update *u)
{
    char hex[2 * SC_EVENT_ID_BYTES + 1];

    cli_hex_str(hex, u->event->id, SC_EVENT_ID_BYTES);
    cli_fail(CLI_OK, "wrap %s from %.*s skipped: the signer refused to decrypt it", hex,
             (int)u->url.len, u->url.ptr);
}

/* A wrap delivered for the first time by the pool: printed unless the store has it. */
static int on_wrap(listener *l, const sc_pool_update *u)
{
    sc_nip17_received msg;
    size_t need = sc_nip17_receive_arena_max(u->event_json.len), used = 0;
    int seen = cli_dm_state_seen(l->state, u->event->id), rc;
    sc_status st;

    if (seen < 0) {
        return CLI_ERROR;
    }
    if (seen) {
        return commit(l, NULL) == CLI_OK ? CLI_POOL_CONTINUE : CLI_ERROR;
    }
    if (need == 0 || cli_buf_size(&l->arena, need) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = open_wrap(l, &msg, &used, u);
    if (st == SC_ERR_SIGNER_REFUSED) {
        refused(u);
        rc = CLI_OK;
    } else if (st == SC_OK) {
        rc = message_line(&l->line, &msg, u);
        sc_mem_wipe(l->arena.p, used);
        memset(&msg, 0, sizeof msg);
        if (rc == CLI_OK) {
            rc = cli_buf_flush_stdout(&l->line);
        }
    } else {
        char token[48], hex[2 * SC_EVENT_ID_BYTES + 1];

        cli_status_token(token, sizeof token, st);
        cli_hex_str(hex, u->event->id, SC_EVENT_ID_BYTES);
        cli_fail(CLI_OK, "wrap %s from %.*s skipped: %s: %s", hex, (int)u->url.len, u->url.ptr,
                 token, sc_status_str(st));
        rc = cli_exit_for(st) == CLI_ERROR ? CLI_ERROR : CLI_OK;
    }
    /* printed (or judged unreadable), then recorded: a crash in between prints it again */
    if (rc == CLI_OK) {
        rc = commit(l, u->event->id);
    }
    return rc == CLI_OK ? CLI_POOL_CONTINUE : rc;
}

static int on_listen(void *user, cli_pool *cp, const sc_pool_update *u)
{
    listener *l = (listener *)user;

    switch (u->kind) {
    case SC_POOL_U_EVENT:
        return on_wrap(l, u);
    case SC_POOL_U_EOSE:
        if (!l->caught_up) {
            l->caught_up = 1;
            cli_fail(CLI_OK, "caught up on %zu relay%s: listening", l->n_relays,
                     l->n_relays == 1 ? "" : "s");
        }
        return commit(l, NULL) == CLI_OK ? CLI_POOL_CONTINUE : CLI_ERROR;
    case SC_POOL_U_CLOSED:
        cli_pool_note(cp, "%.*s: the relay closed the subscription: %.*s", (int)u->url.len,
                      u->url.ptr, (int)u->text.len, u->text.ptr);
        return CLI_POOL_CONTINUE;
    case SC_POOL_U_AUTH_REFUSED:
        cli_pool_note(cp, "%.*s: AUTH refused: %.*s", (int)u->url.len, u->url.ptr, (int)u->text.len,
                      u->text.ptr);
        return CLI_POOL_CONTINUE;
    default:
        return CLI_POOL_CONTINUE;
    }
}

/* The relays to listen on: --relay, else the key's inbox list found through --bootstrap. */
static int listen_relays(sc_ctx *ctx, const cli_dm_args *a, const uint8_t me[SC_PUBKEY_BYTES],
                         cli_dm_urls *out)
{
    cli_dm_urls boot;
    cli_dm_dir dir;
    sc_str inbox[CLI_DM_MAX_RELAYS];
    size_t n = 0, i;
    sc_status st;
    int rc = CLI_OK;

    for (i = 0; rc == CLI_OK && i < a->n_relay; i++) {
        rc = cli_dm_urls_add(out, a->relay[i], "--relay");
    }
    if (rc != CLI_OK || a->n_relay > 0) {
        return rc;
    }
    memset(&boot, 0, sizeof boot);
    for (i = 0; rc == CLI_OK && i < a->n_bootstrap; i++) {
        rc = cli_dm_urls_add(&boot, a->bootstrap[i], "--bootstrap");
    }
    if (rc == CLI_OK) {
        rc = cli_dm_discover(ctx, &boot, a->ca_file, a->timeout_s,
                             (const uint8_t(*)[SC_PUBKEY_BYTES])me, 1, &dir);
        if (rc == CLI_OK) {
            st = sc_inboxes_get(&dir.b, inbox, CLI_DM_MAX_RELAYS, &n, NULL, me, 0);
            if (st == SC_ERR_NO_INBOX) {
                rc = cli_fail(CLI_DM_NO_INBOX, "the key has no kind 10050 inbox list: publish "
                                               "one (dm inbox set) or give --relay URL");
            } else if (st != SC_OK) {
                rc = cli_fail_status(st, "inbox lookup");
            }
        }
        for (i = 0; rc == CLI_OK && i < n; i++) {
            char url[CURSOR_URL];

            snprintf(url, sizeof url, "%.*s", (int)inbox[i].len, inbox[i].ptr);
            rc = cli_dm_urls_add(out, url, "inbox list");
        }
        cli_dm_dir_free(&dir);
    }
    cli_dm_urls_free(&boot);
    return rc;
}

/* The cursor, as saved in the store: a damaged one is said and started afresh (the store's
 * ids still keep what was printed from being printed again). */
static int open_cursor(listener *l, const char *state, void **cmem)
{
    size_t need = sc_pool_cursor_mem_max(CURSOR_IDS, CURSOR_RELAYS, CURSOR_URL);
    sc_status st;
    int rc;

    *cmem = calloc(1, need);
    if (*cmem == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_pool_cursor_init(&l->cursor, *cmem, need, CURSOR_IDS, CURSOR_RELAYS, CURSOR_URL);
    if (st != SC_OK) {
        return cli_fail_status(st, "cursor");
    }
    rc = cli_dm_state_cursor(l->state, &l->saved);
    if (rc == CLI_OK && l->saved.len > 0 &&
        (st = sc_pool_cursor_load(&l->cursor, l->saved.p, l->saved.len)) != SC_OK) {
        cli_fail_status(st, "--state %s: the saved cursor is unusable; starting afresh", state);
    }
    return rc;
}

/* Subscribes to kind 1059 #p = me on the relays of urls, resuming from the cursor; then runs
 * until a signal. */
static int listen_on(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me, listener *l,
                     const cli_dm_urls *urls, const char *me_hex)
{
    static const uint32_t kinds[1] = {1059};
    uint32_t relays[CLI_DM_MAX_RELAYS], sub;
    sc_str p_value = {me_hex, 2 * SC_PUBKEY_BYTES};
    sc_relay_tag_filter tag = {'p', NULL, 1};
    struct sigaction sa, old_int, old_term;
    sc_relay_filter f;
    sc_pool_sub_opts so;
    sc_pool_opts o;
    cli_pool cp;
    size_t i;
    sc_status st;
    int rc;

    cli_dm_pool_opts(&o);
    rc = cli_pool_open(&cp, ctx, &o, a->ca_file, a->timeout != NULL ? a->timeout_s : 0);
    if (rc == CLI_OK && me != NULL && (st = sc_pool_auth_identity(&cp.p, me)) != SC_OK) {
        rc = cli_fail_status(st, "relay pool");
    }
    cp.auth_signer = l->ext; /* --signer: AUTH signed there when a relay asks for it */
    for (i = 0; rc == CLI_OK && i < urls->n; i++) {
        rc = cli_pool_add(&cp, urls->url[i], &relays[i]);
    }
    tag.values = &p_value;
    memset(&f, 0, sizeof f);
    f.kinds = kinds;
    f.n_kinds = 1;
    f.tags = &tag;
    f.n_tags = 1;
    memset(&so, 0, sizeof so);
    so.resume_slack = SC_POOL_SLACK_GIFT_WRAP;
    so.cursor = &l->cursor;
    if (rc == CLI_OK &&
        (st = sc_pool_subscribe(&cp.p, &sub, SC_STR("dm"), &f, 1, relays, urls->n, &so)) != SC_OK) {
        rc = cli_fail_status(st, "cannot subscribe");
    }
    if (rc == CLI_OK) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        stop_now = 0;
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
        cp.stop = &stop_now;
        rc = cli_pool_run(&cp, on_listen, l);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    cli_pool_close(&cp); /* the subscription ends: the cursor is free again */
    return rc;
}

int cmd_dm_listen(sc_ctx *ctx, const cli_dm_args *a, const sc_identity *me)
{
    uint8_t me_pub[SC_PUBKEY_BYTES];
    cli_nip46 *remote = NULL;
    cli_ext_signer ext;
    char me_hex[2 * SC_PUBKEY_BYTES + 1];
    cli_dm_urls urls;
    listener l;
    void *cmem = NULL;
    sc_status st;
    int rc = CLI_OK;

    memset(&urls, 0, sizeof urls);
    memset(&l, 0, sizeof l);
    if (a->state == NULL || (a->n_relay == 0 && a->n_bootstrap == 0) || a->to || a->file ||
        a->n_pos || a->n_to_relays || a->json || a->allow_no_inbox || a->subject) {
        return cli_usage_error(cli_dm_usage, "dm listen takes --key or --signer, --state DB "
                                             "and --relay URL... or --bootstrap URL...");
    }
    if (a->signer != NULL) {
        rc = cli_nip46_new(&remote, &ext, me_pub, ctx, a->signer, a->signer_key, a->ca_file,
                           a->timeout_s);
        l.ext = &ext;
        me = NULL;
    } else if ((st = sc_identity_pubkey(me_pub, me)) != SC_OK) {
        rc = cli_fail_status(st, "cannot read the public key");
    }
    if (rc != CLI_OK) {
        cli_nip46_free(remote);
        return rc;
    }
    cli_hex_str(me_hex, me_pub, SC_PUBKEY_BYTES);
    l.ctx = ctx;
    l.me = me;
    l.state = cli_dm_state_open(a->state, me_pub, &rc);
    if (l.state == NULL) {
        cli_nip46_free(remote);
        return rc;
    }
    rc = listen_relays(ctx, a, me_pub, &urls);
    l.n_relays = urls.n;
    if (rc == CLI_OK) {
        rc = open_cursor(&l, a->state, &cmem);
    }
    if (rc == CLI_OK) {
        rc = listen_on(ctx, a, me, &l, &urls, me_hex);
    }
    if (rc == CLI_OK) {
        rc = commit(&l, NULL);
    }
    sc_pool_cursor_clear(&l.cursor);
    free(cmem);
    cli_dm_state_close(l.state);
    cli_dm_urls_free(&urls);
    cli_buf_free(&l.arena);
    cli_buf_free(&l.line);
    cli_buf_free(&l.saved);
    cli_nip46_free(remote);
    return rc;
}
