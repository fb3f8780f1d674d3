/* Natives: NIP-17 send (sc_nip17_chat_rumor or sc_nip17_file_rumor, then sc_nip17_send: one
 * gift wrap per distinct receiver and the sender's copy). Receiving is in nip59.c, the kind 15
 * parameters in nip17_file.c. */
#include "blob.h"
#include "scj.h"

#include <string.h>

/* Peers blob: u32 n, then per peer pubkey[32], u32 relay_len, relay bytes. Builds the
 * sc_nip17_peer array in mem (n * sizeof checked). */
static sc_status peers_count(const uint8_t *b, size_t len, size_t *n_out)
{
    scj_rd r = {b, len};
    uint32_t n, l, i;
    const uint8_t *p;

    if (!scj_rd_u32(&r, &n) || n == 0) {
        return n == 0 && len >= 4 ? SC_ERR_MESSAGE : SC_ERR_ARG;
    }
    for (i = 0; i < n; i++) {
        if (!scj_rd_bytes(&r, &p, 32) || !scj_rd_u32(&r, &l) || !scj_rd_bytes(&r, &p, l)) {
            return SC_ERR_ARG;
        }
    }
    *n_out = n;
    return r.left == 0 ? SC_OK : SC_ERR_ARG;
}

static void peers_build(sc_nip17_peer *peers, size_t n, const uint8_t *b)
{
    scj_rd r = {b + 4, SIZE_MAX};
    uint32_t l = 0;
    const uint8_t *p = NULL;
    size_t i;

    for (i = 0; i < n; i++) {
        scj_rd_bytes(&r, &p, 32);
        memcpy(peers[i].pubkey, p, 32);
        scj_rd_u32(&r, &l);
        scj_rd_bytes(&r, &p, l);
        peers[i].relay.ptr = (const char *)p;
        peers[i].relay.len = l;
    }
}

/* Writes [u32 count] then per wrap [recipient 32][u32 len][json] into a new byte[]. */
static jbyteArray wraps_out(JNIEnv *env, const uint8_t *out, const sc_nip17_wrap *w, size_t n)
{
    size_t total = 4, i;
    jbyteArray res;
    scj_wr wr;

    for (i = 0; i < n; i++) {
        if (!scj_add(&total, total, 36) || !scj_add(&total, total, w[i].len)) {
            scj_throw(env, SC_ERR_TOO_LARGE);
            return NULL;
        }
    }
    if ((res = scj_new_bytes(env, total)) == NULL) {
        return NULL;
    }
    wr.p = (*env)->GetPrimitiveArrayCritical(env, res, NULL);
    if (wr.p == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    wr.off = 0;
    scj_wr_u32(&wr, (uint32_t)n);
    for (i = 0; i < n; i++) {
        scj_wr_bytes(&wr, w[i].recipient, 32);
        scj_wr_u32(&wr, (uint32_t)w[i].len);
        scj_wr_bytes(&wr, out + w[i].offset, w[i].len);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, res, wr.p, 0);
    return res;
}

/* Wraps the rumor with sc_nip17_send into working memory and returns the wraps. */
static jbyteArray send_rumor(JNIEnv *env, scj_slot *s, const sc_event *rumor, const sc_identity *id,
                             const uint8_t pub[32], const sc_nip59_opts *opts)
{
    size_t count = sc_nip17_send_wraps_len(rumor, pub), on = sc_nip17_send_max(rumor, pub, opts);
    size_t sn = sc_nip17_send_scratch_max(rumor, pub, opts), wn, total, used = 0, got = 0;
    sc_status st = SC_OK;
    scj_mem m;
    jbyteArray res = NULL;

    if (count == 0 || on == 0 || sn == 0) { /* the call names the failure */
        st = sc_nip17_send(s->ctx, NULL, 0, &used, NULL, 0, &got, NULL, 0, rumor, id, opts);
        scj_throw(env, st == SC_OK || st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_TOO_LARGE : st);
        return NULL;
    }
    /* n * sizeof(sc_nip17_wrap) and the sums can wrap on 32-bit ABIs: checked */
    if (!scj_mul(&wn, count, sizeof(sc_nip17_wrap)) || !scj_align(&wn, wn) || !scj_align(&sn, sn) ||
        !scj_add(&total, wn, sn) || !scj_add(&total, total, on)) {
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    if (!scj_mem_get(env, s, &m, total)) {
        return NULL;
    }
    st = sc_nip17_send(s->ctx, (char *)m.p + wn + sn, on, &used, (sc_nip17_wrap *)(void *)m.p,
                       count, &got, m.p + wn, sn, rumor, id, opts);
    if (st == SC_OK) {
        res = wraps_out(env, m.p + wn + sn, (const sc_nip17_wrap *)(void *)m.p, got);
    } else {
        scj_throw(env, st);
    }
    scj_mem_put(&m, wn + sn + used);
    return res;
}

/* Copies the message's inputs into one block of working memory, in: the peers blob (pl
 * bytes), the content (cl) and the subject (sl), then, 16-byte aligned, the sc_nip17_peer
 * array built from the blob; m's content, receivers and subject point into it. The sizes
 * were checked against SCJ_MAX_EVENT_INPUT. Returns 1, or 0 with an exception thrown and
 * nothing held. */
static int chat_load(JNIEnv *env, scj_slot *s, scj_mem *in, sc_nip17_chat *m, jbyteArray peers,
                     size_t pl, jbyteArray content, size_t cl, jbyteArray subject, size_t sl)
{
    size_t n = 0, a, pn, total;
    sc_status st;

    if (!scj_align(&a, pl + cl + sl) || !scj_mem_get(env, s, in, a)) {
        return 0;
    }
    (*env)->GetByteArrayRegion(env, peers, 0, (jsize)pl, (jbyte *)in->p);
    st = peers_count(in->p, pl, &n);
    if (st != SC_OK || !scj_mul(&pn, n, sizeof(sc_nip17_peer)) || !scj_add(&total, a, pn)) {
        scj_mem_put(in, pl);
        return scj_throw(env, st != SC_OK ? st : SC_ERR_TOO_LARGE);
    }
    if (total > in->cap) {
        scj_mem big;
        if (!scj_mem_get(env, s, &big, total)) {
            scj_mem_put(in, pl);
            return 0;
        }
        memcpy(big.p, in->p, pl);
        scj_mem_put(in, pl);
        *in = big;
    }
    in->n = total;
    if (cl > 0) {
        (*env)->GetByteArrayRegion(env, content, 0, (jsize)cl, (jbyte *)in->p + pl);
    }
    if (sl > 0) {
        (*env)->GetByteArrayRegion(env, subject, 0, (jsize)sl, (jbyte *)in->p + pl + cl);
    }
    peers_build((sc_nip17_peer *)(void *)(in->p + a), n, in->p);
    m->content.ptr = (const char *)in->p + pl;
    m->content.len = cl;
    m->to = (const sc_nip17_peer *)(void *)(in->p + a);
    m->n_to = n;
    if (subject != NULL) {
        m->subject.ptr = (const char *)in->p + pl + cl;
        m->subject.len = sl;
    }
    return 1;
}

/* The kind 14 rumor of m by pub (the kind 15 rumor of f when f is not NULL), made in working
 * memory of its own, then wrapped and sent. */
static jbyteArray chat_rumor_send(JNIEnv *env, scj_slot *s, const sc_nip17_chat *m,
                                  const sc_nip17_file *f, const sc_identity *id,
                                  const uint8_t pub[32], const sc_nip59_opts *opts)
{
    size_t rb = f != NULL ? sc_nip17_file_rumor_buf_max(m, f) : sc_nip17_chat_rumor_buf_max(m);
    scj_mem buf = {NULL, 0, 0, 0, NULL};
    sc_status st = SC_ERR_TOO_LARGE;
    sc_event rumor;
    jbyteArray res = NULL;

    if (rb != 0) {
        if (!scj_mem_get(env, s, &buf, rb)) {
            return NULL;
        }
        st = f != NULL ? sc_nip17_file_rumor(s->ctx, &rumor, buf.p, buf.n, m, f, pub)
                       : sc_nip17_chat_rumor(s->ctx, &rumor, buf.p, buf.n, m, pub);
    }
    if (st == SC_OK) {
        res = send_rumor(env, s, &rumor, id, pub, opts);
    } else {
        scj_throw(env, st);
    }
    scj_mem_put(&buf, buf.n); /* held the message */
    return res;
}

/* The message of m, a chat message, or with a file blob (nip17_file.c) in m's content the
 * file message it describes: the file's parameters (and its key) are read from the copy in
 * working memory and wiped after the call; a kind 15 rumor takes no content of its own. */
static jbyteArray rumor_send(JNIEnv *env, scj_slot *s, sc_nip17_chat *m, int file,
                             const sc_identity *id, const uint8_t pub[32],
                             const sc_nip59_opts *opts)
{
    sc_str fallbacks[SCJ_FILE_FALLBACKS_MAX];
    sc_nip17_file f;
    sc_status st;
    jbyteArray res;

    if (!file) {
        return chat_rumor_send(env, s, m, NULL, id, pub, opts);
    }
    st = scj_file_read(&f, fallbacks, (const uint8_t *)m->content.ptr, m->content.len);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    m->content.ptr = "";
    m->content.len = 0;
    res = chat_rumor_send(env, s, m, &f, id, pub, opts);
    sc_mem_wipe(&f, sizeof f);
    return res;
}

/* send(slot, id, peers, content, createdAt, subject or null, replyTo or null, flags, relay or
 * null, expiration, now): the gift wraps of a kind 14 chat message, receivers first, then
 * the sender's copy (relay: its p tag's hint; expiration > 0: NIP-40 on every seal and wrap). */
static jbyteArray chat_send(JNIEnv *env, jclass cls, jlong slot, jlong me, jbyteArray peers,
                            jbyteArray content, jlong created_at, jbyteArray subject,
                            jobject reply_to, jint flags, jbyteArray relay, jlong expiration,
                            jlong now)
{
    (void)cls;
    return scj_nip17_send(env, slot, me, peers, content, created_at, subject, reply_to, flags,
                          relay, expiration, now, 0);
}

jbyteArray scj_nip17_send(JNIEnv *env, jlong slot, jlong me, jbyteArray peers, jbyteArray content,
                          jlong created_at, jbyteArray subject, jobject reply_to, jint flags,
                          jbyteArray relay, jlong expiration, jlong now, int file)
{
    scj_slot *s = scj_slot_of(slot);
    const sc_identity *id = (const sc_identity *)(uintptr_t)me;
    size_t pl = scj_len(env, peers), cl = scj_len(env, content), sl = scj_len(env, subject);
    char hint[SCJ_RELAY_HINT_MAX];
    uint8_t pub[32], reply[32];
    sc_nip17_chat m;
    sc_nip59_opts opts;
    scj_mem in;
    sc_status st;
    jbyteArray res;

    if (peers == NULL || content == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return NULL;
    }
    if (!scj_wrap_opts(env, &opts, hint, flags, relay, expiration, now) ||
        (reply_to != NULL && !scj_pub(env, reply_to, reply))) {
        return NULL;
    }
    if (pl > SCJ_MAX_EVENT_INPUT || cl > SCJ_MAX_EVENT_INPUT - pl ||
        sl > SCJ_MAX_EVENT_INPUT - pl - cl) {
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    st = sc_identity_pubkey(pub, id);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    memset(&m, 0, sizeof m);
    if (!chat_load(env, s, &in, &m, peers, pl, content, cl, subject, sl)) {
        return NULL;
    }
    m.reply_to = reply_to != NULL ? reply : NULL;
    m.created_at = (int64_t)created_at;
    res = rumor_send(env, s, &m, file, id, pub, &opts);
    scj_mem_put(&in, in.n);
    return res;
}

int scj_register_nip17(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"send", "(JJ[B[BJ[BLjava/lang/Object;I[BJJ)[B", (void *)chat_send},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
