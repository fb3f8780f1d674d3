/* See compare.h. A row regresses when its median grows by more than max(10%, 3 x the runner
 * variation), its p95 by more than max(15%, 3 x variation), or its allocations per call or
 * peak RSS by more than 10% (an increase from zero allocations counts). Negative deltas mean
 * faster. */
#include "compare.h"

#include <math.h>
#include <string.h>

/* Relative standard deviation of a row's run medians (the runner variation). */
static double rsd(const bench_row *r, int p95)
{
    double mean = 0, var = 0;
    unsigned i;

    if (r == NULL || r->n_runs < 2) {
        return 0;
    }
    for (i = 0; i < r->n_runs; i++) {
        mean += p95 ? r->runs[i].p95_ns : r->runs[i].median_ns;
    }
    mean /= r->n_runs;
    for (i = 0; i < r->n_runs; i++) {
        double d = (p95 ? r->runs[i].p95_ns : r->runs[i].median_ns) - mean;
        var += d * d;
    }
    var /= (r->n_runs - 1);
    return mean > 0 ? sqrt(var) / mean : 0;
}

static double rel(double cur, double base)
{
    return base > 0 ? (cur - base) / base : (cur > 0 ? INFINITY : 0);
}

/* Whether current row c regresses from base row b (limits widened by the variation row v,
 * or NULL); the reason goes to why. dm and dp receive the median and p95 deltas. */
static int regresses(const bench_row *b, const bench_row *c, const bench_row *v, double *dm,
                     double *dp, char *why, size_t why_cap)
{
    double lim_med = fmax(GATE_MEDIAN, GATE_VARIATION_FACTOR * rsd(v, 0));
    double lim_p95 = fmax(GATE_P95, GATE_VARIATION_FACTOR * rsd(v, 1));

    *dm = rel(c->median_ns, b->median_ns);
    *dp = rel(c->p95_ns, b->p95_ns);
    if (*dm > lim_med) {
        snprintf(why, why_cap, "median +%.1f%% > %.0f%%", *dm * 100, lim_med * 100);
    } else if (*dp > lim_p95) {
        snprintf(why, why_cap, "p95 +%.1f%% > %.0f%%", *dp * 100, lim_p95 * 100);
    } else if (b->allocs >= 0 && c->allocs >= 0 &&
               c->allocs > b->allocs * (1 + GATE_ALLOCS) + 1e-9) {
        snprintf(why, why_cap, "allocations %.2f -> %.2f", b->allocs, c->allocs);
    } else if (b->rss_kb > 0 && c->rss_kb > (double)b->rss_kb * (1 + GATE_RSS)) {
        snprintf(why, why_cap, "peak RSS %ld -> %ld KiB", b->rss_kb, c->rss_kb);
    } else {
        return 0;
    }
    return 1;
}

/* The heading and table head of a backend's section. */
static void table_head(FILE *out, const char *backend)
{
    fprintf(out, "\n### %s\n\n", backend);
    fprintf(out, "| Operation | Bytes | Baseline median | Current median | Delta | "
                 "Current p95 | p95 delta |\n");
    fprintf(out, "|---|---:|---:|---:|---:|---:|---:|\n");
}

/* One table row; why is the regression's reason, or NULL. */
static void table_row(FILE *out, const bench_row *b, const bench_row *c, double dm, double dp,
                      const char *why)
{
    char bm[32], cm[32], cp[32];

    bench_fmt_ns(bm, sizeof bm, b->median_ns, "n/a");
    bench_fmt_ns(cm, sizeof cm, c->median_ns, "n/a");
    bench_fmt_ns(cp, sizeof cp, c->p95_ns, "n/a");
    fprintf(out, "| %s%s | %zu | %s | %s | %+.1f%% | %s | %+.1f%% |%s%s\n", c->operation,
            c->threads > 1 ? " (all cores)" : "", c->bytes, bm, cm, dm * 100, cp, dp * 100,
            why != NULL ? " **REGRESSION**: " : "", why != NULL ? why : "");
}

/* The baseline's operations that the current file lacks. */
static void report_missing(FILE *out, const bench_file *base, const bench_file *cur)
{
    size_t j;

    for (j = 0; j < base->n_rows; j++) {
        const bench_row *b = &base->rows[j];
        if (!b->is_floor &&
            bench_find_row(cur, b->backend, b->operation, b->bytes, b->threads) == NULL) {
            fprintf(out, "\n(not in current: %s %s %zu)\n", b->backend, b->operation, b->bytes);
        }
    }
}

size_t bench_compare(FILE *out, const bench_file *base, const bench_file *cur,
                     const compare_opts *opts, char (*regressed)[160], size_t max_keys)
{
    size_t i, n_reg = 0;
    const char *backend = NULL;

    for (i = 0; i < cur->n_rows; i++) {
        const bench_row *c = &cur->rows[i];
        const bench_row *b = bench_find_row(base, c->backend, c->operation, c->bytes, c->threads);
        const bench_row *v = NULL;
        char why[96] = "";
        double dm, dp;
        int bad;

        if (b == NULL || c->is_floor || b->failed || c->failed || b->unsupported ||
            c->unsupported) {
            continue;
        }
        if (opts != NULL && opts->variation != NULL) {
            v = bench_find_row(opts->variation, c->backend, c->operation, c->bytes, c->threads);
        }
        bad = regresses(b, c, v, &dm, &dp, why, sizeof why);
        if (backend == NULL || strcmp(backend, c->backend) != 0) {
            backend = c->backend;
            table_head(out, backend);
        }
        table_row(out, b, c, dm, dp, bad ? why : NULL);
        if (bad) {
            if (n_reg < max_keys && regressed != NULL) {
                snprintf(regressed[n_reg], sizeof regressed[n_reg], "%s/%s/%zu/%u", c->backend,
                         c->operation, c->bytes, c->threads);
            }
            n_reg++;
        }
    }
    report_missing(out, base, cur);
    return n_reg;
}

typedef struct fp_entry {
    char key[96]; /* profile/artifact/variant */
    long long bytes;
} fp_entry;

static size_t load_tsv(const char *path, fp_entry *e, size_t cap)
{
    char p[32], a[32], v[16], line[256];
    long long bytes;
    size_t n = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL) {
        return (size_t)-1;
    }
    while (n < cap && fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%31s\t%31s\t%15s\t%lld", p, a, v, &bytes) == 4) {
            snprintf(e[n].key, sizeof e[n].key, "%s/%s/%s", p, a, v);
            e[n++].bytes = bytes;
        }
    }
    fclose(f);
    return n;
}

size_t bench_compare_footprint(FILE *out, const char *base_tsv, const char *cur_tsv)
{
    fp_entry base[256], cur[256];
    size_t nb = load_tsv(base_tsv, base, 256), nc = load_tsv(cur_tsv, cur, 256), i, j, bad = 0;

    if (nb == (size_t)-1 || nc == (size_t)-1) {
        return (size_t)-1;
    }
    fprintf(out, "\n### Footprint (compressed)\n\n| Artifact | Baseline | Current | Delta |\n"
                 "|---|---:|---:|---:|\n");
    for (i = 0; i < nc; i++) {
        size_t klen = strlen(cur[i].key);
        if (klen < 3 || strcmp(cur[i].key + klen - 3, ".gz") != 0) {
            continue;
        }
        for (j = 0; j < nb && strcmp(base[j].key, cur[i].key) != 0; j++) {
        }
        if (j == nb) {
            continue;
        }
        {
            double grow = (double)(cur[i].bytes - base[j].bytes);
            int reg = grow > GATE_ARTIFACT_ABS && grow > GATE_ARTIFACT_REL * (double)base[j].bytes;
            fprintf(out, "| %s | %lld | %lld | %+.1f%% |%s\n", cur[i].key, base[j].bytes,
                    cur[i].bytes, base[j].bytes ? 100.0 * grow / (double)base[j].bytes : 0.0,
                    reg ? " **REGRESSION**: more than 5% and 100 KiB" : "");
            bad += (size_t)reg;
        }
    }
    return bad;
}
