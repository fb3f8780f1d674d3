/* softchat-bench: the benchmark harness of libsoftchat (docs/benchmarks.md), an executable of
 * its own, apart from the softchat CLI. Its commands (argv[0] is the command's
 * name) return the exit status: 0 success, 1 a confirmed regression (compare), 2 a usage or
 * environment error. */
#ifndef SOFTCHAT_BENCH_BENCH_H
#define SOFTCHAT_BENCH_BENCH_H

#include <stddef.h>

/* softchat-bench run: measure under the contract, print the table, write the record. */
int bench_cmd_run(int argc, char **argv);

/* softchat-bench worker BACKEND op|floor NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES:
 * one measurement in a fresh process, spawned by the runner (not for people). The operation
 * is named, not numbered, so the runner can spawn another build's softchat-bench (the
 * like-for-like libsecp256k1) and a peer's worker (bench/peers) with the same arguments. */
int bench_cmd_worker(int argc, char **argv);

/* softchat-bench compare: the markdown table of two records and the regression gate. */
int bench_cmd_compare(int argc, char **argv);

extern const char bench_run_usage[];
extern const char bench_compare_usage[];

/* ---- shared by the commands (tool.c) ------------------------------------------------------ */

/* Prints "softchat-bench: <message>" to stderr and returns 2. */
int bench_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Prints "softchat-bench: <msg>" and then usage to stderr; returns 2. */
int bench_usage_error(const char *usage, const char *msg);

/* The path of this executable (/proc/self/exe), for spawning workers and re-runs.
 * Returns 0, or -1 when it cannot be read or does not fit in cap. */
int bench_self_path(char *buf, size_t cap);

/* Parses a decimal unsigned integer (the whole string). Returns 0 or -1. */
int bench_parse_uint(const char *s, unsigned long long *v);

#endif
