/* The runner: every measurement in its own process, backends alternating A B A B ... across
 * the runs, and aggregation into rows (median of the run medians and of the run p95s). */
#ifndef SOFTCHAT_BENCH_RUNNER_H
#define SOFTCHAT_BENCH_RUNNER_H

#include <stddef.h>

#include "harness.h"
#include "result.h"

typedef struct bench_config {
    const char *const *backends; /* compiled backend names, in order */
    size_t n_backends;
    const char *only;            /* comma-separated operation names, or NULL for all */
    unsigned runs;               /* independent processes per configuration (default 3) */
    int floors;                  /* also measure the floors */
    bench_params params;
    const char *self;            /* path of this executable, for the workers */
    int progress;                /* print a progress line on stderr */
} bench_config;

/* Runs everything; *rows receives a new array (free it) of *n_rows rows.
 * Returns 0, or -1 when nothing could be run (a row whose runs failed is marked failed). */
int bench_run_all(const bench_config *cfg, bench_row **rows, size_t *n_rows);

#endif
