/* Public dispatch to the bound backend's primitives: argument checks, capability checks, and
 * output wiping on failure live here once, so every backend gets them. */
#include <softchat/crypto.h>
#include <softchat/encoding.h>

#include "ctx_internal.h"

sc_status sc_sha256(sc_ctx *ctx, uint8_t out[SC_SHA256_BYTES], const uint8_t *in, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (out == NULL || (in == NULL && len != 0)) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->hash == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    st = c->hash->sha256(c->st[SC_GROUP_HASH], out, in, len);
    if (st != SC_OK) {
        sc_memzero(out, SC_SHA256_BYTES);
    }
    return st;
}

sc_status sc_sha256_init(sc_ctx *ctx, sc_sha256_state *s)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (s == NULL) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->hash == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    st = c->hash->init(c->st[SC_GROUP_HASH], s);
    if (st != SC_OK) {
        sc_memzero(s, sizeof *s);
    }
    return st;
}

sc_status sc_sha256_update(sc_ctx *ctx, sc_sha256_state *s, const uint8_t *in, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (s == NULL || (in == NULL && len != 0)) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->hash == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    st = c->hash->update(c->st[SC_GROUP_HASH], s, in, len);
    if (st != SC_OK) {
        sc_memzero(s, sizeof *s);
    }
    return st;
}

sc_status sc_sha256_final(sc_ctx *ctx, sc_sha256_state *s, uint8_t out[SC_SHA256_BYTES])
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (s == NULL || out == NULL) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->hash == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    st = c->hash->final(c->st[SC_GROUP_HASH], s, out);
    sc_memzero(s, c->hash->state_size);
    if (st != SC_OK) {
        sc_memzero(out, SC_SHA256_BYTES);
    }
    return st;
}

sc_status sc_hmac_sha256(sc_ctx *ctx, uint8_t out[SC_HMAC_SHA256_BYTES], const uint8_t *key,
                         size_t key_len, const sc_iov *parts, size_t n_parts)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;
    size_t i;

    if (out == NULL || (key == NULL && key_len != 0) || (parts == NULL && n_parts != 0)) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n_parts; i++) {
        if (parts[i].data == NULL && parts[i].len != 0) {
            return SC_ERR_ARG;
        }
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->mac == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    st = c->mac->hmac_sha256(c->st[SC_GROUP_MAC], out, key, key_len, parts, n_parts);
    if (st != SC_OK) {
        sc_memzero(out, SC_HMAC_SHA256_BYTES);
    }
    return st;
}

/* Partial overlap of two ranges (exact aliasing is fine). */
static int overlaps_partially(const uint8_t *a, const uint8_t *b, size_t len)
{
    if (a == b || len == 0) {
        return 0;
    }
    return (a < b) ? (size_t)(b - a) < len : (size_t)(a - b) < len;
}

sc_status sc_chacha20_xor(sc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len,
                          const uint8_t key[32], const uint8_t nonce[12], uint32_t counter)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    uint64_t blocks;

    if (key == NULL || nonce == NULL || ((out == NULL || in == NULL) && len != 0) ||
        overlaps_partially(out, in, len)) {
        return SC_ERR_ARG;
    }
    blocks = (uint64_t)(len / 64) + (len % 64 != 0);
    if ((uint64_t)counter + blocks > ((uint64_t)1 << 32)) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->stream == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    if (len == 0) {
        return SC_OK;
    }
    return c->stream->chacha20_xor(c->st[SC_GROUP_STREAM], out, in, len, key, nonce, counter);
}

static sc_status aead_ready(sc_ctx_impl *c, size_t iv_len)
{
    const char *why = NULL;

    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->aead == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    if (iv_len == 0) {
        return SC_ERR_ARG;
    }
    return c->aead->probe(SC_AEAD_ONESHOT, iv_len, &why);
}

sc_status sc_aes256gcm_seal(sc_ctx *ctx, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                            const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                            const uint8_t *pt, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (tag == NULL || key == NULL || iv == NULL || (aad == NULL && aad_len != 0) ||
        ((ct == NULL || pt == NULL) && len != 0) || overlaps_partially(ct, pt, len)) {
        return SC_ERR_ARG;
    }
    st = aead_ready(c, iv_len);
    if (st == SC_OK) {
        st = c->aead->seal(c->st[SC_GROUP_AEAD], ct, tag, key, iv, iv_len, aad, aad_len, pt, len);
    }
    if (st != SC_OK) {
        sc_memzero(tag, SC_AES256GCM_TAG_BYTES);
        if (ct != pt) {
            sc_memzero(ct, len);
        }
    }
    return st;
}

sc_status sc_aes256gcm_open(sc_ctx *ctx, uint8_t *pt, const uint8_t key[32], const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                            size_t len, const uint8_t tag[16])
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (tag == NULL || key == NULL || iv == NULL || (aad == NULL && aad_len != 0) ||
        ((ct == NULL || pt == NULL) && len != 0) || overlaps_partially(pt, ct, len)) {
        return SC_ERR_ARG;
    }
    st = aead_ready(c, iv_len);
    if (st == SC_OK) {
        st = c->aead->open(c->st[SC_GROUP_AEAD], pt, key, iv, iv_len, aad, aad_len, ct, len, tag);
    }
    if (st != SC_OK) {
        sc_memzero(pt, len);
    }
    return st;
}

sc_status sc_random(sc_ctx *ctx, uint8_t *out, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (out == NULL && len != 0) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (c->rng == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    if (len == 0) {
        return SC_OK;
    }
    st = c->rng->fill(c->st[SC_GROUP_RNG], out, len);
    if (st != SC_OK) {
        sc_memzero(out, len);
        return SC_ERR_RNG;
    }
    return SC_OK;
}
