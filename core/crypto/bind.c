/* Context lifecycle: bind a backend table to a context (validate it, normalise its groups,
 * set up each group's state once through the seam, run the known-answer checks), and tear
 * everything down with wiping. The context's layout is core/ctx/ctx_internal.h. */
#include <softchat/crypto.h>
#include <softchat/ctx.h>
#include <softchat/mem.h>

#include <stdlib.h>
#include <string.h>

#include "crypto/backend.h"
#include "crypto/dispatch.h"
#include "crypto/kat.h"
#include "ctx/ctx_internal.h"

typedef char sc_ctx_fits[(sizeof(sc_ctx_impl) <= sizeof(sc_ctx)) ? 1 : -1];

size_t sc_ctx_bytes(void)
{
    return sizeof(sc_ctx);
}

/* Tears everything down (through the one seam) and wipes c. */
static void teardown_all(sc_ctx_impl *c)
{
    sc_dispatch_teardown(c);
    sc_mem_wipe(c, sizeof(sc_ctx));
}

sc_status sc_ctx_init_table(sc_ctx *ctx, const sc_backend *backend)
{
    sc_ctx_impl *c = (sc_ctx_impl *)(void *)ctx;
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

    st = sc_dispatch_setup(ctx, c);
    if (st != SC_OK) {
        sc_mem_wipe(c, sizeof(sc_ctx));
        return st;
    }
    c->magic = SC_CTX_MAGIC; /* from here on the dispatch functions accept ctx */
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
        teardown_all(c); /* aborts a streaming operation still running */
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
