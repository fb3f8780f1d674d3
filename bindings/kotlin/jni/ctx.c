/* Natives: pooled contexts (slots), the backend registry, status names. */
#include "scj.h"

#include <stdlib.h>
#include <string.h>

/* slotNew(backend: ByteArray?): Long. A context bound to the named backend (null: default). */
static jlong slot_new(JNIEnv *env, jclass cls, jbyteArray backend)
{
    char name[64];
    size_t n = scj_len(env, backend);
    scj_slot *s;
    sc_status st;

    (void)cls;
    if (n >= sizeof name) {
        scj_throw(env, SC_ERR_NOT_FOUND);
        return 0;
    }
    if (backend != NULL) {
        (*env)->GetByteArrayRegion(env, backend, 0, (jsize)n, (jbyte *)name);
        name[n] = '\0';
        if (memchr(name, 0, n) != NULL) {
            scj_throw(env, SC_ERR_NOT_FOUND);
            return 0;
        }
    }
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    st = sc_ctx_new(&s->ctx, backend != NULL ? name : NULL);
    if (st != SC_OK) {
        free(s);
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)s;
}

/* slotFree(slot): wipes and frees the context and its buffer. */
static void slot_free(JNIEnv *env, jclass cls, jlong h)
{
    scj_slot *s = scj_slot_of(h);

    (void)env;
    (void)cls;
    if (s != NULL) {
        sc_ctx_free(s->ctx);
        if (s->buf != NULL) {
            sc_mem_wipe(s->buf, s->cap);
            free(s->buf);
        }
        free(s);
    }
}

/* slotBackend(slot): ByteArray, the bound backend's name. */
static jbyteArray slot_backend(JNIEnv *env, jclass cls, jlong h)
{
    const sc_backend *b = sc_ctx_backend(scj_slot_of(h)->ctx);
    const char *n = b != NULL ? b->name : "";

    (void)cls;
    return scj_bytes(env, n, strlen(n));
}

/* backends(): ByteArray, the compiled backends' names, default first, each followed by NUL. */
static jbyteArray backends(JNIEnv *env, jclass cls)
{
    char buf[1024];
    size_t off = 0, i;

    (void)cls;
    for (i = 0; i < sc_backend_count(); i++) {
        const char *n = sc_backend_at(i)->name;
        size_t l = strlen(n);
        if (off + l + 1 > sizeof buf) {
            break;
        }
        memcpy(buf + off, n, l + 1);
        off += l + 1;
    }
    return scj_bytes(env, buf, off);
}

/* statusName(code): ByteArray, the stable name ("SC_UNKNOWN" for unknown codes). */
static jbyteArray status_name(JNIEnv *env, jclass cls, jint code)
{
    const char *n = sc_status_name((sc_status)code);

    (void)cls;
    return scj_bytes(env, n, strlen(n));
}

/* version(): ByteArray, the library version string. */
static jbyteArray version(JNIEnv *env, jclass cls)
{
    const char *v = sc_version();

    (void)cls;
    return scj_bytes(env, v, strlen(v));
}

int scj_register_ctx(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"slotNew", "([B)J", (void *)slot_new},         {"slotFree", "(J)V", (void *)slot_free},
        {"slotBackend", "(J)[B", (void *)slot_backend}, {"backends", "()[B", (void *)backends},
        {"statusName", "(I)[B", (void *)status_name},   {"version", "()[B", (void *)version},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
