/* The result file (schema "softchat-bench/1", docs/benchmarks.md): writing and reading. */
#ifndef SOFTCHAT_BENCH_RESULTS_IO_H
#define SOFTCHAT_BENCH_RESULTS_IO_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

#define BENCH_SCHEMA "softchat-bench/1"

/* A loaded result file: what the gate reads of it. */
typedef struct bench_file {
    char revision[128];
    char command[512]; /* the bench command line that produced it (for a retry) */
    bench_row *rows;
    size_t n_rows;
} bench_file;

/* Writes the whole result document. `command` records how it was produced. */
int bench_write_json(FILE *f, const bench_row *rows, size_t n, const char *command, unsigned runs);

/* Loads a result file. Returns 0, or -1 with a message in err. */
int bench_load_json(const char *path, bench_file *out, char *err, size_t err_cap);
void bench_file_free(bench_file *bf);

/* The row of (backend, operation, bytes, threads) in bf, or NULL. */
const bench_row *bench_find_row(const bench_file *bf, const char *backend, const char *op,
                                size_t bytes, unsigned threads);

/* A latency for the tables: "812 ns", "44.18 µs", "1.52 ms"; `none` when ns is negative or not
 * finite (no measurement). */
void bench_fmt_ns(char *buf, size_t cap, double ns, const char *none);

#endif
