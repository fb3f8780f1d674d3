/* The worker side of the runner. */
#ifndef SOFTCHAT_BENCH_WORKER_H
#define SOFTCHAT_BENCH_WORKER_H

#include <stddef.h>

#include "harness.h"

/* Measures the operation (of bench_ops_all, or bench_floor_all when floor) with this name,
 * size and thread count on backend and prints the result line ("unsupported" when the backend
 * lacks what it needs). Returns the process exit status (1 when there is no such operation
 * or the measurement failed). */
int bench_worker(const char *backend, int floor, const char *name, size_t bytes, unsigned threads,
                 const bench_params *p);

#endif
