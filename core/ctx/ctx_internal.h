/* Internal view of sc_ctx: the bound table, its groups (normalised against struct_size) and
 * each group's state. Only core/ includes this header.
 *
 * Group sizes: a context binds only a validated table, whose present groups reach every
 * required function (and so setup/teardown, which precede them), so core calls those
 * directly. A field a group may lack (one appended by a later ABI minor) is read only through
 * SC_GROUP_FN, which gives NULL for a field beyond the group's declared size. */
#ifndef SOFTCHAT_CORE_CTX_INTERNAL_H
#define SOFTCHAT_CORE_CTX_INTERNAL_H

#include <softchat/backend.h>
#include <softchat/ctx.h>

#include <stddef.h>

/* Whether group g (a non-NULL pointer to a sub-table of type `type`) was compiled with field
 * f: its declared size reaches the end of f. */
#define SC_GROUP_HAS(type, g, f) ((size_t)(g)->size >= offsetof(type, f) + sizeof(((const type *)0)->f))

/* Field f of group g, or NULL when f lies beyond the group's declared size. */
#define SC_GROUP_FN(type, g, f) (SC_GROUP_HAS(type, g, f) ? (g)->f : NULL)

#define SC_CTX_MAGIC 0x53436378u /* "SCcx" */

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
    sc_bstate *st[SC_GROUP_COUNT];
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

/* Group g of table b, or NULL when absent or beyond the table's struct_size. */
const void *sc_backend_group_ptr(const sc_backend *b, sc_group g);

/* Known-answer check of one group against live state; SC_OK, SC_ERR_BACKEND, or
 * SC_ERR_UNSUPPORTED (group absent or unavailable on this machine). */
sc_status sc_kat_group(sc_ctx *ctx, sc_group g);

#endif
