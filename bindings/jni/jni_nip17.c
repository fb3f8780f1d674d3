/* Natives of Context for NIP-17 private messages: send a kind 14 chat message as one gift
 * wrap per receiver plus the sender's copy (sc_nip17_send), and receive (unwrap and authenticate) one. */
#include "jni_util.h"
#include "org_softchat_core_Context.h"

#include <string.h>

JNIEXPORT jobjectArray JNICALL Java_org_softchat_core_Context_sendChat0(
    JNIEnv *env, jclass cls, jlong handle, jbyteArray sec, jobjectArray to, jbyteArray content,
    jlong created_at)
{
    sc_ctx *ctx = scj_ctx(handle);
    sc_identity id;
    uint8_t pub[SC_PUBKEY_BYTES];
    scj_buf text = {NULL, 0}, peers = {NULL, 0}, buf = {NULL, 0}, scratch = {NULL, 0};
    scj_buf wrap = {NULL, 0}, list = {NULL, 0};
    sc_nip17_wrap *w;
    size_t count = 0, used = 0;
    sc_nip17_chat m;
    sc_nip59_opts opts;
    sc_event rumor;
    jobjectArray res = NULL;
    jclass bytes_cls;
    size_t i, n;
    sc_status st;

    (void)cls;
    if (to == NULL) {
        scj_throw_arg(env, "receivers");
        return NULL;
    }
    if (created_at <= 0) { /* also the wraps' "now": 0 would read the clock instead */
        scj_throw_status(env, SC_ERR_EVENT_RANGE);
        return NULL;
    }
    n = (size_t)(*env)->GetArrayLength(env, to);
    if (!scj_identity(env, ctx, sec, &id)) {
        return NULL;
    }
    st = sc_identity_pubkey(pub, &id);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        goto out;
    }
    if (!scj_in(env, content, &text, "content") ||
        !scj_alloc(env, &peers, n * sizeof(sc_nip17_peer))) {
        goto out;
    }
    for (i = 0; i < n; i++) {
        sc_nip17_peer *p = (sc_nip17_peer *)(void *)peers.p + i;
        jbyteArray k = (jbyteArray)(*env)->GetObjectArrayElement(env, to, (jsize)i);
        int ok = scj_key(env, k, p->pubkey, "receiver public key: 32 bytes expected");
        (*env)->DeleteLocalRef(env, k);
        if (!ok) {
            goto out;
        }
    }
    memset(&m, 0, sizeof m);
    m.content.ptr = (const char *)text.p;
    m.content.len = text.len;
    m.to = (const sc_nip17_peer *)(const void *)peers.p;
    m.n_to = n;
    m.created_at = (int64_t)created_at;
    if (!scj_alloc(env, &buf, sc_nip17_chat_rumor_buf_max(&m))) {
        goto out;
    }
    st = sc_nip17_chat_rumor(ctx, &rumor, buf.p, buf.len, &m, pub);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        goto out;
    }
    memset(&opts, 0, sizeof opts);
    opts.now = (int64_t)created_at;
    bytes_cls = (*env)->FindClass(env, "[B");
    if (bytes_cls == NULL) {
        goto out;
    }
    /* one wrap per receiver and the sender's copy: the library's rule (sc_nip17_send) */
    count = sc_nip17_send_wraps_len(&rumor, pub);
    if (!scj_alloc(env, &scratch, sc_nip17_send_scratch_max(&rumor, pub, &opts)) ||
        !scj_alloc(env, &wrap, sc_nip17_send_max(&rumor, pub, &opts)) ||
        !scj_alloc(env, &list, (count > 0 ? count : 1) * sizeof(sc_nip17_wrap))) {
        goto out;
    }
    w = (sc_nip17_wrap *)(void *)list.p;
    st = sc_nip17_send(ctx, (char *)wrap.p, wrap.len, &used, w, count, &count, scratch.p,
                       scratch.len, &rumor, &id, &opts);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        goto out;
    }
    res = (*env)->NewObjectArray(env, (jsize)count, bytes_cls, NULL);
    for (i = 0; res != NULL && i < count; i++) {
        jbyteArray one = scj_out(env, wrap.p + w[i].offset, w[i].len);

        if (one == NULL) {
            res = NULL;
            break;
        }
        (*env)->SetObjectArrayElement(env, res, (jsize)i, one);
        (*env)->DeleteLocalRef(env, one);
    }
out:
    scj_free(&list);
    scj_free(&wrap);
    scj_free(&scratch); /* wiped by each wrap call, and again when freed */
    scj_free(&buf); /* held the message */
    scj_free(&peers);
    scj_free(&text);
    sc_identity_clear(&id);
    return res;
}

/* A Message from an authenticated rumor, or NULL with an exception pending. */
static jobject message_new(JNIEnv *env, const sc_nip17_received *msg)
{
    jclass c = (*env)->FindClass(env, "org/softchat/core/Message");
    jmethodID init;
    scj_buf json = {NULL, 0};
    jbyteArray j, content, sender, room;
    jobject res = NULL;
    size_t len = 0;
    sc_status st;

    if (c == NULL) {
        return NULL;
    }
    init = (*env)->GetMethodID(env, c, "<init>", "([B[B[B[BIJ)V");
    if (init == NULL || !scj_alloc(env, &json, sc_event_to_json_len(&msg->rumor, SC_EVENT_JSON_OBJECT))) {
        return NULL;
    }
    st = sc_event_to_json((char *)json.p, json.len, &len, &msg->rumor, SC_EVENT_JSON_OBJECT);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        scj_free(&json);
        return NULL;
    }
    j = scj_out(env, json.p, len);
    scj_free(&json);
    content = j != NULL ? scj_out(env, msg->rumor.content.ptr, msg->rumor.content.len) : NULL;
    sender = content != NULL ? scj_out(env, msg->wrap.sender, SC_PUBKEY_BYTES) : NULL;
    room = sender != NULL ? scj_out(env, msg->room, msg->n_room * SC_PUBKEY_BYTES) : NULL;
    if (room != NULL) {
        res = (*env)->NewObject(env, c, init, j, content, sender, room, (jint)msg->rumor.kind,
                                (jlong)msg->rumor.created_at);
    }
    return res;
}

JNIEXPORT jobject JNICALL Java_org_softchat_core_Context_receive0(JNIEnv *env, jclass cls,
                                                                 jlong handle, jbyteArray sec,
                                                                 jbyteArray wrap)
{
    sc_ctx *ctx = scj_ctx(handle);
    sc_identity id;
    scj_buf in = {NULL, 0}, arena = {NULL, 0};
    sc_nip17_received msg;
    size_t used = 0, need;
    sc_status st;
    jobject res = NULL;

    (void)cls;
    if (!scj_identity(env, ctx, sec, &id)) {
        return NULL;
    }
    if (!scj_in(env, wrap, &in, "gift wrap")) {
        goto out;
    }
    need = sc_nip17_receive_arena_max(in.len);
    if (need == 0) { /* no bound fits size_t */
        scj_throw_status(env, SC_ERR_TOO_LARGE);
        goto out;
    }
    if (!scj_alloc(env, &arena, need)) {
        goto out;
    }
    st = sc_nip17_receive(ctx, &msg, arena.p, arena.len, &used, (const char *)in.p, in.len, &id);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        goto out;
    }
    res = message_new(env, &msg);
out:
    scj_free(&arena); /* held the message */
    scj_free(&in);
    sc_identity_clear(&id);
    return res;
}
