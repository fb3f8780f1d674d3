"""ctest bench.verdict: the verdicts of the audit's comparison with rust-nostr
(scripts/audit/verdict.py): the margin is max(5 %, 3 x the larger relative standard deviation
of the run medians); faster and slower need the ratio beyond it; a row whose side-by-side runs
disagree with its verdict asks for a re-measurement; the quieter measurement settles a
retried row, and two opposite verdicts settle it even; the like-for-like build explains a gap
only on an operation that makes curve calls."""
import os
import statistics
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts/audit"))
import records  # noqa: E402
import verdict as V  # noqa: E402


def row_of(medians):
    return records.normalise({"backend": "x", "operation": "op", "bytes": 32,
                              "median_ns": statistics.median(medians),
                              "runs": [{"median_ns": m, "p95_ns": m * 1.1} for m in medians]})


class Verdicts(unittest.TestCase):
    def test_clear_lead_is_faster(self):
        ours, peer = row_of([100, 101, 99]), row_of([200, 202, 198])
        v = V.of(ours, peer)
        self.assertEqual(v.kind, V.FASTER)
        self.assertAlmostEqual(v.ratio, 0.5)
        self.assertAlmostEqual(v.margin, 0.05)  # 3 x 1 % is under the 5 % floor
        self.assertTrue(v.runs_agree)
        self.assertFalse(V.needs_retry(v))
        self.assertEqual(V.of(peer, ours).kind, V.SLOWER)

    def test_within_the_margin_is_even(self):
        self.assertEqual(V.of(row_of([100] * 3), row_of([104] * 3)).kind, V.EVEN)  # 4 %, margin 5 %

    def test_variation_widens_the_margin(self):
        # one run 60 % off: RSD of {100, 100, 160} is 28.9 %, so the margin is 86.6 %
        ours, peer = row_of([100, 100, 160]), row_of([300] * 3)
        self.assertAlmostEqual(V.variation(ours), 0.288675, places=5)
        v = V.of(ours, peer)
        self.assertAlmostEqual(v.margin, 3 * 0.288675, places=5)
        self.assertEqual(v.kind, V.EVEN)  # 0.33x, but within 86.6 %

    def test_disagreeing_runs_ask_for_a_retry(self):
        # the row says faster (0.94x, margin 5 %); its third pair of runs says even (0.96x)
        v = V.of(row_of([94, 94, 96]), row_of([100] * 3))
        self.assertEqual(v.kind, V.FASTER)
        self.assertFalse(v.runs_agree)
        self.assertTrue(V.needs_retry(v))

    def test_missing_side_is_no_verdict(self):
        ours, failed = row_of([100] * 3), row_of([100] * 3)
        failed["failed"] = True
        self.assertEqual(V.of(ours, None).kind, V.NONE)
        v = V.of(ours, failed)
        self.assertEqual(v.kind, V.NONE)
        self.assertFalse(V.needs_retry(v))
        self.assertEqual(V.NONE, "-")

    def test_the_quieter_measurement_settles(self):
        noisy, clean = V.Verdict(V.EVEN, 0.70, 0.60, True), V.Verdict(V.FASTER, 0.72, 0.05, True)
        f = V.settle(noisy, clean)  # a noisy first run does not hide the lead
        self.assertEqual(f.kind, V.FASTER)
        self.assertTrue(f.retried and f.second_decides)
        self.assertAlmostEqual(f.margin, 0.05)
        f = V.settle(clean, noisy)  # nor does a noisy re-measurement
        self.assertEqual(f.kind, V.FASTER)
        self.assertFalse(f.second_decides)
        self.assertEqual((f.first.kind, f.second.kind), (V.FASTER, V.EVEN))
        f = V.settle(clean)
        self.assertEqual(f.kind, V.FASTER)
        self.assertFalse(f.retried)

    def test_opposite_verdicts_settle_even(self):
        fast, slow = V.Verdict(V.FASTER, 0.80, 0.05, True), V.Verdict(V.SLOWER, 1.30, 0.06, True)
        self.assertEqual(V.settle(fast, slow).kind, V.EVEN)
        self.assertEqual(V.settle(slow, fast).kind, V.EVEN)

    def test_the_curve_explains_only_curve_rows(self):
        note = V.curve_note
        self.assertEqual(note(V.SLOWER, V.EVEN, True), "yes: the older libsecp256k1")
        self.assertEqual(note(V.SLOWER, V.FASTER, True), "yes: the older libsecp256k1")
        self.assertEqual(note(V.SLOWER, V.SLOWER, True), "no: slower like for like too")
        self.assertEqual(note(V.EVEN, V.FASTER, True), "the older libsecp256k1 costs the lead")
        self.assertEqual(note(V.EVEN, V.EVEN, True), "")
        self.assertEqual(note(V.FASTER, V.EVEN, True), "")
        # held NIP-44 runs the same code in both builds: their difference is noise
        self.assertEqual(note(V.SLOWER, V.EVEN, False), "no: no curve call")
        # the predicate the targets table counts with says yes exactly where the note does
        self.assertTrue(V.curve_explains(V.SLOWER, V.EVEN, True))
        self.assertTrue(V.curve_explains(V.SLOWER, V.FASTER, True))
        self.assertFalse(V.curve_explains(V.SLOWER, V.SLOWER, True))
        self.assertFalse(V.curve_explains(V.SLOWER, V.NONE, True))
        self.assertFalse(V.curve_explains(V.SLOWER, V.EVEN, False))
        self.assertFalse(V.curve_explains(V.EVEN, V.FASTER, True))
        self.assertEqual(note(V.SLOWER, V.SLOWER, False), "no: no curve call")
        self.assertEqual(note(V.EVEN, V.FASTER, False), "")
        self.assertEqual(note(V.NONE, V.SLOWER, True), "")
        self.assertEqual(note(V.SLOWER, V.NONE, True), "")


if __name__ == "__main__":
    unittest.main()
