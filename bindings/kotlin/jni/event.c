/* Natives: NIP-01 sign, parse+verify, and the rumor of NIP-59. */
#include "blob.h"
#include "scj.h"

#include <string.h>

int scj_event_load(JNIEnv *env, scj_slot *s, scj_event_in *e, jint kind, jlong created_at,
                   jbyteArray tags, jbyteArray content, size_t max)
{
    size_t tl = scj_len(env, tags), cl = scj_len(env, content), a, total, views;
    scj_tags t;
    sc_status st;
    uint8_t *tb;

    memset(e, 0, sizeof *e);
    if (content == NULL) {
        return scj_throw(env, SC_ERR_ARG);
    }
    if (kind < 0 || kind > 65535) {
        return scj_throw(env, SC_ERR_EVENT_RANGE);
    }
    if (tl > max || cl > max - tl) { /* capped before anything is allocated */
        return scj_throw(env, SC_ERR_TOO_LARGE);
    }
    if (!scj_align(&a, tl + cl) || !scj_mem_get(env, s, &e->mem, a)) {
        return 0;
    }
    tb = e->mem.p;
    if (tl > 0) {
        (*env)->GetByteArrayRegion(env, tags, 0, (jsize)tl, (jbyte *)tb);
    }
    if (cl > 0) {
        (*env)->GetByteArrayRegion(env, content, 0, (jsize)cl, (jbyte *)tb + tl);
    }
    st = scj_tags_count(&t, tb, tl);
    views = scj_tags_bytes(&t);
    if (st != SC_OK || views == 0 || !scj_add(&total, a, views)) {
        scj_event_unload(e);
        return scj_throw(env, st != SC_OK ? st : SC_ERR_TOO_LARGE);
    }
    if (total > e->mem.cap) { /* room for the views after the copy */
        scj_mem big;
        if (!scj_mem_get(env, s, &big, total)) {
            scj_event_unload(e);
            return 0;
        }
        memcpy(big.p, tb, tl + cl);
        scj_mem_put(&e->mem, tl + cl);
        e->mem = big;
        tb = big.p;
    }
    e->mem.n = total; /* what unload wipes */
    scj_tags_build(&t, tb + a, tb, &e->ev.tags);
    e->ev.n_tags = t.n_tags;
    e->ev.content.ptr = (const char *)tb + tl;
    e->ev.content.len = cl;
    e->ev.kind = (uint32_t)kind;
    e->ev.created_at = (int64_t)created_at;
    e->ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    return 1;
}

void scj_event_unload(scj_event_in *e)
{
    scj_mem_put(&e->mem, e->mem.n);
    memset(&e->ev, 0, sizeof e->ev);
}

/* A new byte[] of the event blob, followed (when json_flags >= 0) by u32 len + the JSON of
 * ev, written in place. NULL with an exception thrown. */
static jbyteArray event_out(JNIEnv *env, const sc_event *ev, int with_json)
{
    size_t eb = scj_event_blob_len(ev), jl = 0, n = eb, len = 0;
    jbyteArray out;
    scj_wr w;
    sc_status st = SC_OK;

    if (with_json) {
        jl = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT);
        if (jl == 0 || !scj_add(&n, eb, 4 + jl)) {
            scj_throw(env, SC_ERR_TOO_LARGE);
            return NULL;
        }
    }
    if (eb == 0 || (out = scj_wr_begin(env, &w, n)) == NULL) {
        if (eb == 0) {
            scj_throw(env, SC_ERR_TOO_LARGE);
        }
        return NULL;
    }
    scj_event_blob(&w, ev);
    if (with_json) {
        scj_wr_u32(&w, (uint32_t)jl);
        st = sc_event_to_json((char *)w.p + w.off, jl, &len, ev, SC_EVENT_JSON_OBJECT);
    }
    scj_wr_end(env, out, &w);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    return out;
}

/* eventSign(slot, id, kind, createdAt, tags, content, aux or null): event blob + JSON. */
static jbyteArray event_sign(JNIEnv *env, jclass cls, jlong slot, jlong id, jint kind,
                             jlong created_at, jbyteArray tags, jbyteArray content, jbyteArray aux)
{
    scj_slot *s = scj_slot_of(slot);
    scj_event_in e;
    uint8_t a[32];
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if ((aux != NULL && !scj_key(env, aux, a)) ||
        !scj_event_load(env, s, &e, kind, created_at, tags, content, SCJ_MAX_EVENT_INPUT)) {
        return NULL;
    }
    st = aux != NULL ? sc_event_sign_with_rand(s->ctx, &e.ev, (const sc_identity *)(uintptr_t)id, a)
                     : sc_event_sign(s->ctx, &e.ev, (const sc_identity *)(uintptr_t)id);
    if (st == SC_OK) {
        res = event_out(env, &e.ev, 1);
    } else {
        scj_throw(env, st);
    }
    scj_event_unload(&e);
    return res;
}

/* eventRumor(slot, id pubkey, kind, createdAt, tags, content): the rumor's event blob. */
static jbyteArray event_rumor(JNIEnv *env, jclass cls, jlong slot, jbyteArray author, jint kind,
                              jlong created_at, jbyteArray tags, jbyteArray content)
{
    scj_slot *s = scj_slot_of(slot);
    scj_event_in e;
    uint8_t pub[32];
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (!scj_key(env, author, pub) ||
        !scj_event_load(env, s, &e, kind, created_at, tags, content, SCJ_MAX_EVENT_INPUT)) {
        return NULL;
    }
    st = sc_nip59_rumor(s->ctx, &e.ev, pub);
    if (st == SC_OK) {
        res = event_out(env, &e.ev, 0);
    } else {
        scj_throw(env, st);
    }
    scj_event_unload(&e);
    return res;
}

/* eventParseVerify(slot, json, max): the event blob of a signed event whose id and signature
 * verify. The input is capped (max, 0 = 1 MiB) before the arena is sized; only the part of
 * the arena the parse used is wiped. */
static jbyteArray event_parse_verify(JNIEnv *env, jclass cls, jlong slot, jbyteArray json, jint max)
{
    scj_slot *s = scj_slot_of(slot);
    size_t n = scj_len(env, json), used = 0, cap = max > 0 ? (size_t)max : 1048576u;
    sc_event_parse_opts opts;
    scj_mem m;
    sc_event ev;
    uint8_t *in;
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (json == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return NULL;
    }
    if (n > cap) {
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    if (!scj_mem_get(env, s, &m, sc_event_parse_arena_max(n))) {
        return NULL;
    }
    memset(&opts, 0, sizeof opts);
    opts.max_input = cap;
    in = (*env)->GetPrimitiveArrayCritical(env, json, NULL);
    if (in == NULL) {
        scj_mem_put(&m, 0);
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    st = sc_event_parse(&ev, m.p, m.n, &used, (const char *)in, n, &opts);
    (*env)->ReleasePrimitiveArrayCritical(env, json, in, JNI_ABORT);
    if (st == SC_OK) {
        st = sc_event_verify(s->ctx, &ev);
    }
    if (st == SC_OK) {
        res = event_out(env, &ev, 0);
    } else {
        scj_throw(env, st);
    }
    scj_mem_put(&m, used);
    return res;
}

int scj_register_event(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"eventSign", "(JJIJ[B[B[B)[B", (void *)event_sign},
        {"eventRumor", "(J[BIJ[B[B)[B", (void *)event_rumor},
        {"eventParseVerify", "(J[BI)[B", (void *)event_parse_verify},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
