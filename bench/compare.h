/* bench compare: the markdown table of two result files and the regression gate. */
#ifndef SOFTCHAT_BENCH_COMPARE_H
#define SOFTCHAT_BENCH_COMPARE_H

#include <stdio.h>

#include "results_io.h"

/* Gate thresholds (docs/benchmarks.md). */
#define GATE_MEDIAN 0.10
#define GATE_P95 0.15
#define GATE_ALLOCS 0.10
#define GATE_RSS 0.10
#define GATE_VARIATION_FACTOR 3.0
#define GATE_ARTIFACT_REL 0.05
#define GATE_ARTIFACT_ABS (100.0 * 1024.0)

typedef struct compare_opts {
    const bench_file *variation; /* >= 5 runs of one unchanged revision, or NULL */
    int markdown_only;           /* no verdict line */
} compare_opts;

/* Writes the table for every row the two files share (grouped by backend) and counts the
 * rows that regress; the keys of regressing rows are written to regressed[] (as
 * "backend/op/bytes/threads", at most max_keys). Returns the number of regressions. */
size_t bench_compare(FILE *out, const bench_file *base, const bench_file *cur,
                     const compare_opts *opts, char (*regressed)[160], size_t max_keys);

/* The footprint gate on two footprint.tsv files (written by the audit's
 * scripts/audit/footprint.py): a compressed artifact (variant *.gz) regresses only when it
 * grows by more than both 5% and 100 KiB. Writes a markdown table; returns the number of
 * regressions, or (size_t)-1 if a file is unreadable. */
size_t bench_compare_footprint(FILE *out, const char *base_tsv, const char *cur_tsv);

#endif
