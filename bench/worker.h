/* The worker side of the runner. */
#ifndef SOFTCHAT_BENCH_WORKER_H
#define SOFTCHAT_BENCH_WORKER_H

#include <stddef.h>

#include "harness.h"

/* Measures operation `index` (of bench_ops_all, or bench_floor_all when floor) on backend and
 * prints the result line. Returns the process exit status. */
int bench_worker(const char *backend, int floor, size_t index, const bench_params *p);

#endif
