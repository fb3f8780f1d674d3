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
 * Threads. A context carries per-context state (the backends' reusable library contexts,
 * the randomised curve context, the cache of recently lifted public keys, the streaming
 * AES-GCM lease), so a context is used by one thread at a time: make one per thread (they are
 * independent and cheap to keep). Sharing one context between threads without a lock is not
 * supported: calls may return wrong results or corrupt the backend's state. What may be
 * shared between threads, each using its own context:
 *   - the backend tables (sc_backend_find, sc_backend_at): immutable;
 *   - an sc_identity and an sc_nip44_conversation after init: read-only;
 *   - events (sc_event and the memory its views point into) while nobody writes them:
 *     verifying or serialising one from several threads is fine;
 *   - every pure function (hex, base64, mem, NIP-19, event parse/check/to_json).
 * A streaming file operation (file.h) belongs to its context and the thread using it.
 *
 * The context keeps no secret between calls: keys live in caller memory (sc_identity,
 * sc_nip44_conversation, the file key during a stream) and every backend wipes the key
 * material it was handed before a call returns (ctest residue.<backend> scans the process
 * after each call for it). The only state a context keeps across calls is public (the
 * lifted-key cache) or a random generator's own state (a DRBG's seed; on Linux 6.11+ the
 * openssl and sodium backends' page of vDSO getrandom state, which the kernel keeps out of
 * core dumps and swap, and which holds none of the bytes it handed out).
 *
 * The lifted-key cache: the curve adapter keeps the eight public keys a context verified a
 * signature with or ran ECDH against most recently, lifted to curve points (a lift costs
 * 4.5-5 us). They are public keys, yet which keys they are says whom the context talked to:
 * NIP-44 peers, authors of verified events, and the senders of unwrapped gift wraps, whom
 * NIP-59 otherwise hides (nip59.h, "The sender and the lifted-key cache"). A call with a
 * cached key is about 5 us faster. The cache is wiped by sc_ctx_clear; a caller for whom that
 * metadata or timing matters uses a context per task and clears it.
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

/** Size of sc_ctx in bytes, for bindings that cannot see the struct.
 *  Returns: sizeof(sc_ctx). */
SC_API size_t sc_ctx_bytes(void);

/** Binds the compiled backend named `backend` (NULL = the default) to ctx.
 *  Sets up each group's state and runs a small known-answer check per group.
 *  Returns: SC_OK;
 *           SC_ERR_ARG (ctx NULL);
 *           SC_ERR_NOT_FOUND (no compiled backend has that name);
 *           SC_ERR_BACKEND (the table is malformed, or a known-answer check fails);
 *           SC_ERR_RNG (the RNG cannot seed the curve context, or the backend's library
 *           finds no random source to open: a sandbox that denies getrandom and /dev/urandom);
 *           SC_ERR_NOMEM (a backend cannot allocate its state).
 *  Out: ctx, zeroed on failure (safe to pass to sc_ctx_clear).
 *  In: backend: a NUL-terminated registry name ("openssl", "sodium+mbedtls", ...) or NULL.
 *  Allocates: the backends' per-context state, once. Constant time: n/a. RNG: yes (32 bytes
 *  to randomise the curve context, and the known-answer checks). */
SC_API SC_WARN_UNUSED sc_status sc_ctx_init(sc_ctx *ctx, const char *backend) SC_NONNULL(1);

/** As sc_ctx_init, with a caller-supplied table (a test double, a hardware-backed table).
 *  The table must outlive the context.
 *  Returns: as sc_ctx_init, without SC_ERR_NOT_FOUND; SC_ERR_ARG also for backend NULL.
 *  Out: ctx, zeroed on failure. In: backend (validated by sc_backend_validate).
 *  Allocates: as sc_ctx_init. Constant time: n/a. RNG: yes. */
SC_API SC_WARN_UNUSED sc_status sc_ctx_init_table(sc_ctx *ctx, const sc_backend *backend)
    SC_NONNULL(1, 2);

/** Tears down the backend state (wiping it) and wipes ctx. A streaming file operation still
 *  running on ctx ends (its next call returns SC_ERR_STATE).
 *  In/Out: ctx; NULL and cleared contexts are accepted (no-op). Frees what sc_ctx_init
 *  allocated. Constant time: yes (a wipe). RNG: no. */
SC_API void sc_ctx_clear(sc_ctx *ctx);

/** Heap-allocated form for bindings: *out = a new context bound to `backend` (NULL =
 *  default).
 *  Returns: as sc_ctx_init, plus SC_ERR_NOMEM (the context itself).
 *  Out: *out, NULL on failure. In: backend, as for sc_ctx_init.
 *  Allocates: the context and its state. Constant time: n/a. RNG: yes. */
SC_API SC_WARN_UNUSED sc_status sc_ctx_new(sc_ctx **out, const char *backend) SC_NONNULL(1);

/** Clears and frees a context from sc_ctx_new.
 *  In/Out: ctx; NULL is accepted. Constant time: yes (a wipe). RNG: no. */
SC_API void sc_ctx_free(sc_ctx *ctx);

/** The backend bound to ctx.
 *  Returns: the table, or NULL if ctx is NULL or not initialised. */
SC_API const sc_backend *sc_ctx_backend(const sc_ctx *ctx);

/** Runs the known-answer check of one group of the bound backend again.
 *  Returns: SC_OK; SC_ERR_UNSUPPORTED (the group is absent or, for aead, unavailable on this
 *           machine); SC_ERR_BACKEND (the check fails); SC_ERR_STATE (ctx not initialised, or
 *           a streaming operation holds the aead group); SC_ERR_ARG (ctx NULL, group out of
 *           range).
 *  In: group. Constant time: n/a (fixed test data). RNG: may (the rng group's check draws
 *  bytes). */
SC_API SC_WARN_UNUSED sc_status sc_ctx_selftest(sc_ctx *ctx, sc_group group) SC_NONNULL(1);

SC_END_DECLS

#endif
