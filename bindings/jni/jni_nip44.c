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
    sc_mem_wipe(k, sizeof k);
    if (!ok) {
        sc_mem_wipe(ck, SC_NIP44_KEY_BYTES);
        return 0;
    }
    return st == SC_OK ? 1 : scj_throw_status(env, st);
}

/* One NIP-44 call: encryption (in = plaintext) or decryption (in = payload). */
static sc_status call(sc_ctx *ctx, int decrypt, void *out, size_t cap, size_t *len,
                      const uint8_t ck[SC_NIP44_KEY_BYTES], const scj_buf *in)
{
    return decrypt ? sc_nip44_decrypt(ctx, out, cap, len, ck, (const char *)in->p, in->len, 0)
                   : sc_nip44_encrypt(ctx, out, cap, len, ck, in->p, in->len, 0);
}

/* Runs the call first without an output buffer, so the library checks arguments, limits and
 * policy in its own order and then reports the size it needs, and again into a native buffer
 * of that size (wiped when freed: it may hold plaintext). The result as a new Java byte[], or
 * NULL with an exception pending. */
static jbyteArray run(JNIEnv *env, sc_ctx *ctx, int decrypt, const uint8_t ck[SC_NIP44_KEY_BYTES],
                      const scj_buf *in)
{
    scj_buf out = {NULL, 0};
    size_t len = 0;
    jbyteArray res = NULL;
    sc_status st = call(ctx, decrypt, NULL, 0, &len, ck, in);

    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        if (!scj_alloc(env, &out, len)) {
            return NULL; /* OutOfMemoryError pending */
        }
        st = call(ctx, decrypt, out.p, out.len, &len, ck, in);
        if (st == SC_OK) {
            res = scj_out(env, out.p, len);
        }
    }
    if (st != SC_OK) {
        scj_throw_status(env, st);
    }
    scj_free(&out);
    return res;
}

/* Both entry points: the input and conversation key, the call, everything wiped. */
static jbyteArray nip44(JNIEnv *env, jlong ctx, jbyteArray sec, jbyteArray peer,
                        jbyteArray data, int decrypt)
{
    uint8_t ck[SC_NIP44_KEY_BYTES];
    scj_buf in;
    jbyteArray res = NULL;

    if (!scj_in(env, data, &in, decrypt ? "payload" : "plaintext")) {
        return NULL;
    }
    if (conversation(env, scj_ctx(ctx), sec, peer, ck)) {
        res = run(env, scj_ctx(ctx), decrypt, ck, &in);
    }
    sc_mem_wipe(ck, sizeof ck);
    scj_free(&in);
    return res;
}

JNIEXPORT jbyteArray JNICALL Java_org_softchat_core_Context_nip44Encrypt0(
    JNIEnv *env, jclass cls, jlong ctx, jbyteArray sec, jbyteArray peer, jbyteArray plain)
{
    (void)cls;
    return nip44(env, ctx, sec, peer, plain, 0);
}

JNIEXPORT jbyteArray JNICALL Java_org_softchat_core_Context_nip44Decrypt0(
    JNIEnv *env, jclass cls, jlong ctx, jbyteArray sec, jbyteArray peer, jbyteArray payload)
{
    (void)cls;
    return nip44(env, ctx, sec, peer, payload, 1);
}
