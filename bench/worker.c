/* A worker process: measures one operation on one backend and prints one tab-separated line
 *   median_ns  p95_ns  allocs_per_call  rss_kb  iters  samples  clock
 * so the parent can run every measurement in a fresh, independent process. */
#define _POSIX_C_SOURCE 200809L
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ops.h"

/* Peak resident set of this process (VmHWM), which exec resets, in KiB; -1 if unknown. */
static long peak_rss_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");

    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb;
}

/* The threads a row of op records (0 in the table: every online core). */
static unsigned threads_of(const bench_op *op)
{
    return op->threads != 0 ? op->threads : bench_cores();
}

int bench_worker(const char *backend, int floor, const char *name, size_t bytes, unsigned threads,
                 const bench_params *p)
{
    size_t n = 0, i;
    bench_op *ops = floor ? bench_floor_all(&n) : bench_ops_all(&n);
    bench_result r;
    int rc = 1, m = -1;

    for (i = 0; ops != NULL && i < n; i++) {
        if (strcmp(ops[i].name, name) == 0 && ops[i].bytes == bytes &&
            threads_of(&ops[i]) == threads) {
            m = bench_measure(&ops[i], backend, p, &r);
            break;
        }
    }
    if (ops != NULL && i == n) {
        fprintf(stderr, "softchat-bench worker: no operation %s %zu B on %u thread(s)\n", name,
                bytes, threads);
    }
    if (m == 1) {
        printf("unsupported\n");
        rc = 0;
    } else if (m == 0) {
        printf("%.1f\t%.1f\t%.4f\t%ld\t%llu\t%u\t%s\n", r.median_ns, r.p95_ns, r.allocs,
               peak_rss_kb(), (unsigned long long)r.iters, r.samples, bench_clock_name(r.clock));
        rc = 0;
    }
    free(ops);
    fflush(stdout);
    return rc;
}
