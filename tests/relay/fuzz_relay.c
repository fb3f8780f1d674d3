/* Relay messages, filters and the relay session, driven as a relay (or anyone on the path to
 * it) can drive them. Input: a mode byte (data[0] % 4), then the mode's bytes.
 *   0 raw:     the rest is a relay message text, parsed with the default options or (by
 *              (data[0] >> 2) % 4) with max_depth 1..3.
 *   1 event:   the rest describes an event (kind, created_at, a tag, content), signed by a
 *              fixed identity and sent as ["EVENT", sub_id, event], possibly with its id or
 *              signature damaged, so that the code after verification is reached.
 *   2 filter:  the rest is a filter object.
 *   3 script:  the rest is a sequence of session calls and relay messages.
 * Checks: sc_relay_parse returns only its documented statuses; a failure zeroes the message
 * and leaves the arena holding only zeroed or untouched bytes; the NULL-arena query gives the
 * same verdict (or, for an event that does not verify, a need) and a need that suffices at
 * another address, where the same message comes out; one byte short is SC_ERR_BUFFER_TOO_SMALL
 * with nothing written; every view lies in the arena, and nothing past arena_used is touched;
 * sub ids are 1..64 bytes; the reason is the tail of the message after its prefix; an EVENT
 * verifies. The message is applied to a session, whose verdict must agree with
 * sc_relay_filter_match, and an AUTH challenge (any text) is answered with an AUTH event that
 * sc_relay_auth_verify accepts for that challenge. A parsed filter is written in a REQ and
 * parses back the same, and the rewrite is byte for byte the same text. In a script, every
 * call returns a documented status, sc_relay_session_next_len is exactly what next writes, and
 * the pending count stays within its capacity.
 */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define URL "wss://relay.example"
#define NOW_S 1700000000
#define MAX_SUBS 3
#define MAX_PENDING 2
#define N_EVENTS 3

static struct {
    sc_event ev[N_EVENTS]; /* signed by identity 1: kinds 1, 4, 1059 */
} g;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const uint32_t kinds[N_EVENTS] = {1, 4, 1059};
    unsigned i;

    (void)argc;
    (void)argv;
    fz_setup();
    for (i = 0; i < N_EVENTS; i++) {
        sc_event *e = &g.ev[i];
        size_t len = 0;
        char *json;

        memset(e, 0, sizeof *e);
        e->kind = kinds[i];
        e->created_at = NOW_S - 100 + (int64_t)i;
        e->content = SC_STR("published");
        e->flags =
            SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
        json = fz_signed_json(fz_ctx(0), e, 1, &len);
        FZ_REQUIRE(json != NULL);
        free(json);
    }
    return 0;
}

/* ---- parsing ------------------------------------------------------------------------------ */

static sc_str str_of(const char *s)
{
    sc_str r;

    r.ptr = s;
    r.len = strlen(s);
    return r;
}

static int has_sub_id(sc_relay_type t)
{
    return t == SC_RELAY_EVENT || t == SC_RELAY_EOSE || t == SC_RELAY_CLOSED ||
           t == SC_RELAY_COUNT || t == SC_RELAY_NEG_MSG || t == SC_RELAY_NEG_ERR;
}

static int has_prefix(sc_relay_type t)
{
    return t == SC_RELAY_OK || t == SC_RELAY_CLOSED || t == SC_RELAY_NEG_ERR;
}

static int same_msg(const sc_relay_msg *a, const sc_relay_msg *b)
{
    return a->type == b->type && fz_same_str(a->sub_id, b->sub_id) &&
           memcmp(a->event_id, b->event_id, sizeof a->event_id) == 0 &&
           a->accepted == b->accepted && a->prefix == b->prefix &&
           fz_same_str(a->message, b->message) && fz_same_str(a->reason, b->reason) &&
           a->count == b->count && a->neg_len == b->neg_len &&
           (a->neg_len == 0 || memcmp(a->neg, b->neg, a->neg_len) == 0) &&
           (a->type != SC_RELAY_EVENT ||
            (fz_same_event(&a->event, &b->event) && a->event.flags == b->event.flags &&
             memcmp(a->event.sig, b->event.sig, 64) == 0));
}

static void check_msg(const sc_relay_msg *m, const uint8_t *a, size_t used)
{
    size_t t, i;

    FZ_REQUIRE(m->type >= SC_RELAY_EVENT && m->type <= SC_RELAY_NEG_ERR);
    FZ_REQUIRE(fz_inside(m->sub_id, a, used) && fz_inside(m->message, a, used) &&
               fz_inside(m->reason, a, used));
    FZ_REQUIRE(has_sub_id(m->type) ? (m->sub_id.len >= 1 && m->sub_id.len <= SC_RELAY_SUB_ID_MAX)
                                   : m->sub_id.len == 0);
    if (has_prefix(m->type)) {
        /* the reason is the message's tail: all of it without a prefix */
        FZ_REQUIRE(m->reason.len <= m->message.len);
        FZ_REQUIRE(m->message.len == 0 ||
                   m->reason.ptr + m->reason.len == m->message.ptr + m->message.len);
        if (m->prefix == SC_RELAY_PREFIX_NONE) {
            FZ_REQUIRE(m->reason.len == m->message.len);
        } else {
            FZ_REQUIRE(m->reason.len < m->message.len &&
                       (m->reason.len == 0 || m->reason.ptr[0] != ' ') &&
                       memchr(m->message.ptr, ':', m->message.len) != NULL);
        }
    } else {
        FZ_REQUIRE(m->prefix == SC_RELAY_PREFIX_NONE && m->reason.len == 0);
    }
    if (m->type == SC_RELAY_NEG_MSG) {
        FZ_REQUIRE(m->neg_len >= 1 && m->neg >= a && m->neg + m->neg_len <= a + used);
    } else {
        FZ_REQUIRE(m->neg_len == 0 && m->neg == NULL);
    }
    if (m->type == SC_RELAY_EVENT) {
        FZ_REQUIRE((m->event.flags & SC_EVENT_HAS_ALL) == SC_EVENT_HAS_ALL);
        FZ_REQUIRE(sc_event_check(&m->event) == SC_OK);
        FZ_REQUIRE(fz_inside(m->event.content, a, used));
        for (t = 0; t < m->event.n_tags; t++) {
            FZ_REQUIRE((const uint8_t *)&m->event.tags[t] >= a &&
                       (const uint8_t *)(&m->event.tags[t] + 1) <= a + used);
            for (i = 0; i < m->event.tags[t].n_items; i++) {
                FZ_REQUIRE(fz_inside(m->event.tags[t].items[i], a, used));
            }
        }
    } else {
        FZ_REQUIRE(m->event.flags == 0);
    }
}

/* Parses json[0..n) with every check above, under o (NULL: the defaults). On SC_OK the
 * message's views point into the returned arena (*arena, to free); otherwise *arena is NULL. */
static sc_status parse_checked(sc_ctx *ctx, const char *json, size_t n,
                               const sc_relay_parse_opts *o, sc_relay_msg *m, uint8_t **arena)
{
    size_t cap = sc_relay_parse_arena_max(n), used = 7, need = 7;
    sc_relay_msg m0;
    uint8_t *a;
    sc_status st, st0;

    *arena = NULL;
    FZ_REQUIRE(cap != 0);
    st0 = sc_relay_parse(ctx, &m0, NULL, 0, &need, json, n, o);
    a = fz_alloc(cap);
    st = sc_relay_parse(ctx, m, a, cap, &used, json, n, o);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_JSON, SC_ERR_UTF8, SC_ERR_RELAY_MESSAGE, SC_ERR_RELAY_UNKNOWN,
                 SC_ERR_EVENT_FIELD, SC_ERR_EVENT_RANGE, SC_ERR_ID_MISMATCH, SC_ERR_INVALID_SIG,
                 SC_ERR_TOO_LARGE);
    FZ_REQUIRE(st0 == SC_OK || fz_all_zero(&m0, sizeof m0));
    if (st != SC_OK) {
        FZ_REQUIRE(used == 0 && fz_all_zero(m, sizeof *m));
        FZ_REQUIRE(fz_all_zero_or(a, cap, FZ_CANARY));
        if (st == SC_ERR_ID_MISMATCH || st == SC_ERR_INVALID_SIG) {
            /* verification runs only once the event is in an arena */
            FZ_REQUIRE(st0 == SC_ERR_BUFFER_TOO_SMALL && need > 0);
        } else {
            FZ_REQUIRE(st0 == st && need == 0);
        }
        free(a);
        return st;
    }
    FZ_REQUIRE(used <= cap && fz_all_equal(a + used, cap - used, FZ_CANARY));
    check_msg(m, a, used);
    if (st0 == SC_OK) {
        FZ_REQUIRE(used == 0 && need == 0 && same_msg(m, &m0)); /* nothing in an arena */
    } else {
        uint8_t *fitted, *small;
        size_t again = 0;

        FZ_REQUIRE(st0 == SC_ERR_BUFFER_TOO_SMALL && need >= used);
        /* the need of the NULL-arena query suffices at another address */
        fitted = fz_alloc(need);
        FZ_REQUIRE(sc_relay_parse(ctx, &m0, fitted, need, &again, json, n, o) == SC_OK);
        FZ_REQUIRE(same_msg(m, &m0) && again <= need);
        free(fitted);
        /* one byte short: nothing written */
        small = fz_alloc(used - 1);
        FZ_REQUIRE(sc_relay_parse(ctx, &m0, used - 1 != 0 ? small : NULL, used - 1, &again, json, n,
                                  o) == SC_ERR_BUFFER_TOO_SMALL);
        FZ_REQUIRE(again >= used && fz_all_zero(&m0, sizeof m0));
        FZ_REQUIRE(fz_all_equal(small, used - 1 != 0 ? used - 1 : 1, FZ_CANARY));
        free(small);
    }
    *arena = a; /* an EVENT came out verified: sc_relay_parse ran sc_event_verify */
    return SC_OK;
}

/* Parses one of the script's own messages (well formed by construction) in the bound. */
static void parse_plain(sc_ctx *ctx, const char *json, size_t n, sc_relay_msg *m, uint8_t **arena)
{
    size_t cap = sc_relay_parse_arena_max(n), used = 0;

    *arena = fz_alloc(cap);
    FZ_REQUIRE(sc_relay_parse(ctx, m, *arena, cap, &used, json, n, NULL) == SC_OK);
    check_msg(m, *arena, used);
}

/* ---- the session -------------------------------------------------------------------------- */

typedef struct session {
    sc_relay_session s;
    uint8_t *mem;
    int connected;
    char out[4096];
} session;

static void session_open(session *ss)
{
    size_t cap = sc_relay_session_mem_max(MAX_SUBS, MAX_PENDING, sizeof URL - 1, NULL);

    FZ_REQUIRE(cap != 0);
    ss->mem = fz_alloc(cap);
    FZ_REQUIRE(sc_relay_session_init(&ss->s, ss->mem, cap, MAX_SUBS, MAX_PENDING, SC_STR(URL),
                                     NULL) == SC_OK);
    ss->connected = 0;
}

/* Clears the session; a cleared session refuses every call. */
static void session_close(session *ss)
{
    int64_t retry = 0;
    sc_relay_update u;
    sc_relay_msg m;

    sc_relay_session_clear(&ss->s);
    memset(&m, 0, sizeof m);
    m.type = SC_RELAY_NOTICE;
    FZ_REQUIRE(sc_relay_session_connected(&ss->s, 0) == SC_ERR_STATE);
    FZ_REQUIRE(sc_relay_session_disconnected(&ss->s, 0, &retry) == SC_ERR_STATE);
    FZ_REQUIRE(sc_relay_session_handle(&ss->s, &u, &m) == SC_ERR_STATE);
    FZ_REQUIRE(sc_relay_session_next_len(&ss->s) == 0 && sc_relay_session_pending(&ss->s) == 0);
    FZ_REQUIRE(fz_all_zero(ss->mem,
                           sc_relay_session_mem_max(MAX_SUBS, MAX_PENDING, sizeof URL - 1, NULL)));
    free(ss->mem);
}

/* Writes every queued message (or, with cap_sel, one into a buffer of that size), checking
 * that next_len is exactly what next writes. */
static void drain(session *ss, unsigned limit, size_t cap_sel)
{
    while (limit-- > 0) {
        size_t want = sc_relay_session_next_len(&ss->s), len = 7;
        size_t cap = cap_sel != 0 ? cap_sel % (want + 2) : sizeof ss->out;
        sc_status st;

        if (cap > sizeof ss->out) {
            cap = sizeof ss->out;
        }
        if (!ss->connected) {
            FZ_REQUIRE(want == 0);
        }
        st = sc_relay_session_next(&ss->s, cap != 0 ? ss->out : NULL, cap, &len);
        FZ_STATUS_IN(st, SC_OK, SC_ERR_BUFFER_TOO_SMALL);
        if (st == SC_ERR_BUFFER_TOO_SMALL) {
            FZ_REQUIRE(len == want && cap < want);
            return;
        }
        FZ_REQUIRE(len == want);
        if (len == 0) {
            return;
        }
        FZ_REQUIRE(ss->out[0] == '[' && ss->out[len - 1] == ']');
        if (cap_sel != 0) {
            return;
        }
    }
}

/* The event in an AUTH message text ["AUTH", {...}] passes the relay-side check. */
static void check_auth_answer(sc_ctx *ctx, const char *text, size_t len, sc_str challenge)
{
    static const char head[] = "[\"AUTH\",";
    size_t cap, used = 0;
    uint8_t *arena;
    sc_event ev;

    FZ_REQUIRE(len > sizeof head && memcmp(text, head, sizeof head - 1) == 0 &&
               text[len - 1] == ']');
    cap = sc_event_parse_arena_max(len);
    arena = fz_alloc(cap);
    FZ_REQUIRE(sc_event_parse(&ev, arena, cap, &used, text + sizeof head - 1, len - sizeof head,
                              NULL) == SC_OK);
    FZ_REQUIRE(sc_relay_auth_verify(ctx, &ev, SC_STR(URL), challenge, NOW_S, 0) == SC_OK);
    FZ_REQUIRE(sc_relay_auth_verify(ctx, &ev, SC_STR("wss://other.example"), challenge, NOW_S, 0) ==
               SC_ERR_AUTH_RELAY);
    free(arena);
}

/* Applies m to the connected session and checks the update against what m says. */
static void apply(sc_ctx *ctx, session *ss, const sc_relay_msg *m, const sc_relay_filter *f,
                  size_t n_f)
{
    sc_relay_update u;
    sc_status st = sc_relay_session_handle(&ss->s, &u, m);
    int sub = m->sub_id.len == 3 && memcmp(m->sub_id.ptr, "sub", 3) == 0;

    if (!ss->connected) {
        FZ_REQUIRE(st == SC_ERR_STATE);
        return;
    }
    FZ_STATUS_IN(st, SC_OK, SC_ERR_SUBSCRIPTION, SC_ERR_NO_MATCH, SC_ERR_TOO_LARGE);
    FZ_REQUIRE(u.kind >= SC_RELAY_U_NONE && u.kind <= SC_RELAY_U_OTHER);
    if (m->type == SC_RELAY_EVENT && st != SC_ERR_SUBSCRIPTION && f != NULL) {
        sc_status want = sc_relay_filter_match(f, n_f, &m->event);

        FZ_STATUS_IN(want, SC_OK, SC_ERR_NO_MATCH);
        if (sub) {
            FZ_REQUIRE(st == want);
        }
        if (st == SC_OK) {
            FZ_REQUIRE(u.kind == SC_RELAY_U_EVENT && fz_same_str(u.sub_id, m->sub_id));
        }
    }
    if (st == SC_OK && m->type == SC_RELAY_AUTH) {
        char *out = ss->out;
        size_t len = 0, need = 0;
        uint8_t aux[32];

        FZ_REQUIRE(u.kind == SC_RELAY_U_AUTH_CHALLENGE);
        memset(aux, 0x3c, sizeof aux);
        st = sc_relay_session_auth_with_rand(&ss->s, ctx, NULL, 0, &need, fz_id(2), NOW_S, aux);
        FZ_REQUIRE(st == SC_ERR_BUFFER_TOO_SMALL && need > 0);
        if (need > sizeof ss->out) {
            out = (char *)fz_alloc(need);
        }
        FZ_REQUIRE(sc_relay_session_auth_with_rand(&ss->s, ctx, out, need, &len, fz_id(2), NOW_S,
                                                   aux) == SC_OK &&
                   len == need);
        check_auth_answer(ctx, out, len, m->message);
        if (out != ss->out) {
            free(out);
        }
    } else if (m->type == SC_RELAY_AUTH) {
        FZ_REQUIRE(st == SC_ERR_TOO_LARGE && m->message.len > 256);
    }
}

static void session_with_sub(session *ss, const sc_relay_filter *f, size_t n_f)
{
    session_open(ss);
    FZ_REQUIRE(sc_relay_session_subscribe(&ss->s, SC_STR("sub"), f, n_f) == SC_OK);
    FZ_REQUIRE(sc_relay_session_publish(&ss->s, &g.ev[0]) == SC_OK);
    FZ_REQUIRE(sc_relay_session_connected(&ss->s, (int64_t)NOW_S * 1000) == SC_OK);
    ss->connected = 1;
    drain(ss, 8, 0);
}

/* ---- modes -------------------------------------------------------------------------------- */

/* sel: 0 the default options, else max_depth 1..3 (the depth limit within reach). */
static void mode_raw(sc_ctx *ctx, unsigned sel, const uint8_t *p, size_t n)
{
    static const sc_relay_filter any = {0};
    sc_relay_parse_opts o;
    uint8_t *arena = NULL;
    sc_relay_msg m;
    session ss;

    memset(&o, 0, sizeof o);
    o.max_depth = sel;
    if (parse_checked(ctx, (const char *)p, n, sel != 0 ? &o : NULL, &m, &arena) != SC_OK) {
        return;
    }
    session_with_sub(&ss, &any, 1);
    apply(ctx, &ss, &m, &any, 1);
    drain(&ss, 8, 0);
    session_close(&ss);
    free(arena);
}

/* Appends s to b (cap bytes) at *n; the caller sized b for everything it appends. */
static void put(char *b, size_t cap, size_t *n, const char *s, size_t len)
{
    FZ_REQUIRE(*n + len <= cap);
    memcpy(b + *n, s, len);
    *n += len;
}

static void mode_event(sc_ctx *ctx, const uint8_t *p, size_t n)
{
    fz_in in = {p, n};
    unsigned twist = fz_u8(&in), sel = fz_u8(&in);
    uint32_t want_kind = fz_u16(&in);
    uint8_t tag_bytes[64], *arena = NULL;
    size_t tag_len, content_len, json_len = 0, text_len = 0, cap;
    const uint8_t *content;
    sc_str items[2];
    sc_tag tag;
    sc_event ev;
    sc_relay_filter f;
    sc_relay_msg m;
    char *json, *text;
    session ss;
    sc_status st;

    memset(&ev, 0, sizeof ev);
    ev.kind = fz_u16(&in);
    ev.created_at = (int64_t)fz_u32(&in);
    tag_len = fz_u8(&in) % sizeof tag_bytes;
    fz_bytes(&in, tag_bytes, tag_len);
    items[0] = SC_STR("t");
    items[1].ptr = (const char *)tag_bytes;
    items[1].len = tag_len;
    tag.items = items;
    tag.n_items = 2;
    ev.tags = &tag;
    ev.n_tags = (sel & 1) ? 1 : 0;
    content = fz_take(&in, in.n, &content_len);
    ev.content.ptr = (const char *)content;
    ev.content.len = content_len;
    ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    json = fz_signed_json(ctx, &ev, 1, &json_len);
    if (json == NULL) {
        return; /* not an event (bad UTF-8 in the tag or content) */
    }
    if (twist % 4 == 1) {
        json[json_len / 2] ^= 1; /* somewhere in the id, signature or content */
    } else if (twist % 4 == 2) {
        char *s = strstr(json, "\"sig\":\"");

        FZ_REQUIRE(s != NULL);
        s[7] = s[7] == '0' ? '1' : '0';
    }
    cap = json_len + 32;
    text = (char *)fz_alloc(cap);
    put(text, cap, &text_len, "[\"EVENT\",\"", 10);
    put(text, cap, &text_len, (sel & 2) ? "other" : "sub", (sel & 2) ? 5 : 3);
    put(text, cap, &text_len, "\",", 2);
    put(text, cap, &text_len, json, json_len);
    put(text, cap, &text_len, "]", 1);
    st = parse_checked(ctx, text, text_len, NULL, &m, &arena);
    if (twist % 4 == 0) {
        FZ_REQUIRE(st == SC_OK);
    } else if (twist % 4 == 2) {
        FZ_REQUIRE(st == SC_ERR_INVALID_SIG);
    }
    if (st == SC_OK) {
        memset(&f, 0, sizeof f);
        if (sel & 4) {
            f.kinds = &want_kind;
            f.n_kinds = 1;
        }
        if (sel & 8) {
            f.since = (int64_t)want_kind << 16;
            f.has = SC_RELAY_FILTER_SINCE;
        }
        session_with_sub(&ss, &f, 1);
        apply(ctx, &ss, &m, &f, 1);
        session_close(&ss);
    }
    free(arena);
    free(text);
    free(json);
}

static int same_filter(const sc_relay_filter *a, const sc_relay_filter *b)
{
    size_t i, j;

    if (a->n_ids != b->n_ids || a->n_authors != b->n_authors || a->n_kinds != b->n_kinds ||
        a->n_tags != b->n_tags || a->has != b->has ||
        ((a->has & SC_RELAY_FILTER_SINCE) && a->since != b->since) ||
        ((a->has & SC_RELAY_FILTER_UNTIL) && a->until != b->until) ||
        ((a->has & SC_RELAY_FILTER_LIMIT) && a->limit != b->limit)) {
        return 0;
    }
    if ((a->n_ids && memcmp(a->ids, b->ids, a->n_ids * 32) != 0) ||
        (a->n_authors && memcmp(a->authors, b->authors, a->n_authors * 32) != 0) ||
        (a->n_kinds && memcmp(a->kinds, b->kinds, a->n_kinds * sizeof *a->kinds) != 0)) {
        return 0;
    }
    for (i = 0; i < a->n_tags; i++) {
        if (a->tags[i].letter != b->tags[i].letter || a->tags[i].n_values != b->tags[i].n_values) {
            return 0;
        }
        for (j = 0; j < a->tags[i].n_values; j++) {
            if (!fz_same_str(a->tags[i].values[j], b->tags[i].values[j])) {
                return 0;
            }
        }
    }
    return 1;
}

/* Writes ["REQ","x",f] into a new buffer; *len its length. */
static char *write_req(const sc_relay_filter *f, size_t *len)
{
    sc_relay_client_msg cm;
    size_t need, got = 0;
    char *out;

    memset(&cm, 0, sizeof cm);
    cm.type = SC_RELAY_CLIENT_REQ;
    cm.sub_id = SC_STR("x");
    cm.filters = f;
    cm.n_filters = 1;
    need = sc_relay_msg_write_len(&cm);
    FZ_REQUIRE(need != 0);
    out = (char *)fz_alloc(need);
    FZ_REQUIRE(sc_relay_msg_write(out, need, &got, &cm) == SC_OK && got == need);
    if (need > 1) {
        FZ_REQUIRE(sc_relay_msg_write(out, need - 1, &got, &cm) == SC_ERR_BUFFER_TOO_SMALL &&
                   got == need);
    }
    *len = need;
    return out;
}

static void mode_filter(const uint8_t *p, size_t n)
{
    static const char head[] = "[\"REQ\",\"x\",";
    size_t cap = sc_relay_filter_parse_arena_max(n), used = 7, used2 = 0, len = 0, len2 = 0;
    size_t body, k;
    uint8_t *arena, *arena2;
    sc_relay_filter f, f2;
    char *req, *req2;
    sc_status st;

    FZ_REQUIRE(cap != 0);
    arena = fz_alloc(cap);
    st = sc_relay_filter_parse(&f, arena, cap, &used, (const char *)p, n);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_JSON, SC_ERR_UTF8, SC_ERR_FILTER, SC_ERR_TOO_LARGE);
    if (st != SC_OK) {
        FZ_REQUIRE(used == 0 && fz_all_zero(&f, sizeof f));
        free(arena);
        return;
    }
    FZ_REQUIRE(used <= cap && fz_all_equal(arena + used, cap - used, FZ_CANARY));
    for (k = 0; k < N_EVENTS; k++) {
        FZ_STATUS_IN(sc_relay_filter_match(&f, 1, &g.ev[k]), SC_OK, SC_ERR_NO_MATCH);
    }
    /* written in a REQ, it parses back to the same filter, which writes the same text */
    req = write_req(&f, &len);
    FZ_REQUIRE(len > sizeof head && memcmp(req, head, sizeof head - 1) == 0 && req[len - 1] == ']');
    body = len - sizeof head; /* the filter object, without the closing bracket */
    arena2 = fz_alloc(sc_relay_filter_parse_arena_max(body));
    FZ_REQUIRE(sc_relay_filter_parse(&f2, arena2, sc_relay_filter_parse_arena_max(body), &used2,
                                     req + sizeof head - 1, body) == SC_OK);
    FZ_REQUIRE(same_filter(&f, &f2));
    req2 = write_req(&f2, &len2);
    FZ_REQUIRE(len2 == len && memcmp(req, req2, len) == 0);
    free(req2);
    free(arena2);
    free(req);
    free(arena);
}

/* A relay message text made from the script's bytes, about what the session holds. */
static size_t script_message(fz_in *in, char *b, size_t cap)
{
    static const char *const subs[] = {"sub", "s1", "s2", "zz"};
    static const char *const reasons[] = {
        "", "duplicate: seen", "auth-required: who", "blocked: no", "error:", "x"};
    unsigned op = fz_u8(in) % 6, i = fz_u8(in);
    const char *sub = subs[i % 4], *why = reasons[(i >> 2) % 6];
    char id[65];
    size_t k;
    int n;

    for (k = 0; k < 32; k++) {
        snprintf(id + 2 * k, 3, "%02x", g.ev[(i >> 4) % N_EVENTS].id[k]);
    }
    if ((i >> 6) == 3) {
        id[0] = id[0] == 'a' ? 'b' : 'a'; /* an event nobody published */
    }
    switch (op) {
    case 0:
        n = snprintf(b, cap, "[\"EOSE\",\"%s\"]", sub);
        break;
    case 1:
        n = snprintf(b, cap, "[\"CLOSED\",\"%s\",\"%s\"]", sub, why);
        break;
    case 2:
        n = snprintf(b, cap, "[\"OK\",\"%s\",%s,\"%s\"]", id, (i & 1) ? "true" : "false", why);
        break;
    case 3:
        n = snprintf(b, cap, "[\"AUTH\",\"challenge-%u\"]", i);
        break;
    case 4:
        n = snprintf(b, cap, "[\"NOTICE\",\"%s\"]", why);
        break;
    default: {
        /* an EVENT of a published event, on one of the subscriptions */
        size_t len = sc_event_to_json_len(&g.ev[i % N_EVENTS], SC_EVENT_JSON_OBJECT), got = 0;

        n = snprintf(b, cap, "[\"EVENT\",\"%s\",", sub);
        FZ_REQUIRE(n > 0 && (size_t)n + len + 1 < cap);
        FZ_REQUIRE(sc_event_to_json(b + n, cap - (size_t)n, &got, &g.ev[i % N_EVENTS],
                                    SC_EVENT_JSON_OBJECT) == SC_OK);
        n += (int)got;
        b[n++] = ']';
        break;
    }
    }
    FZ_REQUIRE(n > 0 && (size_t)n < cap);
    return (size_t)n;
}

static void mode_script(sc_ctx *ctx, const uint8_t *p, size_t n)
{
    static const char *const subs[] = {"sub", "s1", "s2", "s3"};
    fz_in in = {p, n};
    sc_relay_filter filters[4];
    unsigned steps = 0;
    session ss;

    memset(filters, 0, sizeof filters);
    filters[1].kinds = &g.ev[1].kind;
    filters[1].n_kinds = 1;
    filters[2].authors = (const uint8_t(*)[32])(const void *)fz_pub(1);
    filters[2].n_authors = 1;
    filters[3].since = NOW_S;
    filters[3].has = SC_RELAY_FILTER_SINCE;
    session_open(&ss);
    while (in.n > 0 && steps++ < 64) {
        unsigned op = fz_u8(&in) % 9, arg = fz_u8(&in);
        int64_t retry = 0;
        sc_status st;

        switch (op) {
        case 0:
            st = sc_relay_session_connected(&ss.s, (int64_t)NOW_S * 1000 + steps);
            FZ_REQUIRE(st == (ss.connected ? SC_ERR_STATE : SC_OK));
            ss.connected = 1;
            break;
        case 1:
            st = sc_relay_session_disconnected(&ss.s, (int64_t)NOW_S * 1000 + steps, &retry);
            FZ_REQUIRE(st == SC_OK && retry > (int64_t)NOW_S * 1000);
            ss.connected = 0;
            break;
        case 2:
            st = sc_relay_session_subscribe(&ss.s, str_of(subs[arg % 4]), &filters[(arg >> 2) % 4],
                                            1);
            FZ_STATUS_IN(st, SC_OK, SC_ERR_FULL);
            break;
        case 3:
            st = sc_relay_session_unsubscribe(&ss.s, str_of(subs[arg % 4]));
            FZ_STATUS_IN(st, SC_OK, SC_ERR_SUBSCRIPTION);
            break;
        case 4:
            st = sc_relay_session_publish(&ss.s, &g.ev[arg % N_EVENTS]);
            FZ_STATUS_IN(st, SC_OK, SC_ERR_FULL);
            break;
        case 5:
            drain(&ss, 1 + arg % 8, (arg & 0x80) ? (size_t)(arg & 0x7f) + 1 : 0);
            break;
        default: {
            char text[1024];
            size_t len = script_message(&in, text, sizeof text);
            uint8_t *arena = NULL;
            sc_relay_msg m;

            parse_plain(ctx, text, len, &m, &arena);
            apply(ctx, &ss, &m, NULL, 0);
            free(arena);
            break;
        }
        }
        FZ_REQUIRE(sc_relay_session_pending(&ss.s) <= MAX_PENDING);
    }
    drain(&ss, 16, 0);
    session_close(&ss);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sc_ctx *ctx;

    if (size == 0) {
        return 0;
    }
    ctx = fz_ctx(size % fz_backends());
    switch (data[0] % 4) {
    case 0:
        mode_raw(ctx, (data[0] >> 2) % 4, data + 1, size - 1);
        break;
    case 1:
        mode_event(ctx, data + 1, size - 1);
        break;
    case 2:
        mode_filter(data + 1, size - 1);
        break;
    default:
        mode_script(ctx, data + 1, size - 1);
        break;
    }
    return 0;
}
