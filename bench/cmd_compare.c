/* softchat-bench compare: the markdown table of two records, the regression gate, and the
 * re-run that confirms a regression before it counts. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "results_io.h"

extern char **environ;

const char bench_compare_usage[] =
    "usage: softchat-bench compare BASE.json CURRENT.json [--variation RUNS.json] [--no-retry]\n"
    "                              [--footprint BASE.tsv CURRENT.tsv]\n"
    "\n"
    "  The markdown table (Operation | Bytes | Baseline median | Current median | Delta |\n"
    "  Current p95 | p95 delta) and the gate: a row regresses when its median grows more than\n"
    "  10%, its p95 more than 15%, or its allocations or peak RSS more than 10%, or 3x the\n"
    "  runner variation measured in --variation (>= 5 runs of an unchanged revision) when that\n"
    "  is larger. A regression must reproduce on one automatic re-run of CURRENT's recorded\n"
    "  run command (unless --no-retry). --footprint: footprint.tsv files of two audits; a\n"
    "  compressed artifact fails only when it grows by more than both 5% and 100 KiB.\n"
    "  Exit 0 pass, 1 regression, 2 error.\n";

#define MAX_KEYS 256

typedef struct compare_args {
    const char *base, *cur, *variation, *fp_base, *fp_cur;
    int retry;
} compare_args;

/* The three records of a comparison (variation is empty when not given). */
typedef struct compare_files {
    bench_file base, cur, var;
} compare_files;

/* Parses compare's arguments. Returns 0, 2 on a usage error (printed), or -1 after printing
 * the help. */
static int parse_compare_args(int argc, char **argv, compare_args *a)
{
    const char *paths[2] = {NULL, NULL};
    int i, n_paths = 0;

    memset(a, 0, sizeof *a);
    a->retry = 1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(bench_compare_usage, stdout);
            return -1;
        } else if (strcmp(argv[i], "--variation") == 0 && i + 1 < argc) {
            a->variation = argv[++i];
        } else if (strcmp(argv[i], "--footprint") == 0 && i + 2 < argc) {
            a->fp_base = argv[++i];
            a->fp_cur = argv[++i];
        } else if (strcmp(argv[i], "--no-retry") == 0) {
            a->retry = 0;
        } else if (argv[i][0] != '-' && n_paths < 2) {
            paths[n_paths++] = argv[i];
        } else {
            return bench_usage_error(bench_compare_usage, "compare: bad arguments");
        }
    }
    if (n_paths != 2) {
        return bench_usage_error(bench_compare_usage, "compare needs BASE.json and CURRENT.json");
    }
    a->base = paths[0];
    a->cur = paths[1];
    return 0;
}

static void free_files(compare_files *f)
{
    bench_file_free(&f->base);
    bench_file_free(&f->cur);
    bench_file_free(&f->var);
}

/* Loads the records named by a. Returns 0, or 2 (message printed; f freed). */
static int load_files(const compare_args *a, compare_files *f)
{
    char err[512];

    memset(f, 0, sizeof *f);
    if (bench_load_json(a->base, &f->base, err, sizeof err) != 0 ||
        bench_load_json(a->cur, &f->cur, err, sizeof err) != 0 ||
        (a->variation != NULL && bench_load_json(a->variation, &f->var, err, sizeof err) != 0)) {
        bench_fail("%s", err);
        free_files(f);
        return 2;
    }
    return 0;
}

/* Splits a recorded run command ("run --backend all --runs 3"; records of the former
 * "softchat bench" say "bench ...") into argv for this executable, with --json out appended.
 * Returns 0, or -1 when it is not a run command or does not fit. */
static int rerun_argv(char *buf, size_t cap, const char *command, const char *self, const char *out,
                      char **argv, size_t argv_cap)
{
    size_t n = 0;
    char *tok, *save = NULL;

    if (snprintf(buf, cap, "%s", command) >= (int)cap) {
        return -1;
    }
    argv[n++] = (char *)self;
    for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
        if (n + 3 >= argv_cap) {
            return -1;
        }
        argv[n++] = tok;
    }
    if (n < 2 || (strcmp(argv[1], "run") != 0 && strcmp(argv[1], "bench") != 0)) {
        return -1;
    }
    argv[1] = (char *)"run";
    argv[n++] = (char *)"--json";
    argv[n++] = (char *)out;
    argv[n] = NULL;
    return 0;
}

/* Runs argv (this executable) with stdout on /dev/null. Returns its exit status, or -1. */
static int spawn_quiet(char **argv)
{
    posix_spawn_file_actions_t fa;
    int status = 0, rc;
    pid_t pid;

    if (posix_spawn_file_actions_init(&fa) != 0) {
        return -1;
    }
    rc = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    if (rc == 0) {
        rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    }
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
        return -1;
    }
    return WEXITSTATUS(status);
}

/* Re-runs CURRENT's run command (same options, this binary) into a temporary file. */
static int rerun(const bench_file *cur, bench_file *again)
{
    char tmpl[] = "/tmp/softchat-bench-retry-XXXXXX", self[4096], err[256], buf[512];
    char *argv[64];
    int fd = mkstemp(tmpl), rc = -1;

    if (fd < 0) {
        return -1;
    }
    close(fd);
    if (bench_self_path(self, sizeof self) == 0 &&
        rerun_argv(buf, sizeof buf, cur->command, self, tmpl, argv, 64) == 0) {
        fprintf(stderr, "softchat-bench: regression found; re-running to confirm: %s\n",
                cur->command);
        rc = spawn_quiet(argv);
        if (rc == 0) {
            rc = bench_load_json(tmpl, again, err, sizeof err);
        }
    }
    unlink(tmpl);
    return rc == 0 ? 0 : -1;
}

/* How many of the n_reg regressions in keys reproduce on a re-run of CURRENT (printing each
 * confirmed one); n_reg when the re-run cannot be done. */
static size_t confirm_by_rerun(const compare_files *f, const compare_opts *opts, char (*keys)[160],
                               size_t n_reg)
{
    char(*keys2)[160] = calloc(MAX_KEYS, sizeof *keys2);
    FILE *null = fopen("/dev/null", "w");
    size_t confirmed = n_reg, n2, i, j;
    bench_file again;

    if (keys2 != NULL && null != NULL && rerun(&f->cur, &again) == 0) {
        n2 = bench_compare(null, &f->base, &again, opts, keys2, MAX_KEYS);
        confirmed = 0;
        for (i = 0; i < n_reg && i < MAX_KEYS; i++) {
            for (j = 0; j < n2 && j < MAX_KEYS; j++) {
                if (strcmp(keys[i], keys2[j]) == 0) {
                    confirmed++;
                    printf("\nconfirmed on re-run: %s", keys[i]);
                    break;
                }
            }
        }
        printf("\n%zu of %zu regressions reproduced on the re-run\n", confirmed, n_reg);
        bench_file_free(&again);
    } else {
        printf("\nthe re-run could not be done; counting the first result\n");
    }
    if (null != NULL) {
        fclose(null);
    }
    free(keys2);
    return confirmed;
}

/* The table, the re-run and the footprint: the number of confirmed regressions, or
 * (size_t)-1 on an error (message printed). */
static size_t count_regressions(const compare_args *a, const compare_files *f)
{
    char(*keys)[160] = calloc(MAX_KEYS, sizeof *keys);
    compare_opts opts;
    size_t n_reg, confirmed, fp;

    if (keys == NULL) {
        return (size_t)-1;
    }
    memset(&opts, 0, sizeof opts);
    opts.variation = a->variation != NULL ? &f->var : NULL;
    printf("## Benchmark comparison\n\nBaseline: `%s` (%s); current: `%s` (%s). Negative deltas "
           "mean faster.\n",
           a->base, f->base.revision, a->cur, f->cur.revision);
    n_reg = bench_compare(stdout, &f->base, &f->cur, &opts, keys, MAX_KEYS);
    confirmed = n_reg;
    if (n_reg > 0 && a->retry && f->cur.command[0] != '\0') {
        confirmed = confirm_by_rerun(f, &opts, keys, n_reg);
    }
    free(keys);
    if (a->fp_base != NULL) {
        fp = bench_compare_footprint(stdout, a->fp_base, a->fp_cur);
        if (fp == (size_t)-1) {
            bench_fail("cannot read the footprint files");
            return (size_t)-1;
        }
        confirmed += fp;
    }
    return confirmed;
}

int bench_cmd_compare(int argc, char **argv)
{
    compare_args a;
    compare_files f;
    size_t confirmed;
    int rc = parse_compare_args(argc, argv, &a);

    if (rc != 0) {
        return rc < 0 ? 0 : rc;
    }
    if (load_files(&a, &f) != 0) {
        return 2;
    }
    confirmed = count_regressions(&a, &f);
    free_files(&f);
    if (confirmed == (size_t)-1) {
        return 2;
    }
    printf("\n**Gate: %s** (%zu regression%s)\n", confirmed ? "FAIL" : "PASS", confirmed,
           confirmed == 1 ? "" : "s");
    return confirmed ? 1 : 0;
}
