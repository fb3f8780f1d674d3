/* Natives of Context for NIP-44 v2: the conversation key is derived per call and wiped. */
#include "jni_util.h"
#include "org_softchat_core_Context.h"

/* ck = conversation_key(sec, peer); 1, or 0 with an exception pending (ck zeroed). */
static int conversation(JNIEnv *env, sc_ctx *ctx, jbyteArray sec, jbyteArray peer,
                        uint8_t ck[SC_NIP44_KEY_BYTES])
{
    uint8_t k[32], pub[32];
    sc_status st;
    int ok = scj_key(env, sec, k, "secret key: 32 bytes expected") &&
             scj_key(env, peer, pub, "public key: 32 bytes expected");

    st = ok ? sc_nip44_conversation_key(ctx, ck, k, pub) : SC_ERR_ARG;
    sc_memzero(k, sizeof k);
    if (!ok) {
        sc_memzero(ck, SC_NIP44_KEY_BYTES);
        return 0;
    }
    return st == SC_OK ? 1 : scj_throw_status(env, st);
}

/* The common start of both calls: data copied to native memory and the conversation key.
 * Returns 1, or 0 with an exception pending (nothing left to free). */
static int begin(JNIEnv *env, jlong ctx, jbyteArray sec, jbyteArray peer, jbyteArray data,
                 const char *what, scj_buf *in, uint8_t ck[SC_NIP44_KEY_BYTES])
{
    if (!scj_in(env, data, in, what)) {
        return 0;
    }
    if (!conversation(env, scj_ctx(ctx), sec, peer, ck)) {
        scj_free(in);
        return 0;
    }
    return 1;
}

JNIEXPORT jbyteArray JNICALL Java_org_softchat_core_Context_nip44Encrypt0(
    JNIEnv *env, jclass cls, jlong ctx, jbyteArray sec, jbyteArray peer, jbyteArray plain)
{
    uint8_t ck[SC_NIP44_KEY_BYTES];
    scj_buf pt, out = {NULL, 0};
    size_t len = 0;
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (!begin(env, ctx, sec, peer, plain, "plaintext", &pt, ck)) {
        return NULL;
    }
    /* the library checks arguments and policy first and then reports the size it needs */
    st = sc_nip44_encrypt(scj_ctx(ctx), NULL, 0, &len, ck, pt.p, pt.len, 0);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        if (!scj_alloc(env, &out, len)) {
            st = SC_OK; /* OutOfMemoryError pending */
        } else {
            st = sc_nip44_encrypt(scj_ctx(ctx), (char *)out.p, out.len, &len, ck, pt.p, pt.len,
                                  0);
            if (st == SC_OK) {
                res = scj_out(env, out.p, len);
            }
        }
    }
    if (st != SC_OK) {
        scj_throw_status(env, st);
    }
    sc_memzero(ck, sizeof ck);
    scj_free(&out);
    scj_free(&pt);
    return res;
}

JNIEXPORT jbyteArray JNICALL Java_org_softchat_core_Context_nip44Decrypt0(
    JNIEnv *env, jclass cls, jlong ctx, jbyteArray sec, jbyteArray peer, jbyteArray payload)
{
    uint8_t ck[SC_NIP44_KEY_BYTES];
    scj_buf in, out = {NULL, 0};
    size_t len = 0;
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (!begin(env, ctx, sec, peer, payload, "payload", &in, ck)) {
        return NULL;
    }
    if (in.len > SC_NIP44_DEFAULT_MAX_PAYLOAD) {
        st = SC_ERR_TOO_LARGE; /* refused before any buffer is sized from it */
    } else if (!scj_alloc(env, &out, sc_nip44_decrypt_cap(in.len))) {
        st = SC_OK; /* OutOfMemoryError pending */
    } else {
        st = sc_nip44_decrypt(scj_ctx(ctx), out.p, out.len, &len, ck, (const char *)in.p,
                              in.len, 0);
        if (st == SC_OK) {
            res = scj_out(env, out.p, len);
        }
    }
    if (st != SC_OK) {
        scj_throw_status(env, st);
    }
    sc_memzero(ck, sizeof ck);
    scj_free(&out); /* held the plaintext */
    scj_free(&in);
    return res;
}
