/* The measurement contract of the benchmark harness.
 *
 * One process measures each operation this way: run it for a warm-up period; calibrate the
 * inner loop so one sample lasts at least min_sample_ns (1 ms); take at least `samples` (20)
 * samples; report the per-call median and 95th percentile of the samples, and the heap
 * allocations per call (counted by the bench binary's allocator). Independent processes,
 * alternation and aggregation are the job of the runner (runner.h). */
#ifndef SOFTCHAT_BENCH_HARNESS_H
#define SOFTCHAT_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* An operation: setup prepares `state` once (0; 1 when the backend lacks a capability the
 * operation needs: a visible "unsupported", not a failure; -1 on failure); run performs the
 * operation n times (0, or -1: the measurement is aborted and the operation reported broken).
 * teardown accepts a partial state. */
typedef struct bench_op {
    const char *name;
    size_t bytes;
    int (*setup)(void **state, const char *backend, size_t bytes);
    int (*run)(void *state, uint64_t n);
    void (*teardown)(void *state);
    int per_item;     /* run(n) does n * per_item calls (verify_batch): report per item */
    unsigned threads; /* threads the op uses: 1, or 0 for every online core */
} bench_op;

/* What a sample is timed with. */
typedef enum bench_clock {
    BENCH_CLOCK_WALL = 0, /* CLOCK_MONOTONIC: the latency a caller sees (the default) */
    BENCH_CLOCK_CPU = 1   /* CLOCK_THREAD_CPUTIME_ID: the CPU time of the measuring thread,
                             which leaves out the time the process waits for a core on a
                             machine shared with other work; operations on several threads
                             are still timed with the wall clock */
} bench_clock;

typedef struct bench_params {
    uint64_t warmup_ns;     /* default 100 ms */
    uint64_t min_sample_ns; /* default 1 ms */
    unsigned samples;       /* default 20 (never fewer) */
    bench_clock clock;      /* default BENCH_CLOCK_WALL */
} bench_params;

typedef struct bench_result {
    bench_clock clock; /* the clock the samples were timed with */
    double median_ns;  /* per call */
    double p95_ns;     /* per call */
    double allocs;     /* heap allocations per call; < 0 when not counted */
    uint64_t iters;    /* calls per sample */
    unsigned samples;
} bench_result;

/* Monotonic time in ns. */
uint64_t bench_now_ns(void);

/* The time of `clock` in ns. */
uint64_t bench_clock_ns(bench_clock clock);

/* "wall" or "cpu"; bench_clock_parse: the clock so named, or -1. */
const char *bench_clock_name(bench_clock clock);
int bench_clock_parse(const char *name);

/* Measures op under the contract. Returns 0; 1 when op is unsupported on this backend; -1 if
 * setup or a run failed. */
int bench_measure(const bench_op *op, const char *backend, const bench_params *p,
                  bench_result *out);

/* Median and 95th percentile (nearest rank) of v[0..n); sorts v. */
void bench_quantiles(double *v, size_t n, double *median, double *p95);

/* Allocation counter of this binary (alloc_count.c): calls to malloc, calloc, realloc,
 * aligned allocators since start; -1 when counting is not compiled in. */
long long bench_alloc_count(void);

#endif
