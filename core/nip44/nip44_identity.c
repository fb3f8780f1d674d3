/* NIP-44 between an identity and a peer's public key: the conversation key is derived for
 * the one call, used, and wiped, so no secret leaves the library. The checks that need no
 * key (sc_nip44_encrypt_check, sc_nip44_decrypt_check) and the capacity come first, so a size
 * query or a bad argument costs no ECDH. */
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include "nip44/nip44_internal.h"

/* sc_nip44_encrypt_to with the caller's nonce, or with one drawn after the ECDH when `draw`
 * is set (nonce is then unused). */
static sc_status encrypt_to(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                            const sc_identity *me, const uint8_t *peer, const uint8_t *nonce,
                            int draw, const uint8_t *pt, size_t len, unsigned flags)
{
    uint8_t ck[SC_NIP44_KEY_BYTES];
    size_t need = 0;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (me == NULL || peer == NULL || (nonce == NULL && !draw)) {
        return SC_ERR_ARG;
    }
    st = sc_nip44_encrypt_check(ctx, &need, pt, len, flags);
    if (st != SC_OK) {
        return st;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_nip44_identity_key(ctx, ck, me, peer);
    if (st == SC_OK) {
        st = draw ? sc_nip44_encrypt(ctx, out, out_cap, out_len, ck, pt, len, flags)
                  : sc_nip44_encrypt_with_rand(ctx, out, out_cap, out_len, ck, nonce, pt, len,
                                               flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}

sc_status sc_nip44_encrypt_to_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                        const sc_identity *me, const uint8_t peer[SC_PUBKEY_BYTES],
                                        const uint8_t nonce[SC_NIP44_NONCE_BYTES],
                                        const uint8_t *pt, size_t len, unsigned flags)
{
    return encrypt_to(ctx, out, out_cap, out_len, me, peer, nonce, 0, pt, len, flags);
}

sc_status sc_nip44_encrypt_to(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                              const sc_identity *me, const uint8_t peer[SC_PUBKEY_BYTES],
                              const uint8_t *pt, size_t len, unsigned flags)
{
    return encrypt_to(ctx, out, out_cap, out_len, me, peer, NULL, 1, pt, len, flags);
}

sc_status sc_nip44_decrypt_from(sc_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                                const sc_identity *me, const uint8_t peer[SC_PUBKEY_BYTES],
                                const char *payload, size_t payload_len, size_t max_payload)
{
    uint8_t ck[SC_NIP44_KEY_BYTES];
    size_t need = 0;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (me == NULL || peer == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_nip44_decrypt_check(ctx, &need, payload, payload_len, max_payload);
    if (st != SC_OK) {
        return st;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_nip44_identity_key(ctx, ck, me, peer);
    if (st == SC_OK) {
        st = sc_nip44_decrypt(ctx, out, out_cap, out_len, ck, payload, payload_len, max_payload);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}
