/* See results_io.h. Reading uses cJSON (a tool-side dependency; the library has none). */
#include "results_io.h"

#include <math.h>

#include <cjson/cJSON.h>

#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "machine.h"

static void write_run(FILE *f, const bench_run *r)
{
    fprintf(f, "{\"median_ns\":%.1f,\"p95_ns\":%.1f,", r->median_ns, r->p95_ns);
    if (r->allocs >= 0) {
        fprintf(f, "\"allocations\":%.4f,", r->allocs);
    } else {
        fputs("\"allocations\":null,", f);
    }
    fprintf(f, "\"rss_kb\":%ld,\"iterations\":%llu,\"samples\":%u,\"clock\":", r->rss_kb, r->iters,
            r->samples);
    jsonw_str(f, r->clock[0] ? r->clock : "wall");
    fputc('}', f);
}

/* The members of "results" (no brackets). */
static void write_rows(FILE *f, const bench_row *rows, size_t n)
{
    size_t i;
    unsigned k;

    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fprintf(f, "%s\n{\"backend\":", i ? "," : "");
        jsonw_str(f, r->backend);
        fputs(",\"operation\":", f);
        jsonw_str(f, r->operation);
        fprintf(f, ",\"bytes\":%zu,\"threads\":%u,\"floor\":%s", r->bytes, r->threads,
                r->is_floor ? "true" : "false");
        if (r->unsupported) {
            fputs(",\"unsupported\":true,\"median_ns\":null,\"p95_ns\":null,\"allocations\":null",
                  f);
        } else if (r->failed || r->n_runs == 0) {
            fputs(",\"failed\":true,\"median_ns\":null,\"p95_ns\":null,\"allocations\":null", f);
        } else {
            fprintf(f, ",\"median_ns\":%.1f,\"p95_ns\":%.1f", r->median_ns, r->p95_ns);
            if (r->allocs >= 0) {
                fprintf(f, ",\"allocations\":%.4f", r->allocs);
            } else {
                fputs(",\"allocations\":null", f);
            }
            fprintf(f, ",\"rss_kb\":%ld", r->rss_kb);
        }
        fputs(",\"runs\":[", f);
        for (k = 0; k < r->n_runs; k++) {
            fputs(k ? "," : "", f);
            write_run(f, &r->runs[k]);
        }
        fputs("]}", f);
    }
}

int bench_write_json(FILE *f, const bench_row *rows, size_t n, const char *command, unsigned runs)
{
    fprintf(f, "{\"schema\":\"%s\",", BENCH_SCHEMA);
    bench_write_environment(f);
    fputs(",\"command\":", f);
    jsonw_str(f, command != NULL ? command : "");
    fprintf(f, ",\"runs\":%u,\"results\":[", runs);
    write_rows(f, rows, n);
    fputs("\n]}\n", f);
    return ferror(f) ? -1 : 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (f == NULL) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n) {
            buf[n] = '\0';
            *len = (size_t)n;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

static double num(const cJSON *o, const char *k, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static void copy_str(char *dst, size_t cap, const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    snprintf(dst, cap, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* The members of a result document besides its rows. */
static void read_header(const cJSON *doc, bench_file *out)
{
    copy_str(out->revision, sizeof out->revision, doc, "revision");
    copy_str(out->command, sizeof out->command, doc, "command");
}

/* One member of "results". */
static void read_row(const cJSON *item, bench_row *r)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(item, "runs");
    const cJSON *run;

    copy_str(r->backend, sizeof r->backend, item, "backend");
    copy_str(r->operation, sizeof r->operation, item, "operation");
    r->bytes = (size_t)num(item, "bytes", 0);
    r->threads = (unsigned)num(item, "threads", 1);
    r->is_floor = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "floor"));
    r->median_ns = num(item, "median_ns", -1);
    r->p95_ns = num(item, "p95_ns", -1);
    r->allocs = num(item, "allocations", -1);
    r->rss_kb = (long)num(item, "rss_kb", -1);
    r->unsupported = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "unsupported"));
    r->failed = r->median_ns < 0;
    cJSON_ArrayForEach(run, runs)
    {
        if (r->n_runs < BENCH_MAX_RUNS) {
            bench_run *x = &r->runs[r->n_runs++];
            x->median_ns = num(run, "median_ns", -1);
            x->p95_ns = num(run, "p95_ns", -1);
            x->allocs = num(run, "allocations", -1);
            x->rss_kb = (long)num(run, "rss_kb", -1);
            copy_str(x->clock, sizeof x->clock, run, "clock");
            if (x->clock[0] == '\0') {
                snprintf(x->clock, sizeof x->clock, "wall"); /* records before the field */
            }
        }
    }
}

/* Parses a result document of the schema. Returns the document, or NULL (err set). */
static cJSON *parse_doc(const char *path, char *err, size_t err_cap)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    cJSON *doc, *item;

    if (text == NULL) {
        snprintf(err, err_cap, "%s: cannot read", path);
        return NULL;
    }
    doc = cJSON_ParseWithLength(text, len);
    free(text);
    if (doc == NULL || !cJSON_IsObject(doc)) {
        snprintf(err, err_cap, "%s: not JSON", path);
        cJSON_Delete(doc);
        return NULL;
    }
    item = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (!cJSON_IsString(item) || strcmp(item->valuestring, BENCH_SCHEMA) != 0) {
        snprintf(err, err_cap, "%s: schema is not %s", path, BENCH_SCHEMA);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

int bench_load_json(const char *path, bench_file *out, char *err, size_t err_cap)
{
    cJSON *doc, *results, *item;
    size_t i = 0;

    memset(out, 0, sizeof *out);
    doc = parse_doc(path, err, err_cap);
    if (doc == NULL) {
        return -1;
    }
    read_header(doc, out);
    results = cJSON_GetObjectItemCaseSensitive(doc, "results");
    out->rows = calloc((size_t)cJSON_GetArraySize(results) + 1, sizeof *out->rows);
    if (out->rows == NULL) {
        cJSON_Delete(doc);
        snprintf(err, err_cap, "out of memory");
        return -1;
    }
    cJSON_ArrayForEach(item, results)
    {
        read_row(item, &out->rows[i++]);
    }
    out->n_rows = i;
    cJSON_Delete(doc);
    return 0;
}

void bench_file_free(bench_file *bf)
{
    free(bf->rows);
    memset(bf, 0, sizeof *bf);
}

const bench_row *bench_find_row(const bench_file *bf, const char *backend, const char *op,
                                size_t bytes, unsigned threads)
{
    size_t i;

    for (i = 0; i < bf->n_rows; i++) {
        const bench_row *r = &bf->rows[i];
        if (strcmp(r->backend, backend) == 0 && strcmp(r->operation, op) == 0 &&
            r->bytes == bytes && r->threads == threads) {
            return r;
        }
    }
    return NULL;
}

void bench_fmt_ns(char *buf, size_t cap, double ns, const char *none)
{
    if (ns < 0 || !isfinite(ns)) {
        snprintf(buf, cap, "%s", none);
    } else if (ns < 1e3) {
        snprintf(buf, cap, "%.0f ns", ns);
    } else if (ns < 1e6) {
        snprintf(buf, cap, "%.2f µs", ns / 1e3);
    } else {
        snprintf(buf, cap, "%.2f ms", ns / 1e6);
    }
}
