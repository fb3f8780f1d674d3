/* JNI_OnLoad: registers every native of org.softchat.internal.NativeBridge and caches the
 * class and constructor native code uses, as global references, with one
 * SoftchatException(SC_ERR_NOMEM) made in advance for when the heap is too full to make
 * another (scj_throw). A Kotlin declaration that drifts from its C function fails here, at
 * load time (NoSuchMethodError), not at first use. Returns JNI_VERSION_1_6, which every
 * Android release accepts. */
#include "scj.h"

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved);
JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved);

/* A global reference to the named class, or NULL. */
static jclass global_class(JNIEnv *env, const char *name)
{
    jclass local = (*env)->FindClass(env, name);
    jclass g = NULL;

    if (local != NULL) {
        g = (jclass)(*env)->NewGlobalRef(env, local);
        (*env)->DeleteLocalRef(env, local);
    }
    return g;
}

/* Deletes a global reference and clears it. */
static void drop_global(JNIEnv *env, jobject *ref)
{
    if (*ref != NULL) {
        (*env)->DeleteGlobalRef(env, *ref);
        *ref = NULL;
    }
}

/* SoftchatException(SC_ERR_NOMEM, "SC_ERR_NOMEM", false, false) as a global reference. */
static jthrowable make_nomem(JNIEnv *env, jclass ex)
{
    jmethodID init = (*env)->GetMethodID(env, ex, "<init>", "(ILjava/lang/String;ZZ)V");
    jstring name;
    jobject obj;
    jthrowable g = NULL;

    if (init == NULL) {
        return NULL;
    }
    name = (*env)->NewStringUTF(env, sc_status_name(SC_ERR_NOMEM));
    if (name == NULL) {
        return NULL;
    }
    obj = (*env)->NewObject(env, ex, init, (jint)SC_ERR_NOMEM, name, JNI_FALSE, JNI_FALSE);
    if (obj != NULL) {
        g = (jthrowable)(*env)->NewGlobalRef(env, obj);
        (*env)->DeleteLocalRef(env, obj);
    }
    (*env)->DeleteLocalRef(env, name);
    return g;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    JNIEnv *env;
    jclass bridge, ex;

    (void)reserved;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK) {
        return JNI_ERR;
    }
    ex = (*env)->FindClass(env, "org/softchat/SoftchatException");
    if (ex == NULL) {
        return JNI_ERR;
    }
    scj_exception_init = (*env)->GetMethodID(env, ex, "<init>", "(ILjava/lang/String;)V");
    scj_exception_class = (jclass)(*env)->NewGlobalRef(env, ex);
    scj_nomem = scj_exception_init != NULL ? make_nomem(env, ex) : NULL;
    (*env)->DeleteLocalRef(env, ex);
    if (scj_exception_init == NULL || scj_exception_class == NULL || scj_nomem == NULL) {
        return JNI_ERR;
    }
    scj_string_class = global_class(env, "java/lang/String");
    scj_bytes_class = global_class(env, "[B");
    bridge = (*env)->FindClass(env, SCJ_CLASS);
    if (bridge == NULL || scj_string_class == NULL || scj_bytes_class == NULL) {
        return JNI_ERR;
    }
    if (scj_register_ctx(env, bridge) != 0 || scj_register_identity(env, bridge) != 0 ||
        scj_register_nip44(env, bridge) != 0 || scj_register_event(env, bridge) != 0 ||
        scj_register_nip59(env, bridge) != 0 || scj_register_nip17(env, bridge) != 0 ||
        scj_register_nip19(env, bridge) != 0 || scj_register_file(env, bridge) != 0 ||
        scj_register_nip17_file(env, bridge) != 0 || scj_register_pool(env, bridge) != 0 ||
        scj_register_inboxes(env, bridge) != 0 || scj_register_negentropy(env, bridge) != 0) {
        return JNI_ERR;
    }
    (*env)->DeleteLocalRef(env, bridge);
    return JNI_VERSION_1_6;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved)
{
    JNIEnv *env;

    (void)reserved;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK) {
        return;
    }
    drop_global(env, (jobject *)&scj_nomem);
    drop_global(env, (jobject *)&scj_exception_class);
    drop_global(env, (jobject *)&scj_string_class);
    drop_global(env, (jobject *)&scj_bytes_class);
}
