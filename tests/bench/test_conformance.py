"""ctest bench.conformance: the audit's conformance section (scripts/audit/conformance.py)
reads what the suites print under ctest -V: per-file case counts and skips become rows,
upstream files are told from the project's own (by the upstream folder the suites name, or by
the skip that says it is absent), labels keep their own ": ", repeated skips are one row, the
fallback entries' lines are left out, and ctest's verdicts are counted."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts/audit"))
import conformance  # noqa: E402


def feed(lines):
    c = conformance.Conformance()
    for line in lines:
        c.line(line)
    c.finish(0)
    return c


def row(c, backend, label):
    for r in c.rows:
        if r.backend == backend and r.label == label:
            return r
    raise AssertionError(f"no row [{backend}] {label}")


class Conformance(unittest.TestCase):
    def test_upstream_present(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "wycheproof"))
            for f in ("wycheproof/aes_gcm_test.json", "nip44.vectors.json"):
                open(os.path.join(d, f), "w").close()
            c = feed([
                "test 1\n",
                "      Start  1: vectors.openssl\n",
                f"1: [==========] group openssl: primitives (upstream and own vectors), upstream "
                f"vectors {d}\n",
                "1: [openssl] wycheproof/aes_gcm_test.json: 316 cases: 104 run (one-shot 104), "
                "104 passed, 0 failed, 211 n/a (AES-128/192 key: 211)\n",
                "1: [openssl] vectors/primitives.json sha256: 135 cases: 135 run, 135 passed, 0 "
                "failed\n",
                "1: [openssl] own: wrap options: 9 cases: 9 run, 9 passed, 0 failed\n",
                "1: [openssl] wycheproof/aes_gcm_test.json: FAIL case 7: tag mismatch\n",
                " 1/3 Test  #1: vectors.openssl ..................   Passed    0.01 sec\n",
                "      Start 12: nip44.sodium\n",
                "12: [sodium] nip44.vectors.json valid.get_conversation_key: 35 cases: 35 run, 35 "
                "passed, 0 failed\n",
                "12: [sodium] tampering: skipped (libsodium has no streaming AES-256-GCM (one-shot "
                "only))\n",
                " 2/3 Test #12: nip44.sodium .....................***Failed    0.02 sec\n",
                "      Start 13: nip44.no-upstream\n",
                "13: [openssl] nip44.vectors.json: skipped (upstream vectors folder /nowhere not "
                "found)\n",
                " 3/3 Test #13: nip44.no-upstream ................   Passed    0.01 sec\n",
            ])
            self.assertEqual((c.passed, c.failed), (2, 1))
            self.assertEqual(c.upstream_dir, d)
            self.assertFalse(c.upstream_missing)
            self.assertEqual(len(c.rows), 5)  # the FAIL line and the fallback entry's skip are out
            r = row(c, "openssl", "wycheproof/aes_gcm_test.json")
            self.assertTrue(r.upstream)
            self.assertFalse(r.skipped)
            self.assertTrue(r.result.startswith("316 cases: 104 run"))
            self.assertTrue(
                row(c, "sodium", "nip44.vectors.json valid.get_conversation_key").upstream)
            self.assertFalse(row(c, "openssl", "vectors/primitives.json sha256").upstream)
            r = row(c, "openssl", "own: wrap options")
            self.assertFalse(r.upstream)
            self.assertEqual(r.result, "9 cases: 9 run, 9 passed, 0 failed")
            r = row(c, "sodium", "tampering")
            self.assertFalse(r.upstream)
            self.assertTrue(r.skipped)
            self.assertEqual(r.result,
                             "skipped (libsodium has no streaming AES-256-GCM (one-shot only))")
            self.assertIn("2 suites passed, 1 failed", c.note)
            self.assertIn("upstream vectors: 2 files", c.note)
            md = c.markdown()
        self.assertIn("### Upstream files", md)
        self.assertIn("| wycheproof/aes_gcm_test.json | openssl | 316 cases: 104 run", md)
        self.assertIn("2 files, 2 results (one per file or check and backend): 351 cases, 139 "
                      "run, 139 passed, 0 failed", md)
        self.assertIn("| own: wrap options | openssl | 9 cases", md)
        self.assertNotIn("not found", md)
        # upstream rows come first, then the own table
        self.assertLess(md.index("nip44.vectors.json"), md.index("### The project's own"))

    def test_upstream_absent(self):
        c = feed([
            "      Start  1: vectors.openssl\n",
            "1: WARNING: upstream vectors folder /src/../shared/vectors not found; every upstream "
            "vector file is\n",
            "1: [==========] group openssl: primitives (upstream and own vectors), upstream "
            "vectors /src/../shared/vectors\n",
            "1: [openssl] rfc/sha256-examples.json: skipped (upstream vectors folder "
            "/src/../shared/vectors not found)\n",
            "1: [openssl] vectors/primitives.json sha256: 135 cases: 135 run, 135 passed, 0 "
            "failed\n",
            " 1/3 Test  #1: vectors.openssl ..................   Passed    0.01 sec\n",
            "      Start  2: nip44.openssl\n",
            "2: [openssl] nip44.vectors.json: skipped (upstream vectors folder "
            "/src/../shared/vectors not found)\n",
            "2: [openssl] nip44.vectors.json: skipped (upstream vectors folder "
            "/src/../shared/vectors not found)\n",
            " 2/3 Test  #2: nip44.openssl ....................   Passed    0.01 sec\n",
            "      Start  3: nip19\n",
            "3: [nip19] nip19.vectors.json: skipped (upstream vectors folder missing)\n",
            " 3/3 Test  #3: nip19 ............................   Passed    0.01 sec\n",
        ])
        self.assertEqual((c.passed, c.failed), (3, 0))
        self.assertTrue(c.upstream_missing)
        self.assertEqual(len(c.rows), 4)  # nip44.vectors.json twice is one row
        r = row(c, "openssl", "rfc/sha256-examples.json")
        self.assertTrue(r.upstream and r.skipped and r.absent)
        self.assertEqual(r.result, "skipped: the upstream folder is absent")
        self.assertTrue(row(c, "openssl", "nip44.vectors.json").upstream)
        self.assertTrue(row(c, "nip19", "nip19.vectors.json").upstream)
        self.assertFalse(row(c, "openssl", "vectors/primitives.json sha256").upstream)
        self.assertIn("upstream vectors NOT FOUND at /src/../shared/vectors", c.note)
        md = c.markdown()
        self.assertIn("**Upstream vectors not found** (`/src/../shared/vectors`)", md)
        self.assertIn("| rfc/sha256-examples.json | openssl | skipped: the upstream folder is "
                      "absent |", md)
        self.assertIn("3 files, 3 results (one per file or check and backend): 0 cases, 0 run, "
                      "0 passed, 0 failed; 3 results skipped", md)

    def test_not_run(self):
        c = conformance.Conformance()
        c.not_run("Not run: cannot start ctest.")
        self.assertEqual(c.markdown(), "Not run: cannot start ctest.\n")


if __name__ == "__main__":
    unittest.main()
