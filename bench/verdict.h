/* Verdicts of one implementation against another on a row both measured in the same run
 * (docs/benchmarks.md, "Verdicts"). The variation of a side is the relative standard
 * deviation of its run medians; the margin is max(5 %, 3 x the larger variation). Ours is
 * faster when its median is lower than the peer's by more than the margin, slower when higher
 * by more than the margin, else even. Runs are measured side by side (run r of each side in
 * the same round of the interleaved runner), so each pair of runs gives a verdict of its own
 * under the row's margin; when one disagrees with the row's verdict, the row is measured
 * again and settled by verdict_settle, so one noisy process cannot decide it. */
#ifndef SOFTCHAT_BENCH_VERDICT_H
#define SOFTCHAT_BENCH_VERDICT_H

#include "result.h"

#define VERDICT_MIN_MARGIN 0.05

typedef enum verdict_kind {
    VERDICT_NONE = 0, /* not comparable (a side missing, failed or unsupported) */
    VERDICT_EVEN,
    VERDICT_FASTER, /* ours lower by more than the margin */
    VERDICT_SLOWER  /* ours higher by more than the margin */
} verdict_kind;

typedef struct verdict {
    verdict_kind kind;
    double ratio;   /* ours / peer, medians */
    double margin;  /* a fraction: max(5 %, 3 x the larger variation) */
    int runs_agree; /* every side-by-side pair of runs gives kind under margin */
} verdict;

typedef struct verdict_final {
    verdict first, second; /* second: the re-measurement (kind NONE when not retried) */
    int retried;
    int second_decides; /* the re-measurement was the quieter one */
    verdict_kind kind;  /* what counts */
    double ratio, margin;
} verdict_final;

/* Relative standard deviation of r's run medians (0 with fewer than two runs). */
double verdict_variation(const bench_row *r);

/* The verdict of ours against peer (either may be NULL: VERDICT_NONE). */
void verdict_of(const bench_row *ours, const bench_row *peer, verdict *v);

/* Whether a verdict needs a re-measurement: comparable and its runs disagree. */
int verdict_needs_retry(const verdict *v);

/* Settles a row: without a retry (second NULL) the first verdict counts; with one, the
 * verdict of the quieter measurement (the smaller margin; the re-measurement on a tie)
 * counts, unless the two measurements say opposite things (one faster, one slower), which
 * is even. */
void verdict_settle(const verdict *first, const verdict *second, verdict_final *out);

/* Whether the older libsecp256k1 alone explains a slower row: the default build is slower,
 * the like-for-like build measured and not slower, and the operation calls the curve. */
int verdict_curve_explains(verdict_kind ours, verdict_kind like, int uses_curve);

/* What the like-for-like build (the peer's libsecp256k1, built as the peer builds it) says
 * about the default build's verdict on a row: "yes: the older libsecp256k1" when the default
 * build is slower and the like-for-like one is not, "no: slower like for like too" when both
 * are slower, "the older libsecp256k1 costs the lead" when the default build is even and the
 * like-for-like one faster, else "". An operation without curve calls (uses_curve 0) runs the
 * same code in both builds, so their difference is noise and explains nothing: a slower row
 * gets "no: no curve call", any other "". Either kind VERDICT_NONE gives "". */
const char *verdict_curve_note(verdict_kind ours, verdict_kind like, int uses_curve);

/* "faster", "slower", "even" or "-". */
const char *verdict_name(verdict_kind k);

#endif
