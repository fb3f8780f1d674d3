/* See verdict.h. */
#include "verdict.h"

#include <math.h>
#include <stddef.h>

double verdict_variation(const bench_row *r)
{
    double mean = 0, ss = 0;
    unsigned i;

    if (r->n_runs < 2) {
        return 0;
    }
    for (i = 0; i < r->n_runs; i++) {
        mean += r->runs[i].median_ns;
    }
    mean /= r->n_runs;
    for (i = 0; i < r->n_runs; i++) {
        double d = r->runs[i].median_ns - mean;
        ss += d * d;
    }
    return mean > 0 ? sqrt(ss / (r->n_runs - 1)) / mean : 0;
}

/* The verdict of a ratio under a margin. */
static verdict_kind judge(double ratio, double margin)
{
    if (ratio < 1.0 - margin) {
        return VERDICT_FASTER;
    }
    if (ratio > 1.0 + margin) {
        return VERDICT_SLOWER;
    }
    return VERDICT_EVEN;
}

static int usable(const bench_row *r)
{
    return r != NULL && !r->failed && !r->unsupported && r->n_runs > 0 && r->median_ns > 0;
}

void verdict_of(const bench_row *ours, const bench_row *peer, verdict *v)
{
    double va, vb;
    unsigned i, n;

    v->kind = VERDICT_NONE;
    v->ratio = 0;
    v->margin = 0;
    v->runs_agree = 0;
    if (!usable(ours) || !usable(peer)) {
        return;
    }
    va = verdict_variation(ours);
    vb = verdict_variation(peer);
    v->margin = fmax(VERDICT_MIN_MARGIN, 3.0 * fmax(va, vb));
    v->ratio = ours->median_ns / peer->median_ns;
    v->kind = judge(v->ratio, v->margin);
    n = ours->n_runs < peer->n_runs ? ours->n_runs : peer->n_runs;
    v->runs_agree = 1;
    for (i = 0; i < n; i++) {
        const double a = ours->runs[i].median_ns, b = peer->runs[i].median_ns;
        if (!(b > 0) || judge(a / b, v->margin) != v->kind) {
            v->runs_agree = 0;
        }
    }
}

int verdict_needs_retry(const verdict *v)
{
    return v->kind != VERDICT_NONE && !v->runs_agree;
}

void verdict_settle(const verdict *first, const verdict *second, verdict_final *out)
{
    const verdict *q = first;

    out->first = *first;
    out->second.kind = VERDICT_NONE;
    out->second.ratio = out->second.margin = 0;
    out->second.runs_agree = 0;
    out->retried = second != NULL;
    out->second_decides = 0;
    if (second != NULL) {
        out->second = *second;
        if (second->kind != VERDICT_NONE &&
            (first->kind == VERDICT_NONE || second->margin <= first->margin)) {
            q = second;
            out->second_decides = 1;
        }
    }
    out->kind = q->kind;
    out->ratio = q->ratio;
    out->margin = q->margin;
    if (second != NULL && ((first->kind == VERDICT_FASTER && second->kind == VERDICT_SLOWER) ||
                           (first->kind == VERDICT_SLOWER && second->kind == VERDICT_FASTER))) {
        out->kind = VERDICT_EVEN; /* the two measurements contradict each other */
    }
}

int verdict_curve_explains(verdict_kind ours, verdict_kind like, int uses_curve)
{
    return ours == VERDICT_SLOWER && uses_curve && like != VERDICT_NONE && like != VERDICT_SLOWER;
}

const char *verdict_curve_note(verdict_kind ours, verdict_kind like, int uses_curve)
{
    if (ours == VERDICT_NONE || like == VERDICT_NONE) {
        return "";
    }
    if (verdict_curve_explains(ours, like, uses_curve)) {
        return "yes: the older libsecp256k1";
    }
    if (ours == VERDICT_SLOWER) {
        return uses_curve ? "no: slower like for like too" : "no: no curve call";
    }
    if (uses_curve && ours == VERDICT_EVEN && like == VERDICT_FASTER) {
        return "the older libsecp256k1 costs the lead";
    }
    return "";
}

const char *verdict_name(verdict_kind k)
{
    switch (k) {
    case VERDICT_FASTER:
        return "faster";
    case VERDICT_SLOWER:
        return "slower";
    case VERDICT_EVEN:
        return "even";
    default:
        return "-";
    }
}
