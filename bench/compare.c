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

static void fmt_ns(char *buf, size_t cap, double ns)
{
    if (ns < 0) {
        snprintf(buf, cap, "n/a");
    } else if (ns < 1e3) {
        snprintf(buf, cap, "%.0f ns", ns);
    } else if (ns < 1e6) {
        snprintf(buf, cap, "%.2f µs", ns / 1e3);
    } else {
        snprintf(buf, cap, "%.2f ms", ns / 1e6);
    }
}

static double rel(double cur, double base)
{
    return base > 0 ? (cur - base) / base : (cur > 0 ? INFINITY : 0);
}

size_t bench_compare(FILE *out, const bench_file *base, const bench_file *cur,
                     const compare_opts *opts, char (*regressed)[160], size_t max_keys)
{
    size_t i, j, n_reg = 0;
    const char *backend = NULL;

    for (i = 0; i < cur->n_rows; i++) {
        const bench_row *c = &cur->rows[i];
        const bench_row *b = bench_find_row(base, c->backend, c->operation, c->bytes, c->threads);
        const bench_row *v = NULL;
        double lim_med, lim_p95, dm, dp;
        char bm[32], cm[32], cp[32], why[96] = "";
        int bad = 0;

        if (b == NULL || c->is_floor || b->failed || c->failed || b->unsupported || c->unsupported) {
            continue;
        }
        if (opts != NULL && opts->variation != NULL) {
            v = bench_find_row(opts->variation, c->backend, c->operation, c->bytes, c->threads);
        }
        lim_med = fmax(GATE_MEDIAN, GATE_VARIATION_FACTOR * rsd(v, 0));
        lim_p95 = fmax(GATE_P95, GATE_VARIATION_FACTOR * rsd(v, 1));
        dm = rel(c->median_ns, b->median_ns);
        dp = rel(c->p95_ns, b->p95_ns);
        if (dm > lim_med) {
            bad = 1;
            snprintf(why, sizeof why, "median +%.1f%% > %.0f%%", dm * 100, lim_med * 100);
        } else if (dp > lim_p95) {
            bad = 1;
            snprintf(why, sizeof why, "p95 +%.1f%% > %.0f%%", dp * 100, lim_p95 * 100);
        } else if (b->allocs >= 0 && c->allocs >= 0 &&
                   c->allocs > b->allocs * (1 + GATE_ALLOCS) + 1e-9) {
            bad = 1;
            snprintf(why, sizeof why, "allocations %.2f -> %.2f", b->allocs, c->allocs);
        } else if (b->rss_kb > 0 && c->rss_kb > (double)b->rss_kb * (1 + GATE_RSS)) {
            bad = 1;
            snprintf(why, sizeof why, "peak RSS %ld -> %ld KiB", b->rss_kb, c->rss_kb);
        }
        if (backend == NULL || strcmp(backend, c->backend) != 0) {
            backend = c->backend;
            fprintf(out, "\n### %s\n\n", backend);
            fprintf(out, "| Operation | Bytes | Baseline median | Current median | Delta | "
                         "Current p95 | p95 delta |\n");
            fprintf(out, "|---|---:|---:|---:|---:|---:|---:|\n");
        }
        fmt_ns(bm, sizeof bm, b->median_ns);
        fmt_ns(cm, sizeof cm, c->median_ns);
        fmt_ns(cp, sizeof cp, c->p95_ns);
        fprintf(out, "| %s%s | %zu | %s | %s | %+.1f%% | %s | %+.1f%% |%s%s\n", c->operation,
                c->threads > 1 ? " (all cores)" : "", c->bytes, bm, cm, dm * 100, cp, dp * 100,
                bad ? " **REGRESSION**: " : "", bad ? why : "");
        if (bad) {
            if (n_reg < max_keys && regressed != NULL) {
                snprintf(regressed[n_reg], sizeof regressed[n_reg], "%s/%s/%zu/%u", c->backend,
                         c->operation, c->bytes, c->threads);
            }
            n_reg++;
        }
    }
    for (j = 0; j < base->n_rows; j++) {
        const bench_row *b = &base->rows[j];
        if (!b->is_floor &&
            bench_find_row(cur, b->backend, b->operation, b->bytes, b->threads) == NULL) {
            fprintf(out, "\n(not in current: %s %s %zu)\n", b->backend, b->operation, b->bytes);
        }
    }
    return n_reg;
}
