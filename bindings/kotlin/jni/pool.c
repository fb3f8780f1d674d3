/* Natives: the relay pool (api/softchat/pool.h) and NIP-17 delivery records (delivery.h) for
 * org.softchat.RelayPool. One scj_pool holds the sc_pool, its memory, the text of the last
 * received frame and the receive arena (an EVENT update points into both until the next
 * poll), the buffer of sc_pool_next, and the blocks the pool keeps by reference: each
 * subscription's parsed filters, each publish's parsed event, each delivery record. Blocks of
 * finished publishes are freed at the next call, after their PUBLISH_DONE was reported. The
 * Kotlin side calls a pool from one thread at a time (its loop). */
#include "blob.h"
#include "scj.h"

#include <stdlib.h>
#include <string.h>

enum {
    BLOCK_SUB = 1,
    BLOCK_PUB = 2,
    BLOCK_DELIVERY = 3
};

typedef struct scj_block {
    struct scj_block *next;
    int kind;
    uint32_t handle; /* the pool's sub or pub handle */
    int done;        /* a publish whose PUBLISH_DONE was reported: free at the next call */
    size_t pending;  /* a delivery: its publishes not yet done */
    sc_delivery d;   /* a delivery: the record (the publishes' user pointer) */
    size_t size;     /* bytes after the header */
    sc_relay_filter *filters;
    size_t n_filters;
    sc_event ev;
    uint8_t *data;
} scj_block;

typedef struct scj_pool {
    sc_pool pool;
    uint8_t *mem;
    size_t mem_len;
    char *text;
    size_t text_cap;
    uint8_t *arena;
    size_t arena_cap;
    char *out;
    size_t out_cap;
    scj_block *blocks;
} scj_pool;

static scj_pool *pool_of(jlong h)
{
    return (scj_pool *)(uintptr_t)h;
}

static scj_block *block_new(JNIEnv *env, int kind, size_t size)
{
    scj_block *b = calloc(1, sizeof *b);

    if (b != NULL && size > 0 && (b->data = malloc(size)) == NULL) {
        free(b);
        b = NULL;
    }
    if (b == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    b->kind = kind;
    b->size = size;
    return b;
}

static void block_free(scj_block *b)
{
    if (b->kind == BLOCK_DELIVERY) {
        sc_delivery_clear(&b->d);
    }
    if (b->data != NULL) {
        sc_mem_wipe(b->data, b->size);
        free(b->data);
    }
    free(b);
}

/* Frees the blocks of publishes whose PUBLISH_DONE was reported (or, with all, every block). */
static void blocks_sweep(scj_pool *p, int all)
{
    scj_block **link = &p->blocks;

    while (*link != NULL) {
        scj_block *b = *link;
        if (all || b->done) {
            *link = b->next;
            block_free(b);
        } else {
            link = &b->next;
        }
    }
}

static scj_block *block_find(scj_pool *p, int kind, uint32_t handle, const void *user)
{
    scj_block *b;

    for (b = p->blocks; b != NULL; b = b->next) {
        if (b->kind == kind && (user != NULL ? (const void *)&b->d == user : b->handle == handle)) {
            return b;
        }
    }
    return NULL;
}

/* poolNew(int[] options): Long. The options, in order: maxRelays, maxSubs, maxPublishes,
 * auth policy, okTimeoutMs, retryMinMs, retryMaxMs, maxEventMsg, maxAttempts, the sessions'
 * reconnect backoffMinMs and backoffMaxMs (0: the library's default). */
static jlong pool_new(JNIEnv *env, jclass cls, jintArray opts)
{
    jint v[11];
    sc_pool_opts o;
    scj_pool *p;
    sc_status st;

    (void)cls;
    if (opts == NULL || (*env)->GetArrayLength(env, opts) != (jsize)SCJ_COUNT(v)) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    (*env)->GetIntArrayRegion(env, opts, 0, (jsize)SCJ_COUNT(v), v);
    memset(&o, 0, sizeof o);
    o.max_relays = (uint32_t)v[0];
    o.max_subs = (uint32_t)v[1];
    o.max_publishes = (uint32_t)v[2];
    o.auth = (uint32_t)v[3];
    o.ok_timeout_ms = (uint32_t)v[4];
    o.retry_min_ms = (uint32_t)v[5];
    o.retry_max_ms = (uint32_t)v[6];
    o.max_event_msg = (uint32_t)v[7];
    o.max_attempts = (uint32_t)v[8];
    o.session.backoff_min_ms = (uint32_t)v[9];
    o.session.backoff_max_ms = (uint32_t)v[10];
    p = calloc(1, sizeof *p);
    if (p == NULL || (p->mem_len = sc_pool_mem_max(&o)) == 0 ||
        (p->mem = malloc(p->mem_len)) == NULL) {
        st = p != NULL && p->mem_len == 0 ? SC_ERR_FLAGS : SC_ERR_NOMEM;
        free(p);
        scj_throw(env, st);
        return 0;
    }
    st = sc_pool_init(&p->pool, p->mem, p->mem_len, &o);
    if (st != SC_OK) {
        free(p->mem);
        free(p);
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)p;
}

static void pool_free(JNIEnv *env, jclass cls, jlong h)
{
    scj_pool *p = pool_of(h);

    (void)env;
    (void)cls;
    if (p == NULL) {
        return;
    }
    sc_pool_clear(&p->pool);
    blocks_sweep(p, 1);
    sc_mem_wipe(p->mem, p->mem_len);
    free(p->mem);
    if (p->text != NULL) {
        sc_mem_wipe(p->text, p->text_cap);
    }
    free(p->text);
    free(p->arena);
    free(p->out);
    free(p);
}

/* A byte[] as an sc_str held in a temporary copy (*tmp, freed by the caller). */
static int str_in(JNIEnv *env, jbyteArray a, char **tmp, sc_str *s)
{
    size_t n = scj_len(env, a);

    *tmp = malloc(n + 1);
    if (*tmp == NULL) {
        return scj_throw(env, SC_ERR_NOMEM);
    }
    if (n > 0) {
        (*env)->GetByteArrayRegion(env, a, 0, (jsize)n, (jbyte *)*tmp);
    }
    s->ptr = *tmp;
    s->len = n;
    return 1;
}

/* poolRelayAdd(h, url): Int, the relay's handle (an existing one for a URL already there). */
static jint pool_relay_add(JNIEnv *env, jclass cls, jlong h, jbyteArray url)
{
    char *tmp;
    sc_str u;
    uint32_t r = 0;
    sc_status st;

    (void)cls;
    if (!str_in(env, url, &tmp, &u)) {
        return 0;
    }
    st = sc_pool_relay_add(&pool_of(h)->pool, &r, u);
    free(tmp);
    if (st != SC_OK) {
        scj_throw(env, st);
    }
    return (jint)r;
}

/* Copies the relay handles of an int[]; NULL with an exception thrown. */
static uint32_t *relays_in(JNIEnv *env, jintArray a, size_t *n)
{
    uint32_t *r;

    *n = a != NULL ? (size_t)(*env)->GetArrayLength(env, a) : 0;
    if (*n == 0) {
        scj_throw(env, SC_ERR_EMPTY);
        return NULL;
    }
    r = malloc(*n * sizeof *r);
    if (r == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    (*env)->GetIntArrayRegion(env, a, 0, (jsize)*n, (jint *)r);
    return r;
}

/* The filters of a strings blob (u32 n, then u32 len + JSON object each), parsed into one
 * block: their arenas after the sc_relay_filter array. NULL with an exception thrown. */
static scj_block *filters_in(JNIEnv *env, jbyteArray blob)
{
    size_t bl = scj_len(env, blob), need = 0, used, i, off;
    scj_block *b;
    uint8_t *copy;
    scj_rd r;
    uint32_t n = 0, l;
    const uint8_t *p;
    sc_status st = SC_OK;

    if (bl == 0 || bl > SCJ_MAX_EVENT_INPUT || (copy = malloc(bl)) == NULL) {
        scj_throw(env, bl == 0                    ? SC_ERR_EMPTY
                       : bl > SCJ_MAX_EVENT_INPUT ? SC_ERR_TOO_LARGE
                                                  : SC_ERR_NOMEM);
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, blob, 0, (jsize)bl, (jbyte *)copy);
    r.p = copy;
    r.left = bl;
    if (!scj_rd_u32(&r, &n) || n == 0 || n > 64) {
        st = n == 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE;
    }
    for (i = 0; st == SC_OK && i < n; i++) { /* the arenas' sizes, each 16-aligned */
        size_t a;
        if (!scj_rd_u32(&r, &l) || !scj_rd_bytes(&r, &p, l) ||
            !scj_align(&a, sc_relay_filter_parse_arena_max(l)) || !scj_add(&need, need, a)) {
            st = SC_ERR_ARG;
        }
    }
    b = st == SC_OK ? block_new(env, BLOCK_SUB, n * sizeof(sc_relay_filter) + 16 + need) : NULL;
    if (b == NULL) {
        free(copy);
        if (st != SC_OK) {
            scj_throw(env, st);
        }
        return NULL;
    }
    b->filters = (sc_relay_filter *)(void *)b->data;
    b->n_filters = n;
    off = n * sizeof(sc_relay_filter);
    scj_align(&off, off);
    r.p = copy + 4;
    r.left = bl - 4;
    for (i = 0; st == SC_OK && i < n; i++) {
        scj_rd_u32(&r, &l);
        scj_rd_bytes(&r, &p, l);
        st = sc_relay_filter_parse(&b->filters[i], b->data + off, b->size - off, &used,
                                   (const char *)p, l);
        scj_align(&used, used);
        off += used;
    }
    free(copy);
    if (st != SC_OK) {
        block_free(b);
        scj_throw(env, st);
        return NULL;
    }
    return b;
}

/* Opens the subscription of block b (its filters set) on relays; the pool then references
 * b. Returns the sub handle, or 0 with an exception thrown (b freed). */
static jint subscribe_block(JNIEnv *env, scj_pool *p, scj_block *b, jbyteArray sub_id,
                            jintArray relays, jlong slack, jint eose_ms, jint flags)
{
    sc_pool_sub_opts o;
    uint32_t *r, sub = 0;
    size_t n;
    char *tmp;
    sc_str id;
    sc_status st;

    if ((r = relays_in(env, relays, &n)) == NULL || !str_in(env, sub_id, &tmp, &id)) {
        block_free(b);
        free(r);
        return 0;
    }
    memset(&o, 0, sizeof o);
    o.resume_slack = (int64_t)slack;
    o.eose_timeout_ms = (uint32_t)eose_ms;
    o.flags = (uint32_t)flags;
    st = sc_pool_subscribe(&p->pool, &sub, id, b->filters, b->n_filters, r, n, &o);
    free(tmp);
    free(r);
    if (st != SC_OK) {
        block_free(b);
        scj_throw(env, st);
        return 0;
    }
    {
        scj_block *old = block_find(p, BLOCK_SUB, sub, NULL); /* the same sub id again */
        if (old != NULL) {
            old->done = 1;
        }
    }
    b->handle = sub;
    b->next = p->blocks;
    p->blocks = b;
    return (jint)sub;
}

/* poolSubscribe(h, subId, filters blob, relays, resumeSlack, eoseTimeoutMs, flags): Int. */
static jint pool_subscribe(JNIEnv *env, jclass cls, jlong h, jbyteArray sub_id, jbyteArray filters,
                           jintArray relays, jlong slack, jint eose_ms, jint flags)
{
    scj_pool *p = pool_of(h);
    scj_block *b;

    (void)cls;
    blocks_sweep(p, 0);
    if ((b = filters_in(env, filters)) == NULL) {
        return 0;
    }
    return subscribe_block(env, p, b, sub_id, relays, slack, eose_ms, flags);
}

/* poolSubscribeInboxes(h, subId, users (n x 32 bytes), relays, eoseTimeoutMs, flags): Int. The
 * filter of sc_inboxes_filter (kinds 10050 and 10002 by the users), kept in the block with
 * the keys it points at. */
static jint pool_subscribe_inboxes(JNIEnv *env, jclass cls, jlong h, jbyteArray sub_id,
                                   jbyteArray users, jintArray relays, jint eose_ms, jint flags)
{
    scj_pool *p = pool_of(h);
    size_t ul = scj_len(env, users), n = ul / SC_PUBKEY_BYTES;
    scj_block *b;
    uint8_t(*keys)[SC_PUBKEY_BYTES];
    sc_status st;

    (void)cls;
    blocks_sweep(p, 0);
    if (ul == 0 || ul % SC_PUBKEY_BYTES != 0 || n > 65535) {
        scj_throw(env, ul == 0 ? SC_ERR_EMPTY : n > 65535 ? SC_ERR_TOO_LARGE : SC_ERR_ARG);
        return 0;
    }
    if ((b = block_new(env, BLOCK_SUB, sizeof(sc_relay_filter) + ul)) == NULL) {
        return 0;
    }
    b->filters = (sc_relay_filter *)(void *)b->data;
    b->n_filters = 1;
    keys = (uint8_t(*)[SC_PUBKEY_BYTES])(void *)(b->data + sizeof(sc_relay_filter));
    (*env)->GetByteArrayRegion(env, users, 0, (jsize)ul, (jbyte *)keys);
    st = sc_inboxes_filter(b->filters, (const uint8_t(*)[SC_PUBKEY_BYTES])keys, n);
    if (st != SC_OK) {
        block_free(b);
        scj_throw(env, st);
        return 0;
    }
    return subscribe_block(env, p, b, sub_id, relays, 0, eose_ms, flags);
}

/* poolUnsubscribe(h, sub): its CLOSEs are queued; its filters are freed at the next call. */
static void pool_unsubscribe(JNIEnv *env, jclass cls, jlong h, jint sub)
{
    scj_pool *p = pool_of(h);
    scj_block *b = block_find(p, BLOCK_SUB, (uint32_t)sub, NULL);
    sc_status st = sc_pool_unsubscribe(&p->pool, (uint32_t)sub);

    (void)cls;
    if (b != NULL) {
        b->done = 1;
    }
    if (st != SC_OK && st != SC_ERR_NOT_FOUND) {
        scj_throw(env, st);
    }
}

/* poolPublish(h, event JSON, relays): Int, the publish's handle. */
static jint pool_publish(JNIEnv *env, jclass cls, jlong h, jbyteArray json, jintArray relays)
{
    scj_pool *p = pool_of(h);
    size_t jl = scj_len(env, json), an, n, used = 0;
    scj_block *b;
    uint32_t *r, pub = 0;
    sc_status st;

    (void)cls;
    blocks_sweep(p, 0);
    an = sc_event_parse_arena_max(jl);
    if (jl == 0 || jl > SCJ_MAX_EVENT_INPUT || an == 0) {
        scj_throw(env, jl == 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE);
        return 0;
    }
    if ((r = relays_in(env, relays, &n)) == NULL) {
        return 0;
    }
    if ((b = block_new(env, BLOCK_PUB, jl + an)) == NULL) {
        free(r);
        return 0;
    }
    (*env)->GetByteArrayRegion(env, json, 0, (jsize)jl, (jbyte *)b->data);
    st = sc_event_parse(&b->ev, b->data + jl, an, &used, (const char *)b->data, jl, NULL);
    if (st == SC_OK) {
        st = sc_pool_publish(&p->pool, &pub, &b->ev, r, n, NULL);
    }
    free(r);
    if (st != SC_OK) {
        block_free(b);
        scj_throw(env, st);
        return 0;
    }
    b->handle = pub;
    b->next = p->blocks;
    p->blocks = b;
    return (jint)pub;
}

int scj_register_pool(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"poolNew", "([I)J", (void *)pool_new},
        {"poolFree", "(J)V", (void *)pool_free},
        {"poolRelayAdd", "(J[B)I", (void *)pool_relay_add},
        {"poolSubscribe", "(J[B[B[IJII)I", (void *)pool_subscribe},
        {"poolSubscribeInboxes", "(J[B[B[III)I", (void *)pool_subscribe_inboxes},
        {"poolUnsubscribe", "(JI)V", (void *)pool_unsubscribe},
        {"poolPublish", "(J[B[I)I", (void *)pool_publish},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m)) != 0 ||
           scj_register_pool_io(env, c);
}

/* ---- shared with pool_io.c (declared in scj.h) --------------------------------------- */

sc_pool *scj_pool_get(jlong h)
{
    return &pool_of(h)->pool;
}

void scj_pool_sweep(jlong h)
{
    blocks_sweep(pool_of(h), 0);
}

int scj_pool_text(JNIEnv *env, jlong h, jbyteArray text, char **out, size_t *len, uint8_t **arena,
                  size_t *arena_cap)
{
    scj_pool *p = pool_of(h);
    size_t n = scj_len(env, text), an = sc_pool_receive_arena_max(n);

    if (n > sc_pool_message_max(&p->pool) || an == 0) {
        return scj_throw(env, SC_ERR_TOO_LARGE);
    }
    if (n > p->text_cap) {
        char *t = malloc(n);
        if (t == NULL) {
            return scj_throw(env, SC_ERR_NOMEM);
        }
        free(p->text);
        p->text = t;
        p->text_cap = n;
    }
    if (an > p->arena_cap) {
        uint8_t *a = malloc(an);
        if (a == NULL) {
            return scj_throw(env, SC_ERR_NOMEM);
        }
        free(p->arena);
        p->arena = a;
        p->arena_cap = an;
    }
    if (n > 0) {
        (*env)->GetByteArrayRegion(env, text, 0, (jsize)n, (jbyte *)p->text);
    }
    *out = p->text;
    *len = n;
    *arena = p->arena;
    *arena_cap = p->arena_cap;
    return 1;
}

int scj_pool_out(JNIEnv *env, jlong h, size_t need, char **out)
{
    scj_pool *p = pool_of(h);

    if (need > p->out_cap) {
        char *o = malloc(need);
        if (o == NULL) {
            return scj_throw(env, SC_ERR_NOMEM);
        }
        free(p->out);
        p->out = o;
        p->out_cap = need;
    }
    *out = p->out;
    return 1;
}

void *scj_pool_delivery_of(jlong h, const void *user, jlong *handle, int publish_done)
{
    scj_pool *p = pool_of(h);
    scj_block *b = user != NULL ? block_find(p, BLOCK_DELIVERY, 0, user) : NULL;

    *handle = (jlong)(uintptr_t)b;
    if (b != NULL && publish_done && b->pending > 0) {
        b->pending--;
    }
    return b != NULL ? &b->d : NULL;
}

void scj_pool_publish_done(jlong h, uint32_t pub)
{
    scj_block *b = block_find(pool_of(h), BLOCK_PUB, pub, NULL);

    if (b != NULL) {
        b->done = 1;
    }
}

void *scj_pool_delivery_new(JNIEnv *env, jlong h, const uint8_t *w, size_t wl, const uint8_t *rt,
                            size_t rl)
{
    scj_pool *p = pool_of(h);
    scj_rd r = {w, wl}, q = {rt, rl};
    uint32_t n = 0, i, j, k, l, nr;
    size_t total_url = 0, n_urls = 0, need, wraps_len = 0;
    sc_nip17_wrap wraps[64];
    sc_delivery_route routes[64];
    sc_str urls[256];
    const uint8_t *x;
    scj_block *b;
    sc_status st = SC_OK;

    if (!scj_rd_u32(&r, &n) || n == 0 || n > 64 || !scj_rd_u32(&q, &nr) || nr != n) {
        scj_throw(env, n > 64 ? SC_ERR_TOO_LARGE : SC_ERR_ARG);
        return NULL;
    }
    for (i = 0; i < n && st == SC_OK; i++) {
        if (!scj_rd_bytes(&r, &x, 32) || !scj_rd_u32(&r, &l) || !scj_rd_bytes(&r, &x, l)) {
            st = SC_ERR_ARG;
            break;
        }
        memcpy(wraps[i].recipient, x - 36, 32);
        wraps[i].offset = (size_t)(x - w);
        wraps[i].len = l;
        wraps_len += l;
        if (!scj_rd_u32(&q, &k) || k == 0 || n_urls + k > SCJ_COUNT(urls)) {
            st = k == 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE;
            break;
        }
        routes[i].relays = &urls[n_urls];
        routes[i].n_relays = k;
        for (j = 0; j < k; j++, n_urls++) {
            if (!scj_rd_u32(&q, &l) || !scj_rd_bytes(&q, &x, l)) {
                st = SC_ERR_ARG;
                break;
            }
            urls[n_urls].ptr = (const char *)x;
            urls[n_urls].len = l;
            total_url += l;
        }
    }
    need = st == SC_OK ? sc_delivery_mem_max(n, wraps_len, n_urls, total_url) : 0;
    b = st == SC_OK && need > 0 ? block_new(env, BLOCK_DELIVERY, need) : NULL;
    if (b == NULL) {
        if (st != SC_OK || need == 0) {
            scj_throw(env, st != SC_OK ? st : SC_ERR_TOO_LARGE);
        }
        return NULL;
    }
    st = sc_delivery_init(&b->d, b->data, b->size, (const char *)w, wl, wraps, n, routes);
    if (st == SC_OK) {
        b->pending = sc_delivery_receivers(&b->d);
        st = sc_delivery_start(&b->d, &p->pool);
    }
    if (st != SC_OK) {
        block_free(b);
        scj_throw(env, st);
        return NULL;
    }
    b->next = p->blocks;
    p->blocks = b;
    return b;
}

sc_delivery *scj_pool_delivery_get(jlong h, jlong d, int *finished)
{
    scj_block *b;

    for (b = pool_of(h)->blocks; b != NULL; b = b->next) {
        if ((jlong)(uintptr_t)b == d && b->kind == BLOCK_DELIVERY) {
            *finished = b->pending == 0;
            return &b->d;
        }
    }
    *finished = 0;
    return NULL;
}

void scj_pool_delivery_free(jlong h, jlong d)
{
    scj_block *b;

    for (b = pool_of(h)->blocks; b != NULL; b = b->next) {
        if ((jlong)(uintptr_t)b == d && b->kind == BLOCK_DELIVERY && b->pending == 0) {
            b->done = 1;
        }
    }
}
