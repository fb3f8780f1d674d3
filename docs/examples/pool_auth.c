/* docs/api.md "The relay pool", NIP-42 with an external signer: a pool without an identity
 * publishes to a relay that requires AUTH. The relay refuses the event until it knows who
 * publishes, the pool reports SC_POOL_U_AUTH_WANTED, and the application has the AUTH event
 * signed by the user's external signer, then hands it to the pool, which checks it and sends
 * it; the event goes out again and is accepted. The relay and the signer are in-process
 * stand-ins (the signer answers a SIGN_EVENT request as a NIP-46 bunker would: docs/examples/
 * nip46.c carries one over NIP-46), so the example runs anywhere. Run: pool_auth [BACKEND].
 * Exit 0 when the event was accepted after the AUTH. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        sc_status st_ = (call);                                                                    \
        if (st_ != SC_OK) {                                                                        \
            fprintf(stderr, "%s: %s\n", #call, sc_status_name(st_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define URL "wss://members.example"
#define CHALLENGE "example-challenge"

/* ---- the stand-in relay: a challenge on connect, EVENT refused until an AUTH verifies ---- */

typedef struct relay {
    sc_ctx *ctx;
    int authed;
    char reply[8][256]; /* texts for the client */
    size_t n_reply, next;
} relay;

static void relay_say(relay *r, const char *text)
{
    if (r->n_reply < 8) {
        snprintf(r->reply[r->n_reply++], sizeof r->reply[0], "%s", text);
    }
}

/* One text from the client: an AUTH is checked as NIP-42 says, an EVENT stored or refused. */
static void relay_take(relay *r, const char *text, size_t len, int64_t now_s)
{
    static uint8_t arena[8192];
    char hex[65], out[256];
    size_t used = 0, n = 0;
    sc_event ev;
    int auth = len > 9 && memcmp(text, "[\"AUTH\",{", 9) == 0;
    size_t skip = auth ? 8 : 9; /* ["AUTH", or ["EVENT", */

    if (len < skip + 2 ||
        sc_event_parse(&ev, arena, sizeof arena, &used, text + skip, len - skip - 1, NULL) !=
            SC_OK ||
        sc_hex_encode(hex, sizeof hex, &n, ev.id, sizeof ev.id) != SC_OK) {
        return;
    }
    hex[n] = '\0';
    if (auth) {
        r->authed =
            sc_relay_auth_verify(r->ctx, &ev, SC_STR(URL), SC_STR(CHALLENGE), now_s, 0) == SC_OK;
        snprintf(out, sizeof out, "[\"OK\",\"%s\",%s,\"\"]", hex, r->authed ? "true" : "false");
    } else {
        snprintf(out, sizeof out, "[\"OK\",\"%s\",%s]", hex,
                 r->authed ? "true,\"\"" : "false,\"auth-required: members only\"");
    }
    relay_say(r, out);
}

/* ---- the stand-in external signer: the user's key lives here, not in the application ---- */

static int signer_answer(sc_ctx *ctx, const sc_identity *user, const sc_signer_req *req,
                         char *answer, size_t cap, size_t *len)
{
    sc_event copy;

    if (req->kind != SC_SIGNER_REQ_SIGN_EVENT) {
        return 1;
    }
    copy = *req->event;
    CHECK(sc_event_sign(ctx, &copy, user));
    CHECK(sc_hex_encode(answer, cap, len, copy.sig, sizeof copy.sig));
    return 0;
}

/* ---- the application -------------------------------------------------------------------- */

typedef struct app {
    sc_ctx *ctx;
    sc_pool pool;
    sc_signer signer; /* external: the user's public key only */
    uint8_t user_pub[SC_PUBKEY_BYTES];
    const sc_identity *signer_key; /* the stand-in signer's */
    int64_t now_ms;
    int done, accepted;
} app;

static int on_update(app *a, relay *r, const sc_pool_update *u)
{
    static sc_signer_op op;
    sc_relay_auth auth;
    sc_signer_req req;
    char answer[256];
    size_t answer_len = 0;
    sc_status st;

    switch (u->kind) {
    case SC_POOL_U_CONNECT:
        CHECK(sc_pool_connected(&a->pool, u->relay, a->now_ms));
        relay_say(r, "[\"AUTH\",\"" CHALLENGE "\"]");
        break;
    /* api.md: begin auth_wanted */
    case SC_POOL_U_AUTH_WANTED: /* the relay refused something until it knows who we are */
        CHECK(sc_pool_auth_template(&a->pool, &auth, u->relay, a->user_pub, a->now_ms / 1000));
        CHECK(sc_event_sign_start(a->ctx, &op, &auth.event, &a->signer));
        while ((st = sc_signer_op_step(&op, a->ctx, a->now_ms, &req)) == SC_OK &&
               req.kind != SC_SIGNER_REQ_NONE) {
            /* carry req to the signer (NIP-46: sc_nip46_call_from_req), its answer back */
            if (signer_answer(a->ctx, a->signer_key, &req, answer, sizeof answer, &answer_len)) {
                st = sc_signer_op_refuse(&op); /* refused: what waits ends auth-required: */
            } else {
                st = sc_signer_op_answer(&op, a->ctx, answer, answer_len); /* verified here */
            }
            CHECK(st);
        }
        sc_signer_op_clear(&op);
        CHECK(st);
        /* checked as the relay will check it (URL, challenge, time, signature), then sent */
        CHECK(sc_pool_auth_send(&a->pool, a->ctx, u->relay, &auth.event, a->now_ms / 1000));
        break;
    /* api.md: end auth_wanted */
    case SC_POOL_U_PUBLISHED:
        a->accepted = u->result == SC_POOL_ACCEPTED;
        printf("published: %s after %u attempts (%.*s)\n", a->accepted ? "accepted" : "not",
               (unsigned)u->attempts, (int)u->text.len, u->text.ptr);
        break;
    case SC_POOL_U_PUBLISH_DONE:
        a->done = 1;
        break;
    default:
        break;
    }
    return 0;
}

/* Polls, sends, delivers the relay's answers, until the publish is done. */
static int run(app *a, relay *r, uint32_t h)
{
    static uint8_t arena[1 << 16];
    char out[4096];
    size_t len = 0;
    sc_pool_update u;
    int turns;

    for (turns = 0; turns < 100 && !a->done; turns++) {
        while (sc_pool_poll(&a->pool, a->ctx, a->now_ms, &u) == SC_OK && u.kind != SC_POOL_U_NONE) {
            if (on_update(a, r, &u) != 0) {
                return 1;
            }
        }
        while (sc_pool_next(&a->pool, h, out, sizeof out, &len) == SC_OK && len > 0) {
            relay_take(r, out, len, a->now_ms / 1000);
        }
        if (r->next < r->n_reply) {
            const char *t = r->reply[r->next++];

            CHECK(
                sc_pool_receive(&a->pool, a->ctx, h, t, strlen(t), a->now_ms, arena, sizeof arena));
        }
        a->now_ms += 10;
    }
    return a->done && a->accepted ? 0 : 1;
}

int main(int argc, char **argv)
{
    static uint8_t mem[1 << 20];
    sc_identity author, user;
    sc_pool_opts o;
    sc_event ev;
    uint32_t h, pub;
    relay r;
    app a;
    sc_ctx ctx;
    int rc;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    CHECK(sc_identity_generate(&ctx, &author)); /* signs the event (a gift wrap's own key) */
    CHECK(sc_identity_generate(&ctx, &user));   /* the user's key, in the signer only */
    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    a.ctx = r.ctx = &ctx;
    a.now_ms = INT64_C(1700000000000);
    a.signer_key = &user;
    CHECK(sc_identity_pubkey(a.user_pub, &user));
    CHECK(sc_signer_init_external(&a.signer, a.user_pub, 0));
    memset(&o, 0, sizeof o);
    o.max_relays = 1;
    o.max_subs = 1;
    o.max_publishes = 1;
    o.auth = SC_POOL_AUTH_ON_DEMAND; /* the default: sign only for a relay that asks */
    CHECK(sc_pool_init(&a.pool, mem, sizeof mem, &o)); /* no sc_pool_auth_identity */
    CHECK(sc_pool_relay_add(&a.pool, &h, SC_STR(URL)));
    memset(&ev, 0, sizeof ev);
    ev.kind = 1;
    ev.created_at = 1700000000;
    ev.content = SC_STR("for members");
    ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    CHECK(sc_event_sign(&ctx, &ev, &author));
    CHECK(sc_pool_publish(&a.pool, &pub, &ev, &h, 1, NULL));
    rc = run(&a, &r, h);
    sc_pool_clear(&a.pool);
    sc_signer_clear(&a.signer);
    sc_identity_clear(&author);
    sc_identity_clear(&user);
    sc_ctx_clear(&ctx);
    if (rc == 0) {
        printf("pool_auth: ok\n");
    }
    return rc;
}
