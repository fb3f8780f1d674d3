/* Natives: NIP-77 Negentropy (api/softchat/negentropy.h) for RelayPool.reconcile. One scj_neg
 * holds a reconciliation over the caller's records (sorted here, each kept once), the
 * NEG-OPEN filter parsed once, the subscription id, and the buffers every round reuses: the
 * relay's frame and its parse arena, the need[] working array, the raw reply and its text.
 * They grow to the largest message seen (a relay frame of at most max_message bytes) and are
 * kept, so a round allocates nothing once they fit; only the result byte[] is new. The
 * messages travel over a connection the Kotlin side opens and reads; relay messages are
 * parsed strictly (sc_relay_parse: a NEG-MSG's payload is lowercase hex) and a NEG-MSG or
 * NEG-ERR for another subscription id is SC_ERR_SUBSCRIPTION. One thread at a time per
 * handle. */
#include "blob.h"
#include "scj.h"

#include <stdlib.h>
#include <string.h>

#define SCJ_NEG_ITEM_BYTES 40u /* the Kotlin layout: i64 created_at (little-endian), id[32] */
#define SCJ_NEG_FILTER_MAX (64u * 1024u)

typedef struct scj_neg {
    sc_negentropy neg;
    sc_negentropy_item *items; /* sorted, each once */
    size_t n_items;
    size_t *have; /* n_items + 1: sc_negentropy_reconcile's have[] */
    sc_relay_filter filter;
    uint8_t *filter_arena;
    char sub_id[SC_RELAY_SUB_ID_MAX];
    size_t sub_len;
    size_t frame_limit;
    size_t max_message;
    char *text; /* the relay's frame */
    size_t text_cap;
    uint8_t *arena; /* its parse arena */
    size_t arena_cap;
    uint8_t (*need)[SC_NEGENTROPY_ID_BYTES];
    size_t need_cap;
    uint8_t *msg; /* the raw Negentropy message this side writes */
    size_t msg_cap;
    char *out; /* the client message's text */
    size_t out_cap;
} scj_neg;

static scj_neg *neg_of(jlong h)
{
    return (scj_neg *)(uintptr_t)h;
}

static void neg_release(scj_neg *x)
{
    free(x->items);
    free(x->have);
    free(x->filter_arena);
    free(x->text);
    free(x->arena);
    free(x->need);
    free(x->msg);
    free(x->out);
    free(x);
}

/* Grows *buf to at least need bytes (its contents are not kept). 1, or 0 out of memory. */
static int grow(void **buf, size_t *cap, size_t need)
{
    void *p;

    if (need <= *cap) {
        return 1;
    }
    p = malloc(need);
    if (p == NULL) {
        return 0;
    }
    free(*buf);
    *buf = p;
    *cap = need;
    return 1;
}

/* Reads the records (SCJ_NEG_ITEM_BYTES each), sorts them and drops repeats. */
static sc_status neg_items(scj_neg *x, const uint8_t *p, size_t n)
{
    size_t i, w = 0, k;

    for (i = 0; i < n; i++) {
        uint64_t t = 0;

        for (k = 0; k < 8; k++) {
            t |= (uint64_t)p[i * SCJ_NEG_ITEM_BYTES + k] << (8 * k);
        }
        if (t >> 63 != 0) {
            return SC_ERR_ARG; /* a negative created_at */
        }
        x->items[i].timestamp = t;
        memcpy(x->items[i].id, p + i * SCJ_NEG_ITEM_BYTES + 8, SC_NEGENTROPY_ID_BYTES);
    }
    if (sc_negentropy_sort(x->items, n) != SC_OK) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n; i++) {
        if (w == 0 || x->items[i].timestamp != x->items[w - 1].timestamp ||
            memcmp(x->items[i].id, x->items[w - 1].id, SC_NEGENTROPY_ID_BYTES) != 0) {
            x->items[w++] = x->items[i];
        }
    }
    x->n_items = w;
    return SC_OK;
}

/* Sets up the state: records, filter, sub id, limits, and a first check by sc_negentropy_init. */
static sc_status neg_setup(scj_neg *x, const uint8_t *items, size_t n, const char *filter,
                           size_t filter_len)
{
    sc_negentropy_opts o;
    size_t cap = sc_relay_filter_parse_arena_max(filter_len), used = 0;
    sc_status st;

    x->items = calloc(n + 1, sizeof *x->items);
    x->have = calloc(n + 1, sizeof *x->have);
    x->filter_arena = cap > 0 ? malloc(cap) : NULL;
    if (x->items == NULL || x->have == NULL || x->filter_arena == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_relay_filter_parse(&x->filter, x->filter_arena, cap, &used, filter, filter_len);
    if (st == SC_OK) {
        st = neg_items(x, items, n);
    }
    if (st == SC_OK) {
        memset(&o, 0, sizeof o);
        o.frame_limit = x->frame_limit;
        st = sc_negentropy_init(&x->neg, x->items, x->n_items, &o);
    }
    return st;
}

/* negNew(records, filter JSON, sub id, frameLimit, maxMessage): Long. Records: 40 bytes each,
 * i64 created_at little-endian then the id. frameLimit 0: none. maxMessage: the longest relay
 * frame taken (0: 1 MiB). */
static jlong neg_new(JNIEnv *env, jclass cls, jbyteArray items, jbyteArray filter, jbyteArray sub,
                     jint frame_limit, jint max_message)
{
    size_t il = scj_len(env, items), fl = scj_len(env, filter), sl = scj_len(env, sub);
    uint8_t *ib = NULL;
    char *fb = NULL;
    scj_neg *x;
    sc_status st = SC_ERR_NOMEM;

    (void)cls;
    if (il % SCJ_NEG_ITEM_BYTES != 0 || fl == 0 || sl == 0 || frame_limit < 0 || max_message < 0) {
        return scj_throw(env, fl == 0 || sl == 0 ? SC_ERR_EMPTY : SC_ERR_ARG);
    }
    if (fl > SCJ_NEG_FILTER_MAX || sl > SC_RELAY_SUB_ID_MAX) {
        return scj_throw(env, SC_ERR_TOO_LARGE);
    }
    x = calloc(1, sizeof *x);
    ib = malloc(il + 1);
    fb = malloc(fl);
    if (x != NULL && ib != NULL && fb != NULL) {
        (*env)->GetByteArrayRegion(env, items, 0, (jsize)il, (jbyte *)ib);
        (*env)->GetByteArrayRegion(env, filter, 0, (jsize)fl, (jbyte *)fb);
        (*env)->GetByteArrayRegion(env, sub, 0, (jsize)sl, (jbyte *)x->sub_id);
        x->sub_len = sl;
        x->frame_limit = (size_t)frame_limit;
        x->max_message = max_message > 0 ? (size_t)max_message : (size_t)1 << 20;
        st = neg_setup(x, ib, il / SCJ_NEG_ITEM_BYTES, fb, fl);
    }
    free(ib);
    free(fb);
    if (st != SC_OK) {
        if (x != NULL) {
            neg_release(x);
        }
        return scj_throw(env, st);
    }
    return (jlong)(uintptr_t)x;
}

static void neg_free(JNIEnv *env, jclass cls, jlong h)
{
    (void)env;
    (void)cls;
    if (h != 0) {
        neg_release(neg_of(h));
    }
}

/* Writes a NEG-OPEN (with the filter), NEG-MSG or NEG-CLOSE of x->msg[0..len) into x->out. */
static sc_status neg_write(scj_neg *x, sc_relay_client_type type, size_t len, size_t *out_len)
{
    sc_relay_client_msg m;
    size_t need;

    memset(&m, 0, sizeof m);
    m.type = type;
    m.sub_id.ptr = x->sub_id;
    m.sub_id.len = x->sub_len;
    m.filters = type == SC_RELAY_CLIENT_NEG_OPEN ? &x->filter : NULL;
    m.n_filters = type == SC_RELAY_CLIENT_NEG_OPEN ? 1 : 0;
    m.neg = type == SC_RELAY_CLIENT_NEG_CLOSE ? NULL : x->msg;
    m.neg_len = type == SC_RELAY_CLIENT_NEG_CLOSE ? 0 : len;
    need = sc_relay_msg_write_len(&m);
    if (need > 0 && !grow((void **)&x->out, &x->out_cap, need)) {
        return SC_ERR_NOMEM;
    }
    return sc_relay_msg_write(x->out, x->out_cap, out_len, &m);
}

/* negOpen(slot, h): byte[], the NEG-OPEN text of a reconciliation started over (a retry
 * after a reconnect starts from the first message again). */
static jbyteArray neg_open(JNIEnv *env, jclass cls, jlong slot, jlong h)
{
    scj_neg *x = neg_of(h);
    sc_negentropy_opts o;
    size_t len = 0, out_len = 0;
    sc_status st;

    (void)cls;
    memset(&o, 0, sizeof o);
    o.frame_limit = x->frame_limit;
    st = sc_negentropy_init(&x->neg, x->items, x->n_items, &o);
    if (st == SC_OK && !grow((void **)&x->msg, &x->msg_cap, sc_negentropy_initiate_max(&x->neg))) {
        st = SC_ERR_NOMEM;
    }
    if (st == SC_OK) {
        st = sc_negentropy_initiate(scj_slot_of(slot)->ctx, &x->neg, x->msg, x->msg_cap, &len);
    }
    if (st == SC_OK) {
        st = neg_write(x, SC_RELAY_CLIENT_NEG_OPEN, len, &out_len);
    }
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    return scj_bytes(env, x->out, out_len);
}

/* negCloseMessage(h): byte[], the NEG-CLOSE text (a reconciliation given up). */
static jbyteArray neg_close_message(JNIEnv *env, jclass cls, jlong h)
{
    size_t out_len = 0;
    sc_status st = neg_write(neg_of(h), SC_RELAY_CLIENT_NEG_CLOSE, 0, &out_len);

    (void)cls;
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    return scj_bytes(env, neg_of(h)->out, out_len);
}

/* Copies the frame into x->text and parses it into *m (the arena grown for it). */
static sc_status neg_parse(JNIEnv *env, scj_neg *x, sc_ctx *ctx, jbyteArray text, sc_relay_msg *m)
{
    size_t n = scj_len(env, text), an = sc_relay_parse_arena_max(n), used = 0;
    sc_relay_parse_opts po;

    if (n > x->max_message || an == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if (!grow((void **)&x->text, &x->text_cap, n + 1) ||
        !grow((void **)&x->arena, &x->arena_cap, an)) {
        return SC_ERR_NOMEM;
    }
    (*env)->GetByteArrayRegion(env, text, 0, (jsize)n, (jbyte *)x->text);
    memset(&po, 0, sizeof po);
    po.max_input = x->max_message;
    return sc_relay_parse(ctx, m, x->arena, x->arena_cap, &used, x->text, n, &po);
}

/* One NEG-MSG: the reply into x->msg (grown to the exact size when it does not fit), the ids
 * into x->have / x->need. */
static sc_status neg_round(scj_neg *x, sc_ctx *ctx, const sc_relay_msg *m, size_t *len, size_t *hl,
                           size_t *nl)
{
    size_t need_cap = sc_negentropy_need_max(m->neg_len);
    sc_status st;

    if (!grow((void **)&x->need, &x->need_cap, (need_cap > 0 ? need_cap : 1) * 32)) {
        return SC_ERR_NOMEM;
    }
    need_cap = x->need_cap / 32;
    st = sc_negentropy_reconcile(ctx, &x->neg, x->msg, x->msg_cap, len, x->have, x->n_items + 1, hl,
                                 x->need, need_cap, nl, m->neg, m->neg_len);
    if (st == SC_ERR_BUFFER_TOO_SMALL && *len > x->msg_cap) {
        if (!grow((void **)&x->msg, &x->msg_cap, *len)) {
            return SC_ERR_NOMEM;
        }
        st = sc_negentropy_reconcile(ctx, &x->neg, x->msg, x->msg_cap, len, x->have, x->n_items + 1,
                                     hl, x->need, need_cap, nl, m->neg, m->neg_len);
    }
    return st;
}

/* The answer to a NEG-MSG: u32 type, u32 done, u32 n_have + ids, u32 n_need + ids, u32 len +
 * the text to send (NEG-MSG, or NEG-CLOSE when done). */
static jbyteArray neg_answer(JNIEnv *env, scj_neg *x, size_t hl, size_t nl, size_t out_len,
                             int done)
{
    size_t total = 20 + 32 * (hl + nl) + out_len, k;
    scj_wr w;
    jbyteArray out = scj_wr_begin(env, &w, total);

    if (out == NULL) {
        return NULL;
    }
    scj_wr_u32(&w, (uint32_t)SC_RELAY_NEG_MSG);
    scj_wr_u32(&w, (uint32_t)done);
    scj_wr_u32(&w, (uint32_t)hl);
    for (k = 0; k < hl; k++) {
        scj_wr_bytes(&w, x->items[x->have[k]].id, 32);
    }
    scj_wr_u32(&w, (uint32_t)nl);
    scj_wr_bytes(&w, x->need, 32 * nl);
    scj_wr_u32(&w, (uint32_t)out_len);
    scj_wr_bytes(&w, x->out, out_len);
    return scj_wr_end(env, out, &w);
}

/* Any other message: u32 type, u32 prefix, u32 accepted and the event id (an OK's), u32 len +
 * its text (NOTICE, NEG-ERR, CLOSED, OK: the whole text; AUTH: the challenge; else empty). */
static jbyteArray neg_other(JNIEnv *env, const sc_relay_msg *m)
{
    size_t total = 48 + m->message.len;
    scj_wr w;
    jbyteArray out = scj_wr_begin(env, &w, total);

    if (out == NULL) {
        return NULL;
    }
    scj_wr_u32(&w, (uint32_t)m->type);
    scj_wr_u32(&w, (uint32_t)m->prefix);
    scj_wr_u32(&w, (uint32_t)m->accepted);
    scj_wr_bytes(&w, m->event_id, 32);
    scj_wr_u32(&w, (uint32_t)m->message.len);
    scj_wr_bytes(&w, m->message.ptr, m->message.len);
    return scj_wr_end(env, out, &w);
}

/* negReceive(slot, h, frame): byte[] (neg_answer for a NEG-MSG, neg_other for the rest).
 * Throws the parse status of a malformed frame (SC_ERR_RELAY_MESSAGE: bad hex, ...;
 * SC_ERR_RELAY_UNKNOWN: a type no NIP names), SC_ERR_SUBSCRIPTION for a NEG-MSG or NEG-ERR
 * of another subscription id, and sc_negentropy_reconcile's status for a payload it refuses
 * (SC_ERR_NEGENTROPY, SC_ERR_NEG_VERSION). */
static jbyteArray neg_receive(JNIEnv *env, jclass cls, jlong slot, jlong h, jbyteArray text)
{
    scj_neg *x = neg_of(h);
    sc_ctx *ctx = scj_slot_of(slot)->ctx;
    sc_relay_msg m;
    size_t len = 0, hl = 0, nl = 0, out_len = 0;
    sc_status st;

    (void)cls;
    st = neg_parse(env, x, ctx, text, &m);
    if (st == SC_OK && (m.type == SC_RELAY_NEG_MSG || m.type == SC_RELAY_NEG_ERR) &&
        (m.sub_id.len != x->sub_len || memcmp(m.sub_id.ptr, x->sub_id, x->sub_len) != 0)) {
        st = SC_ERR_SUBSCRIPTION;
    }
    if (st == SC_OK && m.type != SC_RELAY_NEG_MSG) {
        return neg_other(env, &m);
    }
    if (st == SC_OK) {
        st = neg_round(x, ctx, &m, &len, &hl, &nl);
    }
    if (st == SC_OK) {
        st = neg_write(x, len > 0 ? SC_RELAY_CLIENT_NEG_MSG : SC_RELAY_CLIENT_NEG_CLOSE, len,
                       &out_len);
    }
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    return neg_answer(env, x, hl, nl, out_len, len == 0);
}

int scj_register_negentropy(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"negNew", "([B[B[BII)J", (void *)neg_new},
        {"negFree", "(J)V", (void *)neg_free},
        {"negOpen", "(JJ)[B", (void *)neg_open},
        {"negCloseMessage", "(J)[B", (void *)neg_close_message},
        {"negReceive", "(JJ[B)[B", (void *)neg_receive},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m)) != 0;
}
