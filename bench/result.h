/* One aggregated result row: an operation on a backend, over several independent runs. */
#ifndef SOFTCHAT_BENCH_RESULT_H
#define SOFTCHAT_BENCH_RESULT_H

#include <stddef.h>

#define BENCH_MAX_RUNS 16

typedef struct bench_run {
    double median_ns, p95_ns, allocs; /* allocs < 0: not counted */
    long rss_kb;                      /* the worker's peak RSS (VmHWM) */
    unsigned long long iters;
    unsigned samples;
    char clock[8]; /* what the samples were timed with: "wall" or "cpu" */
} bench_run;

typedef struct bench_row {
    char backend[48];
    char operation[48];
    size_t bytes;
    unsigned threads;
    int is_floor;
    int failed;      /* a run failed: no numbers */
    int unsupported; /* the backend lacks a capability the operation needs */
    bench_run runs[BENCH_MAX_RUNS];
    unsigned n_runs;
    double median_ns, p95_ns, allocs; /* median of the run medians / p95s / allocs */
    long rss_kb;                      /* median of the runs' peak RSS */
} bench_row;

/* Fills a row's aggregates from its runs (median of medians, median of p95s). */
void bench_row_aggregate(bench_row *r);

#endif
