/* Natives: NIP-44 v2 from an identity (sc_nip44_encrypt_to / decrypt_from), held
 * conversations in native memory, and the spec primitives the vectors need.
 *
 * Encryption reads the plaintext pinned with GetPrimitiveArrayCritical, writes the payload
 * into the context's working memory and returns it as a String made in one copy
 * (NewStringUTF: base64 is ASCII). Decryption caps the payload first (SC_ERR_TOO_LARGE before any
 * allocation), decrypts into the slot's working memory (the plaintext's length is known only
 * once the MAC passed), copies the plaintext out and wipes what was written. */
#include "scj.h"

#include <stdlib.h>
#include <string.h>

enum {
    BY_IDENTITY,
    BY_CONV,
    BY_KEY
};

typedef struct enc_args {
    int how;
    const sc_identity *id;
    const uint8_t *peer;
    const sc_nip44_conversation *conv;
    const uint8_t *ck, *nonce; /* BY_KEY: the spec primitive with an explicit nonce */
    unsigned flags;
} enc_args;

static sc_status enc_call(sc_ctx *ctx, char *out, size_t cap, size_t *len, const enc_args *a,
                          const uint8_t *pt, size_t n)
{
    switch (a->how) {
    case BY_IDENTITY:
        return sc_nip44_encrypt_to(ctx, out, cap, len, a->id, a->peer, pt, n, a->flags);
    case BY_CONV:
        return sc_nip44_conversation_encrypt(ctx, out, cap, len, a->conv, pt, n, a->flags);
    default:
        return sc_nip44_encrypt_with_rand(ctx, out, cap, len, a->ck, a->nonce, pt, n, a->flags);
    }
}

/* The payload as a new String: the library writes the base64 text (ASCII, so modified UTF-8
 * as it is) into the slot's working memory and NewStringUTF makes the String from it in one
 * copy, with no intermediate Java array. */
static jstring encrypt(JNIEnv *env, jlong slot, const enc_args *a, jbyteArray pt)
{
    scj_slot *s = scj_slot_of(slot);
    size_t n = scj_len(env, pt), need = sc_nip44_encrypt_len(n), len = 0;
    jstring out = NULL;
    scj_mem m;
    uint8_t *in;
    sc_status st;

    if (pt == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return NULL;
    }
    if (need == 0) { /* empty: the library names the failure */
        scj_throw(env, enc_call(s->ctx, NULL, 0, &len, a, NULL, 0));
        return NULL;
    }
    if (need > 0x7fffffffu) { /* no Java String holds it: refused before anything is done */
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    if (!scj_mem_get(env, s, &m, need + 1)) {
        return NULL;
    }
    in = (*env)->GetPrimitiveArrayCritical(env, pt, NULL);
    if (in == NULL) {
        scj_mem_put(&m, 0);
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    st = enc_call(s->ctx, (char *)m.p, need, &len, a, in, n);
    (*env)->ReleasePrimitiveArrayCritical(env, pt, in, JNI_ABORT);
    if (st == SC_OK) {
        m.p[len] = '\0';
        out = (*env)->NewStringUTF(env, (const char *)m.p);
        if (out == NULL) {
            scj_throw(env, SC_ERR_NOMEM);
        }
    } else {
        scj_throw(env, st);
    }
    scj_mem_put(&m, 0); /* a payload is public; a failed call zeroed what it wrote */
    return out;
}

typedef struct dec_args {
    int how;
    const sc_identity *id;
    const uint8_t *peer;
    const sc_nip44_conversation *conv;
    const uint8_t *ck;
    size_t max;
} dec_args;

static jbyteArray decrypt(JNIEnv *env, jlong slot, const dec_args *a, jbyteArray payload)
{
    scj_slot *s = scj_slot_of(slot);
    size_t n = scj_len(env, payload), len = 0;
    size_t max = a->max != 0 ? a->max : SC_NIP44_DEFAULT_MAX_PAYLOAD;
    scj_mem m;
    uint8_t *in;
    sc_status st;
    jbyteArray res = NULL;

    if (payload == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return NULL;
    }
    if (n == 0 || n > max) { /* before any allocation; the library names an empty payload */
        scj_throw(env, n == 0 ? SC_ERR_VERSION : SC_ERR_TOO_LARGE);
        return NULL;
    }
    if (!scj_mem_get(env, s, &m, sc_nip44_decrypt_max(n))) {
        return NULL;
    }
    in = (*env)->GetPrimitiveArrayCritical(env, payload, NULL);
    if (in == NULL) {
        scj_mem_put(&m, 0);
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    if (a->how == BY_IDENTITY) {
        st =
            sc_nip44_decrypt_from(s->ctx, m.p, m.n, &len, a->id, a->peer, (const char *)in, n, max);
    } else if (a->how == BY_CONV) {
        st = sc_nip44_conversation_decrypt(s->ctx, m.p, m.n, &len, a->conv, (const char *)in, n,
                                           max);
    } else {
        st = sc_nip44_decrypt(s->ctx, m.p, m.n, &len, a->ck, (const char *)in, n, max);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, payload, in, JNI_ABORT);
    if (st == SC_OK) {
        res = scj_bytes(env, m.p, len);
    } else {
        scj_throw(env, st);
    }
    scj_mem_put(&m, len); /* on failure the library zeroed what it wrote */
    return res;
}

static jstring encrypt_to(JNIEnv *env, jclass cls, jlong slot, jlong id, jobject peer,
                          jbyteArray pt, jint flags)
{
    uint8_t p[32];
    enc_args a = {BY_IDENTITY,    (const sc_identity *)(uintptr_t)id, p, NULL, NULL, NULL,
                  (unsigned)flags};

    (void)cls;
    return scj_pub(env, peer, p) ? encrypt(env, slot, &a, pt) : NULL;
}

static jbyteArray decrypt_from(JNIEnv *env, jclass cls, jlong slot, jlong id, jobject peer,
                               jbyteArray payload, jint max)
{
    uint8_t p[32];
    dec_args a = {BY_IDENTITY, (const sc_identity *)(uintptr_t)id, p, NULL, NULL, SCJ_LIMIT(max)};

    (void)cls;
    return scj_pub(env, peer, p) ? decrypt(env, slot, &a, payload) : NULL;
}

/* convNew(slot, id, peer): Long, a held conversation of (identity, peer). */
static jlong conv_new(JNIEnv *env, jclass cls, jlong slot, jlong id, jobject peer)
{
    uint8_t p[32];
    sc_nip44_conversation *c;
    sc_status st;

    (void)cls;
    if (!scj_pub(env, peer, p)) {
        return 0;
    }
    c = malloc(sizeof *c);
    if (c == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    st = sc_nip44_conversation_init(scj_slot_of(slot)->ctx, c, (const sc_identity *)(uintptr_t)id,
                                    p);
    if (st != SC_OK) {
        free(c); /* cleared by the failing init */
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)c;
}

/* convFromKey(ck): Long, a conversation holding a given conversation key (vectors). */
static jlong conv_from_key(JNIEnv *env, jclass cls, jbyteArray key)
{
    uint8_t k[32];
    sc_nip44_conversation *c;
    sc_status st;

    (void)cls;
    if (!scj_key(env, key, k)) {
        return 0;
    }
    c = malloc(sizeof *c);
    st = c != NULL ? sc_nip44_conversation_init_key(c, k) : SC_ERR_NOMEM;
    sc_mem_wipe(k, sizeof k);
    if (st != SC_OK) {
        free(c);
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)c;
}

static void conv_free(JNIEnv *env, jclass cls, jlong h)
{
    sc_nip44_conversation *c = (sc_nip44_conversation *)(uintptr_t)h;

    (void)env;
    (void)cls;
    if (c != NULL) {
        sc_nip44_conversation_clear(c);
        free(c);
    }
}

static jstring conv_encrypt(JNIEnv *env, jclass cls, jlong slot, jlong conv, jbyteArray pt,
                            jint flags)
{
    enc_args a = {BY_CONV, NULL, NULL,           (const sc_nip44_conversation *)(uintptr_t)conv,
                  NULL,    NULL, (unsigned)flags};

    (void)cls;
    return encrypt(env, slot, &a, pt);
}

/* keyEncrypt(slot, ck, nonce, pt, flags): the spec's encrypt (vectors; never reuse a nonce). */
static jstring key_encrypt(JNIEnv *env, jclass cls, jlong slot, jbyteArray ck, jbyteArray nonce,
                           jbyteArray pt, jint flags)
{
    uint8_t k[32], nc[32];
    enc_args a = {BY_KEY, NULL, NULL, NULL, k, nc, (unsigned)flags};
    jstring res = NULL;

    (void)cls;
    if (scj_key(env, ck, k) && scj_key(env, nonce, nc)) {
        res = encrypt(env, slot, &a, pt);
    }
    sc_mem_wipe(k, sizeof k);
    return res;
}

/* keyDecrypt(slot, ck, payload, max): the spec's decrypt (vectors). */
static jbyteArray key_decrypt(JNIEnv *env, jclass cls, jlong slot, jbyteArray ck,
                              jbyteArray payload, jint max)
{
    uint8_t k[32];
    dec_args a = {BY_KEY, NULL, NULL, NULL, k, SCJ_LIMIT(max)};
    jbyteArray res = NULL;

    (void)cls;
    if (scj_key(env, ck, k)) {
        res = decrypt(env, slot, &a, payload);
    }
    sc_mem_wipe(k, sizeof k);
    return res;
}

static jbyteArray conv_decrypt(JNIEnv *env, jclass cls, jlong slot, jlong conv, jbyteArray payload,
                               jint max)
{
    dec_args a = {BY_CONV, NULL,          NULL, (const sc_nip44_conversation *)(uintptr_t)conv,
                  NULL,    SCJ_LIMIT(max)};

    (void)cls;
    return decrypt(env, slot, &a, payload);
}

/* conversationKey(slot, sec, pub): ByteArray(32) (the vectors' get_conversation_key). */
static jbyteArray conversation_key(JNIEnv *env, jclass cls, jlong slot, jbyteArray sec,
                                   jbyteArray pub)
{
    uint8_t k[32], p[32], ck[32];
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (!scj_key(env, sec, k) || !scj_key(env, pub, p)) {
        sc_mem_wipe(k, sizeof k);
        return NULL;
    }
    st = sc_nip44_conversation_key(scj_slot_of(slot)->ctx, ck, k, p);
    sc_mem_wipe(k, sizeof k);
    if (st == SC_OK) {
        res = scj_bytes(env, ck, sizeof ck);
    } else {
        scj_throw(env, st);
    }
    sc_mem_wipe(ck, sizeof ck);
    return res;
}

int scj_register_nip44(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"nip44EncryptTo", "(JJLjava/lang/Object;[BI)Ljava/lang/String;", (void *)encrypt_to},
        {"nip44DecryptFrom", "(JJLjava/lang/Object;[BI)[B", (void *)decrypt_from},
        {"convNew", "(JJLjava/lang/Object;)J", (void *)conv_new},
        {"convFromKey", "([B)J", (void *)conv_from_key},
        {"convFree", "(J)V", (void *)conv_free},
        {"convEncrypt", "(JJ[BI)Ljava/lang/String;", (void *)conv_encrypt},
        {"keyEncrypt", "(J[B[B[BI)Ljava/lang/String;", (void *)key_encrypt},
        {"keyDecrypt", "(J[B[BI)[B", (void *)key_decrypt},
        {"convDecrypt", "(JJ[BI)[B", (void *)conv_decrypt},
        {"conversationKey", "(J[B[B)[B", (void *)conversation_key},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
