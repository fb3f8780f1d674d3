/* test_bench_verdict: the verdicts of the audit's comparison with rust-nostr (bench/verdict.c):
 * the margin is max(5 %, 3 x the larger relative standard deviation of the run medians);
 * faster and slower need the ratio beyond it; a row whose side-by-side runs disagree with its
 * verdict asks for a re-measurement; the quieter measurement settles a retried row, and two
 * opposite verdicts settle it even; the like-for-like build explains a gap only on an
 * operation that makes curve calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "verdict.h"

static bench_row row_of(const double *medians, unsigned n)
{
    bench_row r;
    unsigned i;
    double v[BENCH_MAX_RUNS];

    memset(&r, 0, sizeof r);
    for (i = 0; i < n; i++) {
        r.runs[i].median_ns = medians[i];
        r.runs[i].p95_ns = medians[i] * 1.1;
        v[i] = medians[i];
    }
    r.n_runs = n;
    /* the row's median, as bench_row_aggregate computes it (n odd here) */
    for (i = 0; i < n; i++) {
        unsigned j, below = 0, equal = 0;
        for (j = 0; j < n; j++) {
            below += v[j] < v[i];
            equal += v[j] == v[i];
        }
        if (below <= n / 2 && below + equal > n / 2) {
            r.median_ns = v[i];
        }
    }
    return r;
}

static void clear_lead_is_faster(void **state)
{
    const double a[] = {100, 101, 99}, b[] = {200, 202, 198};
    bench_row ours = row_of(a, 3), peer = row_of(b, 3);
    verdict v;

    (void)state;
    verdict_of(&ours, &peer, &v);
    assert_int_equal(v.kind, VERDICT_FASTER);
    assert_true(fabs(v.ratio - 0.5) < 1e-9);
    assert_true(fabs(v.margin - 0.05) < 1e-9); /* 3 x 1 % is under the 5 % floor */
    assert_true(v.runs_agree);
    assert_false(verdict_needs_retry(&v));
    verdict_of(&peer, &ours, &v);
    assert_int_equal(v.kind, VERDICT_SLOWER);
}

static void within_the_margin_is_even(void **state)
{
    const double a[] = {100, 100, 100}, b[] = {104, 104, 104};
    bench_row ours = row_of(a, 3), peer = row_of(b, 3);
    verdict v;

    (void)state;
    verdict_of(&ours, &peer, &v);
    assert_int_equal(v.kind, VERDICT_EVEN); /* 4 % lower, margin 5 % */
}

static void variation_widens_the_margin(void **state)
{
    /* one run 60 % off: RSD of {100, 100, 160} is 28.9 %, so the margin is 86.6 % */
    const double a[] = {100, 100, 160}, b[] = {300, 300, 300};
    bench_row ours = row_of(a, 3), peer = row_of(b, 3);
    verdict v;

    (void)state;
    assert_true(fabs(verdict_variation(&ours) - 0.288675) < 1e-5);
    verdict_of(&ours, &peer, &v);
    assert_true(fabs(v.margin - 3 * 0.288675) < 1e-5);
    assert_int_equal(v.kind, VERDICT_EVEN); /* 0.33x, but within 86.6 % */
}

static void disagreeing_runs_ask_for_a_retry(void **state)
{
    /* the row says faster (0.94x, margin 5 %); its third pair of runs says even (0.96x) */
    const double a[] = {94, 94, 96}, b[] = {100, 100, 100};
    bench_row ours = row_of(a, 3), peer = row_of(b, 3);
    verdict v;

    (void)state;
    verdict_of(&ours, &peer, &v);
    assert_int_equal(v.kind, VERDICT_FASTER);
    assert_false(v.runs_agree);
    assert_true(verdict_needs_retry(&v));
}

static void missing_side_is_no_verdict(void **state)
{
    const double a[] = {100, 100, 100};
    bench_row ours = row_of(a, 3), failed = row_of(a, 3);
    verdict v;

    (void)state;
    failed.failed = 1;
    verdict_of(&ours, NULL, &v);
    assert_int_equal(v.kind, VERDICT_NONE);
    verdict_of(&ours, &failed, &v);
    assert_int_equal(v.kind, VERDICT_NONE);
    assert_false(verdict_needs_retry(&v));
    assert_string_equal(verdict_name(VERDICT_NONE), "-");
}

static verdict make(verdict_kind k, double ratio, double margin)
{
    verdict v;

    v.kind = k;
    v.ratio = ratio;
    v.margin = margin;
    v.runs_agree = 1;
    return v;
}

static void the_quieter_measurement_settles(void **state)
{
    verdict noisy = make(VERDICT_EVEN, 0.70, 0.60), clean = make(VERDICT_FASTER, 0.72, 0.05);
    verdict_final f;

    (void)state;
    verdict_settle(&noisy, &clean, &f); /* a noisy first run does not hide the lead */
    assert_int_equal(f.kind, VERDICT_FASTER);
    assert_true(f.retried);
    assert_true(f.second_decides);
    assert_true(fabs(f.margin - 0.05) < 1e-9);
    verdict_settle(&clean, &noisy, &f); /* nor does a noisy re-measurement */
    assert_int_equal(f.kind, VERDICT_FASTER);
    assert_false(f.second_decides);
    assert_int_equal(f.first.kind, VERDICT_FASTER);
    assert_int_equal(f.second.kind, VERDICT_EVEN);
    verdict_settle(&clean, NULL, &f);
    assert_int_equal(f.kind, VERDICT_FASTER);
    assert_false(f.retried);
}

static void opposite_verdicts_settle_even(void **state)
{
    verdict fast = make(VERDICT_FASTER, 0.80, 0.05), slow = make(VERDICT_SLOWER, 1.30, 0.06);
    verdict_final f;

    (void)state;
    verdict_settle(&fast, &slow, &f);
    assert_int_equal(f.kind, VERDICT_EVEN);
    verdict_settle(&slow, &fast, &f);
    assert_int_equal(f.kind, VERDICT_EVEN);
}

static void the_curve_explains_only_curve_rows(void **state)
{
    (void)state;
    assert_string_equal(verdict_curve_note(VERDICT_SLOWER, VERDICT_EVEN, 1),
                        "yes: the older libsecp256k1");
    assert_string_equal(verdict_curve_note(VERDICT_SLOWER, VERDICT_FASTER, 1),
                        "yes: the older libsecp256k1");
    assert_string_equal(verdict_curve_note(VERDICT_SLOWER, VERDICT_SLOWER, 1),
                        "no: slower like for like too");
    assert_string_equal(verdict_curve_note(VERDICT_EVEN, VERDICT_FASTER, 1),
                        "the older libsecp256k1 costs the lead");
    assert_string_equal(verdict_curve_note(VERDICT_EVEN, VERDICT_EVEN, 1), "");
    assert_string_equal(verdict_curve_note(VERDICT_FASTER, VERDICT_EVEN, 1), "");
    /* held NIP-44 runs the same code in both builds: their difference is noise */
    assert_string_equal(verdict_curve_note(VERDICT_SLOWER, VERDICT_EVEN, 0), "no: no curve call");
    /* the predicate the targets table counts with says yes exactly where the note does */
    assert_true(verdict_curve_explains(VERDICT_SLOWER, VERDICT_EVEN, 1));
    assert_true(verdict_curve_explains(VERDICT_SLOWER, VERDICT_FASTER, 1));
    assert_false(verdict_curve_explains(VERDICT_SLOWER, VERDICT_SLOWER, 1));
    assert_false(verdict_curve_explains(VERDICT_SLOWER, VERDICT_NONE, 1));
    assert_false(verdict_curve_explains(VERDICT_SLOWER, VERDICT_EVEN, 0));
    assert_false(verdict_curve_explains(VERDICT_EVEN, VERDICT_FASTER, 1));
    assert_string_equal(verdict_curve_note(VERDICT_SLOWER, VERDICT_SLOWER, 0), "no: no curve call");
    assert_string_equal(verdict_curve_note(VERDICT_EVEN, VERDICT_FASTER, 0), "");
    assert_string_equal(verdict_curve_note(VERDICT_NONE, VERDICT_SLOWER, 1), "");
    assert_string_equal(verdict_curve_note(VERDICT_SLOWER, VERDICT_NONE, 1), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clear_lead_is_faster),
        cmocka_unit_test(within_the_margin_is_even),
        cmocka_unit_test(variation_widens_the_margin),
        cmocka_unit_test(disagreeing_runs_ask_for_a_retry),
        cmocka_unit_test(missing_side_is_no_verdict),
        cmocka_unit_test(the_quieter_measurement_settles),
        cmocka_unit_test(opposite_verdicts_settle_even),
        cmocka_unit_test(the_curve_explains_only_curve_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
