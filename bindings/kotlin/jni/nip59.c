/* Natives: NIP-59 gift wrap and unwrap, and NIP-17 receive (which is an unwrap plus the
 * message checks and the room). The wrap input is capped before the arena is sized. */
#include "blob.h"
#include "scj.h"

#include <string.h>

#define INFO_BYTES (4 * 32 + 4 + 8 + 8)

/* giftWrap(slot, author, kind, createdAt, tags, content, recipient, flags, relay, expiration,
 * now): the gift wrap JSON of the rumor (kind, createdAt, tags, content) by author. */
static jbyteArray gift_wrap(JNIEnv *env, jclass cls, jlong slot, jlong author, jint kind,
                            jlong created_at, jbyteArray tags, jbyteArray content,
                            jobject recipient, jint flags, jbyteArray relay, jlong expiration,
                            jlong now)
{
    scj_slot *s = scj_slot_of(slot);
    const sc_identity *id = (const sc_identity *)(uintptr_t)author;
    uint8_t to[32], pub[32];
    char hint[SCJ_RELAY_HINT_MAX];
    size_t sn, on, total, len = 0;
    sc_nip59_opts opts;
    scj_event_in e;
    scj_mem m = {NULL, 0, 0, 0, NULL};
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (!scj_pub(env, recipient, to) ||
        !scj_wrap_opts(env, &opts, hint, flags, relay, expiration, now)) {
        return NULL;
    }
    st = sc_identity_pubkey(pub, id);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    if (!scj_event_load(env, s, &e, kind, created_at, tags, content, SCJ_MAX_EVENT_INPUT)) {
        return NULL;
    }
    st = sc_nip59_rumor(s->ctx, &e.ev, pub);
    sn = st == SC_OK ? sc_nip59_wrap_scratch_max(&e.ev, &opts) : 0;
    on = st == SC_OK ? sc_nip59_wrap_max(&e.ev, &opts) : 0;
    if (st == SC_OK && (sn == 0 || on == 0)) { /* the call says why */
        st = sc_nip59_wrap(s->ctx, NULL, 0, &len, NULL, 0, &e.ev, id, to, &opts);
        if (st == SC_ERR_BUFFER_TOO_SMALL) {
            st = SC_ERR_TOO_LARGE;
        }
    }
    if (st == SC_OK && (!scj_align(&sn, sn) || !scj_add(&total, sn, on))) {
        st = SC_ERR_TOO_LARGE;
    }
    if (st != SC_OK) {
        scj_throw(env, st);
    } else if (scj_mem_get(env, s, &m, total)) {
        st = sc_nip59_wrap(s->ctx, (char *)m.p + sn, on, &len, m.p, sn, &e.ev, id, to, &opts);
        if (st == SC_OK) {
            res = scj_bytes(env, m.p + sn, len);
        } else {
            scj_throw(env, st);
        }
        scj_mem_put(&m, sn + len); /* the library wiped its scratch; the wrap is public */
    }
    scj_event_unload(&e);
    return res;
}

static void info_blob(scj_wr *w, const sc_nip59_info *i)
{
    scj_wr_bytes(w, i->sender, 32);
    scj_wr_bytes(w, i->wrap_pubkey, 32);
    scj_wr_bytes(w, i->wrap_id, 32);
    scj_wr_bytes(w, i->seal_id, 32);
    scj_wr_u32(w, i->wrap_kind);
    scj_wr_i64(w, i->wrap_created_at);
    scj_wr_i64(w, i->seal_created_at);
}

/* Unwraps (nip17 = 0) or receives (nip17 = 1) wrap for identity me at time now (NIP-40: an
 * expired wrap or seal is refused): info + rumor blob (+ u32 n_room, n_room * 32 bytes). */
static jbyteArray open_wrap(JNIEnv *env, jlong slot, jlong me, jbyteArray wrap, jint max, jlong now,
                            int nip17)
{
    scj_slot *s = scj_slot_of(slot);
    const sc_identity *id = (const sc_identity *)(uintptr_t)me;
    size_t n = scj_len(env, wrap), cap = max > 0 ? (size_t)max : 1048576u, used = 0, need, eb;
    size_t total, room = 0;
    sc_nip17_received msg;
    sc_nip59_info info;
    sc_event rumor;
    const sc_event *ev;
    scj_mem m;
    uint8_t *in;
    scj_wr w;
    sc_status st;
    jbyteArray res = NULL;

    memset(&msg, 0, sizeof msg);
    if (wrap == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return NULL;
    }
    if (n > cap) { /* a junk wrap from a relay is refused before the arena is sized */
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    need = nip17 ? sc_nip17_receive_arena_max(n) : sc_nip59_unwrap_arena_max(n);
    if (need == 0) {
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    if (!scj_mem_get(env, s, &m, need)) {
        return NULL;
    }
    in = (*env)->GetPrimitiveArrayCritical(env, wrap, NULL);
    if (in == NULL) {
        scj_mem_put(&m, 0);
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    if (nip17) {
        st = sc_nip17_receive_at(s->ctx, &msg, m.p, m.n, &used, (const char *)in, n, id,
                                 (int64_t)now);
        ev = &msg.rumor;
        info = msg.wrap;
        room = msg.n_room;
    } else {
        st = sc_nip59_unwrap_at(s->ctx, &rumor, &info, m.p, m.n, &used, (const char *)in, n, id,
                                (int64_t)now);
        ev = &rumor;
    }
    (*env)->ReleasePrimitiveArrayCritical(env, wrap, in, JNI_ABORT);
    eb = st == SC_OK ? scj_event_blob_len(ev) : 0;
    if (st == SC_OK &&
        (eb == 0 || !scj_add(&total, INFO_BYTES + 4, eb) || !scj_add(&total, total, room * 32))) {
        st = SC_ERR_TOO_LARGE;
    }
    if (st != SC_OK) {
        scj_throw(env, st);
    } else if ((res = scj_new_bytes(env, total)) != NULL) {
        w.p = (*env)->GetPrimitiveArrayCritical(env, res, NULL);
        if (w.p == NULL) {
            res = NULL;
            scj_throw(env, SC_ERR_NOMEM);
        } else {
            w.off = 0;
            info_blob(&w, &info);
            scj_event_blob(&w, ev);
            scj_wr_u32(&w, (uint32_t)room);
            if (room > 0) {
                scj_wr_bytes(&w, msg.room, room * 32);
            }
            (*env)->ReleasePrimitiveArrayCritical(env, res, w.p, 0);
        }
    }
    scj_mem_put(&m, used); /* the rumor (private); a failed call zeroed what it wrote */
    return res;
}

static jbyteArray unwrap(JNIEnv *env, jclass cls, jlong slot, jlong me, jbyteArray wrap, jint max,
                         jlong now)
{
    (void)cls;
    return open_wrap(env, slot, me, wrap, max, now, 0);
}

static jbyteArray receive(JNIEnv *env, jclass cls, jlong slot, jlong me, jbyteArray wrap, jint max,
                          jlong now)
{
    (void)cls;
    return open_wrap(env, slot, me, wrap, max, now, 1);
}

int scj_register_nip59(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"giftWrap", "(JJIJ[B[BLjava/lang/Object;I[BJJ)[B", (void *)gift_wrap},
        {"unwrap", "(JJ[BIJ)[B", (void *)unwrap},
        {"receive", "(JJ[BIJ)[B", (void *)receive},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
