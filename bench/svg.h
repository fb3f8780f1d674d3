/* SVG charts for the audit report, written by hand (no plotting dependency). */
#ifndef SOFTCHAT_BENCH_SVG_H
#define SOFTCHAT_BENCH_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

/* Small multiples, one panel per operation family measured at several sizes (nip44_*,
 * attachment_*): median latency against payload size, log-log, one line per backend (peers
 * included when their rows are given). */
void svg_latency_vs_size(FILE *f, const bench_row *rows, size_t n);

/* Per-operation grouped bars (log scale): median latency of each single-size operation on
 * each backend. */
void svg_operation_bars(FILE *f, const bench_row *rows, size_t n);

#endif
