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
#include "bench_revision.h"
#include "harness.h"
#include "lanes.h"
#include "report.h"
#include "report_jvm.h"
#include "results_io.h"
#include "runner.h"
#include "svg.h"

#ifndef SOFTCHAT_SOURCE_DIR
#define SOFTCHAT_SOURCE_DIR "."
#endif

#define AUDIT_MAX_LANES 8

const char bench_audit_usage[] =
    "usage: softchat-bench audit [--out DIR] [--build-dir DIR]\n"
    "                            [--profiles NAME=DIR[,NAME=DIR...]] [--secp-build DIR]\n"
    "                            [--no-peers] [--runs N] [--only OP[,OP...]]\n"
    "                            [--clock wall|cpu] [--jvm full|quick|off] [--jvm-only]\n"
    "\n"
    "  Runs the self-test and the conformance suites (ctest in the build directory) for every\n"
    "  backend, the full benchmark under the measurement contract (docs/benchmarks.md) with\n"
    "  its floors and, interleaved with it process by process, the peers (bench/peers/*/run.sh\n"
    "  --prepare; a peer that cannot be installed is reported as such), then a verdict with a\n"
    "  margin for every row rust-nostr and we both measure (rows whose runs disagree are\n"
    "  measured again), and the footprint of each build profile, and writes DIR/report.md\n"
    "  (default DIR: audit) with SVG charts and the raw records (bench.json, footprint.tsv,\n"
    "  peers/*.json, retry.json). --secp-build DIR: a build of this library against the\n"
    "  libsecp256k1 release a peer bundles, built as the peer builds it\n"
    "  (SOFTCHAT_SECP256K1_SOURCE_DIR); its default backend is measured in the same\n"
    "  interleaving and set beside the peers (like for like). --only: those operations only (a\n"
    "  focused audit; the floors are all measured). --clock cpu: samples timed with the\n"
    "  measuring thread's CPU time (softchat-bench run --help). --jvm: the Kotlin facade under\n"
    "  JMH with its JVM peers (bindings/kotlin/jmh/run.sh, into DIR/jvm; quick is the CI smoke\n"
    "  profile; default full); --jvm-only runs and reports that alone. Prints a short summary.\n"
    "  Exit 0 when everything ran (targets missed are reported, not fatal), 2 when a stage\n"
    "  could not run.\n";

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
                     st == SC_OK                ? "ok"
                     : st == SC_ERR_UNSUPPORTED ? "unsupported"
                                                : "FAILED");
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
        snprintf(why, sizeof why,
                 "Not run: %.2048s is not a build directory with tests "
                 "(--build-dir).",
                 build_dir);
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
    const char *out_dir, *build_dir, *profiles, *alt_build, *only;
    const char *jvm; /* "full", "quick" or "off" */
    unsigned long runs;
    int peers, jvm_only;
    bench_clock clock;
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
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            o->only = argv[++i];
        } else if (strcmp(argv[i], "--clock") == 0 && i + 1 < argc) {
            int c = bench_clock_parse(argv[++i]);
            if (c < 0) {
                return bench_usage_error(bench_audit_usage, "--clock takes wall or cpu");
            }
            o->clock = (bench_clock)c;
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

/* The lanes of an audit: the like-for-like build, then each peer's; lane_peer[k] is the
 * index in d->peers of lane k's peer, or -1 for the like-for-like build. */
typedef struct audit_lanes {
    bench_lane lane[AUDIT_MAX_LANES];
    int lane_peer[AUDIT_MAX_LANES];
    size_t n;
    char meta[AUDIT_MAX_PEERS][2048]; /* each peer's description */
} audit_lanes;

/* The options the like-for-like libsecp256k1 was built with, from that build's cache. */
static void read_alt_options(const char *cache, char *out, size_t cap)
{
    static const char *const keys[] = {"SECP256K1_ASM", "SECP256K1_ECMULT_WINDOW_SIZE",
                                       "SECP256K1_ECMULT_GEN_PREC_BITS", "SECP256K1_VALGRIND",
                                       "SOFTCHAT_SECP256K1_C_FLAGS"};
    char line[1024];
    FILE *f = fopen(cache, "r");
    size_t k;

    out[0] = '\0';
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t n = strlen(keys[k]);
            const char *eq = strchr(line, '=');
            if (strncmp(line, keys[k], n) == 0 && line[n] == ':' && eq != NULL) {
                size_t len = strlen(out);
                snprintf(out + len, cap - len, "%s%s=%s", len ? ", " : "", keys[k], eq + 1);
            }
        }
    }
    if (f != NULL) {
        fclose(f);
    }
}

/* A copy of src (its argv rebased into the copy's store). */
static void copy_lane(bench_lane *dst, const bench_lane *src)
{
    size_t i;

    *dst = *src;
    for (i = 0; i < sizeof dst->argv / sizeof dst->argv[0] && src->argv[i] != NULL; i++) {
        dst->argv[i] = dst->store + (src->argv[i] - src->store);
    }
}

static const char *const peer_names[] = {"nostr-tools", "rust-nostr"};

/* Installs the peers and finds the like-for-like build; a peer or build that cannot be
 * prepared is reported (d->peers[k].failure, d->alt_failure), not fatal. */
static void prepare_lanes(audit_data *d, const audit_opts *o, audit_lanes *L)
{
    char log[2048], why[1024], secp[64], opts[2048];
    size_t k, before;

    if (o->alt_build != NULL) {
        if (bench_build_lane(o->alt_build, d->default_backend, &L->lane[L->n], secp, sizeof secp,
                             why, sizeof why) == 0) {
            snprintf(d->alt.secp256k1, sizeof d->alt.secp256k1, "%s", secp);
            snprintf(d->alt_label, sizeof d->alt_label, "%s, libsecp256k1 %s", d->default_backend,
                     secp);
            L->lane_peer[L->n++] = -1;
            snprintf(opts, sizeof opts, "%s/CMakeCache.txt", o->alt_build);
            read_alt_options(opts, d->alt_options, sizeof d->alt_options);
        } else {
            snprintf(d->alt_failure, sizeof d->alt_failure, "%.400s", why);
            fprintf(stderr, "  like for like not measured: %s\n", why);
        }
    }
    for (k = 0; o->peers && k < sizeof peer_names / sizeof peer_names[0]; k++) {
        peer_result *pr = &d->peers[d->n_peers];

        snprintf(pr->name, sizeof pr->name, "%s", peer_names[k]);
        snprintf(L->meta[d->n_peers], sizeof L->meta[0], "%s/peers/%s.meta.json", o->out_dir,
                 peer_names[k]);
        snprintf(log, sizeof log, "%s/peers/%s.log", o->out_dir, peer_names[k]);
        before = L->n;
        if (bench_peer_lanes(peer_names[k], L->meta[d->n_peers], log, L->lane, AUDIT_MAX_LANES,
                             &L->n, pr->failure, sizeof pr->failure) == 0 &&
            bench_load_json(L->meta[d->n_peers], &pr->file, why, sizeof why) == 0) {
            pr->ok = 1;
            free(pr->file.rows);
            pr->file.rows = NULL;
            pr->file.n_rows = 0;
            for (; before < L->n; before++) {
                L->lane_peer[before] = (int)d->n_peers;
            }
        } else {
            L->n = before;
            if (pr->failure[0] == '\0') {
                snprintf(pr->failure, sizeof pr->failure, "its description: %.400s", why);
            }
        }
        fprintf(stderr, "  %s: %s\n", peer_names[k], pr->ok ? "installed" : pr->failure);
        d->n_peers++;
    }
}

/* Copies the rows labelled by a lane of `owner` (a peer index, or -1 for the like-for-like
 * build) into a new array. */
static bench_row *rows_of(const bench_row *rows, size_t n, const audit_lanes *L, int owner,
                          size_t *out_n)
{
    bench_row *out = calloc(n ? n : 1, sizeof *out);
    size_t i, k, m = 0;

    for (i = 0; out != NULL && i < n; i++) {
        for (k = 0; k < L->n; k++) {
            if (L->lane_peer[k] == owner && strcmp(rows[i].backend, L->lane[k].label) == 0) {
                out[m++] = rows[i];
                break;
            }
        }
    }
    *out_n = m;
    return out;
}

/* Whether row r was measured by one of the lanes. */
static int from_lane(const bench_row *r, const audit_lanes *L)
{
    size_t k;

    for (k = 0; k < L->n; k++) {
        if (strcmp(r->backend, L->lane[k].label) == 0) {
            return 1;
        }
    }
    return 0;
}

static int write_record(const char *dir, const char *name, const bench_row *rows, size_t n,
                        const char *command, unsigned runs, const char *secp)
{
    char path[4096];
    FILE *f;
    int rc;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        return bench_fail("cannot write %s", path);
    }
    rc = bench_write_json_as(f, rows, n, command, runs, secp);
    if (fclose(f) != 0 || rc != 0) {
        return bench_fail("cannot write %s", path);
    }
    return 0;
}

static bench_config base_config(const audit_opts *o, const char **names, size_t n_names)
{
    bench_config cfg;

    memset(&cfg, 0, sizeof cfg);
    cfg.backends = names;
    cfg.n_backends = n_names;
    cfg.runs = (unsigned)o->runs;
    cfg.self = o->self;
    cfg.progress = 1;
    cfg.params.warmup_ns = 100000000u;
    cfg.params.min_sample_ns = 1000000u;
    cfg.params.samples = 20;
    cfg.params.clock = o->clock;
    return cfg;
}

#define INTERLEAVED "softchat-bench audit (its processes interleaved with libsoftchat's)"

/* Step 3: every operation on every backend, the like-for-like build and the peers
 * interleaved process by process (A B A B ...), then the floors; into *rows_out (the caller
 * frees it; d->rows points to it), d->alt, d->peers and their records. Returns 0 or 2
 * (message printed; nothing kept). */
static int run_benchmark(audit_data *d, const audit_opts *o, audit_lanes *L, bench_row **rows_out)
{
    const char *names[64];
    char err[512], path[4096];
    bench_config cfg;
    bench_row *rows = NULL, *ours;
    size_t n_rows = 0, k, i, n_ours = 0;

    for (k = 0; k < sc_backend_count() && k < 64; k++) {
        names[k] = sc_backend_at(k)->name;
    }
    cfg = base_config(o, names, k);
    cfg.floors = 1;
    cfg.only = o->only;
    cfg.lanes = L->lane;
    cfg.n_lanes = L->n;
    if (bench_run_all(&cfg, &rows, &n_rows) != 0) {
        return bench_fail("the benchmark could not run");
    }
    ours = calloc(n_rows ? n_rows : 1, sizeof *ours);
    if (ours == NULL) {
        free(rows);
        return bench_fail("out of memory");
    }
    for (i = 0; i < n_rows; i++) {
        if (!from_lane(&rows[i], L)) {
            ours[n_ours++] = rows[i];
        }
    }
    if (write_record(o->out_dir, "bench.json", ours, n_ours, "run --backend all", (unsigned)o->runs,
                     NULL) != 0) {
        free(rows);
        free(ours);
        return 2;
    }
    d->alt.rows = rows_of(rows, n_rows, L, -1, &d->alt.n_rows);
    if (d->alt.n_rows > 0) {
        write_record(o->out_dir, "bench-secp.json", d->alt.rows, d->alt.n_rows, INTERLEAVED,
                     (unsigned)o->runs, d->alt.secp256k1);
    }
    for (k = 0; k < d->n_peers; k++) {
        peer_result *pr = &d->peers[k];
        if (!pr->ok) {
            continue;
        }
        pr->file.rows = rows_of(rows, n_rows, L, (int)k, &pr->file.n_rows);
        snprintf(path, sizeof path, "%s/peers/%s.json", o->out_dir, pr->name);
        if (bench_write_peer_json(L->meta[k], path, pr->file.rows, pr->file.n_rows,
                                  (unsigned)o->runs, INTERLEAVED, err, sizeof err) != 0) {
            fprintf(stderr, "  %s: its record was not written: %s\n", pr->name, err);
        }
    }
    free(rows);
    *rows_out = ours;
    d->rows = ours;
    d->n_rows = n_ours;
    return 0;
}

static const bench_row *find_row(const bench_row *rows, size_t n, const char *backend,
                                 const char *op, size_t bytes, unsigned threads)
{
    size_t i;

    for (i = 0; rows != NULL && i < n; i++) {
        if (!rows[i].is_floor && strcmp(rows[i].backend, backend) == 0 &&
            strcmp(rows[i].operation, op) == 0 && rows[i].bytes == bytes &&
            rows[i].threads == threads) {
            return &rows[i];
        }
    }
    return NULL;
}

/* The rust-nostr peer, or NULL. */
static const peer_result *rust_peer(const audit_data *d)
{
    size_t k;

    for (k = 0; k < d->n_peers; k++) {
        if (d->peers[k].ok && strcmp(d->peers[k].name, "rust-nostr") == 0) {
            return &d->peers[k];
        }
    }
    return NULL;
}

/* Step 4: a verdict for every row rust-nostr and we both measured, against our default
 * backend and the like-for-like build; rows whose runs disagree are measured again, the
 * three of them side by side, and settled (verdict.h). *retry_out receives the re-measured
 * rows (the caller frees them). */
static void run_verdicts(audit_data *d, const audit_opts *o, const audit_lanes *L,
                         bench_row **retry_out)
{
    const peer_result *rp = rust_peer(d);
    const char *alt_label = NULL, *names[1];
    static bench_lane lanes[2];
    bench_key keys[AUDIT_MAX_COMPARE];
    bench_row *retry = NULL;
    size_t i, k, n_keys = 0, n_retry = 0, n_lanes = 0;
    verdict v1, a1, v2, a2;
    bench_config cfg;

    *retry_out = NULL;
    if (rp == NULL) {
        return;
    }
    for (k = 0; k < L->n; k++) {
        if (L->lane_peer[k] == -1) {
            alt_label = L->lane[k].label;
        }
    }
    for (i = 0; i < rp->file.n_rows && d->n_cmp < AUDIT_MAX_COMPARE; i++) {
        const bench_row *q = &rp->file.rows[i];
        compare_row *c = &d->cmp[d->n_cmp];

        if (q->failed || q->unsupported) {
            continue;
        }
        memset(c, 0, sizeof *c);
        c->peer = q;
        c->ours =
            find_row(d->rows, d->n_rows, d->default_backend, q->operation, q->bytes, q->threads);
        c->alt = alt_label ? find_row(d->alt.rows, d->alt.n_rows, alt_label, q->operation, q->bytes,
                                      q->threads)
                           : NULL;
        d->n_cmp++;
        verdict_of(c->ours, q, &v1);
        verdict_of(c->alt, q, &a1);
        if (verdict_needs_retry(&v1) || verdict_needs_retry(&a1)) {
            keys[n_keys].operation = q->operation;
            keys[n_keys].bytes = q->bytes;
            keys[n_keys++].threads = q->threads;
        }
    }
    if (n_keys > 0) {
        /* the default backend, the like-for-like build and rust-nostr, side by side again */
        for (k = 0; k < L->n && n_lanes < 2; k++) {
            if (L->lane_peer[k] == -1 ||
                (L->lane_peer[k] >= 0 && &d->peers[L->lane_peer[k]] == rp)) {
                copy_lane(&lanes[n_lanes++], &L->lane[k]);
            }
        }
        names[0] = d->default_backend;
        cfg = base_config(o, names, 1);
        cfg.lanes = lanes;
        cfg.n_lanes = n_lanes;
        cfg.keys = keys;
        cfg.n_keys = n_keys;
        fprintf(stderr, "  re-measuring %zu row%s whose runs disagree\n", n_keys,
                n_keys == 1 ? "" : "s");
        if (bench_run_all(&cfg, &retry, &n_retry) != 0) {
            retry = NULL;
            n_retry = 0;
        }
    }
    for (i = 0; i < d->n_cmp; i++) {
        compare_row *c = &d->cmp[i];
        const bench_row *q = c->peer;
        int again = 0;

        verdict_of(c->ours, q, &v1);
        verdict_of(c->alt, q, &a1);
        for (k = 0; k < n_keys; k++) {
            again |= strcmp(keys[k].operation, q->operation) == 0 && keys[k].bytes == q->bytes &&
                     keys[k].threads == q->threads;
        }
        if (again && retry != NULL) {
            c->ours2 =
                find_row(retry, n_retry, d->default_backend, q->operation, q->bytes, q->threads);
            c->alt2 = alt_label
                          ? find_row(retry, n_retry, alt_label, q->operation, q->bytes, q->threads)
                          : NULL;
            c->peer2 = find_row(retry, n_retry, q->backend, q->operation, q->bytes, q->threads);
            verdict_of(c->ours2, c->peer2, &v2);
            verdict_of(c->alt2, c->peer2, &a2);
            verdict_settle(&v1, &v2, &c->v);
            verdict_settle(&a1, &a2, &c->v_alt);
            d->n_retried++;
        } else {
            verdict_settle(&v1, NULL, &c->v);
            verdict_settle(&a1, NULL, &c->v_alt);
        }
    }
    if (retry != NULL) {
        write_record(o->out_dir, "retry.json", retry, n_retry, INTERLEAVED, (unsigned)o->runs,
                     NULL);
    }
    *retry_out = retry;
}

/* Step 6: the charts (a failure is reported, not fatal) and DIR/report.md. Returns 0 or 2. */
static int write_report(const audit_data *d, const audit_opts *o)
{
    char path[4096];
    bench_row *all;
    size_t n_all;
    FILE *f;

    all = merge_rows(d->rows, d->n_rows, d, &n_all);
    if (all == NULL ||
        write_file_svg(o->out_dir, "latency-vs-size.svg", all, n_all, svg_latency_vs_size) != 0 ||
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
    static audit_lanes lanes;
    const int steps = 6;
    bench_row *rows = NULL, *retry = NULL;
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
    d.clock = o.clock;
    snprintf(d.revision, sizeof d.revision, "%s", SOFTCHAT_REVISION);
    if (o.jvm_only) {
        return audit_jvm_only(&o);
    }

    progress(1, steps, "self-test of every backend");
    run_selftest(&d);
    fputs(d.selftest, stderr);

    progress(2, steps, "conformance suites (ctest)");
    run_conformance(&d, o.build_dir);
    fprintf(stderr, "  %s\n", d.conf.note);

    progress(3, steps,
             o.peers ? "benchmark: every operation and floor on every backend, the "
                       "like-for-like build and the peers, interleaved"
                     : "benchmark: every operation and floor on every backend "
                       "(peers skipped: --no-peers)");
    prepare_lanes(&d, &o, &lanes);
    if (run_benchmark(&d, &o, &lanes, &rows) != 0) {
        free_audit(&d);
        return 2;
    }

    progress(4, steps, "verdicts against rust-nostr (rows whose runs disagree measured again)");
    run_verdicts(&d, &o, &lanes, &retry);
    if (strcmp(o.jvm, "off") != 0) {
        fprintf(stderr, "  jvm (%s profile): %s\n", o.jvm,
                jvm_run(o.out_dir, o.build_dir, strcmp(o.jvm, "quick") == 0) == 0
                    ? "measured"
                    : "not measured (see jvm/failure.txt)");
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
    free(retry);
    return rc;
}
