/* Natives of Softchat (registry, status names) and of Context's lifetime and identity. */
#include "jni_util.h"
#include "org_softchat_core_Context.h"
#include "org_softchat_core_Softchat.h"

#include <string.h>

JNIEXPORT jobjectArray JNICALL Java_org_softchat_core_Softchat_backends(JNIEnv *env, jclass cls)
{
    jclass string = (*env)->FindClass(env, "java/lang/String");
    jobjectArray out;
    size_t i, n = sc_backend_count();

    (void)cls;
    if (string == NULL) {
        return NULL;
    }
    out = (*env)->NewObjectArray(env, (jsize)n, string, NULL);
    for (i = 0; out != NULL && i < n; i++) {
        jstring s = (*env)->NewStringUTF(env, sc_backend_at(i)->name);
        if (s == NULL) {
            return NULL;
        }
        (*env)->SetObjectArrayElement(env, out, (jsize)i, s);
    }
    return out;
}

JNIEXPORT jstring JNICALL Java_org_softchat_core_Softchat_statusName(JNIEnv *env, jclass cls,
                                                                     jint status)
{
    (void)cls;
    return (*env)->NewStringUTF(env, sc_status_name((sc_status)status));
}

JNIEXPORT jstring JNICALL Java_org_softchat_core_Softchat_statusText(JNIEnv *env, jclass cls,
                                                                     jint status)
{
    (void)cls;
    return (*env)->NewStringUTF(env, sc_status_str((sc_status)status));
}

JNIEXPORT jlong JNICALL Java_org_softchat_core_Context_open(JNIEnv *env, jclass cls,
                                                            jbyteArray backend)
{
    scj_buf name = {NULL, 0};
    sc_ctx *ctx = NULL;
    sc_status st;

    (void)cls;
    if (backend != NULL) { /* NUL-terminated copy of the name */
        jsize n = (*env)->GetArrayLength(env, backend);
        if (!scj_alloc(env, &name, (size_t)n + 1)) {
            return 0;
        }
        (*env)->GetByteArrayRegion(env, backend, 0, n, (jbyte *)name.p);
        if (memchr(name.p, 0, (size_t)n) != NULL) {
            scj_free(&name);
            scj_throw_status(env, SC_ERR_NOT_FOUND);
            return 0;
        }
    }
    st = sc_ctx_new(&ctx, backend != NULL ? (const char *)name.p : NULL);
    scj_free(&name);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)ctx;
}

JNIEXPORT void JNICALL Java_org_softchat_core_Context_free(JNIEnv *env, jclass cls, jlong ctx)
{
    (void)env;
    (void)cls;
    sc_ctx_free(scj_ctx(ctx));
}

JNIEXPORT jstring JNICALL Java_org_softchat_core_Context_backendName(JNIEnv *env, jclass cls,
                                                                     jlong ctx)
{
    const sc_backend *b = sc_ctx_backend(scj_ctx(ctx));

    (void)cls;
    return (*env)->NewStringUTF(env, b != NULL ? b->name : "");
}

JNIEXPORT jbyteArray JNICALL Java_org_softchat_core_Context_publicKey0(JNIEnv *env, jclass cls,
                                                                      jlong ctx, jbyteArray sec)
{
    sc_identity id;
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_status st;

    (void)cls;
    if (!scj_identity(env, scj_ctx(ctx), sec, &id)) {
        return NULL;
    }
    st = sc_identity_pubkey(pub, &id);
    sc_identity_clear(&id);
    if (st != SC_OK) {
        scj_throw_status(env, st);
        return NULL;
    }
    return scj_out(env, pub, sizeof pub);
}
