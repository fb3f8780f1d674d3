"""ctest bench.verdict: the verdicts of the audit's comparison with a peer
(scripts/audit/verdict.py), on the rows of tests/bench/pairs.json (ours and rust-nostr, run i of
each in the same round, so pair i): the verdict reads the sign test's interval of the median
pair ratio, faster only when it lies below 1.00 and slower only when above; one disturbed pair
does not move a clear lead, two can; fewer than six pairs decide nothing; a side that did not
measure gives no verdict; the headline prints each verdict with its interval; the
like-for-like build explains a gap only on an operation that makes curve calls."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../scripts/audit"))
import records  # noqa: E402
import report  # noqa: E402
import verdict as V  # noqa: E402


def pairs():
    """{operation: (ours, peer)} from the fixture."""
    doc = records.load(os.path.join(HERE, "pairs.json"))
    out = {}
    for r in doc["results"]:
        ours, peer = out.get(r["operation"], (None, None))
        out[r["operation"]] = (r, peer) if r["backend"] == "openssl" else (ours, r)
    return out


class Interval(unittest.TestCase):
    def test_the_ranks_and_their_coverage(self):
        k, cov = V.order(9)  # [r(2), r(8)]
        self.assertEqual(k, 2)
        self.assertAlmostEqual(cov, 1 - 2 * 10 / 512)  # 96.1 %
        self.assertEqual(V.order(6), (1, 1 - 2 / 64))  # [min, max] at 96.9 %
        self.assertEqual(V.order(5), (0, 0.0))  # [min, max] holds it 93.8 %: too few
        k, cov = V.order(16)
        self.assertEqual(k, 4)
        self.assertGreaterEqual(cov, 0.95)
        self.assertLess(1 - 2 * V._binom_cdf(4, 16), 0.95)  # k = 5 would be under 95 %


class Verdicts(unittest.TestCase):
    rows = pairs()

    def verdict(self, op):
        return V.of(*self.rows[op])

    def test_a_clear_lead_is_faster(self):
        v = self.verdict("sign_event")
        self.assertEqual(v.kind, V.FASTER)
        self.assertEqual(v.pairs, 9)
        self.assertLess(v.hi, 1.0)
        ours, peer = self.rows["sign_event"]
        ratios = sorted(a["median_ns"] / b["median_ns"] for a, b in zip(ours["runs"], peer["runs"]))
        self.assertEqual(v.ratio, ratios[4])  # the median of the pair ratios
        self.assertEqual((v.lo, v.hi), (ratios[1], ratios[7]))
        self.assertTrue(V.fmt(v).startswith("0.82x ["))

    def test_a_clear_gap_is_slower(self):
        v = self.verdict("parse_verify_event")
        self.assertEqual(v.kind, V.SLOWER)
        self.assertGreater(v.lo, 1.1)
        self.assertFalse(V.within(v, 1.02))

    def test_an_interval_across_one_is_even(self):
        v = self.verdict("nip44_decrypt")
        self.assertEqual(v.kind, V.EVEN)
        self.assertLess(v.lo, 1.0)
        self.assertGreater(v.hi, 1.0)
        self.assertTrue(V.within(v, 1.02))  # at worst 1.5 % slower

    def test_slower_by_a_little_is_slower_and_not_within_two_percent(self):
        v = self.verdict("nip44_encrypt")
        self.assertEqual(v.kind, V.SLOWER)
        self.assertGreater(v.hi, 1.02)
        self.assertFalse(V.within(v, 1.02))

    def test_one_disturbed_pair_does_not_hide_a_lead(self):
        # pair 4 ran into a neighbour's burst (ratio 1.5); the other eight say 0.93
        v = self.verdict("unwrap")
        self.assertEqual(v.kind, V.FASTER)
        self.assertLess(v.hi, 0.94)

    def test_two_disturbed_pairs_make_it_even(self):
        self.assertEqual(self.verdict("gift_wrap").kind, V.EVEN)

    def test_too_few_pairs_decide_nothing(self):
        v = self.verdict("nip59_rumor")  # 5 pairs, every one 0.83
        self.assertEqual(v.kind, V.EVEN)
        self.assertEqual(v.coverage, 0.0)
        self.assertFalse(V.within(v, 1.02))
        self.assertIn("too few", V.fmt(v))

    def test_an_unsupported_side_is_no_verdict(self):
        v = self.verdict("attachment_encrypt")
        self.assertEqual(v.kind, V.NONE)
        self.assertEqual(V.fmt(v), "-")
        self.assertEqual(V.of(self.rows["sign_event"][0], None).kind, V.NONE)


class Headline(unittest.TestCase):
    def test_the_headline_shows_each_verdict_with_its_interval(self):
        doc = records.load(os.path.join(HERE, "pairs.json"))
        a = report.Audit(compared=[r for r in doc["results"] if r["backend"] == "openssl"],
                         default_backend="openssl", secp="0.2.0", pairs=9)
        a.peers = [report.Peer("rust-nostr", ok=True, doc=dict(doc, results=[
            r for r in doc["results"] if r["backend"] == "rust-nostr"]))]
        text = report.headline(a)
        sign = next(x for x in text.splitlines() if x.startswith("| sign_event |"))
        self.assertRegex(sign, r"\| 0\.82x \[0\.8\d, 0\.8\d\] \| \*\*faster\*\* \|$")
        self.assertIn("| parse_verify_event | 374 |", text)
        self.assertNotIn("attachment_encrypt", text)  # the peer does not have it
        self.assertIn("Against rust-nostr: 2 faster, 3 even, 2 slower, of 7 rows.", text)
        self.assertIn("from the 2nd to the 8th smallest pair ratio", report.pairs_text(a))


class CurveNote(unittest.TestCase):
    def test_the_curve_explains_only_curve_rows(self):
        note = V.curve_note
        self.assertEqual(note(V.SLOWER, V.EVEN, True), "yes: the libsecp256k1 build")
        self.assertEqual(note(V.SLOWER, V.FASTER, True), "yes: the libsecp256k1 build")
        self.assertEqual(note(V.SLOWER, V.SLOWER, True), "no: slower like for like too")
        self.assertEqual(note(V.EVEN, V.FASTER, True), "the libsecp256k1 build costs the lead")
        self.assertEqual(note(V.EVEN, V.EVEN, True), "")
        self.assertEqual(note(V.FASTER, V.EVEN, True), "")
        # held NIP-44 runs the same code in both builds: their difference is noise
        self.assertEqual(note(V.SLOWER, V.EVEN, False), "no: no curve call")
        self.assertEqual(note(V.SLOWER, V.SLOWER, False), "no: no curve call")
        self.assertEqual(note(V.EVEN, V.FASTER, False), "")
        self.assertEqual(note(V.NONE, V.SLOWER, True), "")
        self.assertEqual(note(V.SLOWER, V.NONE, True), "")
        # the predicate the targets table counts with says yes exactly where the note does
        self.assertTrue(V.curve_explains(V.SLOWER, V.EVEN, True))
        self.assertTrue(V.curve_explains(V.SLOWER, V.FASTER, True))
        self.assertFalse(V.curve_explains(V.SLOWER, V.SLOWER, True))
        self.assertFalse(V.curve_explains(V.SLOWER, V.NONE, True))
        self.assertFalse(V.curve_explains(V.SLOWER, V.EVEN, False))
        self.assertFalse(V.curve_explains(V.EVEN, V.FASTER, True))


if __name__ == "__main__":
    unittest.main()
