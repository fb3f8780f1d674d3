/* libsoftchat: the context, which binds one crypto backend.
 *
 * Every protocol call takes a context first. A context binds one backend from the registry
 * (or a caller-supplied table) and owns that backend's per-context state (preallocated
 * library contexts, the randomised libsecp256k1 context). Contexts on different backends
 * coexist in one process. There is no global "current backend" and the library reads no
 * environment variables.
 *
 * Lifetime: sc_ctx_init ... sc_ctx_clear. sc_ctx_init is the only place a backend may
 * allocate. A cleared (or zero-initialised) context is refused by every call with
 * SC_ERR_STATE.
 *
 * Thread safety: a context is used by one thread at a time. Make one per thread.
 */
#ifndef SOFTCHAT_CTX_H
#define SOFTCHAT_CTX_H

#include "backend.h"
#include "common.h"
#include "status.h"

SC_BEGIN_DECLS

/** A context in caller memory (stack, struct member or heap). Opaque: use the functions. */
typedef struct sc_ctx {
    uint64_t opaque[16];
} sc_ctx;

/** Size of sc_ctx in bytes, for bindings that cannot see the struct. */
SC_API size_t sc_ctx_bytes(void);

/** Binds the compiled backend named `backend` (NULL = the default) to ctx.
 *  Sets up each group's state and runs a small known-answer check per group.
 *  Returns: SC_OK;
 *           SC_ERR_ARG if ctx is NULL;
 *           SC_ERR_NOT_FOUND if no compiled backend has that name;
 *           SC_ERR_BACKEND if the table is malformed or a known-answer check fails;
 *           SC_ERR_RNG if the RNG cannot seed the curve context;
 *           SC_ERR_NOMEM if a backend cannot allocate its state.
 *  Out: ctx, zeroed on failure (safe to pass to sc_ctx_clear).
 *  Allocates (backend state), calls the RNG. */
SC_API SC_WARN_UNUSED sc_status sc_ctx_init(sc_ctx *ctx, const char *backend) SC_NONNULL(1);

/** As sc_ctx_init, with a caller-supplied table (a test double, a hardware-backed table).
 *  The table must outlive the context. Returns as sc_ctx_init, without SC_ERR_NOT_FOUND. */
SC_API SC_WARN_UNUSED sc_status sc_ctx_init_table(sc_ctx *ctx, const sc_backend *backend)
    SC_NONNULL(1, 2);

/** Tears down the backend state (wiping it) and wipes ctx. NULL and cleared contexts are
 *  accepted (no-op). */
SC_API void sc_ctx_clear(sc_ctx *ctx);

/** Heap-allocated form for bindings: *out = a new context bound to `backend` (NULL =
 *  default). Returns as sc_ctx_init, plus SC_ERR_NOMEM. *out is NULL on failure. */
SC_API SC_WARN_UNUSED sc_status sc_ctx_new(sc_ctx **out, const char *backend) SC_NONNULL(1);

/** Clears and frees a context from sc_ctx_new. NULL is accepted. */
SC_API void sc_ctx_free(sc_ctx *ctx);

/** The backend bound to ctx, or NULL if ctx is NULL or not initialised. */
SC_API const sc_backend *sc_ctx_backend(const sc_ctx *ctx);

/** Runs the known-answer check of one group of the bound backend again.
 *  Returns: SC_OK; SC_ERR_UNSUPPORTED if the group is absent or (aead) unavailable on this
 *           machine; SC_ERR_BACKEND if the check fails; SC_ERR_STATE for a bad context. */
SC_API SC_WARN_UNUSED sc_status sc_ctx_selftest(sc_ctx *ctx, sc_group group) SC_NONNULL(1);

SC_END_DECLS

#endif
