/* Identities (a malloc'd sc_identity per TypeScript Identity, wiped and freed by
 * scw_identity_free), raw BIP-340, and NIP-44 with an identity or a held conversation. */
#include "exports.h"

#include <stdlib.h>
#include <string.h>

/* Imports the 32 bytes at sec (in the input buffer, wiped here), or generates when sec is
 * NULL. The handle goes to res[0..4), the x-only public key to res[4..36). */
SCW_EXPORT int scw_identity_new(scw *w, uint8_t *sec)
{
    sc_identity *id = malloc(sizeof *id);
    sc_status st;
    uint32_t h;

    if (id == NULL) {
        if (sec != NULL) {
            sc_mem_wipe(sec, SC_SECKEY_BYTES);
        }
        return SC_ERR_NOMEM;
    }
    st = sec != NULL ? sc_identity_import(w->ctx, id, sec) : sc_identity_generate(w->ctx, id);
    if (sec != NULL) {
        sc_mem_wipe(sec, SC_SECKEY_BYTES);
    }
    if (st == SC_OK) {
        st = sc_identity_pubkey(w->res + 4, id);
    }
    if (st != SC_OK) {
        sc_identity_clear(id);
        free(id);
        return st;
    }
    h = (uint32_t)(uintptr_t)id;
    memcpy(w->res, &h, 4);
    return SC_OK;
}

SCW_EXPORT void scw_identity_free(sc_identity *id)
{
    if (id != NULL) {
        sc_identity_clear(id);
        free(id);
    }
}

/* The secret key to res[0..32) (the caller copies it out, then scw_done wipes res). */
SCW_EXPORT int scw_identity_secret(scw *w, const sc_identity *id)
{
    return sc_identity_seckey(w->res, id);
}

/* BIP-340: the signature of msg (32 bytes) to res[0..64); aux NULL draws from the RNG. */
SCW_EXPORT int scw_schnorr_sign(scw *w, const sc_identity *id, const uint8_t *msg,
                                const uint8_t *aux)
{
    return aux != NULL ? sc_identity_sign_with_rand(w->ctx, w->res, id, msg, aux)
                       : sc_identity_sign(w->ctx, w->res, id, msg);
}

SCW_EXPORT int scw_schnorr_verify(scw *w, const uint8_t *sig, const uint8_t *msg,
                                  const uint8_t *pub)
{
    return sc_identity_verify(w->ctx, sig, msg, pub);
}

/* A held conversation: with an identity and a peer (id non-NULL) or from a key (ck, wiped
 * here). The handle goes to res[0..4). */
SCW_EXPORT int scw_conv_new(scw *w, const sc_identity *id, const uint8_t *peer, uint8_t *ck)
{
    sc_nip44_conversation *c = malloc(sizeof *c);
    sc_status st;
    uint32_t h;

    if (c == NULL) {
        st = SC_ERR_NOMEM;
    } else if (id != NULL) {
        st = sc_nip44_conversation_init(w->ctx, c, id, peer);
    } else {
        st = sc_nip44_conversation_init_key(c, ck);
    }
    if (ck != NULL) {
        sc_mem_wipe(ck, SC_NIP44_KEY_BYTES);
    }
    if (st != SC_OK) {
        free(c);
        return st;
    }
    h = (uint32_t)(uintptr_t)c;
    memcpy(w->res, &h, 4);
    return SC_OK;
}

SCW_EXPORT void scw_conv_free(sc_nip44_conversation *c)
{
    if (c != NULL) {
        sc_nip44_conversation_clear(c);
        free(c);
    }
}

/* NIP-44 encryption of pt[0..len) to the result (base64). With a conversation c, or with
 * id and peer; nonce NULL draws from the RNG (vectors pass theirs). */
SCW_EXPORT int scw_nip44_encrypt(scw *w, const sc_nip44_conversation *c, const sc_identity *id,
                                 const uint8_t *peer, const uint8_t *pt, uint32_t len,
                                 uint32_t flags, const uint8_t *nonce)
{
    size_t n = sc_nip44_encrypt_len(len), got = 0;
    char *out;
    sc_status st;

    if (n == 0) { /* over 2^32 - 1 bytes: the library would say so too */
        return SC_ERR_TOO_LARGE;
    }
    if ((out = (char *)scw_output(w, n)) == NULL) {
        return SC_ERR_NOMEM;
    }
    if (c != NULL) {
        st = nonce != NULL ? SC_ERR_ARG /* a held key takes its nonce from the RNG */
                           : sc_nip44_conversation_encrypt(w->ctx, out, n, &got, c, pt, len, flags);
    } else {
        st = nonce != NULL ? sc_nip44_encrypt_to_with_rand(w->ctx, out, n, &got, id, peer, nonce,
                                                           pt, len, flags)
                           : sc_nip44_encrypt_to(w->ctx, out, n, &got, id, peer, pt, len, flags);
    }
    return st == SC_OK ? scw_result(w, got) : st;
}

/* NIP-44 encryption with a conversation key and nonce given as bytes (the official vectors;
 * ck is wiped here). */
SCW_EXPORT int scw_nip44_encrypt_key(scw *w, uint8_t *ck, const uint8_t *nonce, const uint8_t *pt,
                                     uint32_t len, uint32_t flags)
{
    size_t n = sc_nip44_encrypt_len(len), got = 0;
    char *out = n != 0 ? (char *)scw_output(w, n) : NULL;
    sc_status st = n == 0 ? SC_ERR_TOO_LARGE : SC_ERR_NOMEM;

    if (out != NULL) {
        st = sc_nip44_encrypt_with_rand(w->ctx, out, n, &got, ck, nonce, pt, len, flags);
    }
    sc_mem_wipe(ck, SC_NIP44_KEY_BYTES);
    return st == SC_OK ? scw_result(w, got) : st;
}

/* NIP-44 decryption of payload[0..len) to the result (the plaintext: the caller copies it
 * out and scw_done wipes it). max: the payload cap in characters (0: 1 MiB). */
SCW_EXPORT int scw_nip44_decrypt(scw *w, const sc_nip44_conversation *c, const sc_identity *id,
                                 const uint8_t *peer, const char *payload, uint32_t len,
                                 uint32_t max)
{
    size_t cap = max != 0 ? max : SC_NIP44_DEFAULT_MAX_PAYLOAD, n, got = 0;
    uint8_t *out;
    sc_status st;

    if (len > cap) { /* before anything is allocated */
        return SC_ERR_TOO_LARGE;
    }
    n = sc_nip44_decrypt_max(len);
    if ((out = scw_output(w, n)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = c != NULL ? sc_nip44_conversation_decrypt(w->ctx, out, n, &got, c, payload, len, cap)
                   : sc_nip44_decrypt_from(w->ctx, out, n, &got, id, peer, payload, len, cap);
    return st == SC_OK ? scw_result(w, got) : st;
}
