/* Natives: identities in native memory (malloc'd sc_identity, wiped and freed by
 * identityFree) and raw BIP-340 for the vectors. */
#include "scj.h"

#include <stdlib.h>
#include <string.h>

/* Imports sec (or generates when sec is null) and writes the x-only public key to pub_out.
 * Returns the handle, or 0 with an exception thrown. */
static jlong make(JNIEnv *env, jlong slot, jbyteArray sec, jbyteArray pub_out)
{
    uint8_t k[32], pub[32];
    sc_identity *id;
    sc_status st;

    if (pub_out == NULL || (*env)->GetArrayLength(env, pub_out) != 32) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    if (sec != NULL && !scj_key(env, sec, k)) {
        return 0;
    }
    id = malloc(sizeof *id);
    if (id == NULL) {
        sc_mem_wipe(k, sizeof k);
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    st = sec != NULL ? sc_identity_import(scj_slot_of(slot)->ctx, id, k)
                     : sc_identity_generate(scj_slot_of(slot)->ctx, id);
    sc_mem_wipe(k, sizeof k);
    if (st == SC_OK) {
        st = sc_identity_pubkey(pub, id);
    }
    if (st != SC_OK) {
        sc_identity_clear(id);
        free(id);
        scj_throw(env, st);
        return 0;
    }
    (*env)->SetByteArrayRegion(env, pub_out, 0, 32, (const jbyte *)pub);
    return (jlong)(uintptr_t)id;
}

static jlong identity_import(JNIEnv *env, jclass cls, jlong slot, jbyteArray sec, jbyteArray pub)
{
    (void)cls;
    if (sec == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return 0;
    }
    return make(env, slot, sec, pub);
}

static jlong identity_generate(JNIEnv *env, jclass cls, jlong slot, jbyteArray pub)
{
    (void)cls;
    return make(env, slot, NULL, pub);
}

static void identity_free(JNIEnv *env, jclass cls, jlong h)
{
    sc_identity *id = (sc_identity *)(uintptr_t)h;

    (void)env;
    (void)cls;
    if (id != NULL) {
        sc_identity_clear(id);
        free(id);
    }
}

/* identitySecret(id, out: ByteArray(32)): copies the secret key into the caller's array. */
static void identity_secret(JNIEnv *env, jclass cls, jlong h, jbyteArray out)
{
    uint8_t k[32];
    sc_status st;

    (void)cls;
    if (out == NULL || (*env)->GetArrayLength(env, out) != 32) {
        scj_throw(env, SC_ERR_ARG);
        return;
    }
    st = sc_identity_seckey(k, (const sc_identity *)(uintptr_t)h);
    if (st == SC_OK) {
        (*env)->SetByteArrayRegion(env, out, 0, 32, (const jbyte *)k);
    } else {
        scj_throw(env, st);
    }
    sc_mem_wipe(k, sizeof k);
}

/* schnorrSign(slot, id, msg32, aux32 or null): ByteArray(64). */
static jbyteArray schnorr_sign(JNIEnv *env, jclass cls, jlong slot, jlong h, jbyteArray msg,
                               jbyteArray aux)
{
    uint8_t m[32], a[32], sig[64];
    sc_status st;
    const sc_identity *id = (const sc_identity *)(uintptr_t)h;

    (void)cls;
    if (!scj_key(env, msg, m) || (aux != NULL && !scj_key(env, aux, a))) {
        return NULL;
    }
    st = aux != NULL ? sc_identity_sign_with_rand(scj_slot_of(slot)->ctx, sig, id, m, a)
                     : sc_identity_sign(scj_slot_of(slot)->ctx, sig, id, m);
    sc_mem_wipe(a, sizeof a);
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    return scj_bytes(env, sig, sizeof sig);
}

/* schnorrVerify(slot, sig64, msg32, pub32): Boolean (false for SC_ERR_INVALID_SIG). */
static jboolean schnorr_verify(JNIEnv *env, jclass cls, jlong slot, jbyteArray sig, jbyteArray msg,
                               jobject pub)
{
    uint8_t s[64], m[32], p[32];
    sc_status st;

    (void)cls;
    if (sig == NULL || (*env)->GetArrayLength(env, sig) != 64) {
        scj_throw(env, SC_ERR_ARG);
        return JNI_FALSE;
    }
    (*env)->GetByteArrayRegion(env, sig, 0, 64, (jbyte *)s);
    if (!scj_key(env, msg, m) || !scj_pub(env, pub, p)) {
        return JNI_FALSE;
    }
    st = sc_identity_verify(scj_slot_of(slot)->ctx, s, m, p);
    if (st == SC_OK) {
        return JNI_TRUE;
    }
    if (st != SC_ERR_INVALID_SIG) {
        scj_throw(env, st);
    }
    return JNI_FALSE;
}

int scj_register_identity(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"identityImport", "(J[B[B)J", (void *)identity_import},
        {"identityGenerate", "(J[B)J", (void *)identity_generate},
        {"identityFree", "(J)V", (void *)identity_free},
        {"identitySecret", "(J[B)V", (void *)identity_secret},
        {"schnorrSign", "(JJ[B[B)[B", (void *)schnorr_sign},
        {"schnorrVerify", "(J[B[BLjava/lang/Object;)Z", (void *)schnorr_verify},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
