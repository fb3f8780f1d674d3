/* See report_jvm.h. The verdict rule is the native audit's: a side is faster only when its
 * time is lower by more than max(5 %, 3 x the run-to-run variation), where the variation of
 * a row is the relative standard deviation of its forks' means (JMH rawData), the larger of
 * the two sides'. */
#define _POSIX_C_SOURCE 200809L
#include "report_jvm.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef SOFTCHAT_SOURCE_DIR
#define SOFTCHAT_SOURCE_DIR "."
#endif

#define JVM_MAX_ROWS 128

typedef struct jvm_row {
    char op[48], side[24];
    long bytes;
    double ns, err, var, bytes_op; /* var: relative stdev of fork means; bytes_op < 0: none */
    double objects;                /* < 0: not counted */
    int forks;
} jvm_row;

typedef struct jvm_data {
    jvm_row rows[JVM_MAX_ROWS];
    size_t n;
} jvm_data;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (f == NULL) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        (buf = malloc((size_t)n + 1)) == NULL) {
        fclose(f);
        return NULL;
    }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static cJSON *load(const char *dir, const char *name)
{
    char path[4096];
    char *text;
    cJSON *j;

    snprintf(path, sizeof path, "%s/jvm/%s", dir, name);
    text = slurp(path);
    if (text == NULL) {
        return NULL;
    }
    j = cJSON_Parse(text);
    free(text);
    return j;
}

int jvm_run(const char *out_dir, const char *build_dir, int quick)
{
    char cmd[8192], path[4096];
    int rc;
    FILE *f;

    snprintf(path, sizeof path, "%s/jvm", out_dir);
    if (snprintf(cmd, sizeof cmd,
                 "mkdir -p '%s' && '%s/bindings/kotlin/jmh/run.sh' '%s' %s --jni "
                 "'%s/bindings/kotlin/jni/libsoftchat_jni.so' >'%s/run.log' 2>&1",
                 path, SOFTCHAT_SOURCE_DIR, path, quick ? "--quick" : "", build_dir,
                 path) >= (int)sizeof cmd) {
        return -1;
    }
    rc = system(cmd);
    snprintf(path, sizeof path, "%s/jvm/failure.txt", out_dir);
    if (rc == 0) {
        remove(path);
        return 0;
    }
    f = fopen(path, "w");
    if (f != NULL) {
        fprintf(f, "bindings/kotlin/jmh/run.sh exited with status %d (log: jvm/run.log)\n", rc);
        fclose(f);
    }
    return -1;
}

/* Operation name from "org.softchat.jmh.Nip44Bench.nip44_encrypt". */
static const char *op_of(const char *benchmark)
{
    const char *dot = strrchr(benchmark, '.');
    return dot != NULL ? dot + 1 : benchmark;
}

static double fork_variation(const cJSON *raw, int *forks)
{
    double means[64], sum = 0, m, v = 0;
    int n = 0, k;
    const cJSON *fork;

    cJSON_ArrayForEach(fork, raw)
    {
        const cJSON *x;
        double s = 0;
        int c = 0;
        cJSON_ArrayForEach(x, fork)
        {
            s += x->valuedouble;
            c++;
        }
        if (c > 0 && n < 64) {
            means[n++] = s / c;
        }
    }
    *forks = n;
    if (n < 2) {
        return 0;
    }
    for (k = 0; k < n; k++) {
        sum += means[k];
    }
    m = sum / n;
    for (k = 0; k < n; k++) {
        v += (means[k] - m) * (means[k] - m);
    }
    return m > 0 ? sqrt(v / (n - 1)) / m : 0;
}

static void read_jmh(jvm_data *d, const cJSON *jmh)
{
    const cJSON *b;

    cJSON_ArrayForEach(b, jmh)
    {
        const cJSON *params = cJSON_GetObjectItem(b, "params");
        const cJSON *pm = cJSON_GetObjectItem(b, "primaryMetric");
        const cJSON *sec = cJSON_GetObjectItem(b, "secondaryMetrics");
        const cJSON *side = cJSON_GetObjectItem(params, "side");
        const cJSON *bytes = cJSON_GetObjectItem(params, "bytes");
        const cJSON *norm = cJSON_GetObjectItem(sec, "gc.alloc.rate.norm");
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(b, "benchmark"));
        jvm_row *r;
        if (d->n >= JVM_MAX_ROWS || name == NULL || !cJSON_IsString(side) || pm == NULL) {
            continue;
        }
        r = &d->rows[d->n++];
        memset(r, 0, sizeof *r);
        snprintf(r->op, sizeof r->op, "%s", op_of(name));
        snprintf(r->side, sizeof r->side, "%s", side->valuestring);
        r->bytes = cJSON_IsString(bytes) ? atol(bytes->valuestring) : 0;
        if (r->bytes == 0) { /* the fixed sizes of the operations without a size parameter */
            r->bytes = strcmp(r->op, "parse_verify_event") == 0 ? 374
                       : strstr(r->op, "attachment") != NULL    ? 64000
                       : strncmp(r->op, "nip", 3) == 0 || strcmp(r->op, "gift_wrap") == 0 ||
                               strcmp(r->op, "unwrap") == 0
                           ? 15
                           : 32;
            if (strcmp(r->op, "attachment_encrypt_64000") == 0) {
                snprintf(r->op, sizeof r->op, "attachment_encrypt");
            }
        }
        r->ns = cJSON_GetNumberValue(cJSON_GetObjectItem(pm, "score"));
        r->err = cJSON_GetNumberValue(cJSON_GetObjectItem(pm, "scoreError"));
        if (isnan(r->err)) {
            r->err = 0;
        }
        r->var = fork_variation(cJSON_GetObjectItem(pm, "rawData"), &r->forks);
        r->bytes_op = norm != NULL ? cJSON_GetNumberValue(cJSON_GetObjectItem(norm, "score")) : -1;
        r->objects = -1;
    }
}

static jvm_row *find(jvm_data *d, const char *op, const char *side, long bytes)
{
    size_t i;

    for (i = 0; i < d->n; i++) {
        if (strcmp(d->rows[i].op, op) == 0 && strcmp(d->rows[i].side, side) == 0 &&
            d->rows[i].bytes == bytes) {
            return &d->rows[i];
        }
    }
    return NULL;
}

static void read_alloc(jvm_data *d, const cJSON *alloc)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, cJSON_GetObjectItem(alloc, "rows"))
    {
        const char *op = cJSON_GetStringValue(cJSON_GetObjectItem(r, "operation"));
        const char *side = cJSON_GetStringValue(cJSON_GetObjectItem(r, "side"));
        const cJSON *o = cJSON_GetObjectItem(r, "objects");
        jvm_row *row;
        if (op == NULL || side == NULL || !cJSON_IsNumber(o)) {
            continue;
        }
        row = find(d, op, side, (long)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "bytes")));
        if (row != NULL) {
            row->objects = o->valuedouble;
        }
    }
}

static void fmt_ns(char *out, size_t cap, double ns)
{
    if (ns >= 1e6) {
        snprintf(out, cap, "%.2f ms", ns / 1e6);
    } else if (ns >= 1e3) {
        snprintf(out, cap, "%.1f µs", ns / 1e3);
    } else {
        snprintf(out, cap, "%.0f ns", ns);
    }
}

static void fmt_alloc(char *out, size_t cap, const jvm_row *r)
{
    char o[32] = "n/c";

    if (r->objects >= 0) {
        snprintf(o, sizeof o, "%.1f", r->objects);
    }
    if (r->bytes_op >= 0) {
        snprintf(out, cap, "%.0f B, %s obj", r->bytes_op, o);
    } else {
        snprintf(out, cap, "n/m, %s obj", o);
    }
}

/* The verdict of ours against a peer. Returns -1 slower, 0 within the margin, 1 faster. */
static int verdict(const jvm_row *ours, const jvm_row *peer, double *margin)
{
    double var = ours->var > peer->var ? ours->var : peer->var;

    *margin = 3 * var > 0.05 ? 3 * var : 0.05;
    if (ours->ns < peer->ns * (1 - *margin)) {
        return 1;
    }
    if (peer->ns < ours->ns * (1 - *margin)) {
        return -1;
    }
    return 0;
}

static const char *peer_of(const char *op)
{
    return strncmp(op, "nip44", 5) == 0 ? "bouncycastle" : "bc-acinq";
}

static size_t table(FILE *f, jvm_data *d)
{
    static const char *const order[] = {"import_identity",
                                        "nip44_encrypt",
                                        "nip44_decrypt",
                                        "nip44_encrypt_held",
                                        "nip44_decrypt_held",
                                        "sign_event",
                                        "parse_verify_event",
                                        "nip59_rumor",
                                        "nip17_message",
                                        "gift_wrap",
                                        "unwrap",
                                        "attachment_encrypt"};
    size_t k, i, missed = 0;

    fprintf(f, "| operation | bytes | softchat (facade) | allocated / call | baseline | "
               "allocated / call | baseline ÷ softchat | verdict (margin) |\n"
               "|---|---:|---:|---:|---|---:|---:|---|\n");
    for (k = 0; k < sizeof order / sizeof order[0]; k++) {
        for (i = 0; i < d->n; i++) {
            jvm_row *r = &d->rows[i], *p;
            char a[32], b[48], c[32], e[48], v[64];
            double margin;
            int vd;
            if (strcmp(r->op, order[k]) != 0 || strcmp(r->side, "softchat") != 0) {
                continue;
            }
            fmt_ns(a, sizeof a, r->ns);
            fmt_alloc(b, sizeof b, r);
            p = find(d, r->op, peer_of(r->op), r->bytes);
            if (p == NULL) {
                fprintf(f, "| %s | %ld | %s | %s | no peer runs it | | | |\n", r->op, r->bytes, a,
                        b);
                continue;
            }
            fmt_ns(c, sizeof c, p->ns);
            fmt_alloc(e, sizeof e, p);
            vd = verdict(r, p, &margin);
            snprintf(v, sizeof v, "%s (%.0f %%)",
                     vd > 0   ? "softchat faster"
                     : vd < 0 ? "**baseline faster**"
                              : "within margin",
                     margin * 100);
            missed += vd < 0;
            fprintf(f, "| %s | %ld | %s | %s | %s %s | %s | %.2f× | %s |\n", r->op, r->bytes, a, b,
                    p->side, c, e, p->ns / r->ns, v);
        }
    }
    return missed;
}

static size_t alloc_target(FILE *f, jvm_data *d)
{
    size_t i, counted = 0, over = 0;
    double worst = 0;

    for (i = 0; i < d->n; i++) {
        const jvm_row *r = &d->rows[i];
        if (strcmp(r->side, "softchat") == 0 && strncmp(r->op, "nip44", 5) == 0 &&
            r->objects >= 0) {
            counted++;
            worst = r->objects > worst ? r->objects : worst;
            over += r->objects > 7.0;
        }
    }
    if (counted == 0) {
        fprintf(f, "| objects per NIP-44 call ≤ 7 | not counted | **missed** |\n");
        return 1;
    }
    fprintf(f, "| objects per NIP-44 call ≤ 7 (the seeds' 5–7) | worst %.1f over %zu rows | %s |\n",
            worst, counted, over == 0 ? "met" : "**missed**");
    return over > 0;
}

size_t jvm_report(FILE *f, const char *out_dir)
{
    static jvm_data d;
    char path[4096];
    char *failure;
    cJSON *jmh, *alloc, *peers, *p;
    size_t missed = 0;

    fprintf(f, "\n## JVM: the Kotlin facade under JMH, with its peers\n\n");
    snprintf(path, sizeof path, "%s/jvm/failure.txt", out_dir);
    failure = slurp(path);
    jmh = load(out_dir, "jmh.json");
    if (failure != NULL || jmh == NULL) {
        fprintf(f, "Not measured: %s\n", failure != NULL ? failure : "jvm/jmh.json is missing.");
        free(failure);
        cJSON_Delete(jmh);
        return 1;
    }
    memset(&d, 0, sizeof d);
    read_jmh(&d, jmh);
    alloc = load(out_dir, "alloc.json");
    if (alloc != NULL) {
        read_alloc(&d, alloc);
    }
    fprintf(f, "JMH 1.37 on the same machine and in the same run for every side (raw: "
               "`jvm/jmh.json`, `jvm/alloc.json`, `jvm/peers.json`). Average time per call; "
               "forks, warm-up and measurement as in `jvm/jmh.json` (full profile: 3 forks, "
               "3 × 1 s warm-up, 5 × 1 s measurement), G1 with a fixed 1 GiB heap; each result "
               "consumed by JMH's Blackhole. Bytes per call from `-prof gc` "
               "(gc.alloc.rate.norm); objects per call from `AllocCount` (Epsilon GC, class "
               "histograms around N warmed calls). Every side gets the same keys, texts and "
               "payloads, and passed the official NIP-44 vectors in its setup. The NIP-44 "
               "rows talk to one peer, so the facade's lifted-key cache (8 keys per context) "
               "applies there; the baseline lifts the key on every call. parse_verify_event "
               "cycles 16 events by 16 authors and unwrap 16 wraps (fresh one-time keys) on "
               "every side. Verdict: faster only when lower by more than max(5 %%, 3 × the "
               "run-to-run variation of the forks).\n\n");
    fprintf(f, "Peers:\n\n");
    peers = load(out_dir, "peers.json");
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(peers, "peers"))
    {
        fprintf(f, "- **%s** — %s: %s\n", cJSON_GetStringValue(cJSON_GetObjectItem(p, "name")),
                cJSON_GetStringValue(cJSON_GetObjectItem(p, "status")),
                cJSON_GetStringValue(cJSON_GetObjectItem(p, "what")));
    }
    fprintf(f, "\n");
    missed += table(f, &d);
    fprintf(f, "\nJVM targets:\n\n| target | measured | status |\n|---|---|---|\n");
    fprintf(f, "| faster than rust-nostr's JVM binding on every shared operation; ≥ 2× on "
               "NIP-44 64000 B | not measured: the binding is not installable (see Peers) | "
               "**not measured** |\n");
    missed += 1 + alloc_target(f, &d);
    cJSON_Delete(jmh);
    cJSON_Delete(alloc);
    cJSON_Delete(peers);
    return missed;
}
