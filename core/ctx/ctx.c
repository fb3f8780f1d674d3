/* Context lifecycle: bind a backend, set up each group's state once, run the known-answer
 * checks, and tear everything down with wiping. */
#include <softchat/crypto.h>
#include <softchat/ctx.h>
#include <softchat/mem.h>

#include <stdlib.h>
#include <string.h>

#include "ctx/ctx_internal.h"

typedef char sc_ctx_fits[(sizeof(sc_ctx_impl) <= sizeof(sc_ctx)) ? 1 : -1];

size_t sc_ctx_bytes(void)
{
    return sizeof(sc_ctx);
}

/* Group grp's teardown, as the group's declared size allows (NULL: stateless). */
#define TEARDOWN_FN(type, grp) (c->grp != NULL ? SC_GROUP_FN(type, c->grp, teardown) : NULL)

/* Teardown in reverse order of setup; safe on a partially set-up context. */
static void teardown_all(sc_ctx_impl *c)
{
    void (*const down[SC_GROUP_COUNT])(sc_bstate *) = {
        [SC_GROUP_CURVE] = TEARDOWN_FN(sc_backend_curve, curve),
        [SC_GROUP_AEAD] = TEARDOWN_FN(sc_backend_aead, aead),
        [SC_GROUP_STREAM] = TEARDOWN_FN(sc_backend_stream, stream),
        [SC_GROUP_MAC] = TEARDOWN_FN(sc_backend_mac, mac),
        [SC_GROUP_HASH] = TEARDOWN_FN(sc_backend_hash, hash),
        [SC_GROUP_RNG] = TEARDOWN_FN(sc_backend_rng, rng),
    };
    static const sc_group order[SC_GROUP_COUNT] = {SC_GROUP_CURVE, SC_GROUP_AEAD, SC_GROUP_STREAM,
                                                   SC_GROUP_MAC,   SC_GROUP_HASH, SC_GROUP_RNG};
    unsigned i;

    for (i = 0; i < SC_GROUP_COUNT; i++) {
        if (down[order[i]] != NULL && c->st[order[i]] != NULL) {
            down[order[i]](c->st[order[i]]);
        }
    }
    sc_mem_wipe(c, sizeof(sc_ctx));
}

#define SETUP(type, grp, idx)                                                                \
    do {                                                                                     \
        sc_status (*up_)(sc_bstate **) = c->grp != NULL ? SC_GROUP_FN(type, c->grp, setup) : NULL; \
        if (up_ != NULL) {                                                                   \
            st = up_(&c->st[idx]);                                                           \
            if (st != SC_OK) {                                                               \
                goto fail;                                                                   \
            }                                                                                \
        }                                                                                    \
    } while (0)

sc_status sc_ctx_init_table(sc_ctx *ctx, const sc_backend *backend)
{
    sc_ctx_impl *c = (sc_ctx_impl *)(void *)ctx;
    sc_status (*curve_up)(sc_bstate **, const uint8_t *);
    uint8_t seed[32];
    sc_status st;
    unsigned g;

    if (ctx == NULL) {
        return SC_ERR_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if (backend == NULL) {
        return SC_ERR_ARG;
    }
    if (sc_backend_validate(backend) != SC_OK) {
        return SC_ERR_BACKEND;
    }
    c->b = backend;
    c->hash = sc_backend_group_ptr(backend, SC_GROUP_HASH);
    c->mac = sc_backend_group_ptr(backend, SC_GROUP_MAC);
    c->stream = sc_backend_group_ptr(backend, SC_GROUP_STREAM);
    c->aead = sc_backend_group_ptr(backend, SC_GROUP_AEAD);
    c->rng = sc_backend_group_ptr(backend, SC_GROUP_RNG);
    c->curve = sc_backend_group_ptr(backend, SC_GROUP_CURVE);

    SETUP(sc_backend_rng, rng, SC_GROUP_RNG);
    SETUP(sc_backend_hash, hash, SC_GROUP_HASH);
    SETUP(sc_backend_mac, mac, SC_GROUP_MAC);
    SETUP(sc_backend_stream, stream, SC_GROUP_STREAM);
    SETUP(sc_backend_aead, aead, SC_GROUP_AEAD);
    c->magic = SC_CTX_MAGIC; /* from here on the dispatch functions accept ctx */
    curve_up = c->curve != NULL ? SC_GROUP_FN(sc_backend_curve, c->curve, setup) : NULL;
    if (curve_up != NULL) {
        /* the curve context is blinded with fresh randomness from this context's RNG */
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
    for (g = 0; g < SC_GROUP_COUNT; g++) {
        st = sc_kat_group(ctx, (sc_group)g);
        if (st == SC_ERR_UNSUPPORTED) {
            continue; /* absent group, or aead unavailable on this machine */
        }
        if (st != SC_OK) {
            st = SC_ERR_BACKEND;
            goto fail;
        }
    }
    return SC_OK;

fail:
    teardown_all(c);
    return st;
}

sc_status sc_ctx_init(sc_ctx *ctx, const char *backend)
{
    const sc_backend *b;

    if (ctx == NULL) {
        return SC_ERR_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    b = (backend == NULL) ? sc_backend_default() : sc_backend_find(backend);
    if (b == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    return sc_ctx_init_table(ctx, b);
}

void sc_ctx_clear(sc_ctx *ctx)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);

    if (c != NULL) {
        if ((c->flags & SC_CTXF_AEAD_BUSY) != 0 && c->aead != NULL) {
            c->aead->abort(c->st[SC_GROUP_AEAD]);
        }
        teardown_all(c);
    } else if (ctx != NULL) {
        sc_mem_wipe(ctx, sizeof *ctx);
    }
}

sc_status sc_ctx_new(sc_ctx **out, const char *backend)
{
    sc_ctx *ctx;
    sc_status st;

    if (out == NULL) {
        return SC_ERR_ARG;
    }
    *out = NULL;
    ctx = malloc(sizeof *ctx);
    if (ctx == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_ctx_init(ctx, backend);
    if (st != SC_OK) {
        free(ctx);
        return st;
    }
    *out = ctx;
    return SC_OK;
}

void sc_ctx_free(sc_ctx *ctx)
{
    if (ctx != NULL) {
        sc_ctx_clear(ctx);
        free(ctx);
    }
}

const sc_backend *sc_ctx_backend(const sc_ctx *ctx)
{
    const sc_ctx_impl *c = (const sc_ctx_impl *)(const void *)ctx;
    return (c != NULL && c->magic == SC_CTX_MAGIC) ? c->b : NULL;
}

sc_status sc_ctx_selftest(sc_ctx *ctx, sc_group group)
{
    if (ctx == NULL || (unsigned)group >= SC_GROUP_COUNT) {
        return SC_ERR_ARG;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    return sc_kat_group(ctx, group);
}
