/* NIP-17 chat messages: the kind 14 rumor, the head it shares with kind 15 (p, e, subject),
 * and receiving (unwrap, kind check, room) as an operation over the receiver's signer
 * (sc_nip17_receive_start), which sc_nip17_receive runs over an identity in one call. */
#include <softchat/mem.h>
#include <softchat/hex.h>
#include <softchat/nip17.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "event/event_builder.h"
#include "nip17/nip17_internal.h"
#include "nip59/nip59_internal.h"
#include "signer/signer_internal.h"

/* Cost of a tag [name, v1, optional v2]: the optional item counts when its length is not 0. */
static size_t tag2_cost(size_t name_len, size_t v1, size_t v2)
{
    return sc_event_tag_cost(v2 != 0 ? 3 : 2, sc_size_add(sc_size_add(name_len, v1), v2));
}

size_t sc_nip17_head_cost(const sc_nip17_chat *m, size_t content_len)
{
    /* the builder aligns the buffer's start and its end */
    size_t total = sc_size_add(SC_EVENT_BUILDER_SLACK, content_len), i;

    if (m == NULL || (m->to == NULL && m->n_to != 0)) {
        return 0;
    }
    for (i = 0; i < m->n_to; i++) {
        total = sc_size_add(total, tag2_cost(1, 64, m->to[i].relay.len));
    }
    if (m->reply_to != NULL) {
        total = sc_size_add(total, tag2_cost(1, 64, m->reply_relay.len));
    }
    if (m->subject.ptr != NULL) {
        total = sc_size_add(total, tag2_cost(7, m->subject.len, 0));
    }
    return total;
}

sc_status sc_nip17_check_head(const sc_nip17_chat *m)
{
    if (m->to == NULL && m->n_to != 0) {
        return SC_ERR_ARG;
    }
    return m->n_to == 0 ? SC_ERR_MESSAGE : SC_OK;
}

void sc_nip17_hex32(char out[64], const uint8_t in[32])
{
    static const char hex[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < 32; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
}

int sc_nip17_is(const sc_str *s, const char *lit)
{
    size_t n = strlen(lit);

    return s->len == n && memcmp(s->ptr, lit, n) == 0;
}

/* Appends [name, hex of id32, relay?]. */
static void hex_tag(sc_event_builder *b, const char *name, const uint8_t id32[32], sc_str relay)
{
    char hex[64];
    sc_str items[3];

    sc_nip17_hex32(hex, id32);
    items[0].ptr = name;
    items[0].len = strlen(name);
    items[1].ptr = hex;
    items[1].len = sizeof hex;
    items[2] = relay;
    sc_event_builder_tag(b, items, relay.len != 0 ? 3 : 2);
}

void sc_nip17_start(sc_event_builder *b, void *buf, size_t cap, const sc_nip17_chat *m,
                    uint32_t kind, sc_str content)
{
    sc_str items[2];
    size_t i;

    if (sc_event_builder_init(b, buf, cap) != SC_OK) {
        return; /* callers refuse buf NULL with cap > 0 first; finish would say SC_ERR_STATE */
    }
    sc_event_builder_kind(b, kind);
    sc_event_builder_created_at(b, m->created_at);
    sc_event_builder_content(b, content.ptr, content.len);
    for (i = 0; i < m->n_to; i++) {
        hex_tag(b, "p", m->to[i].pubkey, m->to[i].relay);
    }
    if (m->reply_to != NULL) {
        hex_tag(b, "e", m->reply_to, m->reply_relay); /* NIP-17: no marker */
    }
    if (m->subject.ptr != NULL) {
        items[0].ptr = "subject";
        items[0].len = 7;
        items[1] = m->subject;
        sc_event_builder_tag(b, items, 2);
    }
}

sc_status sc_nip17_finish(sc_ctx *ctx, sc_event_builder *b, sc_event *rumor, void *buf, size_t cap,
                          const uint8_t sender[SC_PUBKEY_BYTES])
{
    sc_status st = sc_event_builder_final(b, rumor, NULL);

    if (st == SC_OK) {
        st = sc_nip59_rumor(ctx, rumor, sender);
    }
    if (st != SC_OK) {
        memset(rumor, 0, sizeof *rumor);
        if (buf != NULL) {
            sc_mem_wipe(buf, cap); /* it may hold the message */
        }
    }
    return st;
}

/* ---- kind 14 ------------------------------------------------------------------------------ */

size_t sc_nip17_chat_rumor_buf_max(const sc_nip17_chat *m)
{
    size_t total, i;

    if (m == NULL || (m->quotes == NULL && m->n_quotes != 0)) {
        return 0;
    }
    total = sc_nip17_head_cost(m, m->content.len);
    if (total == 0) {
        return 0;
    }
    for (i = 0; i < m->n_quotes; i++) {
        const sc_nip17_quote *q = &m->quotes[i];
        size_t bytes = sc_size_add(sc_size_add(1 + q->target.len, q->relay.len), q->author.len);

        total = sc_size_add(total, sc_event_tag_cost(q->author.len != 0 ? 4 : 3, bytes));
    }
    return sc_size_public(total);
}

/* A q tag's target must be given and its author, when given, must be a hex pubkey. */
static sc_status check_quotes(const sc_nip17_chat *m)
{
    uint8_t tmp[32];
    size_t i;

    if (m->quotes == NULL && m->n_quotes != 0) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < m->n_quotes; i++) {
        const sc_nip17_quote *q = &m->quotes[i];

        if (q->target.len == 0 ||
            (q->author.len != 0 &&
             (q->author.ptr == NULL || sc_hex_decode_fixed(tmp, 32, q->author.ptr, q->author.len,
                                                           SC_HEX_LOWER_ONLY) != SC_OK))) {
            return SC_ERR_MESSAGE;
        }
    }
    return SC_OK;
}

sc_status sc_nip17_chat_rumor(sc_ctx *ctx, sc_event *rumor, void *buf, size_t cap,
                              const sc_nip17_chat *m, const uint8_t sender[SC_PUBKEY_BYTES])
{
    sc_event_builder b;
    sc_str items[4];
    sc_status st;
    size_t i;

    if (rumor == NULL) {
        return SC_ERR_ARG;
    }
    memset(rumor, 0, sizeof *rumor);
    if (ctx == NULL || m == NULL || sender == NULL || (buf == NULL && cap != 0)) {
        return SC_ERR_ARG;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    st = sc_nip17_check_head(m);
    if (st == SC_OK) {
        st = check_quotes(m);
    }
    if (st != SC_OK) {
        return st;
    }
    sc_nip17_start(&b, buf, cap, m, SC_NIP17_KIND_CHAT, m->content);
    for (i = 0; i < m->n_quotes; i++) {
        const sc_nip17_quote *q = &m->quotes[i];

        items[0].ptr = "q";
        items[0].len = 1;
        items[1] = q->target;
        items[2] = q->relay; /* kept even when empty: the author, if any, comes next */
        items[3] = q->author;
        sc_event_builder_tag(&b, items, q->author.len != 0 ? 4 : 3);
    }
    return sc_nip17_finish(ctx, &b, rumor, buf, cap, sender);
}

/* ---- receiving ---------------------------------------------------------------------------- */

/* A room record: a pubkey, then its position among the room's candidates as 4 big-endian
 * bytes, so that memcmp over a record orders by key and then by first appearance. */
#define ROOM_REC (SC_PUBKEY_BYTES + 4)

size_t sc_nip17_receive_arena_max(size_t wrap_len)
{
    /* a p tag takes at least 71 characters (["p","<64 hex>"]) of a rumor JSON shorter than
     * wrap_len, so wrap_len / 64 + 2 records hold the sender and every receiver */
    size_t unwrap = sc_nip59_unwrap_arena_max(wrap_len);
    size_t room = (wrap_len / 64 + 2) * ROOM_REC;

    return unwrap == 0 ? 0 : sc_size_public(sc_size_add(unwrap, room));
}

/* Whether t is a p tag (whatever its shape). */
static int is_p(const sc_tag *t)
{
    return t->n_items != 0 && t->items[0].len == 1 && t->items[0].ptr[0] == 'p';
}

/* Checks the rumor's p tags (each ["p", <64 lowercase hex>, ...]); *n_p = how many. */
static sc_status count_p(const sc_event *ev, size_t *n_p)
{
    uint8_t tmp[SC_PUBKEY_BYTES];
    size_t k;

    *n_p = 0;
    for (k = 0; k < ev->n_tags; k++) {
        const sc_tag *t = &ev->tags[k];

        if (!is_p(t)) {
            continue;
        }
        if (t->n_items < 2 || sc_hex_decode_fixed(tmp, sizeof tmp, t->items[1].ptr, t->items[1].len,
                                                  SC_HEX_LOWER_ONLY) != SC_OK) {
            return SC_ERR_MESSAGE;
        }
        (*n_p)++;
    }
    return *n_p != 0 ? SC_OK : SC_ERR_MESSAGE;
}

static void rec_swap(uint8_t *a, uint8_t *b)
{
    uint8_t t[ROOM_REC];

    memcpy(t, a, ROOM_REC);
    memcpy(a, b, ROOM_REC);
    memcpy(b, t, ROOM_REC);
}

/* Heapsort of the n records at r by their bytes [from, ROOM_REC): in place and O(n log n),
 * so a hostile rumor with thousands of p tags costs milliseconds, not seconds. */
static void rec_sort(uint8_t *r, size_t n, size_t from)
{
    size_t start = n / 2, end = n, root, child;

    while (end > 1) {
        if (start > 0) {
            root = --start;
        } else {
            rec_swap(r, r + --end * ROOM_REC);
            root = 0;
        }
        while ((child = 2 * root + 1) < end) {
            if (child + 1 < end && memcmp(r + child * ROOM_REC + from,
                                          r + (child + 1) * ROOM_REC + from, ROOM_REC - from) < 0) {
                child++;
            }
            if (memcmp(r + root * ROOM_REC + from, r + child * ROOM_REC + from, ROOM_REC - from) >=
                0) {
                break;
            }
            rec_swap(r + root * ROOM_REC, r + child * ROOM_REC);
            root = child;
        }
    }
}

/* Writes record n: key and position n. */
static void put_rec(uint8_t *area, size_t n, const uint8_t *key)
{
    uint8_t *rec = area + n * ROOM_REC;

    if (key != NULL) {
        memcpy(rec, key, SC_PUBKEY_BYTES);
    }
    rec[32] = (uint8_t)(n >> 24);
    rec[33] = (uint8_t)(n >> 16);
    rec[34] = (uint8_t)(n >> 8);
    rec[35] = (uint8_t)n;
}

/* Builds the room in area (room for 1 + n_p records): the sender, then each distinct p key
 * in order of first appearance, as packed 32-byte keys at the area's start. Returns how many;
 * the rest of the area is zeroed. */
static size_t build_room(uint8_t *area, const sc_event *ev, size_t n_p)
{
    size_t n = 1, u = 0, k;

    put_rec(area, 0, ev->pubkey);
    for (k = 0; k < ev->n_tags; k++) {
        /* count_p checked every p tag */
        if (is_p(&ev->tags[k]) &&
            sc_hex_decode_fixed(area + n * ROOM_REC, SC_PUBKEY_BYTES, ev->tags[k].items[1].ptr,
                                ev->tags[k].items[1].len, SC_HEX_LOWER_ONLY) == SC_OK) {
            put_rec(area, n++, NULL);
        }
    }
    /* by key: the first record of each run of equal keys is its first appearance */
    rec_sort(area, n, 0);
    for (k = 0; k < n; k++) {
        if (u == 0 || memcmp(area + k * ROOM_REC, area + (u - 1) * ROOM_REC, 32) != 0) {
            memmove(area + u * ROOM_REC, area + k * ROOM_REC, ROOM_REC);
            u++;
        }
    }
    /* back in order of appearance (the sender, position 0, first), then packed */
    rec_sort(area, u, SC_PUBKEY_BYTES);
    for (k = 0; k < u; k++) {
        memmove(area + k * SC_PUBKEY_BYTES, area + k * ROOM_REC, SC_PUBKEY_BYTES);
    }
    sc_mem_wipe(area + u * SC_PUBKEY_BYTES, (1 + n_p) * ROOM_REC - u * SC_PUBKEY_BYTES);
    return u;
}

/* A receive in progress: the unwrap, then the room. */
typedef struct recv_op {
    sc_nip59_unwrap_op u;
    sc_nip17_received *msg;
    void *arena;
    size_t arena_cap;
    size_t *arena_used;
    int opened;  /* the unwrap succeeded */
    size_t need; /* the room's shortfall */
} recv_op;

typedef char recv_op_fits[(sizeof(recv_op) <= SC_OP_BODY_BYTES) ? 1 : -1];

/* The kind, the p tags and the room after the rumor (in the arena at *arena_used). */
static sc_status room(recv_op *b)
{
    sc_nip17_received *msg = b->msg;
    size_t used = *b->arena_used, n_p = 0;
    sc_status st;

    if (msg->rumor.kind != SC_NIP17_KIND_CHAT && msg->rumor.kind != SC_NIP17_KIND_FILE) {
        st = SC_ERR_MESSAGE;
    } else {
        st = count_p(&msg->rumor, &n_p);
    }
    /* the records of every candidate are sorted after the rumor; n_p < tags <= arena bytes */
    if (st == SC_OK && n_p >= 0xffffffffu) {
        st = SC_ERR_TOO_LARGE;
    }
    if (st == SC_OK) {
        b->need = sc_size_add(used, sc_size_add(n_p, 1) * ROOM_REC);
        if (b->need > b->arena_cap) {
            st = SC_ERR_BUFFER_TOO_SMALL;
        }
    }
    if (st != SC_OK) {
        return st;
    }
    msg->n_room = build_room((uint8_t *)b->arena + used, &msg->rumor, n_p);
    msg->room = (const uint8_t(*)[SC_PUBKEY_BYTES])((const uint8_t *)b->arena + used);
    *b->arena_used = used + msg->n_room * SC_PUBKEY_BYTES;
    return SC_OK;
}

static sc_status recv_step(sc_signer_op *op, sc_ctx *ctx)
{
    recv_op *b = (recv_op *)sc_op_body(op);
    sc_status st;

    if (!b->opened) {
        st = sc_nip59_unwrap_run(&b->u, ctx, op);
        if (st != SC_OK) {
            return st;
        }
        b->opened = 1;
    }
    return room(b);
}

static sc_status recv_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    (void)ctx;
    return sc_nip59_unwrap_answer(&((recv_op *)sc_op_body(op))->u, text, len);
}

static void recv_fail(sc_signer_op *op, sc_status st)
{
    recv_op *b = (recv_op *)sc_op_body(op);
    size_t used = *b->arena_used;

    if (!b->opened) {
        sc_nip59_unwrap_abort(&b->u, st);
        memset(b->msg, 0, sizeof *b->msg);
        return;
    }
    sc_mem_wipe(b->arena, used); /* the rumor */
    memset(b->msg, 0, sizeof *b->msg);
    *b->arena_used =
        st == SC_ERR_BUFFER_TOO_SMALL ? (b->need > b->u.peak ? b->need : b->u.peak) : 0;
}

static const sc_op_vt recv_vt = {recv_step, recv_answer, recv_fail};

sc_status sc_nip17_receive_start(sc_ctx *ctx, sc_signer_op *op, sc_nip17_received *msg, void *arena,
                                 size_t arena_cap, size_t *arena_used, const char *wrap_json,
                                 size_t wrap_len, const sc_signer *me, int64_t now)
{
    recv_op *b = NULL;
    sc_status st;

    if (arena_used != NULL) {
        *arena_used = 0;
    }
    if (msg == NULL) {
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    memset(msg, 0, sizeof *msg);
    if (op != NULL && me != NULL) {
        b = (recv_op *)sc_op_start(op, me, &recv_vt);
    }
    st = sc_nip59_unwrap_begin(b != NULL ? &b->u : NULL, ctx, &msg->rumor, &msg->wrap, arena,
                               arena_cap, arena_used, wrap_json, wrap_len, me, now < 0 ? -1 : now);
    if (st != SC_OK) {
        sc_op_drop(op);
        return st;
    }
    b->msg = msg;
    b->arena = arena;
    b->arena_cap = arena_cap;
    b->arena_used = arena_used;
    return SC_OK;
}

/* sc_nip17_receive_start over the identity, run to its end in one call. */
static sc_status receive(sc_ctx *ctx, sc_nip17_received *msg, void *arena, size_t arena_cap,
                         size_t *arena_used, const char *wrap_json, size_t wrap_len,
                         const sc_identity *me, int64_t now)
{
    sc_signer s;
    sc_signer_op op;
    sc_status st;

    sc_signer_set_local(&s, me);
    st = sc_nip17_receive_start(ctx, &op, msg, arena, arena_cap, arena_used, wrap_json, wrap_len,
                                &s, now);
    return sc_op_run_local(&op, ctx, st);
}

sc_status sc_nip17_receive(sc_ctx *ctx, sc_nip17_received *msg, void *arena, size_t arena_cap,
                           size_t *arena_used, const char *wrap_json, size_t wrap_len,
                           const sc_identity *me)
{
    return receive(ctx, msg, arena, arena_cap, arena_used, wrap_json, wrap_len, me, -1);
}

sc_status sc_nip17_receive_at(sc_ctx *ctx, sc_nip17_received *msg, void *arena, size_t arena_cap,
                              size_t *arena_used, const char *wrap_json, size_t wrap_len,
                              const sc_identity *me, int64_t now)
{
    if (now < 0) {
        if (arena_used != NULL) {
            *arena_used = 0;
        }
        if (msg != NULL) {
            memset(msg, 0, sizeof *msg);
        }
        return SC_ERR_ARG;
    }
    return receive(ctx, msg, arena, arena_cap, arena_used, wrap_json, wrap_len, me, now);
}
