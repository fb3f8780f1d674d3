/* docs/api.md "The relay session": the application's loop around a sans-IO relay session.
 * The "socket" here is a tiny in-process stand-in for a relay (it asks for AUTH, stores
 * events, answers REQs and drops the connection once), so the example runs anywhere; a real
 * application puts a WebSocket where send_text() and the inbox are (cli/relay_client.c does).
 * Run: relay_session [BACKEND]. */
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

/* ---- the stand-in relay: a queue of texts for the client ---------------------------------- */

typedef struct fake_relay {
    sc_ctx *ctx;
    char inbox[8][4096]; /* texts waiting for the client */
    size_t n_in, next_in;
    char stored[4096]; /* the one event it holds (the JSON object), "" when none */
    int authed;
} fake_relay;

static void relay_says(fake_relay *r, const char *text)
{
    size_t n = strlen(text);
    char *slot = r->inbox[r->n_in++ % 8];

    n = n < sizeof r->inbox[0] - 1 ? n : sizeof r->inbox[0] - 1;
    memcpy(slot, text, n);
    slot[n] = '\0';
}

static void relay_connect(fake_relay *r)
{
    r->authed = 0;
    relay_says(r, "[\"AUTH\",\"challenge-7\"]");
}

/* What the relay does with one client message (no JSON library: enough for the example). */
static void send_text(fake_relay *r, const char *text, size_t len)
{
    char buf[4200];
    const char *obj = strchr(text, '{'), *id = strstr(text, "\"id\":\"");

    if (strncmp(text, "[\"AUTH\",", 8) == 0) {
        r->authed = 1;
        snprintf(buf, sizeof buf, "[\"OK\",\"%.64s\",true,\"\"]", id + 6);
        relay_says(r, buf);
    } else if (strncmp(text, "[\"REQ\",", 7) == 0 && !r->authed) {
        relay_says(r, "[\"CLOSED\",\"inbox\",\"auth-required: who are you?\"]");
    } else if (strncmp(text, "[\"REQ\",", 7) == 0) {
        if (r->stored[0] != '\0') {
            snprintf(buf, sizeof buf, "[\"EVENT\",\"inbox\",%s]", r->stored);
            relay_says(r, buf);
        }
        relay_says(r, "[\"EOSE\",\"inbox\"]");
    } else if (strncmp(text, "[\"EVENT\",", 9) == 0) {
        snprintf(r->stored, sizeof r->stored, "%.*s", (int)(len - (size_t)(obj - text) - 1), obj);
        snprintf(buf, sizeof buf, "[\"OK\",\"%.64s\",true,\"\"]", id + 6);
        relay_says(r, buf);
        snprintf(buf, sizeof buf, "[\"EVENT\",\"inbox\",%s]", r->stored); /* live */
        relay_says(r, buf);
    }
}

int main(int argc, char **argv)
{
    static uint8_t mem[16384], arena[65536];
    static char out[8192];
    static const uint32_t kinds[] = {1};
    fake_relay relay;
    sc_relay_session s;
    sc_relay_filter f;
    sc_identity me;
    sc_event note;
    uint8_t seed[32];
    size_t len = 0, delivered = 0, accepted = 0;
    int64_t now_ms = 0, retry_at = 0, round;
    const sc_str url = SC_STR("wss://relay.example");
    sc_ctx ctx;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    memset(seed, 0x5a, sizeof seed);
    CHECK(sc_identity_import(&ctx, &me, seed));
    memset(&relay, 0, sizeof relay);
    relay.ctx = &ctx;
    memset(&note, 0, sizeof note);
    note.kind = 1;
    note.created_at = 1700000000;
    note.content = SC_STR("hello relay");
    CHECK(sc_event_sign(&ctx, &note, &me));
    memset(&f, 0, sizeof f);
    f.kinds = kinds;
    f.n_kinds = 1;

    /* api.md: begin loop */
    /* the session lives in our memory; the filters and events stay ours */
    CHECK(sc_relay_session_init(&s, mem, sizeof mem, 4, 4, url, NULL));
    CHECK(sc_relay_session_subscribe(&s, SC_STR("inbox"), &f, 1));
    CHECK(sc_relay_session_publish(&s, &note));

    for (round = 0; round < 2; round++) {
        relay_connect(&relay); /* our socket opened */
        CHECK(sc_relay_session_connected(&s, now_ms));
        for (;;) {
            sc_relay_msg m;
            sc_relay_update u;
            size_t used = 0;
            const char *text;

            /* 1. send whatever the session has queued */
            do {
                CHECK(sc_relay_session_next(&s, out, sizeof out, &len));
                if (len > 0) {
                    send_text(&relay, out, len);
                }
            } while (len > 0);
            if (relay.next_in == relay.n_in) {
                break; /* nothing more from the relay: in a real loop, wait on the socket */
            }
            /* 2. one text from the socket: parse (the event is verified), then apply */
            text = relay.inbox[relay.next_in++ % 8];
            if (sc_relay_parse(&ctx, &m, arena, sizeof arena, &used, text, strlen(text), NULL) !=
                    SC_OK ||
                sc_relay_session_handle(&s, &u, &m) != SC_OK) {
                continue; /* malformed, forged or not ours: drop it */
            }
            switch (u.kind) {
            case SC_RELAY_U_AUTH_CHALLENGE: /* answer as `me`, now in unix seconds */
                CHECK(sc_relay_session_auth(&s, &ctx, out, sizeof out, &len, &me, 1700000000));
                send_text(&relay, out, len);
                break;
            case SC_RELAY_U_EVENT: /* store it, keyed by id: a resumed REQ may repeat it */
                delivered++;
                break;
            case SC_RELAY_U_ACCEPTED:
                accepted++;
                break;
            case SC_RELAY_U_REJECTED: /* m.prefix, m.reason say why */
            default:
                break;
            }
        }
        /* our socket closed: the session says when to try again */
        CHECK(sc_relay_session_disconnected(&s, now_ms, &retry_at));
        now_ms = retry_at;
    }
    sc_relay_session_clear(&s);
    /* api.md: end loop */

    printf("delivered %zu, accepted %zu, pending %zu\n", delivered, accepted,
           sc_relay_session_pending(&s));
    sc_identity_clear(&me);
    sc_ctx_clear(&ctx);
    /* first connection: AUTH, the REQ again, the note published and echoed live; second: the
     * REQ resumed from the newest created_at, the stored note sent once more */
    return (delivered == 3 && accepted == 1) ? 0 : 1;
}
