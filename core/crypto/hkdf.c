/* HKDF-SHA256 (RFC 5869), written once over the backend's HMAC. */
#include <softchat/crypto.h>
#include <softchat/mem.h>

#include <string.h>

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

sc_status sc_crypto_hkdf_expand(sc_ctx *ctx, uint8_t *okm, size_t okm_len, const uint8_t *prk,
                         size_t prk_len, const uint8_t *info, size_t info_len)
{
    uint8_t t[SC_SHA256_BYTES], prev[SC_SHA256_BYTES];
    uint8_t counter;
    size_t done = 0;
    sc_status st = SC_OK;

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
    for (counter = 1; done < okm_len; counter++) {
        sc_iov parts[3];
        size_t take;

        parts[0].data = prev;
        parts[0].len = (counter == 1) ? 0 : sizeof prev;
        parts[1].data = info;
        parts[1].len = info_len;
        parts[2].data = &counter;
        parts[2].len = 1;
        st = sc_crypto_hmac_sha256(ctx, t, prk, prk_len, parts, 3);
        if (st != SC_OK) {
            sc_mem_wipe(okm, okm_len);
            goto out;
        }
        take = okm_len - done < sizeof t ? okm_len - done : sizeof t;
        memcpy(okm + done, t, take);
        memcpy(prev, t, sizeof t);
        done += take;
    }
out:
    sc_mem_wipe(t, sizeof t);
    sc_mem_wipe(prev, sizeof prev);
    return st;
}
