/* See svg.h. */
#include "svg.h"

#include <math.h>
#include <string.h>

#define MAX_SERIES 12

static const char *const palette[MAX_SERIES] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                                "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f",
                                                "#bcbd22", "#17becf", "#393b79", "#637939"};

static const char *const families[] = {"nip44_encrypt",      "nip44_decrypt",
                                       "nip44_encrypt_held", "nip44_decrypt_held",
                                       "attachment_encrypt", "attachment_decrypt"};

/* The distinct backends of the rows (operations only), in first-seen order. */
static size_t series(const bench_row *rows, size_t n, const char *names[MAX_SERIES])
{
    size_t i, j, k = 0;

    for (i = 0; i < n; i++) {
        if (rows[i].is_floor || rows[i].failed || rows[i].unsupported) {
            continue;
        }
        for (j = 0; j < k && strcmp(names[j], rows[i].backend) != 0; j++) {
        }
        if (j == k && k < MAX_SERIES) {
            names[k++] = rows[i].backend;
        }
    }
    return k;
}

static void fmt_ns(char *buf, size_t cap, double ns)
{
    if (ns < 1e3) {
        snprintf(buf, cap, "%.0f ns", ns);
    } else if (ns < 1e6) {
        snprintf(buf, cap, "%.0f µs", ns / 1e3);
    } else {
        snprintf(buf, cap, "%.0f ms", ns / 1e6);
    }
}

static void fmt_bytes(char *buf, size_t cap, double b)
{
    if (b < 1024) {
        snprintf(buf, cap, "%.0f B", b);
    } else if (b < 1048576) {
        snprintf(buf, cap, "%.0f KiB", b / 1024);
    } else {
        snprintf(buf, cap, "%.0f MiB", b / 1048576);
    }
}

static void legend(FILE *f, const char *names[], size_t k, double x, double y)
{
    size_t i;

    for (i = 0; i < k; i++) {
        fprintf(f,
                "<rect x='%.0f' y='%.0f' width='12' height='12' fill='%s'/>"
                "<text x='%.0f' y='%.0f' font-size='12'>%s</text>\n",
                x, y + 18.0 * (double)i, palette[i], x + 18, y + 18.0 * (double)i + 11, names[i]);
    }
}

void svg_latency_vs_size(FILE *f, const bench_row *rows, size_t n)
{
    const char *names[MAX_SERIES];
    size_t k = series(rows, n, names), fam, i, s;
    const double pw = 330, ph = 220, ml = 60, mt = 30, cols = 2;
    double width = ml + cols * (pw + ml) + 160, height = 3 * (ph + mt + 40) + 20;

    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            width, height);
    legend(f, names, k, width - 150, 40);
    for (fam = 0; fam < sizeof families / sizeof families[0]; fam++) {
        double ox = ml + (double)(fam % 2) * (pw + ml), oy = mt + (double)(fam / 2) * (ph + mt + 40);
        double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
        char lab[32];

        for (i = 0; i < n; i++) {
            if (!rows[i].is_floor && !rows[i].failed && !rows[i].unsupported && strcmp(rows[i].operation, families[fam]) == 0) {
                xmin = fmin(xmin, log10((double)rows[i].bytes));
                xmax = fmax(xmax, log10((double)rows[i].bytes));
                ymin = fmin(ymin, log10(rows[i].median_ns));
                ymax = fmax(ymax, log10(rows[i].median_ns));
            }
        }
        fprintf(f, "<text x='%.0f' y='%.0f' font-size='14' font-weight='bold'>%s</text>\n", ox,
                oy - 8, families[fam]);
        fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' "
                   "stroke='#999'/>\n", ox, oy, pw, ph);
        if (!isfinite(xmin)) {
            fprintf(f, "<text x='%.0f' y='%.0f' font-size='12'>not measured</text>\n", ox + 10,
                    oy + ph / 2);
            continue;
        }
        ymin = floor(ymin);
        ymax = ceil(ymax);
        if (ymax <= ymin) {
            ymax = ymin + 1;
        }
        if (xmax <= xmin) {
            xmax = xmin + 1;
        }
        for (i = (size_t)ymin; i <= (size_t)ymax; i++) { /* decade grid */
            double y = oy + ph - ((double)i - ymin) / (ymax - ymin) * ph;
            fmt_ns(lab, sizeof lab, pow(10, (double)i));
            fprintf(f, "<line x1='%.0f' x2='%.0f' y1='%.1f' y2='%.1f' stroke='#eee'/>"
                       "<text x='%.0f' y='%.1f' font-size='10' text-anchor='end'>%s</text>\n",
                    ox, ox + pw, y, y, ox - 4, y + 3, lab);
        }
        for (s = 0; s < k; s++) {
            int first = 1;
            fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", palette[s]);
            for (i = 0; i < n; i++) {
                const bench_row *r = &rows[i];
                if (!r->is_floor && !r->failed && !r->unsupported && strcmp(r->operation, families[fam]) == 0 &&
                    strcmp(r->backend, names[s]) == 0) {
                    double x = ox + (log10((double)r->bytes) - xmin) / (xmax - xmin) * pw;
                    double y = oy + ph - (log10(r->median_ns) - ymin) / (ymax - ymin) * ph;
                    fprintf(f, "%s%.1f,%.1f", first ? "" : " ", x, y);
                    first = 0;
                }
            }
            fprintf(f, "'/>\n");
        }
        for (i = 0; i < n; i++) { /* x labels at measured sizes */
            const bench_row *r = &rows[i];
            if (!r->is_floor && !r->failed && !r->unsupported && strcmp(r->operation, families[fam]) == 0 &&
                strcmp(r->backend, names[0]) == 0) {
                double x = ox + (log10((double)r->bytes) - xmin) / (xmax - xmin) * pw;
                fmt_bytes(lab, sizeof lab, (double)r->bytes);
                fprintf(f, "<text x='%.1f' y='%.0f' font-size='10' text-anchor='middle'>%s</text>\n",
                        x, oy + ph + 14, lab);
            }
        }
    }
    fprintf(f, "<text x='%.0f' y='%.0f' font-size='11' fill='#555'>median latency per call "
               "against payload size (log-log)</text>\n</svg>\n", ml, height - 6);
}

/* Whether op is measured at one size only (a bar), not a family (a line). */
static int is_family(const char *op)
{
    size_t i;

    for (i = 0; i < sizeof families / sizeof families[0]; i++) {
        if (strcmp(op, families[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

void svg_operation_bars(FILE *f, const bench_row *rows, size_t n)
{
    const char *names[MAX_SERIES], *ops[32];
    unsigned threads[32];
    size_t k = series(rows, n, names), n_ops = 0, i, j, s;
    double lmin = INFINITY, lmax = -INFINITY, bar = 9, plotw = 560, left = 230, top = 30;
    double height, y;

    for (i = 0; i < n; i++) {
        if (rows[i].is_floor || rows[i].failed || rows[i].unsupported || is_family(rows[i].operation)) {
            continue;
        }
        lmin = fmin(lmin, log10(rows[i].median_ns));
        lmax = fmax(lmax, log10(rows[i].median_ns));
        for (j = 0; j < n_ops; j++) {
            if (strcmp(ops[j], rows[i].operation) == 0 && threads[j] == rows[i].threads) {
                break;
            }
        }
        if (j == n_ops && n_ops < 32) {
            ops[n_ops] = rows[i].operation;
            threads[n_ops++] = rows[i].threads;
        }
    }
    height = top + (double)n_ops * ((double)k * bar + 14) + 40;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            left + plotw + 180, height);
    if (!isfinite(lmin)) {
        fprintf(f, "<text x='10' y='20'>no operation measured</text></svg>\n");
        return;
    }
    lmin = floor(lmin);
    lmax = ceil(lmax);
    if (lmax <= lmin) {
        lmax = lmin + 1;
    }
    legend(f, names, k, left + plotw + 20, top);
    for (i = (size_t)lmin; i <= (size_t)lmax; i++) {
        double x = left + ((double)i - lmin) / (lmax - lmin) * plotw;
        char lab[32];
        fmt_ns(lab, sizeof lab, pow(10, (double)i));
        fprintf(f, "<line x1='%.1f' x2='%.1f' y1='%.0f' y2='%.0f' stroke='#eee'/>"
                   "<text x='%.1f' y='%.0f' font-size='10' text-anchor='middle'>%s</text>\n",
                x, x, top, height - 30, x, height - 16, lab);
    }
    y = top;
    for (j = 0; j < n_ops; j++) {
        fprintf(f, "<text x='%.0f' y='%.1f' font-size='12' text-anchor='end'>%s%s</text>\n",
                left - 6, y + (double)k * bar / 2 + 4, ops[j],
                threads[j] > 1 ? " (all cores)" : "");
        for (s = 0; s < k; s++) {
            for (i = 0; i < n; i++) {
                const bench_row *r = &rows[i];
                if (!r->is_floor && !r->failed && !r->unsupported && strcmp(r->operation, ops[j]) == 0 &&
                    r->threads == threads[j] && strcmp(r->backend, names[s]) == 0) {
                    double w = (log10(r->median_ns) - lmin) / (lmax - lmin) * plotw;
                    fprintf(f, "<rect x='%.0f' y='%.1f' width='%.1f' height='%.0f' fill='%s'/>\n",
                            left, y + (double)s * bar, w < 1 ? 1 : w, bar - 1, palette[s]);
                }
            }
        }
        y += (double)k * bar + 14;
    }
    fprintf(f, "<text x='%.0f' y='%.0f' font-size='11' fill='#555'>median latency per call "
               "(log scale)</text>\n</svg>\n", left, height - 2);
}
