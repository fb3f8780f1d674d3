/* Helpers of the glue (scj.h): exceptions, working memory, keys, arrays, size arithmetic. */
#include "scj.h"

#include <stdlib.h>
#include <string.h>

jclass scj_exception_class;
jmethodID scj_exception_init;
jthrowable scj_nomem;
jclass scj_string_class;
jclass scj_bytes_class;

int scj_throw(JNIEnv *env, sc_status st)
{
    jstring name;
    jobject ex;

    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env); /* e.g. OutOfMemoryError from a JNI allocation */
    }
    name = (*env)->NewStringUTF(env, sc_status_name(st));
    if (name == NULL) { /* no memory even for the name: Kotlin names it from the code */
        (*env)->ExceptionClear(env);
    }
    ex = (*env)->NewObject(env, scj_exception_class, scj_exception_init, (jint)st, name);
    if (ex != NULL) {
        (*env)->Throw(env, (jthrowable)ex);
        (*env)->DeleteLocalRef(env, ex);
    } else { /* no memory for the exception itself: the one made at load time, not the OOM */
        (*env)->ExceptionClear(env);
        (*env)->Throw(env, scj_nomem);
    }
    if (name != NULL) {
        (*env)->DeleteLocalRef(env, name);
    }
    return 0;
}

scj_slot *scj_slot_of(jlong h)
{
    return (scj_slot *)(uintptr_t)h;
}

int scj_mem_get(JNIEnv *env, scj_slot *s, scj_mem *m, size_t n)
{
    m->p = NULL;
    m->n = n;
    m->cap = n;
    m->owned = 0;
    m->slot = NULL;
    if (n == 0) {
        n = 1;
    }
    if (!s->busy && n <= s->cap) {
        m->p = s->buf;
        m->cap = s->cap;
        m->slot = s;
        s->busy = 1;
        return 1;
    }
    if (!s->busy && n <= SCJ_KEEP_BYTES) { /* grow the slot's buffer and keep it */
        uint8_t *p = malloc(SCJ_KEEP_BYTES);
        if (p == NULL) {
            return scj_throw(env, SC_ERR_NOMEM);
        }
        free(s->buf); /* wiped after every call: holds nothing */
        s->buf = p;
        s->cap = SCJ_KEEP_BYTES;
        s->busy = 1;
        m->p = p;
        m->cap = SCJ_KEEP_BYTES;
        m->slot = s;
        return 1;
    }
    /* large: untouched pages of a malloc'd block are never faulted in, so an arena bound far
     * above the real need costs address space only, and only the used part is wiped */
    m->p = malloc(n);
    if (m->p == NULL) {
        return scj_throw(env, SC_ERR_NOMEM);
    }
    m->owned = 1;
    return 1;
}

void scj_mem_put(scj_mem *m, size_t used)
{
    if (m->p != NULL) {
        sc_mem_wipe(m->p, used < m->n ? used : m->n);
        if (m->owned) {
            free(m->p);
        }
        if (m->slot != NULL) {
            m->slot->busy = 0;
        }
    }
    m->slot = NULL;
    m->p = NULL;
    m->n = 0;
    m->cap = 0;
    m->owned = 0;
}

size_t scj_len(JNIEnv *env, jbyteArray a)
{
    return a != NULL ? (size_t)(*env)->GetArrayLength(env, a) : 0;
}

int scj_key(JNIEnv *env, jbyteArray a, uint8_t out[32])
{
    if (a == NULL || (*env)->GetArrayLength(env, a) != 32) {
        return scj_throw(env, SC_ERR_ARG);
    }
    (*env)->GetByteArrayRegion(env, a, 0, 32, (jbyte *)out);
    return 1;
}

int scj_pub(JNIEnv *env, jobject o, uint8_t out[32])
{
    jchar u[64];
    char hex[64];
    size_t i;
    sc_status st;

    if (o == NULL) {
        return scj_throw(env, SC_ERR_ARG);
    }
    if (!(*env)->IsInstanceOf(env, o, scj_string_class)) {
        return (*env)->IsInstanceOf(env, o, scj_bytes_class) ? scj_key(env, (jbyteArray)o, out)
                                                             : scj_throw(env, SC_ERR_ARG);
    }
    if ((*env)->GetStringLength(env, (jstring)o) != 64) {
        return scj_throw(env, SC_ERR_ARG);
    }
    (*env)->GetStringRegion(env, (jstring)o, 0, 64, u);
    for (i = 0; i < 64; i++) { /* anything past ASCII becomes a character hex refuses */
        hex[i] = u[i] < 0x80 ? (char)u[i] : '?';
    }
    st = sc_hex_decode_fixed(out, 32, hex, 64, SC_HEX_ANY_CASE);
    return st == SC_OK ? 1 : scj_throw(env, st);
}

jbyteArray scj_new_bytes(JNIEnv *env, size_t n)
{
    jbyteArray a;

    if (n > 0x7fffffff) {
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    a = (*env)->NewByteArray(env, (jsize)n);
    if (a == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
    }
    return a;
}

jbyteArray scj_bytes(JNIEnv *env, const void *p, size_t n)
{
    jbyteArray a = scj_new_bytes(env, n);

    if (a != NULL && n > 0) {
        (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)p);
    }
    return a;
}

int scj_add(size_t *r, size_t a, size_t b)
{
    if (a > SIZE_MAX - b) {
        return 0;
    }
    *r = a + b;
    return 1;
}

int scj_mul(size_t *r, size_t a, size_t b)
{
    if (a != 0 && b > SIZE_MAX / a) {
        return 0;
    }
    *r = a * b;
    return 1;
}

int scj_align(size_t *r, size_t n)
{
    return scj_add(r, n, 15) ? (*r &= ~(size_t)15, 1) : 0;
}

int scj_wrap_opts(JNIEnv *env, sc_nip59_opts *opts, char hint[SCJ_RELAY_HINT_MAX], jint flags,
                  jbyteArray relay, jlong expiration, jlong now)
{
    size_t n = scj_len(env, relay);

    if (n > SCJ_RELAY_HINT_MAX) {
        return scj_throw(env, SC_ERR_TOO_LARGE);
    }
    if (n > 0) {
        (*env)->GetByteArrayRegion(env, relay, 0, (jsize)n, (jbyte *)hint);
    }
    memset(opts, 0, sizeof *opts);
    opts->flags = (unsigned)flags;
    opts->relay.ptr = hint;
    opts->relay.len = n;
    opts->expiration = (int64_t)expiration;
    opts->now = (int64_t)now;
    return 1;
}
