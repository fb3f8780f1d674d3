/* Where core meets the backend table: the one file that calls a group's functions. The
 * public primitives of crypto.h (argument checks, capability checks and output wiping on
 * failure live here once, so every backend gets them; every failure path zeroes the outputs
 * it was given), the curve and streaming-AEAD calls of core/, and the groups' setup and
 * teardown. */
#include <softchat/crypto.h>
#include <softchat/mem.h>

#include "crypto/backend.h"
#include "crypto/dispatch.h"
#include "ctx/ctx_internal.h"
#include "util/range.h"

#include <stddef.h>
#include <string.h>

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

/* ---- HMAC-SHA256 key schedule over the hash group --------------------------------------- */

void sc_dispatch_hmac_keyed_wipe(sc_hmac_keyed *k)
{
    size_t used = k->used <= sizeof k->inner ? k->used : sizeof k->inner;

    /* a schedule that was never made has used 0: wipe it whole */
    sc_mem_wipe(&k->inner, used != 0 ? used : sizeof k->inner);
    sc_mem_wipe(&k->outer, used != 0 ? used : sizeof k->outer);
    k->used = 0;
}

sc_status sc_dispatch_hmac_keyed_init(sc_ctx *ctx, sc_hmac_keyed *k, const uint8_t *key,
                                      size_t key_len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st;
    const sc_backend_hash *h = hash_of(ctx, c, &st);
    sc_bstate *hs;
    uint8_t block[64];
    size_t i;

    k->used = 0;
    if (h == NULL) {
        sc_dispatch_hmac_keyed_wipe(k);
        return st;
    }
    hs = c->st[SC_GROUP_HASH];
    memset(block, 0, sizeof block);
    if (key_len > sizeof block) {
        st = h->sha256(hs, block, key, key_len);
    } else if (key_len != 0) {
        memcpy(block, key, key_len);
    }
    for (i = 0; i < sizeof block; i++) {
        block[i] ^= 0x36;
    }
    if (st == SC_OK) {
        st = h->init(hs, &k->inner);
    }
    if (st == SC_OK) {
        st = h->update(hs, &k->inner, block, sizeof block);
    }
    for (i = 0; i < sizeof block; i++) {
        block[i] ^= 0x36 ^ 0x5c;
    }
    if (st == SC_OK) {
        st = h->init(hs, &k->outer);
    }
    if (st == SC_OK) {
        st = h->update(hs, &k->outer, block, sizeof block);
    }
    sc_mem_wipe(block, sizeof block);
    k->used = h->state_size;
    if (st != SC_OK) {
        sc_dispatch_hmac_keyed_wipe(k);
    }
    return st;
}

/* The working memory of one keyed MAC: the inner digest first, so that one wipe covers it and
 * the part of the state the group uses. */
typedef struct keyed_work {
    uint8_t inner[SC_SHA256_BYTES];
    sc_sha256_state s;
} keyed_work;

sc_status sc_dispatch_hmac_keyed_mac(sc_ctx *ctx, const sc_hmac_keyed *k,
                                     uint8_t out[SC_SHA256_BYTES], const sc_iov *parts,
                                     size_t n_parts)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const sc_backend_hash *h;
    keyed_work w;
    sc_bstate *hs;
    size_t i, used = k->used;
    sc_status st;

    h = hash_of(ctx, c, &st);
    if (h == NULL || used == 0 || used > sizeof w.s) {
        sc_mem_wipe(out, SC_SHA256_BYTES);
        return h == NULL ? st : SC_ERR_STATE;
    }
    hs = c->st[SC_GROUP_HASH];
    memcpy(&w.s, &k->inner, used);
    for (i = 0; st == SC_OK && i < n_parts; i++) {
        if (parts[i].len != 0) {
            st = h->update(hs, &w.s, parts[i].data, parts[i].len);
        }
    }
    if (st == SC_OK) {
        st = h->final(hs, &w.s, w.inner);
    }
    if (st == SC_OK) {
        memcpy(&w.s, &k->outer, used);
        st = h->update(hs, &w.s, w.inner, sizeof w.inner);
    }
    if (st == SC_OK) {
        st = h->final(hs, &w.s, out);
    }
    sc_mem_wipe(&w, offsetof(keyed_work, s) + used);
    if (st != SC_OK) {
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
                                   const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                   size_t aad_len, const uint8_t *pt, size_t len)
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

sc_status sc_crypto_aes256gcm_open(sc_ctx *ctx, uint8_t *pt, const uint8_t key[32],
                                   const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                   size_t aad_len, const uint8_t *ct, size_t len,
                                   const uint8_t tag[16])
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

/* ---- xaead: XChaCha20-Poly1305 --------------------------------------------------------- */

/* The RFC 8439 AEAD counts 64-byte blocks from 1 with a 32-bit counter. */
#define XAEAD_MAX_BYTES ((((uint64_t)1) << 38) - 64u)

/* The xaead group of c (read from the table: the context keeps no pointer to it). */
static const sc_backend_xaead *xaead_of(const sc_ctx_impl *c)
{
    return sc_backend_group_ptr(c->b, SC_GROUP_XAEAD);
}

/* The checks seal and open share: SC_OK, or the status to return. */
static sc_status xaead_args(const sc_ctx *ctx, const sc_ctx_impl *c, const uint8_t *out,
                            const uint8_t *tag, const uint8_t *key, const uint8_t *nonce,
                            const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len)
{
    if (key == NULL || nonce == NULL || tag == NULL || (aad == NULL && aad_len != 0) ||
        ((out == NULL || in == NULL) && len != 0)) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap_partial(out, in, len)) {
        return SC_ERR_OVERLAP;
    }
    if ((uint64_t)len > XAEAD_MAX_BYTES) {
        return SC_ERR_TOO_LARGE;
    }
    if (c == NULL) {
        return sc_ctx_error(ctx);
    }
    return xaead_of(c) != NULL ? SC_OK : SC_ERR_UNSUPPORTED;
}

sc_status sc_crypto_xchacha20poly1305_seal(sc_ctx *ctx, uint8_t *ct, uint8_t tag[16],
                                           const uint8_t key[32], const uint8_t nonce[24],
                                           const uint8_t *aad, size_t aad_len, const uint8_t *pt,
                                           size_t len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st = xaead_args(ctx, c, ct, tag, key, nonce, aad, aad_len, pt, len);

    if (st == SC_OK) {
        st = xaead_of(c)->seal(c->st[SC_GROUP_XAEAD], ct, tag, key, nonce, aad, aad_len, pt, len);
    }
    if (st != SC_OK) {
        if (tag != NULL) {
            sc_mem_wipe(tag, SC_POLY1305_TAG_BYTES);
        }
        /* a length over the limit names no buffer that could be wiped */
        if (ct != NULL && ct != pt && !sc_range_overlap_partial(ct, pt, len) &&
            st != SC_ERR_TOO_LARGE) {
            sc_mem_wipe(ct, len);
        }
    }
    return st;
}

sc_status sc_crypto_xchacha20poly1305_open(sc_ctx *ctx, uint8_t *pt, const uint8_t key[32],
                                           const uint8_t nonce[24], const uint8_t *aad,
                                           size_t aad_len, const uint8_t *ct, size_t len,
                                           const uint8_t tag[16])
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    sc_status st = xaead_args(ctx, c, pt, tag, key, nonce, aad, aad_len, ct, len);

    if (st == SC_OK) {
        st = xaead_of(c)->open(c->st[SC_GROUP_XAEAD], pt, key, nonce, aad, aad_len, ct, len, tag);
    }
    /* never release unauthenticated plaintext; in-place, this zeroes the ciphertext too (a
     * length over the limit names no buffer that could be wiped) */
    if (st != SC_OK && pt != NULL && !sc_range_overlap_partial(pt, ct, len) &&
        st != SC_ERR_TOO_LARGE) {
        sc_mem_wipe(pt, len);
    }
    return st;
}

/* ---- scrypt ---------------------------------------------------------------------------- */

/* RFC 7914: dkLen <= (2^32 - 1) * hLen, and r * p < 2^30. */
#define SCRYPT_OUT_MAX (((((uint64_t)1) << 32) - 1u) * 32u)
#define SCRYPT_RP_LIMIT (((uint64_t)1) << 30)

uint64_t sc_crypto_scrypt_memory(unsigned log_n, uint32_t r, uint32_t p)
{
    uint64_t blocks;

    /* 128 * r bytes per block: N of them (V), p (B) and 2 (X and Y) */
    if (log_n < 1 || log_n > 62 || r == 0 || p == 0 ||
        (uint64_t)r * (uint64_t)p >= SCRYPT_RP_LIMIT) {
        return 0;
    }
    blocks = (((uint64_t)1) << log_n) + (uint64_t)p + 2u;
    if (blocks > UINT64_MAX / 128u / (uint64_t)r) {
        return 0;
    }
    return blocks * 128u * (uint64_t)r;
}

sc_status sc_crypto_scrypt(sc_ctx *ctx, uint8_t *out, size_t out_len, const uint8_t *password,
                           size_t password_len, const uint8_t *salt, size_t salt_len,
                           unsigned log_n, uint32_t r, uint32_t p)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const sc_backend_scrypt *k;
    uint64_t mem;
    sc_status st;

    if (out == NULL || out_len == 0) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, out_len, password, password_len) ||
        sc_range_overlap(out, out_len, salt, salt_len)) {
        return SC_ERR_OVERLAP; /* out is left alone: it holds the caller's input */
    }
    mem = sc_crypto_scrypt_memory(log_n, r, p);
    if ((password == NULL && password_len != 0) || (salt == NULL && salt_len != 0) || r == 0 ||
        p == 0) {
        st = SC_ERR_ARG;
    } else if ((uint64_t)out_len > SCRYPT_OUT_MAX) {
        st = SC_ERR_TOO_LARGE;
    } else if (mem == 0 || mem > SC_SCRYPT_MEMORY_MAX || mem > (uint64_t)SIZE_MAX) {
        st = SC_ERR_SCRYPT_COST;
    } else if (c == NULL) {
        st = sc_ctx_error(ctx);
    } else if ((k = sc_backend_group_ptr(c->b, SC_GROUP_SCRYPT)) == NULL) {
        st = SC_ERR_UNSUPPORTED;
    } else {
        st = k->scrypt(NULL, out, out_len, password, password_len, salt, salt_len, log_n, r, p);
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, out_len);
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

/* ---- setup and teardown ---------------------------------------------------------------- */

/* Sets up one group (a NULL setup means stateless), as its declared size allows. */
#define SETUP_GROUP(type, grp, idx)                                                                \
    do {                                                                                           \
        sc_status (*up_)(sc_bstate **) = c->grp != NULL ? SC_GROUP_FN(type, c->grp, setup) : NULL; \
        if (up_ != NULL) {                                                                         \
            st = up_(&c->st[idx]);                                                                 \
            if (st != SC_OK) {                                                                     \
                goto fail;                                                                         \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define TEARDOWN_GROUP(type, grp, idx)                                                             \
    do {                                                                                           \
        void (*down_)(sc_bstate *) = c->grp != NULL ? SC_GROUP_FN(type, c->grp, teardown) : NULL;  \
        if (down_ != NULL && c->st[idx] != NULL) {                                                 \
            down_(c->st[idx]);                                                                     \
            c->st[idx] = NULL;                                                                     \
        }                                                                                          \
    } while (0)

sc_status sc_dispatch_setup(sc_ctx *ctx, sc_ctx_impl *c)
{
    sc_status (*curve_up)(sc_bstate **, const uint8_t *);
    sc_status (*xaead_up)(sc_bstate **);
    uint8_t seed[SC_CURVE_SEED_BYTES];
    sc_status st;

    SETUP_GROUP(sc_backend_rng, rng, SC_GROUP_RNG);
    SETUP_GROUP(sc_backend_hash, hash, SC_GROUP_HASH);
    SETUP_GROUP(sc_backend_mac, mac, SC_GROUP_MAC);
    SETUP_GROUP(sc_backend_stream, stream, SC_GROUP_STREAM);
    SETUP_GROUP(sc_backend_aead, aead, SC_GROUP_AEAD);
    xaead_up = xaead_of(c) != NULL ? SC_GROUP_FN(sc_backend_xaead, xaead_of(c), setup) : NULL;
    if (xaead_up != NULL) {
        st = xaead_up(&c->st[SC_GROUP_XAEAD]);
        if (st != SC_OK) {
            goto fail;
        }
    }
    curve_up = c->curve != NULL ? SC_GROUP_FN(sc_backend_curve, c->curve, setup) : NULL;
    if (curve_up != NULL) {
        /* the curve context is blinded with fresh randomness from this context's RNG */
        c->magic = SC_CTX_MAGIC; /* sc_crypto_rng_fill accepts ctx from here on */
        st = sc_crypto_rng_fill(ctx, seed, sizeof seed);
        if (st == SC_OK) {
            st = curve_up(&c->st[SC_GROUP_CURVE], c->rng != NULL ? seed : NULL);
        } else if (st == SC_ERR_UNSUPPORTED) {
            st = curve_up(&c->st[SC_GROUP_CURVE], NULL);
        }
        sc_mem_wipe(seed, sizeof seed);
        if (st != SC_OK) {
            goto fail;
        }
    }
    return SC_OK;

fail:
    sc_dispatch_teardown(c);
    return st;
}

void sc_dispatch_teardown(sc_ctx_impl *c)
{
    void (*xaead_down)(sc_bstate *) =
        xaead_of(c) != NULL ? SC_GROUP_FN(sc_backend_xaead, xaead_of(c), teardown) : NULL;

    if ((c->flags & SC_CTXF_AEAD_BUSY) != 0 && c->aead != NULL) {
        c->aead->abort(c->st[SC_GROUP_AEAD]);
        c->flags &= ~SC_CTXF_AEAD_BUSY;
    }
    TEARDOWN_GROUP(sc_backend_curve, curve, SC_GROUP_CURVE);
    if (xaead_down != NULL && c->st[SC_GROUP_XAEAD] != NULL) {
        xaead_down(c->st[SC_GROUP_XAEAD]);
        c->st[SC_GROUP_XAEAD] = NULL;
    }
    TEARDOWN_GROUP(sc_backend_aead, aead, SC_GROUP_AEAD);
    TEARDOWN_GROUP(sc_backend_stream, stream, SC_GROUP_STREAM);
    TEARDOWN_GROUP(sc_backend_mac, mac, SC_GROUP_MAC);
    TEARDOWN_GROUP(sc_backend_hash, hash, SC_GROUP_HASH);
    TEARDOWN_GROUP(sc_backend_rng, rng, SC_GROUP_RNG);
}

/* ---- curve ----------------------------------------------------------------------------- */

/* The curve group of ctx, or NULL with *st set to the reason. */
static const sc_backend_curve *curve_of(sc_ctx *ctx, sc_ctx_impl **c, sc_status *st)
{
    *c = sc_ctx_impl_get(ctx);
    *st = (*c == NULL) ? sc_ctx_error(ctx) : ((*c)->curve == NULL) ? SC_ERR_UNSUPPORTED : SC_OK;
    return *st == SC_OK ? (*c)->curve : NULL;
}

sc_status sc_dispatch_curve_keypair(sc_ctx *ctx, sc_curve_keypair *kp, uint8_t pub[SC_PUBKEY_BYTES],
                                    const uint8_t sec[SC_SECKEY_BYTES])
{
    sc_ctx_impl *c;
    sc_status st;
    const sc_backend_curve *k = curve_of(ctx, &c, &st);

    return k != NULL ? k->keypair(c->st[SC_GROUP_CURVE], kp, pub, sec) : st;
}

sc_status sc_dispatch_curve_sign(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES], const sc_curve_keypair *kp,
                                 const uint8_t *msg, size_t msg_len,
                                 const uint8_t aux[SC_AUX_RAND_BYTES])
{
    sc_ctx_impl *c;
    sc_status st;
    const sc_backend_curve *k = curve_of(ctx, &c, &st);

    return k != NULL ? k->sign(c->st[SC_GROUP_CURVE], sig, kp, msg, msg_len, aux) : st;
}

sc_status sc_dispatch_curve_verify(sc_ctx *ctx, const uint8_t sig[SC_SIG_BYTES], const uint8_t *msg,
                                   size_t msg_len, const uint8_t pub[SC_PUBKEY_BYTES])
{
    sc_ctx_impl *c;
    sc_status st;
    const sc_backend_curve *k = curve_of(ctx, &c, &st);

    return k != NULL ? k->verify(c->st[SC_GROUP_CURVE], sig, msg, msg_len, pub) : st;
}

sc_status sc_dispatch_curve_ecdh_x(sc_ctx *ctx, uint8_t x[SC_ECDH_X_BYTES],
                                   const uint8_t sec[SC_SECKEY_BYTES],
                                   const uint8_t pub[SC_PUBKEY_BYTES])
{
    sc_ctx_impl *c;
    sc_status st;
    const sc_backend_curve *k = curve_of(ctx, &c, &st);

    return k != NULL ? k->ecdh_x(c->st[SC_GROUP_CURVE], x, sec, pub) : st;
}

/* ---- aead streaming -------------------------------------------------------------------- */

sc_status sc_dispatch_aead_probe(const sc_ctx_impl *c, sc_aead_mode mode, size_t iv_len,
                                 const char **why)
{
    return c->aead != NULL ? c->aead->probe(mode, iv_len, why) : SC_ERR_UNSUPPORTED;
}

sc_status sc_dispatch_aead_start(sc_ctx_impl *c, int decrypt,
                                 const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv,
                                 size_t iv_len)
{
    return c->aead != NULL ? c->aead->start(c->st[SC_GROUP_AEAD], decrypt, key, iv, iv_len, NULL, 0)
                           : SC_ERR_UNSUPPORTED;
}

sc_status sc_dispatch_aead_update(sc_ctx_impl *c, uint8_t *out, const uint8_t *in, size_t len)
{
    return c->aead != NULL ? c->aead->update(c->st[SC_GROUP_AEAD], out, in, len)
                           : SC_ERR_UNSUPPORTED;
}

sc_status sc_dispatch_aead_final(sc_ctx_impl *c, int decrypt, uint8_t tag[SC_AES256GCM_TAG_BYTES])
{
    return c->aead != NULL ? c->aead->final(c->st[SC_GROUP_AEAD], decrypt, tag)
                           : SC_ERR_UNSUPPORTED;
}

void sc_dispatch_aead_abort(sc_ctx_impl *c)
{
    if (c->aead != NULL) {
        c->aead->abort(c->st[SC_GROUP_AEAD]);
    }
}
