/* The benchmark workload: the SDK's operations (names and sizes are fixed by the published
 * contract, docs/benchmarks.md) and the floors they are compared against. */
#ifndef SOFTCHAT_BENCH_OPS_H
#define SOFTCHAT_BENCH_OPS_H

#include <stddef.h>

#include "harness.h"

/* All operations, in report order, as a new array (free it); *n receives the count. */
bench_op *bench_ops_all(size_t *n);

/* The floor operations (libsecp256k1 alone; primitives per backend), likewise. */
bench_op *bench_floor_all(size_t *n);

/* Threads used by the all-cores verify_batch row (the machine's online CPUs). */
unsigned bench_cores(void);

/* Shared setup helpers (ops_common.c). */
typedef struct sc_ctx sc_ctx;
int bench_ctx_new(sc_ctx **ctx, const char *backend);
void bench_fill(unsigned char *p, size_t n, unsigned seed); /* deterministic filler bytes */

#endif
