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
    struct {
        uint8_t t[SC_SHA256_BYTES];                    /* the last block, when partial */
        uint8_t msg[SC_SHA256_BYTES + SHORT_INFO + 1]; /* T(i-1) || info || i */
    } w;
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
        /* T(i-1) is the block before in okm (none for T(1)): every block but the last is whole */
        size_t prev_len = done == 0 ? 0 : SC_SHA256_BYTES;
        const uint8_t *prev = okm + done - prev_len;
        size_t take = okm_len - done < SC_SHA256_BYTES ? okm_len - done : SC_SHA256_BYTES;
        uint8_t *dst = take == SC_SHA256_BYTES ? okm + done : w.t;
        sc_iov parts[3];

        if (info_len <= SHORT_INFO) {
            /* one update instead of three: T(i-1) || info || i gathered in msg */
            memcpy(w.msg, prev, prev_len);
            if (info_len != 0) {
                memcpy(w.msg + prev_len, info, info_len); /* info may be NULL when empty */
            }
            w.msg[prev_len + info_len] = counter;
            parts[0].data = w.msg;
            parts[0].len = prev_len + info_len + 1;
            st = sc_dispatch_hmac_keyed_mac(ctx, &k, dst, parts, 1);
        } else {
            parts[0].data = prev;
            parts[0].len = prev_len;
            parts[1].data = info;
            parts[1].len = info_len;
            parts[2].data = &counter;
            parts[2].len = 1;
            st = sc_dispatch_hmac_keyed_mac(ctx, &k, dst, parts, 3);
        }
        if (st == SC_OK && dst == w.t) {
            memcpy(okm + done, w.t, take);
        }
        done += take;
    }
    if (st != SC_OK) {
        sc_mem_wipe(okm, okm_len);
    }
    sc_dispatch_hmac_keyed_wipe(&k);
    sc_mem_wipe(&w, sizeof w);
    return st;
}
