/* Helpers of the JNI glue (see jni_util.h). */
#include "jni_util.h"

#include <stdlib.h>
#include <string.h>

static int throw_class(JNIEnv *env, const char *cls, const char *msg)
{
    jclass c = (*env)->FindClass(env, cls);

    if (c != NULL) {
        (*env)->ThrowNew(env, c, msg);
    }
    return 0;
}

int scj_throw_status(JNIEnv *env, sc_status st)
{
    jclass c = (*env)->FindClass(env, "org/softchat/core/SoftchatException");
    jmethodID init;
    jstring name, text;
    jobject ex;

    if (c == NULL) {
        return 0;
    }
    init = (*env)->GetMethodID(env, c, "<init>", "(ILjava/lang/String;Ljava/lang/String;)V");
    if (init == NULL) {
        return 0;
    }
    name = (*env)->NewStringUTF(env, sc_status_name(st));
    text = (*env)->NewStringUTF(env, sc_status_str(st));
    if (name == NULL || text == NULL) {
        return 0;
    }
    ex = (*env)->NewObject(env, c, init, (jint)st, name, text);
    if (ex != NULL) {
        (*env)->Throw(env, (jthrowable)ex);
    }
    return 0;
}

int scj_throw_arg(JNIEnv *env, const char *msg)
{
    return throw_class(env, "java/lang/IllegalArgumentException", msg);
}

int scj_throw_nomem(JNIEnv *env)
{
    return throw_class(env, "java/lang/OutOfMemoryError", "libsoftchat binding");
}

sc_ctx *scj_ctx(jlong handle)
{
    return (sc_ctx *)(uintptr_t)handle;
}

int scj_key(JNIEnv *env, jbyteArray a, uint8_t out[32], const char *what)
{
    if (a == NULL || (*env)->GetArrayLength(env, a) != 32) {
        return scj_throw_arg(env, what);
    }
    (*env)->GetByteArrayRegion(env, a, 0, 32, (jbyte *)out);
    return (*env)->ExceptionCheck(env) ? 0 : 1;
}

int scj_alloc(JNIEnv *env, scj_buf *b, size_t n)
{
    b->len = 0;
    b->p = calloc(n > 0 ? n : 1, 1);
    if (b->p == NULL) {
        return scj_throw_nomem(env);
    }
    b->len = n;
    return 1;
}

int scj_in(JNIEnv *env, jbyteArray a, scj_buf *b, const char *what)
{
    jsize n;

    b->p = NULL;
    b->len = 0;
    if (a == NULL) {
        return scj_throw_arg(env, what);
    }
    n = (*env)->GetArrayLength(env, a);
    if (!scj_alloc(env, b, (size_t)n)) {
        return 0;
    }
    (*env)->GetByteArrayRegion(env, a, 0, n, (jbyte *)b->p);
    if ((*env)->ExceptionCheck(env)) {
        scj_free(b);
        return 0;
    }
    return 1;
}

void scj_free(scj_buf *b)
{
    if (b->p != NULL) {
        sc_mem_wipe(b->p, b->len);
        free(b->p);
    }
    b->p = NULL;
    b->len = 0;
}

jbyteArray scj_out(JNIEnv *env, const void *p, size_t n)
{
    jbyteArray a;

    if (n > 0x7fffffff) {
        scj_throw_nomem(env);
        return NULL;
    }
    a = (*env)->NewByteArray(env, (jsize)n);
    if (a != NULL && n > 0) {
        (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)p);
    }
    return a;
}

int scj_identity(JNIEnv *env, sc_ctx *ctx, jbyteArray sec, sc_identity *id)
{
    uint8_t k[32];
    sc_status st;

    memset(id, 0, sizeof *id);
    if (!scj_key(env, sec, k, "secret key: 32 bytes expected")) {
        sc_mem_wipe(k, sizeof k);
        return 0;
    }
    st = sc_identity_import(ctx, id, k);
    sc_mem_wipe(k, sizeof k);
    if (st != SC_OK) {
        return scj_throw_status(env, st);
    }
    return 1;
}
