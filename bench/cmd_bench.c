/* softchat bench: run the workload under the measurement contract, print a table and write
 * the JSON record; softchat bench compare: the table and the regression gate. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <softchat/softchat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "results_io.h"
#include "runner.h"
#include "worker.h"

const char bench_usage[] =
    "usage: softchat bench [--backend NAME|all] [--only OP[,OP...]] [--runs N] [--json FILE]\n"
    "                      [--quick] [--no-floors]\n"
    "       softchat bench compare BASE.json CURRENT.json [--variation RUNS.json] [--no-retry]\n"
    "                      [--footprint BASE.tsv CURRENT.tsv]\n"
    "\n"
    "  bench          measures every operation (or those named by --only) on every compiled\n"
    "                 backend (--backend all, the default) or one, each measurement in its own\n"
    "                 process: warm-up, a calibrated inner loop of at least 1 ms per sample,\n"
    "                 at least 20 samples, per-call median and p95; --runs (default 3)\n"
    "                 independent processes per configuration, backends alternating A B A B;\n"
    "                 the result is the median of the run medians and of the run p95s.\n"
    "                 Allocations per call and peak RSS are recorded beside latency, and the\n"
    "                 floors (libsecp256k1 alone, each backend's primitives) unless\n"
    "                 --no-floors. --quick: shorter warm-up and 1 run (a smoke test, not a\n"
    "                 measurement). Prints a table; --json writes the record\n"
    "                 (docs/benchmarks.md).\n"
    "  bench compare  the markdown table (Operation | Bytes | Baseline median | Current median\n"
    "                 | Delta | Current p95 | p95 delta) and the gate: a row regresses when its\n"
    "                 median grows more than 10%, its p95 more than 15%, or its allocations or\n"
    "                 peak RSS more than 10%, or 3x the runner variation measured in\n"
    "                 --variation (>= 5 runs of an unchanged revision) when that is larger.\n"
    "                 A regression must reproduce on one automatic re-run of CURRENT's bench\n"
    "                 command (unless --no-retry). --footprint: footprint.tsv files of two\n"
    "                 audits; a compressed artifact fails only when it grows by more than\n"
    "                 both 5% and 100 KiB. Exit 0 pass, 1 regression, 2 error.\n";

static int usage_error(const char *msg)
{
    fprintf(stderr, "softchat: %s\n%s", msg, bench_usage);
    return 2;
}

/* Path of this executable, for spawning workers. */
static int self_path(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);

    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    return 0;
}

static void fmt_ns(char *buf, size_t cap, double ns)
{
    if (ns < 0) {
        snprintf(buf, cap, "-");
    } else if (ns < 1e3) {
        snprintf(buf, cap, "%.0f ns", ns);
    } else if (ns < 1e6) {
        snprintf(buf, cap, "%.2f us", ns / 1e3);
    } else {
        snprintf(buf, cap, "%.2f ms", ns / 1e6);
    }
}

static void print_table(const bench_row *rows, size_t n)
{
    size_t i;

    printf("%-16s %-22s %8s %4s %11s %11s %9s %8s\n", "backend", "operation", "bytes", "thr",
           "median", "p95", "allocs", "rss KiB");
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        char m[32], p[32], a[32];

        fmt_ns(m, sizeof m, r->failed ? -1 : r->median_ns);
        fmt_ns(p, sizeof p, r->failed ? -1 : r->p95_ns);
        if (r->failed || r->allocs < 0) {
            snprintf(a, sizeof a, "-");
        } else {
            snprintf(a, sizeof a, "%.2f", r->allocs);
        }
        printf("%-16s %-22s %8zu %4u %11s %11s %9s %8ld%s\n", r->backend, r->operation, r->bytes,
               r->threads, m, p, a, r->failed ? 0L : r->rss_kb,
               r->unsupported ? "  unsupported on this backend" : r->failed ? "  FAILED" : "");
    }
}

static int parse_uint(const char *s, unsigned long long *v)
{
    char *end;

    errno = 0;
    *v = strtoull(s, &end, 10);
    return (errno == 0 && end != s && *end == '\0') ? 0 : -1;
}

static int run_worker(int argc, char **argv)
{
    unsigned long long idx, warm, minsample, samples;
    bench_params p;

    /* bench --worker BACKEND op|floor INDEX WARMUP_NS MIN_SAMPLE_NS SAMPLES */
    if (argc != 8 || parse_uint(argv[4], &idx) || parse_uint(argv[5], &warm) ||
        parse_uint(argv[6], &minsample) || parse_uint(argv[7], &samples)) {
        return 2;
    }
    p.warmup_ns = warm;
    p.min_sample_ns = minsample;
    p.samples = (unsigned)samples;
    return bench_worker(argv[2], strcmp(argv[3], "floor") == 0, (size_t)idx, &p);
}

/* Joins argv into a command string for the record (the JSON path is left out). */
static void command_string(char *out, size_t cap, const char *backend, int argc, char **argv)
{
    size_t len = 0;
    int i;

    len += (size_t)snprintf(out + len, cap - len, "bench --backend %s", backend);
    for (i = 1; i < argc && len < cap; i++) {
        if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--backend") == 0) {
            i++; /* skip the option and its value */
            continue;
        }
        len += (size_t)snprintf(out + len, cap - len, " %s", argv[i]);
    }
}

/* Runs a measurement with the given options and writes rows (and json_path if set). */
static int measure(const char *backend, const char *only, unsigned runs, int quick, int floors,
                   const char *json_path, const char *command, int progress, bench_row **rows,
                   size_t *n_rows)
{
    const char *names[64];
    char self[4096];
    bench_config cfg;
    size_t i;

    memset(&cfg, 0, sizeof cfg);
    if (backend == NULL || strcmp(backend, "all") == 0) {
        for (i = 0; i < sc_backend_count() && i < 64; i++) {
            names[i] = sc_backend_at(i)->name;
        }
        cfg.n_backends = i;
    } else {
        if (sc_backend_find(backend) == NULL) {
            fprintf(stderr, "softchat: no backend named '%s' in this build\n", backend);
            return 2;
        }
        names[0] = backend;
        cfg.n_backends = 1;
    }
    if (self_path(self, sizeof self) != 0) {
        fprintf(stderr, "softchat: cannot find this executable (/proc/self/exe)\n");
        return 2;
    }
    cfg.backends = names;
    cfg.only = only;
    cfg.runs = runs;
    cfg.floors = floors;
    cfg.self = self;
    cfg.progress = progress;
    cfg.params.warmup_ns = quick ? 10000000u : 100000000u;
    cfg.params.min_sample_ns = 1000000u;
    cfg.params.samples = 20;
    if (bench_run_all(&cfg, rows, n_rows) != 0) {
        fprintf(stderr, "softchat: bench could not run\n");
        return 2;
    }
    if (json_path != NULL) {
        FILE *f = fopen(json_path, "w");
        if (f == NULL || bench_write_json(f, *rows, *n_rows, command, runs) != 0) {
            fprintf(stderr, "softchat: cannot write %s\n", json_path);
            if (f != NULL) {
                fclose(f);
            }
            return 2;
        }
        if (fclose(f) != 0) {
            fprintf(stderr, "softchat: cannot write %s\n", json_path);
            return 2;
        }
    }
    return 0;
}

/* Re-runs CURRENT's bench command (same options, this binary) into a temporary file. */
static int rerun(const bench_file *cur, bench_file *again)
{
    char cmd[1024], tmpl[] = "/tmp/softchat-bench-retry-XXXXXX", self[4096], err[256];
    int fd = mkstemp(tmpl), rc;

    if (fd < 0 || self_path(self, sizeof self) != 0) {
        return -1;
    }
    close(fd);
    if (snprintf(cmd, sizeof cmd, "'%s' %s --json '%s' >/dev/null", self, cur->command, tmpl) >=
        (int)sizeof cmd) {
        unlink(tmpl);
        return -1;
    }
    fprintf(stderr, "softchat: regression found; re-running to confirm: %s\n", cur->command);
    rc = system(cmd);
    if (rc == 0) {
        rc = bench_load_json(tmpl, again, err, sizeof err);
    }
    unlink(tmpl);
    return rc == 0 ? 0 : -1;
}

static int run_compare(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL}, *var_path = NULL, *fp_base = NULL, *fp_cur = NULL;
    bench_file base, cur, var, again;
    char err[512], (*keys)[160], (*keys2)[160];
    compare_opts opts;
    size_t n_reg, n2, i, j, confirmed = 0;
    int retry = 1, n_paths = 0, rc = 2;

    for (i = 1; i < (size_t)argc; i++) {
        if (strcmp(argv[i], "--variation") == 0 && i + 1 < (size_t)argc) {
            var_path = argv[++i];
        } else if (strcmp(argv[i], "--footprint") == 0 && i + 2 < (size_t)argc) {
            fp_base = argv[++i];
            fp_cur = argv[++i];
        } else if (strcmp(argv[i], "--no-retry") == 0) {
            retry = 0;
        } else if (argv[i][0] != '-' && n_paths < 2) {
            paths[n_paths++] = argv[i];
        } else {
            return usage_error("bench compare: bad arguments");
        }
    }
    if (n_paths != 2) {
        return usage_error("bench compare needs BASE.json and CURRENT.json");
    }
    memset(&var, 0, sizeof var);
    if (bench_load_json(paths[0], &base, err, sizeof err) != 0) {
        fprintf(stderr, "softchat: %s\n", err);
        return 2;
    }
    if (bench_load_json(paths[1], &cur, err, sizeof err) != 0) {
        fprintf(stderr, "softchat: %s\n", err);
        bench_file_free(&base);
        return 2;
    }
    if (var_path != NULL && bench_load_json(var_path, &var, err, sizeof err) != 0) {
        fprintf(stderr, "softchat: %s\n", err);
        goto out;
    }
    keys = calloc(256, sizeof *keys);
    keys2 = calloc(256, sizeof *keys2);
    if (keys == NULL || keys2 == NULL) {
        free(keys);
        free(keys2);
        goto out;
    }
    memset(&opts, 0, sizeof opts);
    opts.variation = var_path != NULL ? &var : NULL;
    printf("## Benchmark comparison\n\nBaseline: `%s` (%s); current: `%s` (%s). Negative deltas "
           "mean faster.\n",
           paths[0], base.revision, paths[1], cur.revision);
    n_reg = bench_compare(stdout, &base, &cur, &opts, keys, 256);
    confirmed = n_reg;
    if (n_reg > 0 && retry && cur.command[0] != '\0') {
        FILE *null = fopen("/dev/null", "w");
        if (null != NULL && rerun(&cur, &again) == 0) {
            n2 = bench_compare(null, &base, &again, &opts, keys2, 256);
            confirmed = 0;
            for (i = 0; i < n_reg && i < 256; i++) {
                for (j = 0; j < n2 && j < 256; j++) {
                    if (strcmp(keys[i], keys2[j]) == 0) {
                        confirmed++;
                        printf("\nconfirmed on re-run: %s", keys[i]);
                        break;
                    }
                }
            }
            printf("\n%zu of %zu regressions reproduced on the re-run\n", confirmed, n_reg);
            bench_file_free(&again);
        } else {
            printf("\nthe re-run could not be done; counting the first result\n");
        }
        if (null != NULL) {
            fclose(null);
        }
    }
    if (fp_base != NULL) {
        size_t fp = bench_compare_footprint(stdout, fp_base, fp_cur);
        if (fp == (size_t)-1) {
            fprintf(stderr, "softchat: cannot read the footprint files\n");
            goto out_free;
        }
        confirmed += fp;
    }
    printf("\n**Gate: %s** (%zu regression%s)\n", confirmed ? "FAIL" : "PASS", confirmed,
           confirmed == 1 ? "" : "s");
    rc = confirmed ? 1 : 0;
out_free:
    free(keys);
    free(keys2);
out:
    bench_file_free(&base);
    bench_file_free(&cur);
    bench_file_free(&var);
    return rc;
}

int bench_command(const char *backend, int argc, char **argv)
{
    const char *only = NULL, *json = NULL;
    unsigned long long runs = 3;
    int quick = 0, floors = 1, i, rc;
    char command[1024];
    bench_row *rows = NULL;
    size_t n_rows = 0;

    if (argc >= 2 && strcmp(argv[1], "--worker") == 0) {
        return run_worker(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "compare") == 0) {
        return run_compare(argc - 1, argv + 1);
    }
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(bench_usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            if (parse_uint(argv[++i], &runs) != 0 || runs == 0 || runs > BENCH_MAX_RUNS) {
                return usage_error("--runs takes 1..16");
            }
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--no-floors") == 0) {
            floors = 0;
        } else {
            return usage_error("bench: bad arguments");
        }
    }
    if (quick && runs == 3) {
        runs = 1;
    }
    command_string(command, sizeof command, backend != NULL ? backend : "all", argc, argv);
    rc = measure(backend, only, (unsigned)runs, quick, floors, json, command, isatty(2), &rows,
                 &n_rows);
    if (rc == 0) {
        print_table(rows, n_rows);
        for (i = 0; (size_t)i < n_rows; i++) {
            if (rows[i].failed) {
                rc = 2; /* a broken operation is an environment error */
            }
        }
    }
    free(rows);
    return rc;
}
