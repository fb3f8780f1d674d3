/* NIP-44 between an identity and a peer's public key: the conversation key is derived for
 * the one call, used, and wiped, so no secret leaves the library. The checks that need no
 * curve run first (through a dry run of the keyed call with no output buffer), so a size
 * query or a bad argument costs no ECDH. */
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include "nip44/nip44_internal.h"

/* Runs the keyed call's own checks without a key or an output: SC_ERR_BUFFER_TOO_SMALL
 * means they all passed (and *need is the size out needs). */
static sc_status encrypt_dry(sc_ctx *ctx, size_t *need, const uint8_t *pt, size_t len,
                             unsigned flags)
{
    static const uint8_t zero[SC_NIP44_KEY_BYTES];

    return sc_nip44_encrypt_with_rand(ctx, NULL, 0, need, zero, zero, pt, len, flags);
}

sc_status sc_nip44_encrypt_to_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                        const sc_identity *me,
                                        const uint8_t peer[SC_PUBKEY_BYTES],
                                        const uint8_t nonce[SC_NIP44_NONCE_BYTES],
                                        const uint8_t *pt, size_t len, unsigned flags)
{
    uint8_t ck[SC_NIP44_KEY_BYTES];
    size_t need = 0;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (me == NULL || peer == NULL || nonce == NULL) {
        return SC_ERR_ARG;
    }
    st = encrypt_dry(ctx, &need, pt, len, flags);
    if (st != SC_ERR_BUFFER_TOO_SMALL) {
        return st;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_nip44_identity_key(ctx, ck, me, peer);
    if (st == SC_OK) {
        st = sc_nip44_encrypt_with_rand(ctx, out, out_cap, out_len, ck, nonce, pt, len, flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}

sc_status sc_nip44_encrypt_to(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                              const sc_identity *me, const uint8_t peer[SC_PUBKEY_BYTES],
                              const uint8_t *pt, size_t len, unsigned flags)
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
    st = encrypt_dry(ctx, &need, pt, len, flags);
    if (st != SC_ERR_BUFFER_TOO_SMALL) {
        return st;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_nip44_identity_key(ctx, ck, me, peer);
    if (st == SC_OK) {
        st = sc_nip44_encrypt(ctx, out, out_cap, out_len, ck, pt, len, flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}

sc_status sc_nip44_decrypt_from(sc_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                                const sc_identity *me, const uint8_t peer[SC_PUBKEY_BYTES],
                                const char *payload, size_t payload_len, size_t max_payload)
{
    static const uint8_t zero[SC_NIP44_KEY_BYTES];
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (me == NULL || peer == NULL) {
        return SC_ERR_ARG;
    }
    /* the checks before decoding, and the capacity, with no key */
    st = sc_nip44_decrypt(ctx, NULL, 0, out_len, zero, payload, payload_len, max_payload);
    if (st != SC_ERR_BUFFER_TOO_SMALL || out_cap < *out_len) {
        return st;
    }
    *out_len = 0;
    st = sc_nip44_identity_key(ctx, ck, me, peer);
    if (st == SC_OK) {
        st = sc_nip44_decrypt(ctx, out, out_cap, out_len, ck, payload, payload_len, max_payload);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}
