/* NIP-44 v2: the conversation key (of a secret key, or of an identity through its ECDH), the
 * per-message keys, and encryption.
 *
 * Encryption uses the caller's output buffer as its only working memory: the raw payload
 * 0x02 || nonce || padded plaintext || MAC is built at the end of out[0..payload_len), the
 * padded plaintext is encrypted in place, the MAC is computed over nonce || ciphertext as a
 * scatter list (no copy), and the whole is base64-encoded in place, front to back. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include <string.h>

#include "crypto/dispatch.h"
#include "ctx/ctx_internal.h"
#include "identity/identity_internal.h"
#include "nip44/nip44_internal.h"

#define OKM_BYTES 76 /* ChaCha20 key (32) || ChaCha20 nonce (12) || HMAC key (32) */

static const uint8_t ck_salt[8] = {'n', 'i', 'p', '4', '4', '-', 'v', '2'};

/* The conversation key from the ECDH x coordinate that step `st` produced: HKDF-Extract with
 * the salt "nip44-v2". x is wiped; ck is zeroed on any failure. */
static sc_status key_from_x(sc_ctx *ctx, uint8_t *ck, uint8_t *x, sc_status st)
{
    if (st == SC_OK) {
        st = sc_crypto_hkdf_extract(ctx, ck, ck_salt, sizeof ck_salt, x, SC_ECDH_X_BYTES);
    }
    sc_mem_wipe(x, SC_ECDH_X_BYTES);
    if (st != SC_OK) {
        sc_mem_wipe(ck, SC_NIP44_KEY_BYTES);
    }
    return st;
}

sc_status sc_nip44_conversation_key(sc_ctx *ctx, uint8_t ck[SC_NIP44_KEY_BYTES],
                                    const uint8_t sec[SC_SECKEY_BYTES],
                                    const uint8_t pub[SC_PUBKEY_BYTES])
{
    uint8_t x[SC_ECDH_X_BYTES];
    sc_status st;

    if (ck == NULL) {
        return SC_ERR_ARG;
    }
    /* the curve group validates both keys: sec in [1, n-1], pub lifts to a point */
    st = ctx == NULL || sec == NULL || pub == NULL ? SC_ERR_ARG
                                                   : sc_dispatch_curve_ecdh_x(ctx, x, sec, pub);
    return key_from_x(ctx, ck, x, st);
}

sc_status sc_nip44_identity_key(sc_ctx *ctx, uint8_t ck[SC_NIP44_KEY_BYTES], const sc_identity *me,
                                const uint8_t peer[SC_PUBKEY_BYTES])
{
    uint8_t x[SC_ECDH_X_BYTES];

    if (ck == NULL) {
        return SC_ERR_ARG;
    }
    return key_from_x(ctx, ck, x, sc_identity_ecdh_x(ctx, x, me, peer));
}

sc_status sc_nip44_message_keys(sc_ctx *ctx, uint8_t chacha_key[SC_CHACHA20_KEY_BYTES],
                                uint8_t chacha_nonce[SC_CHACHA20_NONCE_BYTES],
                                uint8_t hmac_key[SC_NIP44_HMAC_KEY_BYTES],
                                const uint8_t ck[SC_NIP44_KEY_BYTES],
                                const uint8_t nonce[SC_NIP44_NONCE_BYTES])
{
    uint8_t okm[OKM_BYTES];
    sc_status st;

    if (ctx == NULL || chacha_key == NULL || chacha_nonce == NULL || hmac_key == NULL ||
        ck == NULL || nonce == NULL) {
        st = SC_ERR_ARG;
    } else {
        st = sc_crypto_hkdf_expand(ctx, okm, sizeof okm, ck, SC_NIP44_KEY_BYTES, nonce,
                                   SC_NIP44_NONCE_BYTES);
    }
    if (st == SC_OK) {
        memcpy(chacha_key, okm, 32);
        memcpy(chacha_nonce, okm + 32, 12);
        memcpy(hmac_key, okm + 44, 32);
    } else {
        /* each output that exists is zeroed, whichever argument was wrong */
        sc_mem_wipe(chacha_key, chacha_key != NULL ? 32 : 0);
        sc_mem_wipe(chacha_nonce, chacha_nonce != NULL ? 12 : 0);
        sc_mem_wipe(hmac_key, hmac_key != NULL ? 32 : 0);
    }
    sc_mem_wipe(okm, sizeof okm);
    return st;
}

sc_status sc_nip44_encrypt_check(sc_ctx *ctx, size_t *need, const uint8_t *pt, size_t len,
                                 unsigned flags)
{
    if (ctx == NULL || (pt == NULL && len != 0)) {
        return SC_ERR_ARG;
    }
    if (len == 0) {
        return SC_ERR_EMPTY; /* NIP-44 encrypts 1 to 2^32 - 1 bytes */
    }
    if ((flags & ~SC_NIP44_EXTENDED) != 0) {
        return SC_ERR_FLAGS;
    }
    if ((uint64_t)len > SC_NIP44_MAX_PLAINTEXT) {
        return SC_ERR_TOO_LARGE;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    if (len >= SC_NIP44_EXTENDED_THRESHOLD && (flags & SC_NIP44_EXTENDED) == 0) {
        return SC_ERR_POLICY; /* u16-only decoders, still widely deployed, cannot read it */
    }
    *need = sc_nip44_encrypt_len(len);
    return *need == 0 ? SC_ERR_TOO_LARGE : SC_OK; /* 0: the payload does not fit size_t */
}

/* sc_nip44_encrypt_check, with the key and the nonce present. */
static sc_status encrypt_args(sc_ctx *ctx, size_t *need, const uint8_t *ck, const uint8_t *nonce,
                              const uint8_t *pt, size_t len, unsigned flags)
{
    return ck == NULL || nonce == NULL ? SC_ERR_ARG
                                       : sc_nip44_encrypt_check(ctx, need, pt, len, flags);
}

sc_status sc_nip44_encrypt_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                     const uint8_t ck[SC_NIP44_KEY_BYTES],
                                     const uint8_t nonce[SC_NIP44_NONCE_BYTES], const uint8_t *pt,
                                     size_t len, unsigned flags)
{
    uint8_t chacha_key[32], chacha_nonce[12], hmac_key[32];
    size_t need = 0, pre, body, raw_len;
    uint8_t *raw, *ct;
    sc_iov aad_ct;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    st = encrypt_args(ctx, &need, ck, nonce, pt, len, flags);
    if (st != SC_OK) {
        return st;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        return SC_ERR_ARG;
    }
    /* out is written before pt and nonce are fully read: they must lie elsewhere */
    if (sc_range_overlap(out, need, pt, len) ||
        sc_range_overlap(out, need, nonce, SC_NIP44_NONCE_BYTES)) {
        return SC_ERR_OVERLAP;
    }
    st = sc_nip44_message_keys(ctx, chacha_key, chacha_nonce, hmac_key, ck, nonce);
    if (st != SC_OK) {
        goto cleanup; /* nothing written yet */
    }
    pre = sc_nip44_prefix_len(len);
    body = pre + (size_t)sc_nip44_padded_len(len); /* fits: need did */
    raw_len = SC_NIP44_OVERHEAD + body;
    raw = (uint8_t *)out + (need - raw_len);
    ct = raw + 1 + SC_NIP44_NONCE_BYTES;
    raw[0] = SC_NIP44_VERSION;
    memcpy(raw + 1, nonce, SC_NIP44_NONCE_BYTES);
    sc_nip44_prefix_write(ct, len);
    memcpy(ct + pre, pt, len);
    memset(ct + pre + len, 0, body - pre - len);

    st = sc_crypto_chacha20_xor(ctx, ct, ct, body, chacha_key, chacha_nonce, 0);
    if (st == SC_OK) {
        aad_ct.data = raw + 1; /* nonce || ciphertext, adjacent in raw: one part */
        aad_ct.len = SC_NIP44_NONCE_BYTES + body;
        st = sc_crypto_hmac_sha256(ctx, ct + body, hmac_key, sizeof hmac_key, &aad_ct, 1);
    }
    if (st == SC_OK) {
        st = sc_nip44_b64_in_place(out, need, raw_len);
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, need); /* may still hold plaintext */
        goto cleanup;
    }
    *out_len = need;
cleanup:
    sc_mem_wipe(chacha_key, sizeof chacha_key);
    sc_mem_wipe(chacha_nonce, sizeof chacha_nonce);
    sc_mem_wipe(hmac_key, sizeof hmac_key);
    return st;
}

sc_status sc_nip44_encrypt(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                           const uint8_t ck[SC_NIP44_KEY_BYTES], const uint8_t *pt, size_t len,
                           unsigned flags)
{
    uint8_t nonce[SC_NIP44_NONCE_BYTES];
    size_t need = 0;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    /* refuse bad arguments and small buffers before drawing from the RNG */
    st = encrypt_args(ctx, &need, ck, nonce, pt, len, flags);
    if (st == SC_OK && out_cap < need) {
        *out_len = need;
        st = SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, nonce, sizeof nonce);
    }
    if (st == SC_OK) {
        st = sc_nip44_encrypt_with_rand(ctx, out, out_cap, out_len, ck, nonce, pt, len, flags);
    }
    sc_mem_wipe(nonce, sizeof nonce);
    return st;
}
