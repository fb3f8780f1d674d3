/* The audit report (report.md) and the targets it checks. */
#ifndef SOFTCHAT_BENCH_REPORT_H
#define SOFTCHAT_BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "conformance.h"
#include "harness.h"
#include "result.h"
#include "results_io.h"
#include "verdict.h"

#define AUDIT_MAX_PEERS 4
#define AUDIT_MAX_FOOTPRINT 128
#define AUDIT_MAX_COMPARE 64

/* One row rust-nostr and we both measured: the first measurement and, when its runs
 * disagreed, the re-measurement, with the settled verdicts of our default build and of the
 * like-for-like build against the peer. */
typedef struct compare_row {
    const bench_row *ours, *alt, *peer;    /* in the run */
    const bench_row *ours2, *alt2, *peer2; /* in the re-measurement, or NULL */
    verdict_final v, v_alt;
} compare_row;

typedef struct footprint_row {
    char profile[32], artifact[32], variant[16];
    long long bytes;
} footprint_row;

typedef struct peer_result {
    char name[32];
    int ok;
    char failure[512]; /* why it could not be installed or run */
    bench_file file;
} peer_result;

typedef struct audit_data {
    const bench_row *rows; /* ours: operations and floors */
    size_t n_rows;
    const char *default_backend;
    unsigned runs;       /* independent processes per configuration */
    char selftest[4096]; /* markdown lines */
    conformance conf;    /* the conformance suites' per-file case counts */
    footprint_row footprint[AUDIT_MAX_FOOTPRINT];
    size_t n_footprint;
    peer_result peers[AUDIT_MAX_PEERS];
    size_t n_peers;
    /* The same library built against another libsecp256k1 (the release a peer bundles), for
     * a like-for-like comparison: its default-backend rows (n_rows 0 when not measured). */
    bench_file alt;
    char alt_label[160];   /* e.g. "openssl, libsecp256k1 0.4.1 (source)" */
    char alt_failure[512]; /* why it was not measured, when it was asked for */
    char alt_options[256]; /* how that libsecp256k1 was built (the tree's .cmake file) */
    /* Against rust-nostr: every row both measured, with verdicts. */
    compare_row cmp[AUDIT_MAX_COMPARE];
    size_t n_cmp, n_retried;
    char revision[128];
    bench_clock clock; /* what the samples were timed with */
    double wall_s;
} audit_data;

/* Writes report.md. */
void report_write(FILE *f, const audit_data *d);

/* Writes the targets table (markdown) and returns how many targets were missed. */
size_t report_targets(FILE *f, const audit_data *d);

#endif
