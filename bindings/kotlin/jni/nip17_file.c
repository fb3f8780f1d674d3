/* Natives: NIP-17 kind 15 file messages. sendFile wraps a file message (the parameters as
 * the file blob of scj.h, sent by nip17.c); fileParse reads the attachment parameters of a
 * received kind 15 rumor with sc_nip17_file_parse, every check of the library, and returns
 * them as a blob that holds the file key (the Kotlin side wipes it). */
#include "blob.h"
#include "scj.h"

#include <string.h>

/* A u32-length-prefixed string into s (empty for length 0). */
static int rd_str(scj_rd *r, sc_str *s)
{
    uint32_t l;
    const uint8_t *p;

    if (!scj_rd_u32(r, &l) || !scj_rd_bytes(r, &p, l)) {
        return 0;
    }
    s->ptr = (const char *)p;
    s->len = l;
    return 1;
}

/* Fixed n bytes into out. */
static int rd_fixed(scj_rd *r, uint8_t *out, size_t n)
{
    const uint8_t *p;

    if (!scj_rd_bytes(r, &p, n)) {
        return 0;
    }
    memcpy(out, p, n);
    return 1;
}

sc_status scj_file_read(sc_nip17_file *f, sc_str fb[SCJ_FILE_FALLBACKS_MAX], const uint8_t *blob,
                        size_t len)
{
    scj_rd r = {blob, len};
    uint32_t nl = 0, ox = 0, lo = 0, hi = 0, n = 0, i;
    int ok;

    memset(f, 0, sizeof *f);
    ok = rd_str(&r, &f->url) && rd_str(&r, &f->file_type) && rd_fixed(&r, f->key, 32) &&
         scj_rd_u32(&r, &nl) && nl <= sizeof f->nonce && rd_fixed(&r, f->nonce, nl) &&
         rd_fixed(&r, f->x, 32) && scj_rd_u32(&r, &ox) && rd_fixed(&r, f->ox, 32) &&
         scj_rd_u32(&r, &lo) && scj_rd_u32(&r, &hi) && rd_str(&r, &f->dim) &&
         rd_str(&r, &f->blurhash) && rd_str(&r, &f->thumb) && scj_rd_u32(&r, &n);
    if (ok && n > SCJ_FILE_FALLBACKS_MAX) {
        sc_mem_wipe(f, sizeof *f);
        return SC_ERR_TOO_LARGE;
    }
    for (i = 0; ok && i < n; i++) {
        ok = rd_str(&r, &fb[i]);
    }
    if (!ok || r.left != 0) {
        sc_mem_wipe(f, sizeof *f);
        return SC_ERR_ARG;
    }
    f->nonce_len = nl;
    f->has_ox = (int)ox; /* the library refuses anything but 0 and 1 */
    f->size = (uint64_t)hi << 32 | lo;
    f->fallbacks = n > 0 ? fb : NULL;
    f->n_fallbacks = n;
    return SC_OK;
}

/* sendFile(slot, id, peers, file blob, createdAt, subject or null, replyTo or null, flags,
 * relay or null, expiration, now): the gift wraps of a kind 15 file message. */
static jbyteArray file_send(JNIEnv *env, jclass cls, jlong slot, jlong me, jbyteArray peers,
                            jbyteArray file, jlong created_at, jbyteArray subject, jobject reply_to,
                            jint flags, jbyteArray relay, jlong expiration, jlong now)
{
    (void)cls;
    return scj_nip17_send(env, slot, me, peers, file, created_at, subject, reply_to, flags, relay,
                          expiration, now, 1);
}

static size_t str_bytes(const sc_str *s)
{
    return 4 + s->len;
}

static void wr_str(scj_wr *w, const sc_str *s)
{
    scj_wr_u32(w, (uint32_t)s->len);
    scj_wr_bytes(w, s->ptr, s->len);
}

/* The parameters as the Kotlin side reads them: url, file type, key[32], u32 nonce_len +
 * nonce, nonce as written, x[32], u32 has_ox, ox[32], i64 size, dim, blurhash, thumb, u32 n +
 * each fallback. Every length came from a rumor under SCJ_MAX_EVENT_INPUT: no overflow. */
static jbyteArray file_out(JNIEnv *env, const sc_nip17_file *f)
{
    size_t total = 4 + f->nonce_len + 32 + 4 + 32 + 8 + 4 + 32, i;
    const sc_str *strs[] = {&f->url, &f->file_type, &f->nonce_text,
                            &f->dim, &f->blurhash,  &f->thumb};
    jbyteArray res;
    scj_wr w;

    for (i = 0; i < SCJ_COUNT(strs); i++) {
        total += str_bytes(strs[i]);
    }
    for (i = 0; i < f->n_fallbacks; i++) {
        total += str_bytes(&f->fallbacks[i]);
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
    wr_str(&w, &f->url);
    wr_str(&w, &f->file_type);
    scj_wr_bytes(&w, f->key, 32);
    scj_wr_u32(&w, (uint32_t)f->nonce_len);
    scj_wr_bytes(&w, f->nonce, f->nonce_len);
    wr_str(&w, &f->nonce_text);
    scj_wr_bytes(&w, f->x, 32);
    scj_wr_u32(&w, (uint32_t)f->has_ox);
    scj_wr_bytes(&w, f->ox, 32);
    scj_wr_i64(&w, (int64_t)f->size);
    wr_str(&w, &f->dim);
    wr_str(&w, &f->blurhash);
    wr_str(&w, &f->thumb);
    scj_wr_u32(&w, (uint32_t)f->n_fallbacks);
    for (i = 0; i < f->n_fallbacks; i++) {
        wr_str(&w, &f->fallbacks[i]);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, res, w.p, 0);
    return res;
}

/* fileParse(slot, tags, content): the attachment parameters of a kind 15 rumor with these
 * tags and content (SC_ERR_MESSAGE when they are missing or malformed). */
static jbyteArray file_parse(JNIEnv *env, jclass cls, jlong slot, jbyteArray tags,
                             jbyteArray content)
{
    scj_slot *s = scj_slot_of(slot);
    sc_str fb[SCJ_FILE_FALLBACKS_MAX];
    sc_nip17_file f;
    scj_event_in e;
    size_t n = 0;
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (!scj_event_load(env, s, &e, (jint)SC_NIP17_KIND_FILE, 0, tags, content,
                        SCJ_MAX_EVENT_INPUT)) {
        return NULL;
    }
    st = sc_nip17_file_parse(&f, fb, SCJ_COUNT(fb), &n, &e.ev);
    if (st == SC_OK) {
        res = file_out(env, &f);
    } else {
        scj_throw(env, st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_TOO_LARGE : st);
    }
    sc_mem_wipe(&f, sizeof f);
    scj_event_unload(&e);
    return res;
}

int scj_register_nip17_file(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"sendFile", "(JJ[B[BJ[BLjava/lang/Object;I[BJJ)[B", (void *)file_send},
        {"fileParse", "(J[B[B)[B", (void *)file_parse},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
