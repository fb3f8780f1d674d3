/* The runner: every measurement in its own process, backends (and lanes: peers, another
 * build) alternating A B A B ... across the runs, process by process, and aggregation into
 * rows (median of the run medians and of the run p95s). */
#ifndef SOFTCHAT_BENCH_RUNNER_H
#define SOFTCHAT_BENCH_RUNNER_H

#include <stddef.h>

#include "harness.h"
#include "result.h"

/* A program measured beside this build's backends, process by process (a peer from
 * bench/peers, or another build's softchat-bench): its workers are spawned as
 * argv[0..] NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES and print the worker line
 * (or "unsupported"). Lanes run the operations only, never the floors. */
typedef struct bench_lane {
    char label[48]; /* the rows' backend name */
    char *argv[8];  /* the worker command before its arguments, NULL-terminated; points
                         into store (so a lane is filled in place, never copied) */
    char store[4096];
} bench_lane;

typedef struct bench_config {
    const char *const *backends; /* compiled backend names, in order */
    size_t n_backends;
    const bench_lane *lanes; /* other programs, after the backends in each run */
    size_t n_lanes;
    const char *only; /* comma-separated operation names, or NULL for all */
    unsigned runs;    /* independent processes per configuration (default 3) */
    int floors;       /* also measure the floors */
    bench_params params;
    const char *self; /* path of this executable, for the workers */
    int progress;     /* print a progress line on stderr */
} bench_config;

/* Runs everything, in rounds: run 1 of every planned row (each operation's backends and
 * lanes side by side, A B A B), then run 2 of every row, and so on. *rows receives a new
 * array (free it) of *n_rows rows: for each planned operation one row per backend, then one
 * per lane (labelled with the lane's label); then the floors. Returns 0, or -1 when nothing
 * could be run (a row whose runs failed is marked failed). */
int bench_run_all(const bench_config *cfg, bench_row **rows, size_t *n_rows);

#endif
