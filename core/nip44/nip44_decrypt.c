/* NIP-44 v2 decryption, in the spec's validation order, with the caller's buffer as the only
 * working memory: the payload is base64-decoded into out, the MAC is checked over
 * nonce || ciphertext in place, and only then is the ciphertext decrypted in place, unpadded,
 * and the plaintext moved to the front of out. Everything else that was written is zeroed. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/base64.h>
#include <softchat/nip44.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "nip44/nip44_internal.h"

sc_status sc_nip44_decrypt_check(sc_ctx *ctx, size_t *need, const char *payload, size_t payload_len,
                                 size_t max_payload)
{
    if (ctx == NULL || (payload == NULL && payload_len != 0)) {
        return SC_ERR_ARG;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    /* the checks that read only the payload's length and first character, in spec order */
    if (payload_len == 0 || payload[0] == '#') {
        return SC_ERR_VERSION; /* '#' is reserved for future non-base64 encodings */
    }
    if (payload_len > (max_payload != 0 ? max_payload : SC_NIP44_DEFAULT_MAX_PAYLOAD)) {
        return SC_ERR_TOO_LARGE; /* before decoding: the spec sets no upper bound */
    }
    if (payload_len < SC_NIP44_MIN_PAYLOAD) {
        return SC_ERR_PAYLOAD_SIZE;
    }
    *need = sc_nip44_decrypt_max(payload_len);
    return SC_OK;
}

/* Authenticates and decrypts the decoded payload d[0..n) in place (n >= the minimum); on
 * success the plaintext is d[*off..*off + *len). */
static sc_status open_raw(sc_ctx *ctx, uint8_t *d, size_t n, const uint8_t *ck, size_t *off,
                          size_t *len)
{
    uint8_t chacha_key[32], chacha_nonce[12], hmac_key[32], mac[SC_NIP44_MAC_BYTES];
    uint8_t *nonce = d + 1, *ct = d + 1 + SC_NIP44_NONCE_BYTES;
    size_t ct_len = n - SC_NIP44_OVERHEAD;
    sc_iov aad_ct;
    sc_status st;

    st = sc_nip44_message_keys(ctx, chacha_key, chacha_nonce, hmac_key, ck, nonce);
    if (st != SC_OK) {
        goto cleanup;
    }
    aad_ct.data = nonce; /* nonce || ciphertext, adjacent in d: one part */
    aad_ct.len = SC_NIP44_NONCE_BYTES + ct_len;
    st = sc_crypto_hmac_sha256(ctx, mac, hmac_key, sizeof hmac_key, &aad_ct, 1);
    if (st != SC_OK) {
        goto cleanup;
    }
    if (sc_mem_ct_compare(mac, ct + ct_len, SC_NIP44_MAC_BYTES) != 0) {
        st = SC_ERR_MAC; /* nothing has been decrypted */
        goto cleanup;
    }
    if ((uint64_t)ct_len > 6 + SC_NIP44_MAX_PADDED) {
        st = SC_ERR_PADDING; /* longer than any padded plaintext (and than ChaCha20's counter) */
        goto cleanup;
    }
    st = sc_crypto_chacha20_xor(ctx, ct, ct, ct_len, chacha_key, chacha_nonce, 0);
    if (st != SC_OK) {
        goto cleanup;
    }
    st = sc_nip44_unpad(ct, ct_len, off, len);
    if (st == SC_OK) {
        *off += 1 + SC_NIP44_NONCE_BYTES;
    }
cleanup:
    sc_mem_wipe(chacha_key, sizeof chacha_key);
    sc_mem_wipe(chacha_nonce, sizeof chacha_nonce);
    sc_mem_wipe(hmac_key, sizeof hmac_key);
    sc_mem_wipe(mac, sizeof mac);
    return st;
}

sc_status sc_nip44_decrypt(sc_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                           const uint8_t ck[SC_NIP44_KEY_BYTES], const char *payload,
                           size_t payload_len, size_t max_payload)
{
    size_t cap = 0, n = 0, off = 0, len = 0;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    st = ck == NULL ? SC_ERR_ARG
                    : sc_nip44_decrypt_check(ctx, &cap, payload, payload_len, max_payload);
    if (st != SC_OK) {
        return st;
    }
    if (out_cap < cap) {
        *out_len = cap;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, cap, payload, payload_len)) {
        return SC_ERR_OVERLAP;
    }
    /* from here on out[0..n) is written, and zeroed on every failure */
    st = sc_base64_decode(out, cap, &n, payload, payload_len);
    if (st != SC_OK) {
        return st; /* SC_ERR_BASE64; the decoder zeroed what it wrote */
    }
    if (n < SC_NIP44_MIN_RAW) {
        st = SC_ERR_PAYLOAD_SIZE;
    } else if (out[0] != SC_NIP44_VERSION) {
        st = SC_ERR_VERSION;
    } else {
        st = open_raw(ctx, out, n, ck, &off, &len);
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, n);
        return st;
    }
    memmove(out, out + off, len);
    sc_mem_wipe(out + len, n - len);
    *out_len = len;
    return SC_OK;
}
