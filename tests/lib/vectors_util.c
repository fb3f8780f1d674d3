/* Shared helpers of the test suites (see vectors_util.h). */
#define _POSIX_C_SOURCE 200809L /* stat */

#include "vectors_util.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

/* Failures printed per file; the rest are only counted. */
#define VT_PRINTED_FAILURES 20

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

uint8_t *vt_alloc(size_t n)
{
    uint8_t *p = calloc(n != 0 ? n : 1, 1);

    if (p == NULL) {
        fail_msg("out of memory allocating %zu bytes", n);
    }
    return p;
}

int vt_hex_to_bytes(const char *hex, vt_bytes *out)
{
    size_t len = strlen(hex), i;

    out->p = NULL;
    out->n = 0;
    if (len % 2 != 0) {
        return 0;
    }
    out->p = vt_alloc(len / 2);
    out->n = len / 2;
    for (i = 0; i < out->n; i++) {
        int hi = hex_digit((unsigned char)hex[2 * i]);
        int lo = hex_digit((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            vt_bytes_free(out);
            return 0;
        }
        out->p[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

void vt_bytes_free(vt_bytes *b)
{
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

int vt_json_hex(const cJSON *obj, const char *key, vt_bytes *out)
{
    const char *s = vt_json_str(obj, key);

    out->p = NULL;
    out->n = 0;
    return s != NULL && vt_hex_to_bytes(s, out);
}

int vt_json_i64(const cJSON *obj, const char *key, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    double d;

    if (!cJSON_IsNumber(v)) {
        return 0;
    }
    d = v->valuedouble;
    if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0) || d != (double)(int64_t)d) {
        return 0;
    }
    *out = (int64_t)d;
    return 1;
}

int vt_json_long(const cJSON *obj, const char *key, long *out)
{
    int64_t v;

    if (!vt_json_i64(obj, key, &v) || v < LONG_MIN || v > LONG_MAX) {
        return 0;
    }
    *out = (long)v;
    return 1;
}

const char *vt_json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

char *vt_path_join(const char *dir, const char *rel)
{
    size_t a = strlen(dir), b = strlen(rel);
    char *p = (char *)vt_alloc(a + b + 2);

    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, rel, b + 1);
    return p;
}

int vt_dir_exists(const char *path)
{
    struct stat sb;

    return path != NULL && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

char *vt_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, used = 0;

    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t got;
        if (used + 4096 + 1 > cap) {
            char *nb;
            cap = cap != 0 ? cap * 2 : 65536;
            nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[used] = '\0';
    if (len != NULL) {
        *len = used;
    }
    return buf;
}

cJSON *vt_load_json(const char *dir, const char *rel, char *why, size_t why_cap)
{
    char *path = vt_path_join(dir, rel);
    size_t len = 0;
    char *text = vt_read_file(path, &len);
    cJSON *root;

    if (text == NULL) {
        snprintf(why, why_cap, "file not found: %s", path);
        free(path);
        return NULL;
    }
    root = cJSON_ParseWithLength(text, len);
    if (root == NULL) {
        snprintf(why, why_cap, "not valid JSON: %s", path);
    }
    free(text);
    free(path);
    return root;
}

const char *vt_hexstr(char *buf, size_t cap, const uint8_t *p, size_t n)
{
    static const char tab[] = "0123456789abcdef";
    size_t i, o = 0, show = n > 48 ? 48 : n;

    for (i = 0; i < show && o + 3 < cap; i++) {
        buf[o++] = tab[p[i] >> 4];
        buf[o++] = tab[p[i] & 15];
    }
    if (show < n && o + 4 < cap) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

int vt_all_zero(const uint8_t *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != 0) {
            return 0;
        }
    }
    return 1;
}

void vt_appendf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    if (used + 1 >= cap) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

void *vt_null(void)
{
    static void *volatile nothing = NULL;
    return nothing;
}

void vt_assert_status(sc_status got, sc_status want, const char *expr, const char *file, int line)
{
    if (got != want) {
        fail_msg("%s:%d: %s returned %s (%d), expected %s (%d)", file, line, expr,
                 sc_status_name(got), (int)got, sc_status_name(want), (int)want);
    }
}

/* ---- per-file tallies ------------------------------------------------------------------ */

void vt_report_init(vt_report *r, const char *backend, const char *file)
{
    memset(r, 0, sizeof *r);
    r->backend = backend;
    r->file = file;
}

void vt_case_pass(vt_report *r)
{
    r->cases++;
    r->passed++;
}

void vt_case_fail(vt_report *r, const char *fmt, ...)
{
    va_list ap;

    r->cases++;
    r->failed++;
    if (r->failed <= VT_PRINTED_FAILURES) {
        printf("[%s] %s: FAIL ", r->backend, r->file);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    } else if (r->failed == VT_PRINTED_FAILURES + 1) {
        printf("[%s] %s: (further failures only counted)\n", r->backend, r->file);
    }
    fflush(stdout);
}

static void add_reason(vt_reason *list, const char *reason)
{
    size_t i;

    for (i = 0; i < VT_MAX_REASONS; i++) {
        if (list[i].text == NULL) {
            list[i].text = reason;
            list[i].count = 1;
            return;
        }
        if (strcmp(list[i].text, reason) == 0) {
            list[i].count++;
            return;
        }
    }
    /* more distinct reasons than slots: fold into the last one */
    list[VT_MAX_REASONS - 1].text = "other reasons";
    list[VT_MAX_REASONS - 1].count++;
}

void vt_case_skip(vt_report *r, const char *reason)
{
    r->cases++;
    add_reason(r->skipped, reason != NULL ? reason : "refused by the backend (no reason given)");
}

void vt_case_na(vt_report *r, const char *reason)
{
    r->cases++;
    add_reason(r->na, reason);
}

static size_t reason_total(const vt_reason *list)
{
    size_t i, t = 0;

    for (i = 0; i < VT_MAX_REASONS && list[i].text != NULL; i++) {
        t += list[i].count;
    }
    return t;
}

size_t vt_report_run(const vt_report *r)
{
    return r->passed + r->failed;
}

size_t vt_report_skipped(const vt_report *r)
{
    return reason_total(r->skipped);
}

size_t vt_report_na(const vt_report *r)
{
    return reason_total(r->na);
}

static void print_reasons(const char *label, const vt_reason *list)
{
    size_t i, total = reason_total(list);

    if (total == 0) {
        return;
    }
    printf(", %zu %s (", total, label);
    for (i = 0; i < VT_MAX_REASONS && list[i].text != NULL; i++) {
        printf("%s%s: %zu", i != 0 ? "; " : "", list[i].text, list[i].count);
    }
    printf(")");
}

void vt_report_print(const vt_report *r)
{
    printf("[%s] %s: %zu cases: %zu run", r->backend, r->file, r->cases, vt_report_run(r));
    if (r->detail[0] != '\0') {
        printf(" (%s)", r->detail);
    }
    printf(", %zu passed, %zu failed", r->passed, r->failed);
    print_reasons("skipped", r->skipped);
    print_reasons("n/a", r->na);
    printf("\n");
    fflush(stdout);
}

void vt_report_finish(const vt_report *r, size_t expected)
{
    vt_report_print(r);
    if (r->cases != vt_report_run(r) + vt_report_skipped(r) + vt_report_na(r)) {
        fail_msg("%s: case bookkeeping is inconsistent", r->file);
    }
    if (expected != 0 && r->cases != expected) {
        fail_msg("%s: saw %zu cases, the file declares %zu", r->file, r->cases, expected);
    }
    if (r->failed != 0) {
        fail_msg("%s: %zu of %zu cases failed on backend %s", r->file, r->failed, r->cases,
                 r->backend);
    }
    if (vt_report_run(r) == 0) {
        printf("[%s] %s: no case could run: reported as skipped\n", r->backend, r->file);
        fflush(stdout);
        skip();
    }
}

void vt_skip_file(const char *backend, const char *file, const char *why)
{
    printf("[%s] %s: skipped (%s)\n", backend, file, why);
    fflush(stdout);
    skip();
}

#ifndef SC_TEST_VECTORS_DIR
#define SC_TEST_VECTORS_DIR "vectors/upstream"
#endif
#ifndef SC_TEST_OWN_DIR
#define SC_TEST_OWN_DIR "vectors"
#endif

static int suite_usage(const char *prog, const vt_suite_opt *extra, size_t n_extra)
{
    size_t i;

    fprintf(stderr, "usage: %s --backend NAME [--vectors DIR] [--own DIR]", prog);
    for (i = 0; i < n_extra; i++) {
        fprintf(stderr, " [%s VALUE]", extra[i].name);
    }
    fputc('\n', stderr);
    return 2;
}

int vt_suite_start(vt_suite *s, sc_ctx *ctx, int argc, char **argv, const char *prog,
                   const char *title, const char *skipped, const vt_suite_opt *extra,
                   size_t n_extra)
{
    sc_status st;
    size_t k;
    int i;

    s->backend = NULL;
    s->vectors_dir = SC_TEST_VECTORS_DIR;
    s->own_dir = SC_TEST_OWN_DIR;
    for (i = 1; i < argc; i++) {
        const char **slot = NULL;

        if (strcmp(argv[i], "--backend") == 0) {
            slot = &s->backend;
        } else if (strcmp(argv[i], "--vectors") == 0) {
            slot = &s->vectors_dir;
        } else if (strcmp(argv[i], "--own") == 0) {
            slot = &s->own_dir;
        }
        for (k = 0; slot == NULL && k < n_extra; k++) {
            if (strcmp(argv[i], extra[k].name) == 0) {
                slot = extra[k].value;
            }
        }
        if (slot == NULL || i + 1 >= argc) {
            return suite_usage(prog, extra, n_extra);
        }
        *slot = argv[++i];
    }
    if (s->backend == NULL) {
        s->backend = sc_backend_default()->name;
        printf("note: no --backend given; using the default backend %s\n", s->backend);
    }
    st = sc_ctx_init(ctx, s->backend);
    if (st != SC_OK) {
        fprintf(stderr, "%s: cannot create a context for backend \"%s\": %s (%s)\n", prog,
                s->backend, sc_status_name(st), sc_status_str(st));
        return 1;
    }
    s->vectors_present = vt_dir_exists(s->vectors_dir);
    if (!s->vectors_present && skipped != NULL) {
        printf("\n**********************************************************************\n"
               "WARNING: OWN-ONLY MODE: upstream vectors folder %s not found; %s\n"
               "SKIPPED (not passed); only the suite's own cases run\n"
               "**********************************************************************\n\n",
               s->vectors_dir, skipped);
    }
    printf("[==========] group %s: %s, upstream vectors %s\n", s->backend, title, s->vectors_dir);
    fflush(stdout);
    return 0;
}

static int same_str(const sc_str *a, const sc_str *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
}

int vt_event_same_body(const sc_event *a, const sc_event *b, char *why, size_t cap)
{
    size_t t, i;

    if (a->created_at != b->created_at || a->kind != b->kind) {
        snprintf(why, cap, "created_at/kind %lld/%u vs %lld/%u", (long long)a->created_at, a->kind,
                 (long long)b->created_at, b->kind);
        return 0;
    }
    if (!same_str(&a->content, &b->content)) {
        snprintf(why, cap, "content differs (%zu vs %zu bytes)", a->content.len, b->content.len);
        return 0;
    }
    if (a->n_tags != b->n_tags) {
        snprintf(why, cap, "%zu vs %zu tags", a->n_tags, b->n_tags);
        return 0;
    }
    for (t = 0; t < a->n_tags; t++) {
        if (a->tags[t].n_items != b->tags[t].n_items) {
            snprintf(why, cap, "tag %zu: %zu vs %zu items", t, a->tags[t].n_items,
                     b->tags[t].n_items);
            return 0;
        }
        for (i = 0; i < a->tags[t].n_items; i++) {
            if (!same_str(&a->tags[t].items[i], &b->tags[t].items[i])) {
                snprintf(why, cap, "tag %zu item %zu differs", t, i);
                return 0;
            }
        }
    }
    return 1;
}

/* The own-only mode (the upstream folder absent): the file is reported skipped, never passed. */
static void need_upstream_dir(const char *backend, const char *dir, int present, const char *rel)
{
    char why[600];

    if (!present) {
        snprintf(why, sizeof why, "own-only mode: upstream vectors folder %s not found", dir);
        vt_skip_file(backend, rel, why);
    }
}

/* The folder is there, so every upstream file must be: a missing or unreadable one fails. */
static void upstream_file_fails(const char *backend, const char *rel, const char *why)
{
    printf("[%s] %s: FAIL (%s; the upstream folder is present, so the file is required)\n", backend,
           rel, why);
    fflush(stdout);
    fail_msg("%s: %s", rel, why);
}

cJSON *vt_upstream_json(const char *backend, const char *dir, int present, const char *rel)
{
    char why[600];
    cJSON *root;

    need_upstream_dir(backend, dir, present, rel);
    root = vt_load_json(dir, rel, why, sizeof why);
    if (root == NULL) {
        upstream_file_fails(backend, rel, why);
    }
    return root;
}

char *vt_upstream_text(const char *backend, const char *dir, int present, const char *rel)
{
    char why[600], *path, *text;

    need_upstream_dir(backend, dir, present, rel);
    path = vt_path_join(dir, rel);
    text = vt_read_file(path, NULL);
    snprintf(why, sizeof why, "file not found: %s", path);
    free(path);
    if (text == NULL) {
        upstream_file_fails(backend, rel, why);
    }
    return text;
}

int vt_only_zero_or(const uint8_t *p, size_t n, uint8_t fill)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != 0 && p[i] != fill) {
            return 0;
        }
    }
    return 1;
}

int vt_hex_is(const uint8_t *p, size_t n, const char *want)
{
    vt_bytes w;
    int ok;

    if (want == NULL || !vt_hex_to_bytes(want, &w)) {
        return 0;
    }
    ok = w.n == n && memcmp(p, w.p, n) == 0;
    vt_bytes_free(&w);
    return ok;
}
