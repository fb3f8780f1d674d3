/* See runner.h. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <softchat/softchat.h>

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ops.h"
#include "ops_internal.h"

extern char **environ;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return (n % 2) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void bench_row_aggregate(bench_row *r)
{
    double m[BENCH_MAX_RUNS], p[BENCH_MAX_RUNS], a[BENCH_MAX_RUNS], s[BENCH_MAX_RUNS];
    unsigned i;

    if (r->n_runs == 0) {
        r->failed = !r->unsupported;
        return;
    }
    for (i = 0; i < r->n_runs; i++) {
        m[i] = r->runs[i].median_ns;
        p[i] = r->runs[i].p95_ns;
        a[i] = r->runs[i].allocs;
        s[i] = (double)r->runs[i].rss_kb;
    }
    r->median_ns = median_of(m, r->n_runs);
    r->p95_ns = median_of(p, r->n_runs);
    r->allocs = median_of(a, r->n_runs);
    r->rss_kb = (long)median_of(s, r->n_runs);
}

/* Runs one worker: prefix[0..] NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES; fills
 * *run. Returns 0 on success. */
static int spawn_worker(const bench_config *cfg, char *const *prefix, const bench_row *row,
                        bench_run *run, int *unsupported)
{
    char bytes[32], threads[32], warm[32], minsample[32], samples[32], line[512] = "";
    char clock[8];
    char *argv[20];
    int pipefd[2], status = 0, ok = -1;
    size_t k = 0;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    FILE *f;

    snprintf(bytes, sizeof bytes, "%zu", row->bytes);
    snprintf(threads, sizeof threads, "%u", row->threads);
    snprintf(warm, sizeof warm, "%llu", (unsigned long long)cfg->params.warmup_ns);
    snprintf(minsample, sizeof minsample, "%llu", (unsigned long long)cfg->params.min_sample_ns);
    snprintf(samples, sizeof samples, "%u", cfg->params.samples);
    snprintf(clock, sizeof clock, "%s", bench_clock_name(cfg->params.clock));
    while (prefix[k] != NULL && k < 12) {
        argv[k] = prefix[k];
        k++;
    }
    argv[k++] = (char *)row->operation;
    argv[k++] = bytes;
    argv[k++] = threads;
    argv[k++] = warm;
    argv[k++] = minsample;
    argv[k++] = samples;
    if (cfg->params.clock != BENCH_CLOCK_WALL) { /* the default is not passed: old workers */
        argv[k++] = clock;
    }
    argv[k] = NULL;
    if (pipe(pipefd) != 0) {
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addclose(&fa, pipefd[1]);
    if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    f = fdopen(pipefd[0], "r");
    if (f != NULL) {
        if (fgets(line, sizeof line, f) != NULL && strcmp(line, "unsupported\n") == 0) {
            *unsupported = 1;
            ok = 0;
        } else if (line[0] != '\0' &&
                   sscanf(line, "%lf\t%lf\t%lf\t%ld\t%llu\t%u", &run->median_ns, &run->p95_ns,
                          &run->allocs, &run->rss_kb, &run->iters, &run->samples) == 6) {
            /* the seventh field names the clock; a worker that prints six used the wall */
            if (sscanf(line, "%*s\t%*s\t%*s\t%*s\t%*s\t%*s\t%7s", run->clock) != 1) {
                snprintf(run->clock, sizeof run->clock, "wall");
            }
            ok = 0;
        }
        fclose(f);
    } else {
        close(pipefd[0]);
    }
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        ok = -1;
    }
    return ok;
}

/* Whether op `name` is selected by the comma-separated filter. */
static int selected(const char *only, const char *name)
{
    size_t len = strlen(name);
    const char *p = only;

    if (only == NULL || *only == '\0') {
        return 1;
    }
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);

        if (n == len && strncmp(p, name, n) == 0) {
            return 1;
        }
        p += n + (end != NULL);
    }
    return 0;
}

typedef struct plan_item {
    const bench_op *op;
    int floor;
    int secp;         /* backend-independent floor: measured once per run, as "libsecp256k1" */
    size_t first_row; /* its first row in the result */
} plan_item;

/* The threads a row of op records (0 in the table: every online core). */
static unsigned threads_of(const bench_op *op)
{
    return op->threads ? op->threads : bench_cores();
}

/* The plan: the selected operations, then (with floors) every floor. plan has room for
 * n_ops + n_floor items; returns how many were planned. */
static size_t build_plan(const bench_config *cfg, const bench_op *ops, size_t n_ops,
                         const bench_op *floors, size_t n_floor, plan_item *plan)
{
    size_t i, n = 0;

    for (i = 0; i < n_ops; i++) {
        if (selected(cfg->only, ops[i].name)) {
            plan[n].op = &ops[i];
            plan[n].floor = 0;
            plan[n++].secp = 0;
        }
    }
    for (i = 0; cfg->floors && i < n_floor; i++) {
        plan[n].op = &floors[i];
        plan[n].floor = 1;
        plan[n++].secp = i < bench_floor_secp_count;
    }
    return n;
}

/* Rows of an item: one for the backend-independent floors, one per backend for the other
 * floors, and for an operation one per backend and one per lane. */
static size_t item_backends(const bench_config *cfg, const plan_item *it)
{
    return it->secp ? 1 : cfg->n_backends + (it->floor ? 0 : cfg->n_lanes);
}

/* Worker processes the whole plan takes, for the progress line. */
static size_t count_steps(const bench_config *cfg, const plan_item *plan, size_t n_plan)
{
    size_t i, steps = 0;

    for (i = 0; i < n_plan; i++) {
        steps += item_backends(cfg, &plan[i]) * cfg->runs;
    }
    return steps;
}

/* Names the rows of one item, one per backend it runs on. */
static void label_rows(const bench_config *cfg, const plan_item *it, bench_row *rows)
{
    size_t b;

    for (b = 0; b < item_backends(cfg, it); b++) {
        bench_row *row = &rows[b];
        snprintf(row->backend, sizeof row->backend, "%s",
                 it->secp              ? "libsecp256k1"
                 : b < cfg->n_backends ? cfg->backends[b]
                                       : cfg->lanes[b - cfg->n_backends].label);
        snprintf(row->operation, sizeof row->operation, "%s", it->op->name);
        row->bytes = it->op->bytes;
        row->threads = threads_of(it->op);
        row->is_floor = it->floor;
    }
}

/* The progress line of step (1-based) of steps: redrawn in place on a terminal, else about
 * every 5% on its own line. */
static void show_progress(const bench_config *cfg, int tty, size_t step, size_t steps,
                          const bench_row *row, unsigned r)
{
    if (cfg->progress && tty) {
        fprintf(stderr, "\r[%zu/%zu] %-14s %-20s %8zu B  run %u/%u   ", step, steps, row->backend,
                row->operation, row->bytes, r + 1, cfg->runs);
        fflush(stderr);
    } else if (cfg->progress && (step * 20 / steps != (step - 1) * 20 / steps)) {
        fprintf(stderr, "  [%zu/%zu] %s %s %zu B\n", step, steps, row->backend, row->operation,
                row->bytes); /* about every 5% */
    }
}

/* Measures run r of one item: every backend and lane in turn, A B A B, so a lane's process
 * runs next to ours. A row that answered "unsupported" is not asked again: the answer does
 * not change from round to round (a peer's process that says so still costs its start-up).
 * *step counts the workers spawned or skipped so far. */
static void measure_run(const bench_config *cfg, const plan_item *it, bench_row *rows, unsigned r,
                        size_t *step, size_t steps, int tty)
{
    size_t b, nb = item_backends(cfg, it);

    for (b = 0; b < nb; b++) {
        bench_row *row = &rows[b];
        char *own[5];
        char *const *prefix = own;
        bench_run run;
        int unsupported = 0;

        if (b < cfg->n_backends) { /* this build: softchat-bench worker BACKEND op|floor */
            own[0] = (char *)cfg->self;
            own[1] = (char *)"worker";
            own[2] = (char *)cfg->backends[it->secp ? 0 : b];
            own[3] = (char *)(it->floor ? "floor" : "op");
            own[4] = NULL;
        } else {
            prefix = cfg->lanes[b - cfg->n_backends].argv;
        }
        show_progress(cfg, tty, ++*step, steps, row, r);
        if (row->unsupported) {
            continue;
        }
        memset(&run, 0, sizeof run);
        if (spawn_worker(cfg, prefix, row, &run, &unsupported) == 0) {
            if (unsupported) {
                row->unsupported = 1;
            } else {
                row->runs[row->n_runs++] = run;
            }
        } else {
            row->failed = 1;
        }
    }
}

int bench_run_all(const bench_config *cfg, bench_row **rows_out, size_t *n_rows)
{
    size_t n_ops = 0, n_floor = 0, n_plan, n_alloc, i, k = 0, steps, step = 0;
    unsigned r;
    bench_op *ops = bench_ops_all(&n_ops);
    bench_op *floors = bench_floor_all(&n_floor);
    plan_item *plan = NULL;
    bench_row *rows = NULL;
    int tty = isatty(STDERR_FILENO), rc = -1;

    *rows_out = NULL;
    *n_rows = 0;
    if (ops == NULL || floors == NULL || cfg->n_backends == 0) {
        goto out;
    }
    plan = malloc((n_ops + n_floor) * sizeof *plan);
    if (plan == NULL) {
        goto out;
    }
    n_plan = build_plan(cfg, ops, n_ops, floors, n_floor, plan);
    n_alloc = n_plan * (cfg->n_backends + cfg->n_lanes);
    rows = calloc(n_alloc ? n_alloc : 1, sizeof *rows);
    if (rows == NULL) {
        goto out;
    }
    steps = count_steps(cfg, plan, n_plan);
    for (i = 0; i < n_plan; i++) {
        plan[i].first_row = k;
        label_rows(cfg, &plan[i], &rows[k]);
        k += item_backends(cfg, &plan[i]);
    }
    /* Rounds over the whole plan: run r of every item before run r + 1 of any, so an item's
     * runs lie a round apart and a burst of load on a shared machine shorter than a round
     * reaches one of them, not all; a row's operation and its floors share every round. */
    for (r = 0; r < cfg->runs && r < BENCH_MAX_RUNS; r++) {
        for (i = 0; i < n_plan; i++) {
            measure_run(cfg, &plan[i], &rows[plan[i].first_row], r, &step, steps, tty);
        }
    }
    for (i = 0; i < k; i++) {
        bench_row_aggregate(&rows[i]);
    }
    if (cfg->progress && tty) {
        fprintf(stderr, "\r%*s\r", 78, "");
    }
    *rows_out = rows;
    *n_rows = k;
    rows = NULL;
    rc = 0;
out:
    free(plan);
    free(rows);
    free(ops);
    free(floors);
    return rc;
}
