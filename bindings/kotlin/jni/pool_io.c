/* Natives: driving a relay pool's connections (connected, disconnected, the next message to
 * send, a received frame), its updates as blobs for the Kotlin loop, AUTH by an identity,
 * and NIP-17 delivery records (delivery.h) started and read on the pool. The pool's storage
 * and blocks are in pool.c. */
#include "blob.h"
#include "scj.h"

#include <stdlib.h>
#include <string.h>

/* poolConnected(h, relay, nowMs) and poolDisconnected: the relay's socket opened / closed. */
static void pool_connected(JNIEnv *env, jclass cls, jlong h, jint relay, jlong now)
{
    sc_status st = sc_pool_connected(scj_pool_get(h), (uint32_t)relay, (int64_t)now);

    (void)cls;
    if (st != SC_OK) {
        scj_throw(env, st);
    }
}

static void pool_disconnected(JNIEnv *env, jclass cls, jlong h, jint relay, jlong now)
{
    sc_status st = sc_pool_disconnected(scj_pool_get(h), (uint32_t)relay, (int64_t)now);

    (void)cls;
    if (st != SC_OK && st != SC_ERR_STATE) { /* a socket that never opened after a remove */
        scj_throw(env, st);
    }
}

/* poolNext(h, relay): ByteArray?, the next message to send to relay, null when none. */
static jbyteArray pool_next(JNIEnv *env, jclass cls, jlong h, jint relay)
{
    sc_pool *p = scj_pool_get(h);
    size_t need = sc_pool_next_len(p, (uint32_t)relay), len = 0;
    char *out;
    sc_status st;

    (void)cls;
    if (need == 0 || !scj_pool_out(env, h, need, &out)) {
        return NULL;
    }
    st = sc_pool_next(p, (uint32_t)relay, out, need, &len);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    return len > 0 ? scj_bytes(env, out, len) : NULL;
}

/* poolReceive(slot, h, relay, text, nowMs): Int, SC_OK or why the message was dropped (the
 * pool reports drops itself: SC_POOL_U_DROPPED). A frame over sc_pool_message_max throws
 * SC_ERR_TOO_LARGE before it is copied; SC_ERR_STATE, SC_ERR_ARG and NOT_FOUND throw. */
static jint pool_receive(JNIEnv *env, jclass cls, jlong slot, jlong h, jint relay, jbyteArray text,
                         jlong now)
{
    char *t;
    size_t n, cap;
    uint8_t *arena;
    sc_status st;

    (void)cls;
    if (!scj_pool_text(env, h, text, &t, &n, &arena, &cap)) {
        return 0; /* thrown: SC_ERR_TOO_LARGE (over the pool's limit) or SC_ERR_NOMEM */
    }
    st = sc_pool_receive(scj_pool_get(h), scj_slot_of(slot)->ctx, (uint32_t)relay, t, n,
                         (int64_t)now, arena, cap);
    if (st == SC_ERR_STATE || st == SC_ERR_ARG || st == SC_ERR_NOT_FOUND) {
        scj_throw(env, st);
    }
    return (jint)st;
}

static size_t str_len(const sc_str *s)
{
    return 4 + s->len;
}

static void wr_str(scj_wr *w, const sc_str *s)
{
    scj_wr_u32(w, (uint32_t)s->len);
    scj_wr_bytes(w, s->ptr, s->len);
}

/* The update as a blob: u32 kind, relay, str url, u32 sub, str sub_id, u32 pub, i64
 * delivery, u32 delivery finished, event_id[32], u32 result, attempts, prefix, str text,
 * u32 status, count, str event_json, u32 event blob length + the event blob (blob.h). */
static jbyteArray update_out(JNIEnv *env, const sc_pool_update *u, jlong delivery, int finished)
{
    size_t eb = u->event != NULL ? scj_event_blob_len(u->event) : 0;
    size_t total = 4 + 4 + str_len(&u->url) + 4 + str_len(&u->sub_id) + 4 + 8 + 4 + 32 + 12 +
                   str_len(&u->text) + 8 + str_len(&u->event_json) + 4 + eb;
    jbyteArray res = scj_new_bytes(env, total);
    scj_wr w;

    if (res == NULL) {
        return NULL;
    }
    w.p = (*env)->GetPrimitiveArrayCritical(env, res, NULL);
    if (w.p == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    w.off = 0;
    scj_wr_u32(&w, (uint32_t)u->kind);
    scj_wr_u32(&w, u->relay);
    wr_str(&w, &u->url);
    scj_wr_u32(&w, u->sub);
    wr_str(&w, &u->sub_id);
    scj_wr_u32(&w, u->pub);
    scj_wr_i64(&w, (int64_t)delivery);
    scj_wr_u32(&w, (uint32_t)finished);
    scj_wr_bytes(&w, u->event_id, 32);
    scj_wr_u32(&w, (uint32_t)u->result);
    scj_wr_u32(&w, u->attempts);
    scj_wr_u32(&w, (uint32_t)u->prefix);
    wr_str(&w, &u->text);
    scj_wr_u32(&w, (uint32_t)(int32_t)u->status);
    scj_wr_u32(&w, u->count);
    wr_str(&w, &u->event_json);
    scj_wr_u32(&w, (uint32_t)eb);
    if (u->event != NULL) {
        scj_event_blob(&w, u->event);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, res, w.p, 0);
    return res;
}

/* poolPoll(slot, h, nowMs): ByteArray?, the next update (null: none now). A publish update
 * of a delivery record is applied to the record here, while it is valid. */
static jbyteArray pool_poll(JNIEnv *env, jclass cls, jlong slot, jlong h, jlong now)
{
    sc_pool_update u;
    sc_delivery *d;
    jlong dh = 0;
    int finished = 0, done;
    sc_status st;

    (void)cls;
    scj_pool_sweep(h);
    st = sc_pool_poll(scj_pool_get(h), scj_slot_of(slot)->ctx, (int64_t)now, &u);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    if (u.kind == SC_POOL_U_NONE) {
        return NULL;
    }
    done = u.kind == SC_POOL_U_PUBLISH_DONE;
    if (u.kind == SC_POOL_U_PUBLISHED || done) {
        d = scj_pool_delivery_of(h, u.user, &dh, done);
        if (d != NULL) {
            if (sc_delivery_apply(d, &u) != SC_OK) { /* it is its user: cannot be */
                dh = 0;
            }
            (void)scj_pool_delivery_get(h, dh, &finished); /* dh 0: not finished */
        } else if (done) {
            scj_pool_publish_done(h, u.pub);
        }
    }
    return update_out(env, &u, dh, finished);
}

/* poolWakeup(h): Long, when the pool next needs a poll without socket activity. */
static jlong pool_wakeup(JNIEnv *env, jclass cls, jlong h)
{
    (void)env;
    (void)cls;
    return (jlong)sc_pool_wakeup(scj_pool_get(h));
}

/* poolAuthIdentity(h, identity or 0): the identity the pool answers AUTH challenges with. */
static void pool_auth_identity(JNIEnv *env, jclass cls, jlong h, jlong id)
{
    sc_status st = sc_pool_auth_identity(scj_pool_get(h), (const sc_identity *)(uintptr_t)id);

    (void)cls;
    if (st != SC_OK) {
        scj_throw(env, st);
    }
}

/* deliveryNew(h, wraps blob, routes blob): Long, a delivery record started on the pool. */
static jlong delivery_new(JNIEnv *env, jclass cls, jlong h, jbyteArray wraps, jbyteArray routes)
{
    size_t wl = scj_len(env, wraps), rl = scj_len(env, routes);
    uint8_t *w, *r;
    void *b = NULL;

    (void)cls;
    if (wl > 64u * SCJ_MAX_EVENT_INPUT || rl > SCJ_MAX_EVENT_INPUT) {
        scj_throw(env, SC_ERR_TOO_LARGE);
        return 0;
    }
    w = malloc(wl + 1);
    r = malloc(rl + 1);
    if (w == NULL || r == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
    } else {
        (*env)->GetByteArrayRegion(env, wraps, 0, (jsize)wl, (jbyte *)w);
        (*env)->GetByteArrayRegion(env, routes, 0, (jsize)rl, (jbyte *)r);
        b = scj_pool_delivery_new(env, h, w, wl, r, rl);
    }
    free(w);
    free(r);
    return (jlong)(uintptr_t)b;
}

/* deliveryResult(h, d): ByteArray, u32 outcome, u32 n receivers, per receiver pubkey[32],
 * u32 outcome, u32 n relays, per relay str url, u32 result, attempts, prefix, str text. */
static jbyteArray delivery_result(JNIEnv *env, jclass cls, jlong h, jlong dh)
{
    int finished;
    const sc_delivery *d = scj_pool_delivery_get(h, dh, &finished);
    size_t n = d != NULL ? sc_delivery_receivers(d) : 0, i, j, total = 8;
    sc_delivery_receiver rc;
    sc_delivery_relay rl;
    jbyteArray res;
    scj_wr w;

    (void)cls;
    if (d == NULL) {
        scj_throw(env, SC_ERR_NOT_FOUND);
        return NULL;
    }
    for (i = 0; i < n && sc_delivery_receiver_get(d, &rc, i) == SC_OK; i++) {
        total += 40;
        for (j = 0; j < rc.n_relays && sc_delivery_relay_get(d, &rl, i, j) == SC_OK; j++) {
            total += str_len(&rl.url) + 12 + str_len(&rl.text);
        }
    }
    if ((res = scj_new_bytes(env, total)) == NULL) {
        return NULL;
    }
    w.p = (*env)->GetPrimitiveArrayCritical(env, res, NULL);
    if (w.p == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    w.off = 0;
    scj_wr_u32(&w, (uint32_t)sc_delivery_outcome_get(d));
    scj_wr_u32(&w, (uint32_t)n);
    for (i = 0; i < n && sc_delivery_receiver_get(d, &rc, i) == SC_OK; i++) {
        scj_wr_bytes(&w, rc.pubkey, 32);
        scj_wr_u32(&w, (uint32_t)rc.outcome);
        scj_wr_u32(&w, (uint32_t)rc.n_relays);
        for (j = 0; j < rc.n_relays && sc_delivery_relay_get(d, &rl, i, j) == SC_OK; j++) {
            wr_str(&w, &rl.url);
            scj_wr_u32(&w, (uint32_t)rl.result);
            scj_wr_u32(&w, rl.attempts);
            scj_wr_u32(&w, (uint32_t)rl.prefix);
            wr_str(&w, &rl.text);
        }
    }
    (*env)->ReleasePrimitiveArrayCritical(env, res, w.p, 0);
    return res;
}

static void delivery_free(JNIEnv *env, jclass cls, jlong h, jlong d)
{
    (void)env;
    (void)cls;
    scj_pool_delivery_free(h, d);
}

int scj_register_pool_io(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"poolConnected", "(JIJ)V", (void *)pool_connected},
        {"poolDisconnected", "(JIJ)V", (void *)pool_disconnected},
        {"poolNext", "(JI)[B", (void *)pool_next},
        {"poolReceive", "(JJI[BJ)I", (void *)pool_receive},
        {"poolPoll", "(JJJ)[B", (void *)pool_poll},
        {"poolWakeup", "(J)J", (void *)pool_wakeup},
        {"poolAuthIdentity", "(JJ)V", (void *)pool_auth_identity},
        {"deliveryNew", "(J[B[B)J", (void *)delivery_new},
        {"deliveryResult", "(JJ)[B", (void *)delivery_result},
        {"deliveryFree", "(JJ)V", (void *)delivery_free},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
