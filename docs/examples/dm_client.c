/* docs/api.md "A DM client on the pool": alice finds bob's inbox relays (his kind 10050 on a
 * bootstrap relay), sends him a NIP-17 message through a pool with a delivery record, and
 * bob, on a pool of his own, reads his inbox with a cursor. The relays are in-process
 * stand-ins (they store events, answer REQs from what they store with the library's filter
 * matcher, and OK every EVENT), so the example runs anywhere; a real application puts a
 * WebSocket where net_open, net_send and net_recv are. Run: dm_client [BACKEND]. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        sc_status st_ = (call);                                                                    \
        if (st_ != SC_OK) {                                                                        \
            fprintf(stderr, "%s: %s\n", #call, sc_status_name(st_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* ---- the stand-in relays: stored events, and per connection the texts for the client ---- */

#define N_RELAYS 2
#define N_STORED 8
#define N_CONN 4
#define TEXT 8192

typedef struct relay {
    const char *url;
    char stored[N_STORED][TEXT]; /* event objects */
    size_t n_stored;
} relay;

typedef struct conn {
    uint32_t handle; /* the pool's name for the relay */
    relay *to;
    char queue[N_STORED + 2][TEXT + 128]; /* texts for the client */
    size_t n_queue, next;
} conn;

typedef struct net {
    sc_ctx *ctx;
    relay *relays;
    conn conn[N_CONN];
    size_t n;
} net;

static relay world[N_RELAYS] = {{"wss://bootstrap.example", {{0}}, 0},
                                {"wss://inbox.example", {{0}}, 0}};

static void net_open(net *n, uint32_t handle, sc_str url)
{
    size_t i;

    for (i = 0; i < N_RELAYS; i++) {
        if (strlen(world[i].url) == url.len && memcmp(world[i].url, url.ptr, url.len) == 0) {
            memset(&n->conn[n->n], 0, sizeof n->conn[n->n]);
            n->conn[n->n].handle = handle;
            n->conn[n->n++].to = &world[i];
        }
    }
}

static void says(conn *c, const char *text)
{
    snprintf(c->queue[c->n_queue++ % (N_STORED + 2)], TEXT + 128, "%s", text);
}

/* The relay reads one client text: EVENT is stored and OK'd; REQ is answered from the store
 * (one filter, matched by sc_relay_filter_match), then EOSE; the rest is ignored. */
static void net_send(net *n, size_t i, const char *text, size_t len)
{
    static uint8_t arena[1 << 16], earena[1 << 16];
    conn *c = &n->conn[i];
    const char *obj = memchr(text, '{', len);
    char buf[TEXT + 128], sub[65] = {0};
    sc_relay_filter f;
    sc_event ev;
    size_t used = 0, k, olen = obj != NULL ? len - (size_t)(obj - text) - 1 : 0;

    if (strncmp(text, "[\"EVENT\",", 9) == 0 &&
        sc_event_parse(&ev, earena, sizeof earena, &used, obj, olen, NULL) == SC_OK) {
        snprintf(c->to->stored[c->to->n_stored++ % N_STORED], TEXT, "%.*s", (int)olen, obj);
        snprintf(buf, sizeof buf, "[\"OK\",\"%.64s\",true,\"\"]", strstr(obj, "\"id\":\"") + 6);
        says(c, buf);
    } else if (strncmp(text, "[\"REQ\",\"", 8) == 0 && obj != NULL &&
               sscanf(text + 8, "%64[^\"]", sub) == 1 &&
               sc_relay_filter_parse(&f, arena, sizeof arena, &used, obj, olen) == SC_OK) {
        for (k = 0; k < c->to->n_stored && k < N_STORED; k++) {
            const char *s = c->to->stored[k];

            if (sc_event_parse(&ev, earena, sizeof earena, &used, s, strlen(s), NULL) == SC_OK &&
                sc_relay_filter_match(&f, 1, &ev) == SC_OK) {
                snprintf(buf, sizeof buf, "[\"EVENT\",\"%s\",%s]", sub, s);
                says(c, buf);
            }
        }
        snprintf(buf, sizeof buf, "[\"EOSE\",\"%s\"]", sub);
        says(c, buf);
    }
}

/* The next text any relay has for the client (its connection in *i), or NULL. */
static const char *net_recv(net *n, size_t *i, size_t *len)
{
    for (*i = 0; *i < n->n; (*i)++) {
        conn *c = &n->conn[*i];

        if (c->next < c->n_queue) {
            const char *t = c->queue[c->next++ % (N_STORED + 2)];

            *len = strlen(t);
            return t;
        }
    }
    return NULL;
}

/* ---- the application -------------------------------------------------------------------- */

typedef struct app {
    sc_ctx *ctx;
    sc_identity *me;
    sc_pool pool;
    void *pool_mem;
    net net;
    int64_t now;
    sc_inboxes inboxes;  /* alice: who reads where */
    sc_delivery d;       /* alice: the message on its way */
    uint8_t saved[8192]; /* alice: the record as the application stores it */
    size_t saved_len;
    sc_pool_cursor cursor; /* bob: what his inbox delivered, and where each relay resumes */
    int eose, read;
    sc_status st; /* the last of the calls whose failure this example only notes */
} app;

static int eose(const app *a)
{
    return a->eose;
}

static int delivered(const app *a)
{
    return sc_delivery_outcome_get(&a->d) != SC_DELIVERY_PENDING;
}

static int read_one(const app *a)
{
    return a->read > 0;
}

/* api.md: begin client */
/* What the pool reports: relay lists, messages, the EOSE, how the delivery goes. */
static void on_update(app *a, const sc_pool_update *u)
{
    static uint8_t arena[1 << 17];
    sc_nip17_received msg;
    size_t used = 0;

    if (u->kind == SC_POOL_U_EVENT && u->event->kind == SC_NIP17_KIND_INBOX_RELAYS) {
        a->st = sc_inboxes_add(&a->inboxes, u->event); /* verified by the pool */
    } else if (u->kind == SC_POOL_U_EVENT &&
               sc_nip17_receive(a->ctx, &msg, arena, sizeof arena, &used, u->event_json.ptr,
                                u->event_json.len, a->me) == SC_OK) {
        printf("message: %.*s\n", (int)msg.rumor.content.len, msg.rumor.content.ptr);
        a->read++; /* a real one stores it with the cursor's bytes, in one transaction */
        sc_mem_wipe(arena, used);
    } else if (u->kind == SC_POOL_U_EOSE) {
        a->eose = 1;
    } else if (sc_delivery_apply(&a->d, u) == SC_OK) { /* PUBLISHED, PUBLISH_DONE */
        a->st = sc_delivery_save(&a->d, a->saved, sizeof a->saved, &a->saved_len);
    }
}

/* The loop: updates, texts out, one text in; else the clock on to the wakeup (wait on sockets) */
static int run(app *a, int (*done)(const app *))
{
    static uint8_t arena[1 << 17];
    static char out[1 << 16];
    const char *text;
    sc_pool_update u;
    size_t len = 0, i;

    for (;;) {
        while (sc_pool_poll(&a->pool, a->ctx, a->now, &u) == SC_OK && u.kind != SC_POOL_U_NONE) {
            if (u.kind == SC_POOL_U_CONNECT) { /* open a socket to u.url */
                net_open(&a->net, u.relay, u.url);
                CHECK(sc_pool_connected(&a->pool, u.relay, a->now));
            }
            on_update(a, &u);
        }
        if (done(a)) {
            return 0;
        }
        for (i = 0; i < a->net.n; i++) {
            while (sc_pool_next(&a->pool, a->net.conn[i].handle, out, sizeof out, &len) == 0 &&
                   len > 0) {
                net_send(&a->net, i, out, len);
            }
        }
        if ((text = net_recv(&a->net, &i, &len)) != NULL) {
            a->st = sc_pool_receive(&a->pool, a->ctx, a->net.conn[i].handle, text, len, a->now,
                                    arena, sizeof arena);
        } else if (sc_pool_wakeup(&a->pool) == INT64_MAX) {
            return 1; /* nothing more will happen */
        } else if (sc_pool_wakeup(&a->pool) > a->now) {
            a->now = sc_pool_wakeup(&a->pool);
        }
    }
}
/* api.md: end client */

static int app_init(app *a, sc_ctx *ctx, sc_identity *me)
{
    size_t cap = sc_pool_mem_max(NULL);

    memset(a, 0, sizeof *a);
    a->ctx = ctx;
    a->me = me;
    a->now = INT64_C(1700000000000); /* unix milliseconds */
    a->net.ctx = ctx;
    a->pool_mem = malloc(cap);
    if (a->pool_mem == NULL) {
        return 1;
    }
    CHECK(sc_pool_init(&a->pool, a->pool_mem, cap, NULL));
    return 0;
}

/* The message: a gift wrap for bob and one for alice's own copy, in out. */
static int make_message(sc_ctx *ctx, const sc_identity *alice, const uint8_t bob[32], char **out,
                        size_t *out_len, sc_nip17_wrap wraps[2])
{
    uint8_t rumor_buf[1024], alice_pub[SC_PUBKEY_BYTES];
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor;
    size_t n = 0, cap, scap;
    void *scratch;

    CHECK(sc_identity_pubkey(alice_pub, alice));
    memset(&to, 0, sizeof to);
    memcpy(to.pubkey, bob, SC_PUBKEY_BYTES);
    memset(&m, 0, sizeof m);
    m.content = SC_STR("lunch at noon?");
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    CHECK(sc_nip17_chat_rumor(ctx, &rumor, rumor_buf, sizeof rumor_buf, &m, alice_pub));
    cap = sc_nip17_send_max(&rumor, alice_pub, NULL);
    scap = sc_nip17_send_scratch_max(&rumor, alice_pub, NULL);
    *out = malloc(cap);
    scratch = malloc(scap);
    if (*out == NULL || scratch == NULL) {
        return 1;
    }
    CHECK(sc_nip17_send(ctx, *out, cap, out_len, wraps, 2, &n, scratch, scap, &rumor, alice, NULL));
    free(scratch);
    return n == 2 ? 0 : 1;
}

/* bob's kind 10050 lies on the bootstrap relay (`softchat dm inbox set` publishes one) */
static int bob_lists_inbox(sc_ctx *ctx, const sc_identity *bob)
{
    static const sc_str relays[1] = {SC_STR("wss://inbox.example")};
    uint8_t buf[1024];
    char json[2048];
    size_t len = 0;
    sc_event list;

    CHECK(sc_nip17_inbox_build(&list, buf, sizeof buf, relays, 1, 1700000000));
    CHECK(sc_event_sign(ctx, &list, bob));
    CHECK(sc_event_to_json(json, sizeof json, &len, &list, SC_EVENT_JSON_OBJECT));
    snprintf(world[0].stored[world[0].n_stored++], TEXT, "%.*s", (int)len, json);
    return 0;
}

int main(int argc, char **argv)
{
    static uint8_t dir_mem[1 << 16], record[1 << 16], cursor_mem[1 << 17], farena[4096];
    static app alice, bob;
    static const sc_pool_sub_opts once = {0, 0, SC_POOL_SUB_ONCE, NULL, NULL};
    uint8_t bob_pub[1][SC_PUBKEY_BYTES];
    sc_identity a_id, b_id;
    sc_nip17_wrap wraps[2];
    sc_delivery_route routes[2];
    sc_relay_filter f;
    sc_pool_sub_opts so;
    sc_str inbox[4];
    size_t out_len = 0, n_inbox = 0, used = 0;
    uint32_t boot, mine, sub;
    char *out = NULL, hex[65], filter[128];
    sc_ctx ctx;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    CHECK(sc_identity_generate(&ctx, &a_id));
    CHECK(sc_identity_generate(&ctx, &b_id));
    CHECK(sc_identity_pubkey(bob_pub[0], &b_id));
    CHECK(sc_hex_encode(hex, sizeof hex, &used, bob_pub[0], SC_PUBKEY_BYTES));
    snprintf(filter, sizeof filter, "{\"kinds\":[1059],\"#p\":[\"%.64s\"]}", hex);
    if (bob_lists_inbox(&ctx, &b_id) != 0 ||
        make_message(&ctx, &a_id, bob_pub[0], &out, &out_len, wraps) != 0 ||
        app_init(&alice, &ctx, &a_id) != 0 || app_init(&bob, &ctx, &b_id) != 0) {
        return 1;
    }
    CHECK(sc_inboxes_init(&alice.inboxes, dir_mem, sizeof dir_mem, 4, 8, 256));
    CHECK(sc_pool_cursor_init(&bob.cursor, cursor_mem, sizeof cursor_mem, 1024, 4, 256));
    memset(&so, 0, sizeof so);
    /* api.md: begin dm */
    /* alice: bob's inbox relays, his kind 10050 from a bootstrap relay (none: SC_ERR_NO_INBOX,
     * NIP-17's "not ready" for DMs) */
    CHECK(sc_pool_relay_add(&alice.pool, &boot, SC_STR("wss://bootstrap.example")));
    CHECK(sc_inboxes_filter(&f, bob_pub, 1));
    CHECK(sc_pool_subscribe(&alice.pool, &sub, SC_STR("lists"), &f, 1, &boot, 1, &once));
    CHECK(run(&alice, eose));
    CHECK(sc_inboxes_get(&alice.inboxes, inbox, 4, &n_inbox, NULL, bob_pub[0], 0));
    /* the message, both wraps (bob's and alice's copy) to his inbox, with its record */
    routes[0].relays = routes[1].relays = inbox;
    routes[0].n_relays = routes[1].n_relays = n_inbox;
    CHECK(sc_delivery_init(&alice.d, record, sizeof record, out, out_len, wraps, 2, routes));
    CHECK(sc_delivery_save(&alice.d, alice.saved, sizeof alice.saved, &alice.saved_len));
    CHECK(sc_delivery_start(&alice.d, &alice.pool)); /* the intent is saved: send */
    CHECK(run(&alice, delivered));
    /* bob: kind 1059 p-tagged to him, on his inbox, resumable with a cursor */
    CHECK(sc_relay_filter_parse(&f, farena, sizeof farena, &used, filter, strlen(filter)));
    so.cursor = &bob.cursor;
    so.resume_slack = SC_POOL_SLACK_GIFT_WRAP;
    CHECK(sc_pool_relay_add(&bob.pool, &mine, inbox[0]));
    CHECK(sc_pool_subscribe(&bob.pool, &sub, SC_STR("inbox"), &f, 1, &mine, 1, &so));
    CHECK(run(&bob, read_one));
    /* api.md: end dm */
    printf("alice: %s (%zu record bytes saved); bob: %d message(s)\n",
           sc_delivery_outcome_get(&alice.d) == SC_DELIVERY_DELIVERED ? "delivered" : "not yet",
           alice.saved_len, bob.read);
    sc_delivery_clear(&alice.d);
    sc_inboxes_clear(&alice.inboxes);
    sc_pool_cursor_clear(&bob.cursor);
    sc_pool_clear(&alice.pool);
    sc_pool_clear(&bob.pool);
    free(alice.pool_mem);
    free(bob.pool_mem);
    free(out);
    sc_identity_clear(&a_id);
    sc_identity_clear(&b_id);
    sc_ctx_clear(&ctx);
    return sc_delivery_outcome_get(&alice.d) == SC_DELIVERY_PENDING && bob.read == 1 ? 0 : 1;
}
