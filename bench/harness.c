/* See harness.h. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t bench_now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t bench_clock_ns(bench_clock clock)
{
    struct timespec t;

    if (clock != BENCH_CLOCK_CPU || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) {
        return bench_now_ns();
    }
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

const char *bench_clock_name(bench_clock clock)
{
    return clock == BENCH_CLOCK_CPU ? "cpu" : "wall";
}

int bench_clock_parse(const char *name)
{
    return strcmp(name, "wall") == 0  ? BENCH_CLOCK_WALL
           : strcmp(name, "cpu") == 0 ? BENCH_CLOCK_CPU
                                      : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_quantiles(double *v, size_t n, double *median, double *p95)
{
    size_t rank;

    qsort(v, n, sizeof *v, cmp_double);
    *median = (n % 2) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    rank = (size_t)((95 * n + 99) / 100); /* nearest rank: ceil(0.95 n) */
    *p95 = v[rank == 0 ? 0 : rank - 1];
}

/* Times one sample of n calls with clock; 0 on failure. */
static uint64_t sample(const bench_op *op, void *st, uint64_t n, bench_clock clock)
{
    uint64_t t0 = bench_clock_ns(clock);

    if (op->run(st, n) != 0) {
        return 0;
    }
    return bench_clock_ns(clock) - t0 + 1;
}

int bench_measure(const bench_op *op, const char *backend, const bench_params *p, bench_result *out)
{
    bench_params d = {100000000u, 1000000u, 20u, BENCH_CLOCK_WALL};
    void *st = NULL;
    uint64_t n = 1, t = 0, start;
    double *per_call = NULL;
    long long a0, a1;
    unsigned i, samples;
    int rc = -1;

    if (p != NULL) {
        d = *p;
    }
    samples = d.samples < 20 ? 20 : d.samples;
    if (op->threads != 1) {
        d.clock = BENCH_CLOCK_WALL; /* one thread's CPU time cannot time a parallel batch */
    }
    rc = op->setup(&st, backend, op->bytes);
    if (rc != 0) {
        op->teardown(st); /* teardown accepts a partial state */
        return rc > 0 ? 1 : -1;
    }
    rc = -1;
    per_call = malloc(samples * sizeof *per_call);
    if (per_call == NULL) {
        goto out;
    }
    /* warm-up, then calibration: double n until one sample reaches the minimum length */
    start = bench_now_ns();
    while (bench_now_ns() - start < d.warmup_ns) {
        if (sample(op, st, 1, d.clock) == 0) {
            goto out;
        }
    }
    for (;;) {
        t = sample(op, st, n, d.clock);
        if (t == 0) {
            goto out;
        }
        if (t >= d.min_sample_ns) {
            break;
        }
        n = (t * 4 < d.min_sample_ns) ? n * 4 : n * 2;
    }
    a0 = bench_alloc_count();
    for (i = 0; i < samples; i++) {
        t = sample(op, st, n, d.clock);
        if (t == 0) {
            goto out;
        }
        per_call[i] = (double)t / (double)(n * (uint64_t)(op->per_item > 0 ? op->per_item : 1));
    }
    a1 = bench_alloc_count();
    out->allocs = (a0 < 0) ? -1.0
                           : (double)(a1 - a0) / ((double)samples * (double)n *
                                                  (double)(op->per_item > 0 ? op->per_item : 1));
    bench_quantiles(per_call, samples, &out->median_ns, &out->p95_ns);
    out->iters = n;
    out->clock = d.clock;
    out->samples = samples;
    rc = 0;
out:
    free(per_call);
    op->teardown(st);
    return rc;
}
