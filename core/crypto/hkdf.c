/* HKDF-SHA256 (RFC 5869), written once: Extract is one call of the backend's HMAC; Expand is
 * HMAC over the backend's SHA-256 with the key schedule computed once for all its blocks
 * (sc_dispatch_hmac_keyed_*: two compressions per block fewer than an HMAC call per block,
 * 10 instead of 14 for NIP-44's 76 bytes). */
#include <softchat/backend.h>
#include <softchat/crypto.h>
#include <softchat/ctx.h>
#include <softchat/mem.h>

#include <string.h>

#include "crypto/dispatch.h"

sc_status sc_crypto_hkdf_extract(sc_ctx *ctx, uint8_t prk[SC_SHA256_BYTES], const uint8_t *salt,
                          size_t salt_len, const uint8_t *ikm, size_t ikm_len)
{
    static const uint8_t zero_salt[SC_SHA256_BYTES] = {0};
    sc_iov part;

    if (prk == NULL) {
        return SC_ERR_ARG;
    }
    if ((salt == NULL && salt_len != 0) || (ikm == NULL && ikm_len != 0)) {
        sc_mem_wipe(prk, SC_SHA256_BYTES);
        return SC_ERR_ARG;
    }
    if (salt_len == 0) {
        salt = zero_salt;
        salt_len = sizeof zero_salt;
    }
    part.data = ikm;
    part.len = ikm_len;
    return sc_crypto_hmac_sha256(ctx, prk, salt, salt_len, &part, 1);
}

/* Infos up to this long (NIP-44's is 32 bytes) are MACed as one contiguous message. */
#define SHORT_INFO 64u

sc_status sc_crypto_hkdf_expand(sc_ctx *ctx, uint8_t *okm, size_t okm_len, const uint8_t *prk,
                         size_t prk_len, const uint8_t *info, size_t info_len)
{
    uint8_t t[SC_SHA256_BYTES], prev[SC_SHA256_BYTES], msg[SC_SHA256_BYTES + SHORT_INFO + 1];
    const sc_backend *b;
    sc_hmac_keyed k;
    uint8_t counter;
    size_t done = 0;
    sc_status st;

    if (okm == NULL) {
        return SC_ERR_ARG;
    }
    if (okm_len == 0 || okm_len > 255 * SC_SHA256_BYTES) {
        return SC_ERR_ARG; /* the length itself is wrong: okm is left untouched */
    }
    if (prk == NULL || (info == NULL && info_len != 0) || prk_len < SC_SHA256_BYTES) {
        sc_mem_wipe(okm, okm_len);
        return SC_ERR_ARG;
    }
    /* HKDF is an HMAC construction: a backend without HMAC has none, whatever it is built on */
    b = sc_ctx_backend(ctx);
    if (b != NULL && sc_backend_has(b, SC_CAP_HMAC_SHA256, NULL) != SC_OK) {
        sc_mem_wipe(okm, okm_len);
        return SC_ERR_UNSUPPORTED;
    }
    st = sc_dispatch_hmac_keyed_init(ctx, &k, prk, prk_len);
    for (counter = 1; st == SC_OK && done < okm_len; counter++) {
        sc_iov parts[3];
        size_t take;

        if (info_len <= SHORT_INFO) {
            /* one update instead of three: T(i-1) || info || i gathered in msg */
            size_t at = (counter == 1) ? 0 : sizeof prev;

            memcpy(msg, prev, at);
            if (info_len != 0) {
                memcpy(msg + at, info, info_len); /* info may be NULL when empty */
            }
            msg[at + info_len] = counter;
            parts[0].data = msg;
            parts[0].len = at + info_len + 1;
            st = sc_dispatch_hmac_keyed_mac(ctx, &k, t, parts, 1);
        } else {
            parts[0].data = prev;
            parts[0].len = (counter == 1) ? 0 : sizeof prev;
            parts[1].data = info;
            parts[1].len = info_len;
            parts[2].data = &counter;
            parts[2].len = 1;
            st = sc_dispatch_hmac_keyed_mac(ctx, &k, t, parts, 3);
        }
        if (st != SC_OK) {
            break;
        }
        take = okm_len - done < sizeof t ? okm_len - done : sizeof t;
        memcpy(okm + done, t, take);
        memcpy(prev, t, sizeof t);
        done += take;
    }
    if (st != SC_OK) {
        sc_mem_wipe(okm, okm_len);
    }
    sc_dispatch_hmac_keyed_wipe(&k);
    sc_mem_wipe(t, sizeof t);
    sc_mem_wipe(prev, sizeof prev);
    sc_mem_wipe(msg, sizeof msg);
    return st;
}
