/* softchat-bench run: the workload under the measurement contract, a table on stdout and the
 * JSON record; softchat-bench worker: one measurement, in the process the runner spawned. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes.h"
#include "results_io.h"
#include "runner.h"
#include "worker.h"

#define RUN_MAX_LANES 8

const char bench_run_usage[] =
    "usage: softchat-bench run [--backend NAME|all] [--only OP[,OP...]] [--runs N] [--json FILE]\n"
    "                          [--quick] [--no-floors] [--peers NAME[,NAME...]]\n"
    "                          [--secp-build DIR] [--lanes FILE] [--clock wall|cpu]\n"
    "\n"
    "  Measures every operation (or those named by --only) on every compiled backend\n"
    "  (--backend all, the default) or one, each measurement in its own process: warm-up, a\n"
    "  calibrated inner loop of at least 1 ms per sample, at least 20 samples, per-call median\n"
    "  and p95; --runs (default 3) independent processes per configuration, one in each round\n"
    "  over all of them, backends alternating A B A B within a round; the result is the median\n"
    "  of the run medians and of the run p95s.\n"
    "  Allocations per call and peak RSS are recorded beside latency, and the floors\n"
    "  (libsecp256k1 alone, each backend's primitives) unless --no-floors. --peers: also the\n"
    "  peers named (bench/peers: rust-nostr, nostr-tools), installed first, their processes\n"
    "  interleaved with ours (A B A B); --secp-build DIR: also the first backend of another\n"
    "  build of this tool (the like-for-like libsecp256k1), interleaved the same way; --lanes\n"
    "  FILE: also the lanes FILE lists, one a line (LABEL, then the worker command's words,\n"
    "  tab-separated: what a peer's run.sh --prepare prints), interleaved the same way. --clock\n"
    "  cpu: time samples with the measuring thread's CPU time instead of the wall clock (for a\n"
    "  machine shared with other work; operations on several threads keep the wall clock, and\n"
    "  so does a peer without such a clock). --quick: shorter warm-up and 1 run (a smoke test,\n"
    "  not a measurement). Prints a table; --json writes the record (docs/benchmarks.md).\n"
    "  Exit 0, or 2 on a usage error or when an operation could not be measured.\n";

/* The options of one run. */
typedef struct run_opts {
    const char *backend; /* NULL or "all": every compiled backend */
    const char *only;
    const char *json;
    const char *peers;      /* comma-separated peer names, or NULL */
    const char *secp_build; /* another build directory, or NULL */
    const char *lanes;      /* a file of lane lines, or NULL */
    bench_clock clock;
    unsigned long long runs;
    int quick, floors;
} run_opts;

static void print_table(const bench_row *rows, size_t n)
{
    size_t i;
    int w = 16;

    for (i = 0; i < n; i++) {
        if ((int)strlen(rows[i].backend) > w) {
            w = (int)strlen(rows[i].backend);
        }
    }
    printf("%-*s %-22s %8s %4s %11s %11s %9s %8s\n", w, "backend", "operation", "bytes", "thr",
           "median", "p95", "allocs", "rss KiB");
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        char m[32], p[32], a[32];

        bench_fmt_ns(m, sizeof m, r->failed || r->unsupported ? -1 : r->median_ns, "-");
        bench_fmt_ns(p, sizeof p, r->failed || r->unsupported ? -1 : r->p95_ns, "-");
        if (r->failed || r->unsupported || r->allocs < 0) {
            snprintf(a, sizeof a, "-");
        } else {
            snprintf(a, sizeof a, "%.2f", r->allocs);
        }
        /* the width in bytes: "µ" takes two */
        printf("%-*s %-22s %8zu %4u %*s %*s %9s %8ld%s\n", w, r->backend, r->operation, r->bytes,
               r->threads, strstr(m, "µ") ? 12 : 11, m, strstr(p, "µ") ? 12 : 11, p, a,
               r->failed || r->unsupported ? 0L : r->rss_kb,
               r->unsupported ? "  unsupported on this backend"
               : r->failed    ? "  FAILED"
                              : "");
    }
}

int bench_cmd_worker(int argc, char **argv)
{
    unsigned long long bytes, threads, warm, minsample, samples;
    int clock = BENCH_CLOCK_WALL;
    bench_params p;

    /* worker BACKEND op|floor NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES [CLOCK] */
    if (argc == 10) {
        clock = bench_clock_parse(argv[9]);
    }
    if ((argc != 9 && argc != 10) || clock < 0 || bench_parse_uint(argv[4], &bytes) ||
        bench_parse_uint(argv[5], &threads) || bench_parse_uint(argv[6], &warm) ||
        bench_parse_uint(argv[7], &minsample) || bench_parse_uint(argv[8], &samples) ||
        threads == 0 || threads > 1024) {
        return 2;
    }
    p.warmup_ns = warm;
    p.min_sample_ns = minsample;
    p.samples = (unsigned)samples;
    p.clock = (bench_clock)clock;
    return bench_worker(argv[1], strcmp(argv[2], "floor") == 0, argv[3], (size_t)bytes,
                        (unsigned)threads, &p);
}

/* The command line for the record, which compare re-runs to confirm a regression: every
 * option but --json and --backend (given explicitly first). */
static void command_string(char *out, size_t cap, const char *backend, int argc, char **argv)
{
    size_t len = 0;
    int i;

    len += (size_t)snprintf(out + len, cap - len, "run --backend %s", backend);
    for (i = 1; i < argc && len < cap; i++) {
        if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--backend") == 0) {
            i++; /* skip the option and its value */
            continue;
        }
        if (strncmp(argv[i], "--backend=", 10) == 0) {
            continue;
        }
        len += (size_t)snprintf(out + len, cap - len, " %s", argv[i]);
    }
}

/* The backends to measure into names[0..cap): every compiled one, or the one named.
 * Returns how many, or 0 (message printed). */
static size_t pick_backends(const char *backend, const char **names, size_t cap)
{
    size_t i;

    if (backend == NULL || strcmp(backend, "all") == 0) {
        for (i = 0; i < sc_backend_count() && i < cap; i++) {
            names[i] = sc_backend_at(i)->name;
        }
        return i;
    }
    if (sc_backend_find(backend) == NULL) {
        bench_fail("no backend named '%s' in this build", backend);
        return 0;
    }
    names[0] = backend;
    return 1;
}

/* Writes the record to path. Returns 0, or 2 (message printed). */
static int write_record(const char *path, const bench_row *rows, size_t n, const char *command,
                        unsigned runs)
{
    FILE *f = fopen(path, "w");

    if (f == NULL || bench_write_json(f, rows, n, command, runs) != 0) {
        if (f != NULL) {
            fclose(f);
        }
        return bench_fail("cannot write %s", path);
    }
    if (fclose(f) != 0) {
        return bench_fail("cannot write %s", path);
    }
    return 0;
}

/* Runs the measurement of o into *rows (and o->json if set). Returns 0 or 2. */
static int measure(const run_opts *o, const char *command, bench_row **rows, size_t *n_rows)
{
    static bench_lane lanes[RUN_MAX_LANES];
    const char *names[64];
    char self[4096];
    bench_config cfg;
    long n_lanes;

    memset(&cfg, 0, sizeof cfg);
    cfg.n_backends = pick_backends(o->backend, names, 64);
    if (cfg.n_backends == 0) {
        return 2;
    }
    n_lanes = bench_lanes_pick(o->secp_build, o->peers, o->lanes, names[0], lanes, RUN_MAX_LANES);
    if (n_lanes < 0) {
        return 2;
    }
    cfg.lanes = lanes;
    cfg.n_lanes = (size_t)n_lanes;
    if (bench_self_path(self, sizeof self) != 0) {
        return bench_fail("cannot find this executable (/proc/self/exe)");
    }
    cfg.backends = names;
    cfg.only = o->only;
    cfg.runs = (unsigned)o->runs;
    cfg.floors = o->floors;
    cfg.self = self;
    cfg.progress = 1; /* redrawn on a terminal, else a line about every 5% */
    cfg.params.warmup_ns = o->quick ? 10000000u : 100000000u;
    cfg.params.min_sample_ns = 1000000u;
    cfg.params.samples = 20;
    cfg.params.clock = o->clock;
    if (bench_run_all(&cfg, rows, n_rows) != 0) {
        return bench_fail("the benchmark could not run");
    }
    return o->json != NULL ? write_record(o->json, *rows, *n_rows, command, cfg.runs) : 0;
}

/* Parses run's options into o. Returns 0, 2 on a usage error (printed), or -1
 * after printing the help. */
static int parse_run_opts(int argc, char **argv, run_opts *o)
{
    int i;

    memset(o, 0, sizeof *o);
    o->runs = 3;
    o->floors = 1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(bench_run_usage, stdout);
            return -1;
        } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            o->backend = argv[++i];
        } else if (strncmp(argv[i], "--backend=", 10) == 0) {
            o->backend = argv[i] + 10;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            o->only = argv[++i];
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            o->json = argv[++i];
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            if (bench_parse_uint(argv[++i], &o->runs) != 0 || o->runs == 0 ||
                o->runs > BENCH_MAX_RUNS) {
                return bench_usage_error(bench_run_usage, "--runs takes 1..16");
            }
        } else if (strcmp(argv[i], "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(argv[i], "--no-floors") == 0) {
            o->floors = 0;
        } else if (strcmp(argv[i], "--peers") == 0 && i + 1 < argc) {
            o->peers = argv[++i];
        } else if (strcmp(argv[i], "--secp-build") == 0 && i + 1 < argc) {
            o->secp_build = argv[++i];
        } else if (strcmp(argv[i], "--lanes") == 0 && i + 1 < argc) {
            o->lanes = argv[++i];
        } else if (strcmp(argv[i], "--clock") == 0 && i + 1 < argc) {
            int c = bench_clock_parse(argv[++i]);
            if (c < 0) {
                return bench_usage_error(bench_run_usage, "--clock takes wall or cpu");
            }
            o->clock = (bench_clock)c;
        } else {
            return bench_usage_error(bench_run_usage, "run: bad arguments");
        }
    }
    if (o->quick && o->runs == 3) {
        o->runs = 1;
    }
    return 0;
}

int bench_cmd_run(int argc, char **argv)
{
    char command[1024];
    bench_row *rows = NULL;
    size_t n_rows = 0, i;
    run_opts o;
    int rc = parse_run_opts(argc, argv, &o);

    if (rc != 0) {
        return rc < 0 ? 0 : rc;
    }
    command_string(command, sizeof command, o.backend != NULL ? o.backend : "all", argc, argv);
    rc = measure(&o, command, &rows, &n_rows);
    if (rc == 0) {
        print_table(rows, n_rows);
        for (i = 0; i < n_rows; i++) {
            if (rows[i].failed) {
                rc = 2; /* a broken operation is an environment error */
            }
        }
    }
    free(rows);
    return rc;
}
