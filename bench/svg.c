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

/* Whether a row is drawn: a measured operation (not a floor, not failed or unsupported). */
static int drawn(const bench_row *r)
{
    return !r->is_floor && !r->failed && !r->unsupported;
}

/* A panel of the latency chart: one family, its box and its log10 ranges. */
typedef struct panel {
    const char *family;
    double ox, oy, pw, ph;
    double xmin, xmax, ymin, ymax;
} panel;

/* The log10 ranges of bytes and median over the family's rows; xmin stays infinite when
 * none was measured. */
static void panel_range(panel *p, const bench_row *rows, size_t n)
{
    size_t i;

    p->xmin = INFINITY;
    p->xmax = -INFINITY;
    p->ymin = INFINITY;
    p->ymax = -INFINITY;
    for (i = 0; i < n; i++) {
        if (drawn(&rows[i]) && strcmp(rows[i].operation, p->family) == 0) {
            p->xmin = fmin(p->xmin, log10((double)rows[i].bytes));
            p->xmax = fmax(p->xmax, log10((double)rows[i].bytes));
            p->ymin = fmin(p->ymin, log10(rows[i].median_ns));
            p->ymax = fmax(p->ymax, log10(rows[i].median_ns));
        }
    }
}

/* Whole decades on y, and a non-empty range on both axes. */
static void panel_round(panel *p)
{
    p->ymin = floor(p->ymin);
    p->ymax = ceil(p->ymax);
    if (p->ymax <= p->ymin) {
        p->ymax = p->ymin + 1;
    }
    if (p->xmax <= p->xmin) {
        p->xmax = p->xmin + 1;
    }
}

static double panel_x(const panel *p, size_t bytes)
{
    return p->ox + (log10((double)bytes) - p->xmin) / (p->xmax - p->xmin) * p->pw;
}

/* The decade grid with its latency labels. */
static void panel_grid(FILE *f, const panel *p)
{
    char lab[32];
    size_t i;

    for (i = (size_t)p->ymin; i <= (size_t)p->ymax; i++) {
        double y = p->oy + p->ph - ((double)i - p->ymin) / (p->ymax - p->ymin) * p->ph;
        fmt_ns(lab, sizeof lab, pow(10, (double)i));
        fprintf(f,
                "<line x1='%.0f' x2='%.0f' y1='%.1f' y2='%.1f' stroke='#eee'/>"
                "<text x='%.0f' y='%.1f' font-size='10' text-anchor='end'>%s</text>\n",
                p->ox, p->ox + p->pw, y, y, p->ox - 4, y + 3, lab);
    }
}

/* One backend's line through the family's sizes. */
static void panel_line(FILE *f, const panel *p, const bench_row *rows, size_t n,
                       const char *backend, const char *color)
{
    int first = 1;
    size_t i;

    fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", color);
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        if (drawn(r) && strcmp(r->operation, p->family) == 0 && strcmp(r->backend, backend) == 0) {
            double x = panel_x(p, r->bytes);
            double y =
                p->oy + p->ph - (log10(r->median_ns) - p->ymin) / (p->ymax - p->ymin) * p->ph;
            fprintf(f, "%s%.1f,%.1f", first ? "" : " ", x, y);
            first = 0;
        }
    }
    fprintf(f, "'/>\n");
}

/* The x labels, at the sizes the first backend measured. */
static void panel_x_labels(FILE *f, const panel *p, const bench_row *rows, size_t n,
                           const char *backend)
{
    char lab[32];
    size_t i;

    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        if (drawn(r) && strcmp(r->operation, p->family) == 0 && strcmp(r->backend, backend) == 0) {
            fmt_bytes(lab, sizeof lab, (double)r->bytes);
            fprintf(f, "<text x='%.1f' y='%.0f' font-size='10' text-anchor='middle'>%s</text>\n",
                    panel_x(p, r->bytes), p->oy + p->ph + 14, lab);
        }
    }
}

/* One family's panel: title, box, then grid, a line per backend and the x labels (or "not
 * measured"). */
static void draw_panel(FILE *f, panel *p, const bench_row *rows, size_t n, const char **names,
                       size_t k)
{
    size_t s;

    panel_range(p, rows, n);
    fprintf(f, "<text x='%.0f' y='%.0f' font-size='14' font-weight='bold'>%s</text>\n", p->ox,
            p->oy - 8, p->family);
    fprintf(f,
            "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' "
            "stroke='#999'/>\n",
            p->ox, p->oy, p->pw, p->ph);
    if (!isfinite(p->xmin)) {
        fprintf(f, "<text x='%.0f' y='%.0f' font-size='12'>not measured</text>\n", p->ox + 10,
                p->oy + p->ph / 2);
        return;
    }
    panel_round(p);
    panel_grid(f, p);
    for (s = 0; s < k; s++) {
        panel_line(f, p, rows, n, names[s], palette[s]);
    }
    panel_x_labels(f, p, rows, n, names[0]);
}

void svg_latency_vs_size(FILE *f, const bench_row *rows, size_t n)
{
    const char *names[MAX_SERIES];
    size_t k = series(rows, n, names), fam;
    const double pw = 330, ph = 220, ml = 60, mt = 30, cols = 2;
    double width = ml + cols * (pw + ml) + 160, height = 3 * (ph + mt + 40) + 20;

    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
            "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            width, height);
    legend(f, names, k, width - 150, 40);
    for (fam = 0; fam < sizeof families / sizeof families[0]; fam++) {
        panel p;

        p.family = families[fam];
        p.ox = ml + (double)(fam % 2) * (pw + ml);
        p.oy = mt + (double)(fam / 2) * (ph + mt + 40);
        p.pw = pw;
        p.ph = ph;
        draw_panel(f, &p, rows, n, names, k);
    }
    fprintf(f,
            "<text x='%.0f' y='%.0f' font-size='11' fill='#555'>median latency per call "
            "against payload size (log-log)</text>\n</svg>\n",
            ml, height - 6);
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

#define MAX_BARS 32

/* The bar chart's operations (one per operation and thread count, first-seen order) and the
 * log10 range of their medians (lmin stays infinite when none was measured). */
typedef struct bar_set {
    const char *ops[MAX_BARS];
    unsigned threads[MAX_BARS];
    size_t n_ops;
    double lmin, lmax;
} bar_set;

static void collect_bars(bar_set *b, const bench_row *rows, size_t n)
{
    size_t i, j;

    b->n_ops = 0;
    b->lmin = INFINITY;
    b->lmax = -INFINITY;
    for (i = 0; i < n; i++) {
        if (!drawn(&rows[i]) || is_family(rows[i].operation)) {
            continue;
        }
        b->lmin = fmin(b->lmin, log10(rows[i].median_ns));
        b->lmax = fmax(b->lmax, log10(rows[i].median_ns));
        for (j = 0; j < b->n_ops; j++) {
            if (strcmp(b->ops[j], rows[i].operation) == 0 && b->threads[j] == rows[i].threads) {
                break;
            }
        }
        if (j == b->n_ops && b->n_ops < MAX_BARS) {
            b->ops[b->n_ops] = rows[i].operation;
            b->threads[b->n_ops++] = rows[i].threads;
        }
    }
}

/* The decade grid of the bar chart, labelled below. */
static void bar_grid(FILE *f, const bar_set *b, double left, double plotw, double top,
                     double height)
{
    char lab[32];
    size_t i;

    for (i = (size_t)b->lmin; i <= (size_t)b->lmax; i++) {
        double x = left + ((double)i - b->lmin) / (b->lmax - b->lmin) * plotw;
        fmt_ns(lab, sizeof lab, pow(10, (double)i));
        fprintf(f,
                "<line x1='%.1f' x2='%.1f' y1='%.0f' y2='%.0f' stroke='#eee'/>"
                "<text x='%.1f' y='%.0f' font-size='10' text-anchor='middle'>%s</text>\n",
                x, x, top, height - 30, x, height - 16, lab);
    }
}

/* The bars of operation j, one per backend, from y down. */
static void bar_group(FILE *f, const bar_set *b, size_t j, const bench_row *rows, size_t n,
                      const char **names, size_t k, double left, double plotw, double bar, double y)
{
    size_t i, s;

    fprintf(f, "<text x='%.0f' y='%.1f' font-size='12' text-anchor='end'>%s%s</text>\n", left - 6,
            y + (double)k * bar / 2 + 4, b->ops[j], b->threads[j] > 1 ? " (all cores)" : "");
    for (s = 0; s < k; s++) {
        for (i = 0; i < n; i++) {
            const bench_row *r = &rows[i];
            if (drawn(r) && strcmp(r->operation, b->ops[j]) == 0 && r->threads == b->threads[j] &&
                strcmp(r->backend, names[s]) == 0) {
                double w = (log10(r->median_ns) - b->lmin) / (b->lmax - b->lmin) * plotw;
                fprintf(f, "<rect x='%.0f' y='%.1f' width='%.1f' height='%.0f' fill='%s'/>\n", left,
                        y + (double)s * bar, w < 1 ? 1 : w, bar - 1, palette[s]);
            }
        }
    }
}

void svg_operation_bars(FILE *f, const bench_row *rows, size_t n)
{
    const char *names[MAX_SERIES];
    size_t k = series(rows, n, names), j;
    const double bar = 9, plotw = 560, left = 230, top = 30;
    double height, y;
    bar_set b;

    collect_bars(&b, rows, n);
    height = top + (double)b.n_ops * ((double)k * bar + 14) + 40;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
            "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            left + plotw + 180, height);
    if (!isfinite(b.lmin)) {
        fprintf(f, "<text x='10' y='20'>no operation measured</text></svg>\n");
        return;
    }
    b.lmin = floor(b.lmin);
    b.lmax = ceil(b.lmax);
    if (b.lmax <= b.lmin) {
        b.lmax = b.lmin + 1;
    }
    legend(f, names, k, left + plotw + 20, top);
    bar_grid(f, &b, left, plotw, top, height);
    y = top;
    for (j = 0; j < b.n_ops; j++) {
        bar_group(f, &b, j, rows, n, names, k, left, plotw, bar, y);
        y += (double)k * bar + 14;
    }
    fprintf(f,
            "<text x='%.0f' y='%.0f' font-size='11' fill='#555'>median latency per call "
            "(log scale)</text>\n</svg>\n",
            left, height - 2);
}
