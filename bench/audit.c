/* softchat-bench audit: self-test and conformance summary for every backend, the full benchmark
 * under the contract, the peers, the footprint, then DIR/report.md with SVG charts and the
 * raw JSON. */
#define _POSIX_C_SOURCE 200809L
#include <softchat/softchat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "harness.h"
#include "report.h"
#include "report_jvm.h"
#include "results_io.h"
#include "runner.h"
#include "svg.h"

#ifndef SOFTCHAT_SOURCE_DIR
#define SOFTCHAT_SOURCE_DIR "."
#endif

const char bench_audit_usage[] =
    "usage: softchat-bench audit [--out DIR] [--build-dir DIR]\n"
    "                            [--profiles NAME=DIR[,NAME=DIR...]] [--secp-build DIR]\n"
    "                            [--no-peers] [--runs N] [--jvm full|quick|off] [--jvm-only]\n"
    "\n"
    "  Runs the self-test and the conformance suites (ctest in the build directory) for every\n"
    "  backend, the full benchmark under the measurement contract (docs/benchmarks.md) with\n"
    "  its floors, the peer benchmarks (bench/peers/*/run.sh; a peer that cannot be installed\n"
    "  is reported as such) and the footprint of each build profile, and writes DIR/report.md\n"
    "  (default DIR: audit) with SVG charts and the raw records (bench.json, footprint.tsv,\n"
    "  peers/*.json). --secp-build DIR: a build of this library against the libsecp256k1\n"
    "  release a peer bundles (SOFTCHAT_SECP256K1_SOURCE_DIR); its default backend is measured\n"
    "  too and set beside the peers (like for like). --jvm: the Kotlin facade under JMH with\n"
    "  its JVM peers (bindings/kotlin/jmh/run.sh, into DIR/jvm; quick is the CI smoke\n"
    "  profile; default full); --jvm-only runs and reports that alone. Prints a short\n"
    "  summary. Exit 0 when everything ran (targets missed are reported, not fatal), 2 when\n"
    "  a stage could not run.\n";

static void progress(int step, int steps, const char *what)
{
    fprintf(stderr, "[%d/%d] %s\n", step, steps, what);
}

static void append(char *dst, size_t cap, const char *fmt, const char *a, const char *b)
{
    size_t len = strlen(dst);
    if (len < cap) {
        snprintf(dst + len, cap - len, fmt, a, b);
    }
}

static void run_selftest(audit_data *d)
{
    size_t i;
    unsigned g;

    d->selftest[0] = '\0';
    for (i = 0; i < sc_backend_count(); i++) {
        const char *name = sc_backend_at(i)->name;
        char line[512] = "";
        sc_ctx ctx;
        sc_status st = sc_ctx_init(&ctx, name);

        if (st != SC_OK) {
            append(d->selftest, sizeof d->selftest, "- %s: context refused (%s)\n", name,
                   sc_status_name(st));
            continue;
        }
        for (g = 0; g < SC_GROUP_COUNT; g++) {
            size_t len = strlen(line);
            st = sc_ctx_selftest(&ctx, (sc_group)g);
            snprintf(line + len, sizeof line - len, "%s%s %s", g ? ", " : "",
                     sc_backend_group_name((sc_group)g),
                     st == SC_OK ? "ok" : st == SC_ERR_UNSUPPORTED ? "unsupported" : "FAILED");
        }
        append(d->selftest, sizeof d->selftest, "- %s: %s\n", name, line);
        sc_ctx_clear(&ctx);
    }
}

/* The conformance suites: every per-area suite on every backend, the fallback entries too
 * (conformance.h leaves their lines out). interop-node and the CLI drivers are not here. */
#define CONFORMANCE_TESTS "^(vectors|identity|event|nip19|nip44|nip59|nip17|file|interop)([.]|$)"

/* Runs the conformance suites with ctest in build_dir and reads their per-file counts. */
static void run_conformance(audit_data *d, const char *build_dir)
{
    char cmd[2048], line[4096], path[2048], why[2300];
    FILE *p = NULL;
    int status;

    conf_init(&d->conf);
    if (snprintf(path, sizeof path, "%s/CTestTestfile.cmake", build_dir) >= (int)sizeof path ||
        access(path, R_OK) != 0) {
        snprintf(why, sizeof why, "Not run: %.2048s is not a build directory with tests "
                 "(--build-dir).", build_dir);
        conf_not_run(&d->conf, why);
        return;
    }
    if (snprintf(cmd, sizeof cmd, "ctest --test-dir '%s' -V -R '%s' 2>&1", build_dir,
                 CONFORMANCE_TESTS) < (int)sizeof cmd) {
        p = popen(cmd, "r");
    }
    if (p == NULL) {
        conf_not_run(&d->conf, "Not run: cannot start ctest.");
        return;
    }
    while (fgets(line, sizeof line, p) != NULL) {
        conf_line(&d->conf, line);
    }
    status = pclose(p);
    conf_finish(&d->conf, status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void run_footprint(audit_data *d, const char *profiles, const char *out_dir)
{
    char cmd[4096], line[512], list[2048], path[2048];
    FILE *p, *tsv;

    d->n_footprint = 0;
    if (profiles == NULL) {
        return;
    }
    snprintf(list, sizeof list, "%s", profiles);
    for (char *c = list; *c; c++) {
        if (*c == ',') {
            *c = ' ';
        }
    }
    snprintf(cmd, sizeof cmd, "'%s/bench/footprint.sh' %s", SOFTCHAT_SOURCE_DIR, list);
    snprintf(path, sizeof path, "%s/footprint.tsv", out_dir);
    p = popen(cmd, "r");
    tsv = fopen(path, "w");
    if (p == NULL) {
        if (tsv != NULL) {
            fclose(tsv);
        }
        return;
    }
    while (fgets(line, sizeof line, p) != NULL && d->n_footprint < AUDIT_MAX_FOOTPRINT) {
        footprint_row *r = &d->footprint[d->n_footprint];
        if (tsv != NULL) {
            fputs(line, tsv);
        }
        if (sscanf(line, "%31s\t%31s\t%15s\t%lld", r->profile, r->artifact, r->variant,
                   &r->bytes) == 4) {
            d->n_footprint++;
        }
    }
    pclose(p);
    if (tsv != NULL) {
        fclose(tsv);
    }
}

static void run_peer(peer_result *pr, const char *name, const char *out_dir)
{
    char cmd[8192], json[2048], log[2048], err[256];
    int rc;

    snprintf(pr->name, sizeof pr->name, "%s", name);
    if (snprintf(json, sizeof json, "%s/peers/%s.json", out_dir, name) >= (int)sizeof json ||
        snprintf(log, sizeof log, "%s/peers/%s.log", out_dir, name) >= (int)sizeof log ||
        snprintf(cmd, sizeof cmd, "'%s/bench/peers/%s/run.sh' '%s' >'%s' 2>&1",
                 SOFTCHAT_SOURCE_DIR, name, json, log) >= (int)sizeof cmd) {
        snprintf(pr->failure, sizeof pr->failure, "output path too long");
        return;
    }
    rc = system(cmd);
    if (rc != 0) {
        FILE *l = fopen(log, "r");
        char last[512] = "see the log", line[512];
        while (l != NULL && fgets(line, sizeof line, l) != NULL) {
            line[strcspn(line, "\n")] = '\0';
            if (line[0] != '\0') {
                snprintf(last, sizeof last, "%s", line);
            }
        }
        if (l != NULL) {
            fclose(l);
        }
        snprintf(pr->failure, sizeof pr->failure, "could not be installed or run (%.400s; log: "
                 "peers/%.32s.log)", last, name);
        return;
    }
    if (bench_load_json(json, &pr->file, err, sizeof err) != 0) {
        snprintf(pr->failure, sizeof pr->failure, "its result could not be read: %s", err);
        return;
    }
    pr->ok = 1;
}

/* Measures the default backend of another build (the like-for-like libsecp256k1) into
 * DIR/bench-secp.json and loads it into d->alt. */
static void run_alt(audit_data *d, const char *alt_build, const char *out_dir, unsigned long runs)
{
    char cmd[8192], json[2048], err[256];

    if (snprintf(json, sizeof json, "%s/bench-secp.json", out_dir) >= (int)sizeof json ||
        snprintf(cmd, sizeof cmd,
                 "'%s/bench/softchat-bench' run --backend '%s' --runs %lu --json '%s' "
                 ">/dev/null",
                 alt_build, d->default_backend, runs, json) >= (int)sizeof cmd) {
        snprintf(d->alt_failure, sizeof d->alt_failure, "path too long");
        return;
    }
    if (system(cmd) != 0) {
        snprintf(d->alt_failure, sizeof d->alt_failure, "the bench of %.400s failed", alt_build);
        return;
    }
    if (bench_load_json(json, &d->alt, err, sizeof err) != 0) {
        snprintf(d->alt_failure, sizeof d->alt_failure, "%.400s", err);
        return;
    }
    snprintf(d->alt_label, sizeof d->alt_label, "%s, libsecp256k1 %.100s", d->default_backend,
             d->alt.secp256k1);
}

static int write_file_svg(const char *dir, const char *name, const bench_row *rows, size_t n,
                          void (*fn)(FILE *, const bench_row *, size_t))
{
    char path[2048];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    fn(f, rows, n);
    return fclose(f);
}

/* Our rows plus the peers' (for the charts). */
static bench_row *merge_rows(const bench_row *rows, size_t n, const audit_data *d, size_t *out_n)
{
    size_t total = n, i, k;
    bench_row *all;

    for (i = 0; i < d->n_peers; i++) {
        total += d->peers[i].ok ? d->peers[i].file.n_rows : 0;
    }
    all = malloc((total ? total : 1) * sizeof *all);
    if (all == NULL) {
        *out_n = 0;
        return NULL;
    }
    memcpy(all, rows, n * sizeof *rows);
    k = n;
    for (i = 0; i < d->n_peers; i++) {
        if (d->peers[i].ok) {
            memcpy(all + k, d->peers[i].file.rows, d->peers[i].file.n_rows * sizeof *all);
            k += d->peers[i].file.n_rows;
        }
    }
    *out_n = k;
    return all;
}

/* The options of an audit. */
typedef struct audit_opts {
    const char *out_dir, *build_dir, *profiles, *alt_build;
    const char *jvm; /* "full", "quick" or "off" */
    unsigned long runs;
    int peers, jvm_only;
    char self[4096];      /* this executable */
    char build_buf[4096]; /* the default build directory: BUILD of BUILD/bench/softchat-bench */
} audit_opts;

/* Parses the options into o. Returns 0, 2 on a usage error (printed), or -1 after printing
 * the help. */
static int parse_audit_opts(int argc, char **argv, audit_opts *o)
{
    unsigned long long runs;
    int i;

    memset(o, 0, sizeof *o);
    o->out_dir = "audit";
    o->runs = 3;
    o->peers = 1;
    o->jvm = "full";
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(bench_audit_usage, stdout);
            return -1;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            o->out_dir = argv[++i];
        } else if (strcmp(argv[i], "--build-dir") == 0 && i + 1 < argc) {
            o->build_dir = argv[++i];
        } else if (strcmp(argv[i], "--profiles") == 0 && i + 1 < argc) {
            o->profiles = argv[++i];
        } else if (strcmp(argv[i], "--secp-build") == 0 && i + 1 < argc) {
            o->alt_build = argv[++i];
        } else if (strcmp(argv[i], "--no-peers") == 0) {
            o->peers = 0;
        } else if (strcmp(argv[i], "--jvm") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "full") == 0 || strcmp(argv[i + 1], "quick") == 0 ||
                    strcmp(argv[i + 1], "off") == 0)) {
            o->jvm = argv[++i];
        } else if (strcmp(argv[i], "--jvm-only") == 0) {
            o->jvm_only = 1;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            if (bench_parse_uint(argv[++i], &runs) != 0 || runs == 0 || runs > BENCH_MAX_RUNS) {
                return bench_usage_error(bench_audit_usage, "--runs takes 1..16");
            }
            o->runs = (unsigned long)runs;
        } else {
            return bench_usage_error(bench_audit_usage, "audit: bad arguments");
        }
    }
    return 0;
}

/* Finds this executable and the build directory (by default the one it was built in), and
 * creates DIR and DIR/peers. Returns 0 or 2 (message printed). */
static int prepare(audit_opts *o)
{
    char path[4096];
    int k;

    if (bench_self_path(o->self, sizeof o->self) != 0) {
        return bench_fail("cannot find this executable (/proc/self/exe)");
    }
    if (o->build_dir == NULL) { /* BUILD/bench/softchat-bench */
        snprintf(o->build_buf, sizeof o->build_buf, "%s", o->self);
        for (k = 0; k < 2; k++) {
            char *slash = strrchr(o->build_buf, '/');
            if (slash != NULL) {
                *slash = '\0';
            }
        }
        o->build_dir = o->build_buf;
    }
    snprintf(path, sizeof path, "%s/peers", o->out_dir);
    if ((mkdir(o->out_dir, 0755) != 0 && errno != EEXIST) ||
        (mkdir(path, 0755) != 0 && errno != EEXIST)) {
        return bench_fail("cannot create %s", o->out_dir);
    }
    return 0;
}

/* Step 3: every operation and floor on every backend, into *rows_out (the caller frees it;
 * d->rows points to it) and DIR/bench.json. Returns 0 or 2 (message printed; nothing kept). */
static int run_benchmark(audit_data *d, const audit_opts *o, bench_row **rows_out)
{
    const char *names[64];
    char path[4096];
    bench_config cfg;
    bench_row *rows = NULL;
    size_t n_rows = 0, k;
    FILE *f;

    memset(&cfg, 0, sizeof cfg);
    for (k = 0; k < sc_backend_count() && k < 64; k++) {
        names[k] = sc_backend_at(k)->name;
    }
    cfg.backends = names;
    cfg.n_backends = k;
    cfg.runs = (unsigned)o->runs;
    cfg.floors = 1;
    cfg.self = o->self;
    cfg.progress = 1;
    cfg.params.warmup_ns = 100000000u;
    cfg.params.min_sample_ns = 1000000u;
    cfg.params.samples = 20;
    if (bench_run_all(&cfg, &rows, &n_rows) != 0) {
        return bench_fail("the benchmark could not run");
    }
    snprintf(path, sizeof path, "%s/bench.json", o->out_dir);
    f = fopen(path, "w");
    if (f == NULL ||
        bench_write_json(f, rows, n_rows, "run --backend all", (unsigned)o->runs) != 0) {
        bench_fail("cannot write %s", path);
        if (f != NULL) {
            fclose(f);
        }
        free(rows);
        return 2;
    }
    fclose(f);
    *rows_out = rows;
    d->rows = rows;
    d->n_rows = n_rows;
    return 0;
}

/* The like-for-like measurement (--secp-build), when asked for. */
static void run_like_for_like(audit_data *d, const audit_opts *o)
{
    if (o->alt_build == NULL) {
        return;
    }
    fprintf(stderr, "  like for like: %s against the libsecp256k1 in %s\n", d->default_backend,
            o->alt_build);
    run_alt(d, o->alt_build, o->out_dir, o->runs);
    if (d->alt_failure[0] != '\0') {
        fprintf(stderr, "  like for like not measured: %s\n", d->alt_failure);
    }
}

/* Step 4: the peers (a peer that cannot be installed is reported, not fatal). */
static void run_peers(audit_data *d, const audit_opts *o)
{
    static const char *const peer_names[] = {"nostr-tools", "rust-nostr"};
    size_t k;

    for (k = 0; o->peers && k < sizeof peer_names / sizeof peer_names[0]; k++) {
        run_peer(&d->peers[d->n_peers], peer_names[k], o->out_dir);
        fprintf(stderr, "  %s: %s\n", peer_names[k],
                d->peers[d->n_peers].ok ? "measured" : d->peers[d->n_peers].failure);
        d->n_peers++;
    }
}

/* Step 6: the charts (a failure is reported, not fatal) and DIR/report.md. Returns 0 or 2. */
static int write_report(const audit_data *d, const audit_opts *o)
{
    char path[4096];
    bench_row *all;
    size_t n_all;
    FILE *f;

    all = merge_rows(d->rows, d->n_rows, d, &n_all);
    if (all == NULL || write_file_svg(o->out_dir, "latency-vs-size.svg", all, n_all,
                                      svg_latency_vs_size) != 0 ||
        write_file_svg(o->out_dir, "operations.svg", all, n_all, svg_operation_bars) != 0) {
        bench_fail("cannot write the charts");
    }
    free(all);
    snprintf(path, sizeof path, "%s/report.md", o->out_dir);
    f = fopen(path, "w");
    if (f == NULL) {
        return bench_fail("cannot write %s", path);
    }
    report_write(f, d);
    fclose(f);
    return 0;
}

/* The summary on stdout: where the report is, the targets, the conformance line. */
static void print_summary(const audit_data *d, const audit_opts *o)
{
    size_t missed;

    printf("audit written to %s/report.md (%.0f s)\n\n", o->out_dir, d->wall_s);
    missed = report_targets(stdout, d);
    printf("\n%zu target%s missed; conformance: %s\n", missed, missed == 1 ? "" : "s",
           d->conf.note);
}

/* The JVM section, appended to report.md. Returns the JVM targets missed or not measured. */
static size_t append_jvm(const audit_opts *o)
{
    char path[4096];
    size_t missed;
    FILE *f;

    snprintf(path, sizeof path, "%s/report.md", o->out_dir);
    f = fopen(path, "a");
    if (f == NULL) {
        return 1;
    }
    missed = jvm_report(f, o->out_dir);
    fclose(f);
    printf("JVM: %zu target%s missed or not measured (report.md, section JVM)\n", missed,
           missed == 1 ? "" : "s");
    return missed;
}

/* --jvm-only: the JVM benchmarks and a report.md holding their section alone. */
static int audit_jvm_only(const audit_opts *o)
{
    char path[4096];
    FILE *f;
    int ran;

    progress(1, 1, "jvm: the Kotlin facade under JMH, with its peers");
    ran = jvm_run(o->out_dir, o->build_dir, strcmp(o->jvm, "quick") == 0);
    snprintf(path, sizeof path, "%s/report.md", o->out_dir);
    f = fopen(path, "w");
    if (f == NULL) {
        return bench_fail("cannot write %s", path);
    }
    fprintf(f, "# libsoftchat audit: JVM only\n");
    fclose(f);
    append_jvm(o);
    printf("written to %s/report.md\n", o->out_dir);
    return ran == 0 ? 0 : 2;
}

static void free_audit(audit_data *d)
{
    size_t k;

    for (k = 0; k < d->n_peers; k++) {
        bench_file_free(&d->peers[k].file);
    }
    bench_file_free(&d->alt);
    conf_free(&d->conf);
}

int bench_cmd_audit(int argc, char **argv)
{
    static audit_data d; /* large; one per process */
    static audit_opts o;
    const int steps = 6;
    bench_row *rows = NULL;
    uint64_t t0 = bench_now_ns();
    int rc = parse_audit_opts(argc, argv, &o);

    if (rc != 0) {
        return rc < 0 ? 0 : rc;
    }
    if (prepare(&o) != 0) {
        return 2;
    }
    d.default_backend = sc_backend_default()->name;
    d.runs = (unsigned)o.runs;
    if (o.jvm_only) {
        return audit_jvm_only(&o);
    }

    progress(1, steps, "self-test of every backend");
    run_selftest(&d);
    fputs(d.selftest, stderr);

    progress(2, steps, "conformance suites (ctest)");
    run_conformance(&d, o.build_dir);
    fprintf(stderr, "  %s\n", d.conf.note);

    progress(3, steps, "benchmark: every operation and floor on every backend");
    if (run_benchmark(&d, &o, &rows) != 0) {
        return 2;
    }
    run_like_for_like(&d, &o);

    progress(4, steps, o.peers ? "peers: nostr-tools, rust-nostr" : "peers: skipped (--no-peers)");
    run_peers(&d, &o);
    if (strcmp(o.jvm, "off") != 0) {
        fprintf(stderr, "  jvm (%s profile): %s\n", o.jvm,
                jvm_run(o.out_dir, o.build_dir, strcmp(o.jvm, "quick") == 0) == 0
                    ? "measured" : "not measured (see jvm/failure.txt)");
    }

    progress(5, steps, "footprint");
    run_footprint(&d, o.profiles, o.out_dir);

    progress(6, steps, "report");
    d.wall_s = (double)(bench_now_ns() - t0) / 1e9;
    rc = write_report(&d, &o);
    if (rc == 0 && strcmp(o.jvm, "off") != 0) {
        append_jvm(&o);
    }
    if (rc == 0) {
        print_summary(&d, &o);
    }
    free_audit(&d);
    free(rows);
    return rc;
}
