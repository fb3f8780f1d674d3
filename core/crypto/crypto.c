/* Public dispatch to the bound backend's primitives: argument checks, capability checks, and
 * output wiping on failure live here once, so every backend gets them. Every failure path,
 * argument and state errors included, zeroes the outputs it was given. */
#include <softchat/crypto.h>
#include <softchat/mem.h>

#include "ctx/ctx_internal.h"
#include "util/range.h"

/* The hash group of ctx, or NULL with *st set to the reason. */
static const sc_backend_hash *hash_of(const sc_ctx *ctx, sc_ctx_impl *c, sc_status *st)
{
    *st = (c == NULL) ? sc_ctx_error(ctx) : (c->hash == NULL) ? SC_ERR_UNSUPPORTED : SC_OK;
    return *st == SC_OK ? c->hash : NULL;
}

sc_status sc_crypto_sha256(sc_ctx *ctx, uint8_t out[SC_SHA256_BYTES], const uint8_t *in, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const sc_backend_hash *h;
    sc_status st = SC_ERR_ARG;

    if (out == NULL) {
        return SC_ERR_ARG;
    }
    if (in != NULL || len == 0) {
        h = hash_of(ctx, c, &st);
        if (h != NULL) {
            st = h->sha256(c->st[SC_GROUP_HASH], out, in, len);
        }
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, SC_SHA256_BYTES);
    }
    return st;
}

sc_status sc_crypto_sha256_init(sc_ctx *ctx, sc_sha256_state *s)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const sc_backend_hash *h;
    sc_status st;

    if (s == NULL) {
        return SC_ERR_ARG;
    }
    h = hash_of(ctx, c, &st);
    if (h != NULL) {
        st = h->init(c->st[SC_GROUP_HASH], s);
    }
    if (st != SC_OK) {
        sc_mem_wipe(s, sizeof *s);
    }
    return st;
}

sc_status sc_crypto_sha256_update(sc_ctx *ctx, sc_sha256_state *s, const uint8_t *in, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const sc_backend_hash *h;
    sc_status st = SC_ERR_ARG;

    if (s == NULL) {
        return SC_ERR_ARG;
    }
    if (in != NULL || len == 0) {
        h = hash_of(ctx, c, &st);
        if (h != NULL) {
            st = h->update(c->st[SC_GROUP_HASH], s, in, len);
        }
    }
    if (st != SC_OK) {
        sc_mem_wipe(s, sizeof *s);
    }
    return st;
}

sc_status sc_crypto_sha256_final(sc_ctx *ctx, sc_sha256_state *s, uint8_t out[SC_SHA256_BYTES])
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const sc_backend_hash *h;
    sc_status st = SC_ERR_ARG;

    if (s != NULL && out != NULL) {
        h = hash_of(ctx, c, &st);
        if (h != NULL) {
            st = h->final(c->st[SC_GROUP_HASH], s, out);
        }
    }
    if (s != NULL) {
        sc_mem_wipe(s, sizeof *s);
    }
    if (st != SC_OK && out != NULL) {
        sc_mem_wipe(out, SC_SHA256_BYTES);
    }
    return st;
}

static int iov_ok(const sc_iov *parts, size_t n_parts)
{
    size_t i;

    if (parts == NULL && n_parts != 0) {
        return 0;
    }
    for (i = 0; i < n_parts; i++) {
        if (parts[i].data == NULL && parts[i].len != 0) {
            return 0;
        }
    }
    return 1;
}

sc_status sc_crypto_hmac_sha256(sc_ctx *ctx, uint8_t out[SC_HMAC_SHA256_BYTES], const uint8_t *key,
                         size_t key_len, const sc_iov *parts, size_t n_parts)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st = SC_ERR_ARG;

    if (out == NULL) {
        return SC_ERR_ARG;
    }
    if ((key != NULL || key_len == 0) && iov_ok(parts, n_parts)) {
        st = (c == NULL) ? sc_ctx_error(ctx) : (c->mac == NULL) ? SC_ERR_UNSUPPORTED : SC_OK;
        if (st == SC_OK) {
            st = c->mac->hmac_sha256(c->st[SC_GROUP_MAC], out, key, key_len, parts, n_parts);
        }
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, SC_HMAC_SHA256_BYTES);
    }
    return st;
}

sc_status sc_crypto_chacha20_xor(sc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len,
                          const uint8_t key[32], const uint8_t nonce[12], uint32_t counter)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    uint64_t blocks = (uint64_t)(len / 64) + (len % 64 != 0);
    sc_status st;

    if (key == NULL || nonce == NULL || ((out == NULL || in == NULL) && len != 0)) {
        st = SC_ERR_ARG;
    } else if (sc_range_overlap_partial(out, in, len)) {
        st = SC_ERR_OVERLAP;
    } else if ((uint64_t)counter + blocks > ((uint64_t)1 << 32)) {
        st = SC_ERR_TOO_LARGE; /* the 32-bit block counter would wrap */
    } else if (c == NULL) {
        st = sc_ctx_error(ctx);
    } else if (c->stream == NULL) {
        st = SC_ERR_UNSUPPORTED;
    } else if (len == 0) {
        return SC_OK;
    } else {
        st = c->stream->chacha20_xor(c->st[SC_GROUP_STREAM], out, in, len, key, nonce, counter);
    }
    /* out is zeroed only when it does not alias the input the caller still owns */
    if (st != SC_OK && out != NULL && out != in && !sc_range_overlap_partial(out, in, len)) {
        sc_mem_wipe(out, len);
    }
    return st;
}

static sc_status aead_ready(const sc_ctx *ctx, sc_ctx_impl *c, size_t iv_len)
{
    const char *why = NULL;

    if (c == NULL) {
        return sc_ctx_error(ctx);
    }
    if (c->aead == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    return c->aead->probe(SC_AEAD_ONESHOT, iv_len, &why);
}

sc_status sc_crypto_aes256gcm_seal(sc_ctx *ctx, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                            const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                            const uint8_t *pt, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st = SC_ERR_ARG;

    if (key != NULL && iv != NULL && iv_len != 0 && (aad != NULL || aad_len == 0) &&
        ((ct != NULL && pt != NULL) || len == 0) && tag != NULL) {
        st = sc_range_overlap_partial(ct, pt, len) ? SC_ERR_OVERLAP : aead_ready(ctx, c, iv_len);
    }
    if (st == SC_OK) {
        st = c->aead->seal(c->st[SC_GROUP_AEAD], ct, tag, key, iv, iv_len, aad, aad_len, pt, len);
    }
    if (st != SC_OK) {
        if (tag != NULL) {
            sc_mem_wipe(tag, SC_AES256GCM_TAG_BYTES);
        }
        if (ct != NULL && ct != pt && !sc_range_overlap_partial(ct, pt, len)) {
            sc_mem_wipe(ct, len);
        }
    }
    return st;
}

sc_status sc_crypto_aes256gcm_open(sc_ctx *ctx, uint8_t *pt, const uint8_t key[32], const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                            size_t len, const uint8_t tag[16])
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st = SC_ERR_ARG;

    if (key != NULL && iv != NULL && iv_len != 0 && (aad != NULL || aad_len == 0) &&
        ((ct != NULL && pt != NULL) || len == 0) && tag != NULL) {
        st = sc_range_overlap_partial(pt, ct, len) ? SC_ERR_OVERLAP : aead_ready(ctx, c, iv_len);
    }
    if (st == SC_OK) {
        st = c->aead->open(c->st[SC_GROUP_AEAD], pt, key, iv, iv_len, aad, aad_len, ct, len, tag);
    }
    /* never release unauthenticated plaintext; in-place, this zeroes the ciphertext too */
    if (st != SC_OK && pt != NULL && !sc_range_overlap_partial(pt, ct, len)) {
        sc_mem_wipe(pt, len);
    }
    return st;
}

sc_status sc_crypto_rng_fill(sc_ctx *ctx, uint8_t *out, size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;

    if (out == NULL && len != 0) {
        return SC_ERR_ARG;
    }
    if (c == NULL) {
        st = sc_ctx_error(ctx);
    } else if (c->rng == NULL) {
        st = SC_ERR_UNSUPPORTED;
    } else if (len == 0) {
        return SC_OK;
    } else if (c->rng->fill(c->st[SC_GROUP_RNG], out, len) != SC_OK) {
        st = SC_ERR_RNG;
    } else {
        return SC_OK;
    }
    sc_mem_wipe(out, len);
    return st;
}
