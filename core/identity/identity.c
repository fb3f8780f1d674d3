/* Identity: a secret key with its cached x-only public key and curve keypair, in caller
 * memory; BIP-340 signing and verification, and ECDH, over the bound backend's curve group.
 * The only file of core/ that reads the secret key (core/identity/identity_internal.h). */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/identity.h>

#include <string.h>

#include "crypto/dispatch.h"
#include "identity/identity_internal.h"

#define SC_IDENTITY_MAGIC 0x53436964u /* "SCid" */

typedef struct sc_identity_impl {
    uint32_t magic;
    uint32_t reserved;
    uint8_t sec[SC_SECKEY_BYTES];
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_curve_keypair kp;
} sc_identity_impl;

typedef char sc_identity_fits[(sizeof(sc_identity_impl) <= sizeof(sc_identity)) ? 1 : -1];

size_t sc_identity_bytes(void)
{
    return sizeof(sc_identity);
}

/* The live identity behind id, or NULL if id is NULL, never imported, or erased. */
static const sc_identity_impl *impl_get(const sc_identity *id)
{
    const sc_identity_impl *i = (const sc_identity_impl *)(const void *)id;
    return (i != NULL && i->magic == SC_IDENTITY_MAGIC) ? i : NULL;
}

int sc_identity_live(const sc_identity *id)
{
    return impl_get(id) != NULL;
}

sc_status sc_identity_import(sc_ctx *ctx, sc_identity *id, const uint8_t sec[SC_SECKEY_BYTES])
{
    sc_identity_impl *i = (sc_identity_impl *)(void *)id;
    sc_status st;

    if (id == NULL) {
        return SC_ERR_ARG;
    }
    sc_mem_wipe(id, sizeof *id);
    if (sec == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_dispatch_curve_keypair(ctx, &i->kp, i->pub, sec);
    if (st != SC_OK) {
        sc_mem_wipe(id, sizeof *id);
        return st;
    }
    memcpy(i->sec, sec, SC_SECKEY_BYTES);
    i->magic = SC_IDENTITY_MAGIC;
    return SC_OK;
}

sc_status sc_identity_generate(sc_ctx *ctx, sc_identity *id)
{
    uint8_t sec[SC_SECKEY_BYTES];
    sc_status st = SC_ERR_INVALID_KEY;
    int tries;

    if (id == NULL) {
        return SC_ERR_ARG;
    }
    /* a uniform 256-bit value is out of range with probability about 2^-128 per try */
    for (tries = 0; tries < 8 && st == SC_ERR_INVALID_KEY; tries++) {
        st = sc_crypto_rng_fill(ctx, sec, sizeof sec);
        if (st == SC_OK) {
            st = sc_identity_import(ctx, id, sec);
        }
    }
    sc_mem_wipe(sec, sizeof sec);
    if (st != SC_OK) {
        sc_mem_wipe(id, sizeof *id);
        return st == SC_ERR_INVALID_KEY ? SC_ERR_RNG : st;
    }
    return SC_OK;
}

sc_status sc_identity_pubkey(uint8_t pub[SC_PUBKEY_BYTES], const sc_identity *id)
{
    const sc_identity_impl *i = impl_get(id);

    if (id == NULL || pub == NULL) {
        return SC_ERR_ARG;
    }
    if (i == NULL) {
        return SC_ERR_STATE;
    }
    memcpy(pub, i->pub, SC_PUBKEY_BYTES);
    return SC_OK;
}

sc_status sc_identity_seckey(uint8_t sec[SC_SECKEY_BYTES], const sc_identity *id)
{
    const sc_identity_impl *i = impl_get(id);

    if (id == NULL || sec == NULL) {
        return SC_ERR_ARG;
    }
    if (i == NULL) {
        return SC_ERR_STATE;
    }
    memcpy(sec, i->sec, SC_SECKEY_BYTES);
    return SC_OK;
}

void sc_identity_clear(sc_identity *id)
{
    if (id != NULL) {
        sc_mem_wipe(id, sizeof *id);
    }
}

sc_status sc_identity_sign_with_rand(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES], const sc_identity *id,
                                     const uint8_t msg[32], const uint8_t aux[32])
{
    const sc_identity_impl *i = impl_get(id);
    sc_status st;

    if (sig == NULL) {
        return SC_ERR_ARG;
    }
    if (id == NULL || msg == NULL || aux == NULL) {
        st = SC_ERR_ARG;
    } else if (i == NULL) {
        st = SC_ERR_STATE;
    } else {
        st = sc_dispatch_curve_sign(ctx, sig, &i->kp, msg, SC_SIGN_MSG_BYTES, aux);
    }
    if (st != SC_OK) {
        sc_mem_wipe(sig, SC_SIG_BYTES);
    }
    return st;
}

sc_status sc_identity_sign(sc_ctx *ctx, uint8_t sig[SC_SIG_BYTES], const sc_identity *id,
                           const uint8_t msg[32])
{
    uint8_t aux[32];
    sc_status st;

    if (sig == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_crypto_rng_fill(ctx, aux, sizeof aux);
    if (st == SC_OK) {
        st = sc_identity_sign_with_rand(ctx, sig, id, msg, aux);
    } else {
        sc_mem_wipe(sig, SC_SIG_BYTES);
    }
    sc_mem_wipe(aux, sizeof aux);
    return st;
}

sc_status sc_identity_verify(sc_ctx *ctx, const uint8_t sig[SC_SIG_BYTES], const uint8_t msg[32],
                             const uint8_t pub[SC_PUBKEY_BYTES])
{
    if (sig == NULL || msg == NULL || pub == NULL) {
        return SC_ERR_ARG;
    }
    return sc_dispatch_curve_verify(ctx, sig, msg, SC_SIGN_MSG_BYTES, pub);
}

sc_status sc_identity_ecdh_x(sc_ctx *ctx, uint8_t x[SC_ECDH_X_BYTES], const sc_identity *id,
                             const uint8_t peer[SC_PUBKEY_BYTES])
{
    const sc_identity_impl *i = impl_get(id);

    if (id == NULL || peer == NULL) {
        return SC_ERR_ARG;
    }
    if (i == NULL) {
        return SC_ERR_STATE;
    }
    return sc_dispatch_curve_ecdh_x(ctx, x, i->sec, peer);
}
