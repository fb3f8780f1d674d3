/* See conformance.h. */
#define _POSIX_C_SOURCE 200809L
#include "conformance.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define UPSTREAM_ABSENT_PREFIX "upstream vectors folder "
#define FILE_ABSENT_PREFIX "file not found: "

void conf_init(conformance *c)
{
    memset(c, 0, sizeof *c);
    c->ran = 1;
}

void conf_free(conformance *c)
{
    free(c->rows);
    c->rows = NULL;
    c->n_rows = c->cap_rows = 0;
}

void conf_not_run(conformance *c, const char *why)
{
    c->ran = 0;
    snprintf(c->note, sizeof c->note, "%s", why);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Copies s[0..n) into dst (truncated to cap - 1). */
static void copy_n(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap) {
        n = cap - 1;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* A ctest status line: " 5/38 Test  #5: vectors.own-only ......   Passed    0.10 sec". */
static int status_line(conformance *c, const char *line)
{
    int done, total, num;
    char name[256];

    if (sscanf(line, " %d/%d Test #%d: %255s", &done, &total, &num, name) != 4) {
        return 0;
    }
    if (strstr(line, " Passed") != NULL) {
        c->passed++;
    } else if (strstr(line, "***Skipped") != NULL) {
        c->skipped++;
    } else {
        c->failed++;
    }
    return 1;
}

/* "      Start  5: vectors.own-only": the fallback entries' output is left out. */
static int start_line(conformance *c, const char *line)
{
    char name[256];
    int num;

    if (sscanf(line, " Start %d: %255s", &num, name) != 2) {
        return 0;
    }
    if (num >= 0 && num < CONF_MAX_TESTS &&
        (ends_with(name, ".no-upstream") || ends_with(name, ".own-only"))) {
        c->ignored[num] = 1;
    }
    return 1;
}

static void add_row(conformance *c, const char *backend, size_t bl, const char *label, size_t ll,
                    const char *result, int skipped)
{
    conf_row r, *grown;
    size_t i;

    memset(&r, 0, sizeof r);
    copy_n(r.backend, sizeof r.backend, backend, bl);
    copy_n(r.label, sizeof r.label, label, ll);
    snprintf(r.result, sizeof r.result, "%s", result);
    r.skipped = skipped;
    for (i = 0; i < c->n_rows; i++) { /* a file several tests skip is one row */
        if (strcmp(c->rows[i].backend, r.backend) == 0 && strcmp(c->rows[i].label, r.label) == 0 &&
            strcmp(c->rows[i].result, r.result) == 0) {
            return;
        }
    }
    if (c->n_rows == c->cap_rows) {
        size_t cap = c->cap_rows ? 2 * c->cap_rows : 256;
        grown = realloc(c->rows, cap * sizeof *grown);
        if (grown == NULL) {
            c->oom = 1;
            return;
        }
        c->rows = grown;
        c->cap_rows = cap;
    }
    c->rows[c->n_rows++] = r;
}

/* The position of ": N cases: " (or ": N cases" at the end) in body, or NULL. */
static const char *find_cases(const char *body)
{
    const char *p;

    for (p = strstr(body, ": "); p != NULL; p = strstr(p + 1, ": ")) {
        const char *q = p + 2;
        if (!isdigit((unsigned char)*q)) {
            continue;
        }
        while (isdigit((unsigned char)*q)) {
            q++;
        }
        if (strncmp(q, " cases", 6) == 0 && (q[6] == ':' || q[6] == '\0')) {
            return p;
        }
    }
    return NULL;
}

/* "[backend] LABEL: N cases: ..." or "[backend] LABEL: skipped (WHY)". */
static void file_line(conformance *c, const char *s)
{
    const char *rb = strchr(s, ']'), *body, *p;
    size_t bl;

    if (s[0] != '[' || rb == NULL || rb[1] != ' ') {
        return;
    }
    bl = (size_t)(rb - s - 1);
    body = rb + 2;
    if ((p = find_cases(body)) != NULL) {
        add_row(c, s + 1, bl, body, (size_t)(p - body), p + 2, 0);
    } else if ((p = strstr(body, ": skipped (")) != NULL && ends_with(p, ")")) {
        char why[640], result[640];
        const char *w = p + strlen(": skipped (");

        copy_n(why, sizeof why, w, strlen(w) - 1);
        if (starts_with(why, "upstream vectors folder")) { /* "... DIR not found", "... missing" */
            c->upstream_missing = 1;
            snprintf(result, sizeof result, "skipped: the upstream folder is absent");
        } else {
            snprintf(result, sizeof result, "skipped (%.600s)", why);
        }
        add_row(c, s + 1, bl, body, (size_t)(p - body), result, 1);
    }
}

/* "[==========] group NAME: TITLE, upstream vectors DIR" and the missing-folder banner. */
static void group_line(conformance *c, const char *s)
{
    const char *key = ", upstream vectors ", *p = NULL, *q;

    if (starts_with(s, "[==========] group ")) {
        for (q = strstr(s, key); q != NULL; q = strstr(q + 1, key)) {
            p = q; /* the last one: a title may say "upstream vectors" too */
        }
        if (p != NULL && c->upstream_dir[0] == '\0') {
            snprintf(c->upstream_dir, sizeof c->upstream_dir, "%s", p + strlen(key));
        }
    } else if (starts_with(s, "WARNING: " UPSTREAM_ABSENT_PREFIX) &&
               strstr(s, " not found") != NULL) {
        c->upstream_missing = 1;
    }
}

void conf_line(conformance *c, const char *raw)
{
    char line[4096];
    int num, off = 0;

    copy_n(line, sizeof line, raw, strcspn(raw, "\r\n"));
    if (status_line(c, line) || start_line(c, line)) {
        return;
    }
    /* a test's own output: "N: ..." */
    if (sscanf(line, "%d: %n", &num, &off) != 1 || off == 0) {
        return;
    }
    if (num >= 0 && num < CONF_MAX_TESTS && c->ignored[num]) {
        return;
    }
    group_line(c, line + off);
    file_line(c, line + off);
}

/* Whether the first word of label is a file in the upstream folder. */
static int in_upstream(const conformance *c, const char *label)
{
    char path[2048];
    struct stat st;
    size_t n = strcspn(label, " ");

    if (c->upstream_dir[0] == '\0' || n == 0 ||
        snprintf(path, sizeof path, "%s/%.*s", c->upstream_dir, (int)n, label) >=
            (int)sizeof path) {
        return 0;
    }
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void classify(conformance *c, conf_row *r)
{
    const char *why = "skipped (" FILE_ABSENT_PREFIX;

    if (starts_with(r->result, "skipped: the upstream folder is absent")) {
        r->upstream = r->absent = 1;
    } else if (starts_with(r->result, why) && c->upstream_dir[0] != '\0' &&
               starts_with(r->result + strlen(why), c->upstream_dir)) {
        r->upstream = r->absent = 1;
        snprintf(r->result, sizeof r->result,
                 "skipped: the file is absent from the upstream folder");
    } else {
        r->upstream = in_upstream(c, r->label);
    }
}

/* Keeps each label's rows together (first-seen order of labels, then of backends). */
static void group_rows(conformance *c)
{
    size_t i, j;

    for (i = 0; i < c->n_rows; i++) {
        c->rows[i].group = i;
        for (j = 0; j < i; j++) {
            if (c->rows[j].upstream == c->rows[i].upstream &&
                strcmp(c->rows[j].label, c->rows[i].label) == 0) {
                c->rows[i].group = c->rows[j].group;
                break;
            }
        }
    }
    for (i = 1; i < c->n_rows; i++) { /* stable insertion sort by group */
        conf_row r = c->rows[i];
        for (j = i; j > 0 && c->rows[j - 1].group > r.group; j--) {
            c->rows[j] = c->rows[j - 1];
        }
        c->rows[j] = r;
    }
}

/* The last occurrence of needle in s, or NULL. */
static const char *last_of(const char *s, const char *needle)
{
    const char *p, *last = NULL;

    for (p = strstr(s, needle); p != NULL; p = strstr(p + 1, needle)) {
        last = p;
    }
    return last;
}

/* Totals of the rows of one kind. */
typedef struct conf_totals {
    size_t rows, files, cases, run, passed, failed, skipped, absent;
} conf_totals;

static conf_totals totals(const conformance *c, int upstream)
{
    conf_totals t;
    size_t i, j;

    memset(&t, 0, sizeof t);
    for (i = 0; i < c->n_rows; i++) {
        const conf_row *r = &c->rows[i];
        size_t n = strcspn(r->label, " "), cases, run, passed, failed;
        const char *p;
        int seen = 0;

        if (r->upstream != upstream) {
            continue;
        }
        t.rows++;
        for (j = 0; j < i && !seen; j++) { /* distinct files: the label's first word */
            seen = c->rows[j].upstream == upstream && strcspn(c->rows[j].label, " ") == n &&
                   strncmp(c->rows[j].label, r->label, n) == 0;
        }
        t.files += !seen;
        t.skipped += r->skipped;
        t.absent += r->absent;
        if (!r->skipped && sscanf(r->result, "%zu cases: %zu run", &cases, &run) == 2) {
            t.cases += cases;
            t.run += run;
            p = last_of(r->result, " passed, ");
            while (p != NULL && p > r->result && isdigit((unsigned char)p[-1])) {
                p--;
            }
            if (p != NULL && sscanf(p, "%zu passed, %zu failed", &passed, &failed) == 2) {
                t.passed += passed;
                t.failed += failed;
            }
        }
    }
    return t;
}

void conf_finish(conformance *c, int status)
{
    conf_totals up;
    size_t i;

    c->exit_status = status;
    for (i = 0; i < c->n_rows; i++) {
        classify(c, &c->rows[i]);
    }
    group_rows(c);
    up = totals(c, 1);
    if (c->upstream_missing || (up.rows > 0 && up.absent == up.rows)) {
        snprintf(c->note, sizeof c->note,
                 "ctest: %d suites passed, %d failed (exit %d); upstream vectors NOT FOUND at %s: "
                 "every upstream file skipped, only the project's own vectors ran",
                 c->passed, c->failed + c->skipped, status,
                 c->upstream_dir[0] ? c->upstream_dir : "(not named)");
    } else {
        snprintf(c->note, sizeof c->note,
                 "ctest: %d suites passed, %d failed (exit %d); upstream vectors: %zu files from "
                 "%s, %zu cases run, %zu failed",
                 c->passed, c->failed + c->skipped, status, up.files,
                 c->upstream_dir[0] ? c->upstream_dir : "(not named)", up.run, up.failed);
    }
}

/* Writes s with '|' escaped, for a markdown cell. */
static void cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') {
            fputc('\\', f);
        }
        fputc(*s, f);
    }
}

static void table(FILE *f, const conformance *c, int upstream)
{
    size_t i;

    fprintf(f, "| File | Backend | Result |\n|---|---|---|\n");
    for (i = 0; i < c->n_rows; i++) {
        const conf_row *r = &c->rows[i];
        if (r->upstream != upstream) {
            continue;
        }
        fputs("| ", f);
        cell(f, r->label);
        fputs(" | ", f);
        cell(f, r->backend);
        fputs(" | ", f);
        cell(f, r->result);
        fputs(" |\n", f);
    }
}

static void summary(FILE *f, const char *what, const conf_totals *t, int files)
{
    fprintf(f, "%s: ", what);
    if (files) {
        fprintf(f, "%zu files, ", t->files);
    }
    fprintf(f,
            "%zu results (one per file or check and backend): %zu cases, %zu run, %zu passed, "
            "%zu failed; %zu results skipped.\n\n",
            t->rows, t->cases, t->run, t->passed, t->failed, t->skipped);
}

void conf_write(FILE *f, const conformance *c)
{
    conf_totals up = totals(c, 1), own = totals(c, 0);

    if (!c->ran) {
        fprintf(f, "%s\n", c->note);
        return;
    }
    fprintf(f, "ctest: %d conformance suites passed, %d failed (exit %d)%s.\n\n", c->passed,
            c->failed + c->skipped, c->exit_status,
            c->oom ? "; some rows could not be kept (out of memory)" : "");
    if (c->upstream_missing || (up.rows > 0 && up.absent == up.rows)) {
        fprintf(f,
                "**Upstream vectors not found** (`%s`): every upstream file below was "
                "skipped, so only the project's own vectors ran. Configure with "
                "`-DSOFTCHAT_VECTORS_DIR=` the folder of upstream files and run the audit "
                "again.\n\n",
                c->upstream_dir[0] ? c->upstream_dir : "the suites named no folder");
    } else {
        fprintf(f, "Upstream vectors: `%s`.\n\n",
                c->upstream_dir[0] ? c->upstream_dir : "the suites named no folder");
    }
    summary(f, "Upstream files (Wycheproof, the NIPs' test vectors, BIP-340, RFC examples)", &up,
            1);
    summary(f, "The project's own vectors and checks", &own, 0);
    fprintf(f, "### Upstream files\n\n");
    table(f, c, 1);
    fprintf(f, "\n### The project's own vectors and checks\n\n");
    table(f, c, 0);
    fputc('\n', f);
}
