/* Natives: streaming AES-256-GCM attachments (file.h). Streaming crosses JNI once per chunk:
 * the Kotlin side reads a chunk from its InputStream into a reused array, the glue encrypts
 * it (both arrays pinned with GetPrimitiveArrayCritical) and the Kotlin side writes the
 * ciphertext out.
 *
 * Decryption's sink holds the unauthenticated plaintext in native memory (capped by the
 * caller's maximum, grown by copying and wiping, never by realloc); only after the tag
 * verified (commit) does the Kotlin side read it out to its OutputStream. A discard wipes
 * and frees it. The state belongs to one pooled context for the whole operation. */
#include "scj.h"

#include <stdlib.h>
#include <string.h>

static jlong enc_init(JNIEnv *env, jclass cls, jlong slot, jbyteArray key_out, jbyteArray iv_out)
{
    uint8_t key[32], iv[16];
    sc_file_enc *e;
    sc_status st;

    (void)cls;
    if (key_out == NULL || (*env)->GetArrayLength(env, key_out) != 32 || iv_out == NULL ||
        (*env)->GetArrayLength(env, iv_out) != 16) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    e = malloc(sizeof *e);
    if (e == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    st = sc_file_keygen(scj_slot_of(slot)->ctx, key, iv);
    if (st == SC_OK) {
        st = sc_file_encrypt_init(scj_slot_of(slot)->ctx, e, key, iv, sizeof iv);
    }
    if (st == SC_OK) {
        (*env)->SetByteArrayRegion(env, key_out, 0, 32, (const jbyte *)key);
        (*env)->SetByteArrayRegion(env, iv_out, 0, 16, (const jbyte *)iv);
    }
    sc_mem_wipe(key, sizeof key);
    if (st != SC_OK) {
        free(e);
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)e;
}

/* fileEncUpdate(state, in, len, out): Int, ciphertext bytes written to out. */
static jint enc_update(JNIEnv *env, jclass cls, jlong h, jbyteArray in, jint len, jbyteArray out)
{
    size_t cap = scj_len(env, out), n = 0;
    uint8_t *i, *o;
    sc_status st;

    (void)cls;
    if (in == NULL || out == NULL || len < 0 || (size_t)len > scj_len(env, in)) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    i = (*env)->GetPrimitiveArrayCritical(env, in, NULL);
    o = i != NULL ? (*env)->GetPrimitiveArrayCritical(env, out, NULL) : NULL;
    if (o == NULL) {
        if (i != NULL) {
            (*env)->ReleasePrimitiveArrayCritical(env, in, i, JNI_ABORT);
        }
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    st = sc_file_encrypt_update((sc_file_enc *)(uintptr_t)h, o, cap, &n, i, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, out, o, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, in, i, JNI_ABORT);
    if (st != SC_OK) {
        scj_throw(env, st);
        return 0;
    }
    return (jint)n;
}

/* fileEncFinal(state, out, meta64): Int, the last bytes and tag written to out; meta = x||ox. */
static jint enc_final(JNIEnv *env, jclass cls, jlong h, jbyteArray out, jbyteArray meta)
{
    uint8_t o[SC_FILE_FINAL_BYTES], m[64];
    size_t n = 0;
    uint64_t size = 0;
    sc_status st;

    (void)cls;
    if (out == NULL || scj_len(env, out) < sizeof o || meta == NULL || scj_len(env, meta) != 64) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    st = sc_file_encrypt_final((sc_file_enc *)(uintptr_t)h, o, sizeof o, &n, m, m + 32, &size);
    if (st != SC_OK) {
        scj_throw(env, st);
        return 0;
    }
    (*env)->SetByteArrayRegion(env, out, 0, (jsize)n, (const jbyte *)o);
    (*env)->SetByteArrayRegion(env, meta, 0, 64, (const jbyte *)m);
    sc_mem_wipe(o, sizeof o);
    return (jint)n;
}

static void enc_free(JNIEnv *env, jclass cls, jlong h)
{
    (void)env;
    (void)cls;
    if (h != 0) {
        sc_file_encrypt_abort((sc_file_enc *)(uintptr_t)h);
        free((void *)(uintptr_t)h);
    }
}

typedef struct dec_state {
    sc_file_dec d;
    uint8_t *plain;
    size_t len, cap, max;
    int committed;
} dec_state;

static void plain_drop(dec_state *s)
{
    if (s->plain != NULL) {
        sc_mem_wipe(s->plain, s->len);
        free(s->plain);
    }
    s->plain = NULL;
    s->len = 0;
    s->cap = 0;
}

static sc_status sink_write(void *user, const uint8_t *data, size_t len)
{
    dec_state *s = user;

    if (len > s->max - s->len) {
        return SC_ERR_TOO_LARGE;
    }
    if (s->len + len > s->cap) { /* grow by copy + wipe: realloc could leave plaintext behind */
        size_t cap = s->cap > 0 ? s->cap : 65536;
        uint8_t *p;
        while (cap < s->len + len) {
            cap = cap > s->max / 2 ? s->max : cap * 2;
        }
        p = malloc(cap);
        if (p == NULL) {
            return SC_ERR_NOMEM;
        }
        if (s->len > 0) {
            memcpy(p, s->plain, s->len);
        }
        sc_mem_wipe(s->plain, s->len);
        free(s->plain);
        s->plain = p;
        s->cap = cap;
    }
    memcpy(s->plain + s->len, data, len);
    s->len += len;
    return SC_OK;
}

static sc_status sink_commit(void *user)
{
    ((dec_state *)user)->committed = 1;
    return SC_OK;
}

static void sink_discard(void *user)
{
    plain_drop(user);
}

/* fileDecInit(slot, key, iv, max): Long, a decryption holding at most max plaintext bytes. */
static jlong dec_init(JNIEnv *env, jclass cls, jlong slot, jbyteArray key, jbyteArray iv, jlong max)
{
    uint8_t k[32], v[SC_FILE_LEGACY_IV_BYTES];
    size_t vn = scj_len(env, iv);
    sc_file_sink sink;
    dec_state *s;
    sc_status st;

    (void)cls;
    if (!scj_key(env, key, k)) {
        return 0;
    }
    if (vn > sizeof v || max <= 0) {
        sc_mem_wipe(k, sizeof k);
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    (*env)->GetByteArrayRegion(env, iv, 0, (jsize)vn, (jbyte *)v);
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        sc_mem_wipe(k, sizeof k);
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    s->max = (uint64_t)max > SIZE_MAX ? SIZE_MAX : (size_t)max;
    sink.user = s;
    sink.write = sink_write;
    sink.commit = sink_commit;
    sink.discard = sink_discard;
    st = sc_file_decrypt_init(scj_slot_of(slot)->ctx, &s->d, k, v, vn, &sink);
    sc_mem_wipe(k, sizeof k);
    if (st != SC_OK) {
        free(s);
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)s;
}

static void dec_update(JNIEnv *env, jclass cls, jlong h, jbyteArray in, jint len)
{
    dec_state *s = (dec_state *)(uintptr_t)h;
    uint8_t *i;
    sc_status st;

    (void)cls;
    if (in == NULL || len < 0 || (size_t)len > scj_len(env, in)) {
        scj_throw(env, SC_ERR_ARG);
        return;
    }
    i = (*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (i == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return;
    }
    st = sc_file_decrypt_update(&s->d, i, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, in, i, JNI_ABORT);
    if (st != SC_OK) {
        scj_throw(env, st);
    }
}

/* fileDecFinal(state, meta64): Long, the authenticated plaintext's length (meta = x||ox). */
static jlong dec_final(JNIEnv *env, jclass cls, jlong h, jbyteArray meta)
{
    dec_state *s = (dec_state *)(uintptr_t)h;
    uint8_t m[64];
    sc_status st;

    (void)cls;
    if (meta == NULL || scj_len(env, meta) != 64) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    st = sc_file_decrypt_final(&s->d, m, m + 32);
    if (st != SC_OK || !s->committed) {
        plain_drop(s);
        scj_throw(env, st != SC_OK ? st : SC_ERR_STATE);
        return 0;
    }
    (*env)->SetByteArrayRegion(env, meta, 0, 64, (const jbyte *)m);
    return (jlong)s->len;
}

/* fileDecRead(state, offset, out, len): copies committed plaintext out. */
static void dec_read(JNIEnv *env, jclass cls, jlong h, jlong off, jbyteArray out, jint len)
{
    dec_state *s = (dec_state *)(uintptr_t)h;

    (void)cls;
    if (!s->committed || off < 0 || len < 0 || (uint64_t)off > s->len ||
        (size_t)len > s->len - (size_t)off || (size_t)len > scj_len(env, out)) {
        scj_throw(env, SC_ERR_ARG);
        return;
    }
    (*env)->SetByteArrayRegion(env, out, 0, len, (const jbyte *)s->plain + off);
}

static void dec_free(JNIEnv *env, jclass cls, jlong h)
{
    dec_state *s = (dec_state *)(uintptr_t)h;

    (void)env;
    (void)cls;
    if (s != NULL) {
        sc_file_decrypt_abort(&s->d); /* discards (wipes) when not finished */
        plain_drop(s);
        sc_mem_wipe(s, sizeof *s);
        free(s);
    }
}

int scj_register_file(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"fileEncInit", "(J[B[B)J", (void *)enc_init},
        {"fileEncUpdate", "(J[BI[B)I", (void *)enc_update},
        {"fileEncFinal", "(J[B[B)I", (void *)enc_final},
        {"fileEncFree", "(J)V", (void *)enc_free},
        {"fileDecInit", "(J[B[BJ)J", (void *)dec_init},
        {"fileDecUpdate", "(J[BI)V", (void *)dec_update},
        {"fileDecFinal", "(J[B)J", (void *)dec_final},
        {"fileDecRead", "(JJ[BI)V", (void *)dec_read},
        {"fileDecFree", "(J)V", (void *)dec_free},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
