/* The layout behind sc_ctx: the bound table, its groups (normalised against struct_size) and
 * each group's state, with the liveness check every entry point makes. Data and inline
 * accessors only: binding a table is core/crypto/bind.c's job, calling into it
 * core/crypto/dispatch.c's. Only core/ (and the tests of its internals) include this header. */
#ifndef SOFTCHAT_CORE_CTX_INTERNAL_H
#define SOFTCHAT_CORE_CTX_INTERNAL_H

#include <softchat/backend.h>
#include <softchat/ctx.h>

#define SC_CTX_MAGIC 0x53436378u /* "SCcx" */

/* The groups that may keep state, each a slot of st[]: every group up to the xaead group. The
 * context is 128 bytes (sc_ctx, ABI 1.x) and this layout fills it, so the scrypt group, the
 * last one, is stateless by contract (sc_backend_validate refuses one with a setup): its
 * working memory is the library's, per call, anyway. A later group with state needs room
 * made elsewhere first. */
#define SC_CTX_STATE_SLOTS (SC_GROUP_XAEAD + 1)

/* Flags kept in the context. */
#define SC_CTXF_AEAD_BUSY 1u /* a streaming AES-GCM operation holds the aead state */

typedef struct sc_ctx_impl {
    uint32_t magic;
    uint32_t flags;
    const sc_backend *b;
    const sc_backend_hash *hash;
    const sc_backend_mac *mac;
    const sc_backend_stream *stream;
    const sc_backend_aead *aead;
    const sc_backend_rng *rng;
    const sc_backend_curve *curve;
    /* the xaead and scrypt groups are read from b where they are used (there is no room to
     * keep their pointers): sc_backend_group_ptr normalises them against struct_size */
    sc_bstate *st[SC_CTX_STATE_SLOTS];
    const void *aead_owner; /* the streaming operation holding SC_CTXF_AEAD_BUSY */
} sc_ctx_impl;

/* The live implementation behind ctx, or NULL if ctx is NULL or not initialised. */
static inline sc_ctx_impl *sc_ctx_impl_get(sc_ctx *ctx)
{
    sc_ctx_impl *c = (sc_ctx_impl *)(void *)ctx;
    return (c != NULL && c->magic == SC_CTX_MAGIC) ? c : NULL;
}

/* The status for a context that sc_ctx_impl_get refused: SC_ERR_ARG for NULL (rule 1 of
 * common.h), SC_ERR_STATE for one never initialised or already cleared. */
static inline sc_status sc_ctx_error(const sc_ctx *ctx)
{
    return ctx == NULL ? SC_ERR_ARG : SC_ERR_STATE;
}

#endif
