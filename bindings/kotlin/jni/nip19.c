/* Natives: NIP-19 encode and decode (pure: no context). An nsec crosses as bytes that the
 * Kotlin side can wipe; native copies are wiped here. */
#include "blob.h"
#include "scj.h"

#include <string.h>

/* Relays blob: u32 n, then per relay u32 len + bytes. */
static sc_status relays_load(sc_nip19_entity *e, const uint8_t *b, size_t len)
{
    scj_rd r = {b, len};
    uint32_t n, l, i;
    const uint8_t *p;

    if (len == 0) {
        return SC_OK;
    }
    if (!scj_rd_u32(&r, &n) || n > SC_NIP19_MAX_RELAYS) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n; i++) {
        if (!scj_rd_u32(&r, &l) || !scj_rd_bytes(&r, &p, l)) {
            return SC_ERR_ARG;
        }
        e->relays[i].ptr = (const char *)p;
        e->relays[i].len = l;
    }
    e->n_relays = n;
    return r.left == 0 ? SC_OK : SC_ERR_ARG;
}

/* nip19Encode(type, key, author or null, kind, hasKind, identifier or null, relays or null). */
static jbyteArray nip19_encode(JNIEnv *env, jclass cls, jint type, jobject key, jobject author,
                               jint kind, jboolean has_kind, jbyteArray identifier,
                               jbyteArray relays)
{
    uint8_t in[SC_NIP19_MAX_CHARS], out[SC_NIP19_MAX_CHARS];
    size_t il = scj_len(env, identifier), rl = scj_len(env, relays), len = 0;
    sc_nip19_entity e;
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    memset(&e, 0, sizeof e);
    e.type = (sc_nip19_type)type;
    if ((key != NULL && !scj_pub(env, key, e.key)) ||
        (author != NULL && !scj_pub(env, author, e.author))) {
        sc_mem_wipe(&e, sizeof e);
        return NULL;
    }
    if (il > 255 || rl > sizeof in - il) {
        sc_mem_wipe(&e, sizeof e);
        scj_throw(env, SC_ERR_TOO_LARGE);
        return NULL;
    }
    if (il > 0) {
        (*env)->GetByteArrayRegion(env, identifier, 0, (jsize)il, (jbyte *)in);
    }
    if (rl > 0) {
        (*env)->GetByteArrayRegion(env, relays, 0, (jsize)rl, (jbyte *)in + il);
    }
    e.has_author = author != NULL;
    e.kind = (uint32_t)kind;
    e.has_kind = has_kind == JNI_TRUE;
    e.identifier.ptr = (const char *)in;
    e.identifier.len = il;
    st = relays_load(&e, in + il, rl);
    if (st == SC_OK) {
        st = sc_nip19_encode((char *)out, sizeof out, &len, &e);
    }
    if (st == SC_OK) {
        res = scj_bytes(env, out, len);
    } else {
        scj_throw(env, st);
    }
    sc_mem_wipe(&e, sizeof e);
    sc_mem_wipe(out, len); /* an nsec */
    return res;
}

/* nip19Decode(text): u32 type, key[32], u32 has_author, author[32], u32 has_kind, u32 kind,
 * u32 identifier_len + identifier, then the relays blob. */
static jbyteArray nip19_decode(JNIEnv *env, jclass cls, jbyteArray text)
{
    uint8_t in[SC_NIP19_MAX_CHARS], scratch[SC_NIP19_DECODE_SCRATCH_MAX];
    uint8_t blob[4 + 32 + 4 + 32 + 4 + 4 + 4 + SC_NIP19_DECODE_SCRATCH_MAX + 4 +
                 SC_NIP19_MAX_RELAYS * 4];
    size_t n = scj_len(env, text), used = 0, i;
    sc_nip19_entity e;
    scj_wr w = {blob, 0};
    sc_status st;
    jbyteArray res = NULL;

    (void)cls;
    if (text == NULL) {
        scj_throw(env, SC_ERR_ARG);
        return NULL;
    }
    if (n > sizeof in) {
        scj_throw(env, SC_ERR_BECH32);
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, text, 0, (jsize)n, (jbyte *)in);
    st = sc_nip19_decode(&e, scratch, sizeof scratch, &used, (const char *)in, n);
    if (st != SC_OK) {
        sc_mem_wipe(in, n); /* an nsec with a typo is still nearly the whole key */
        scj_throw(env, st);
        return NULL;
    }
    scj_wr_u32(&w, (uint32_t)e.type);
    scj_wr_bytes(&w, e.key, 32);
    scj_wr_u32(&w, (uint32_t)e.has_author);
    scj_wr_bytes(&w, e.author, 32);
    scj_wr_u32(&w, (uint32_t)e.has_kind);
    scj_wr_u32(&w, e.kind);
    scj_wr_u32(&w, (uint32_t)e.identifier.len);
    scj_wr_bytes(&w, e.identifier.ptr, e.identifier.len);
    scj_wr_u32(&w, (uint32_t)e.n_relays);
    for (i = 0; i < e.n_relays; i++) {
        scj_wr_u32(&w, (uint32_t)e.relays[i].len);
        scj_wr_bytes(&w, e.relays[i].ptr, e.relays[i].len);
    }
    res = scj_bytes(env, blob, w.off);
    sc_mem_wipe(&e, sizeof e);
    sc_mem_wipe(blob, w.off);
    sc_mem_wipe(in, n);
    return res;
}

int scj_register_nip19(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"nip19Encode", "(ILjava/lang/Object;Ljava/lang/Object;IZ[B[B)[B", (void *)nip19_encode},
        {"nip19Decode", "([B)[B", (void *)nip19_decode},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m));
}
