"""The conformance section of the audit: what the conformance suites print when ctest runs
them verbosely (ctest -V), read line by line. The suites report every vector file they read
(tests/lib/vectors_util.c):
  "[backend] LABEL: N cases: R run (...), P passed, F failed[, S skipped (...)][, n/a ...]"
  "[backend] LABEL: skipped (WHY)"   (the file is absent, or the backend lacks a capability)
where LABEL starts with the file's path relative to its folder ("wycheproof/aes_gcm_test.json",
"nip44.vectors.json valid.get_conversation_key", "vectors/primitives.json sha256"). A file is
upstream when it lives in the upstream folder the suite names on its group line
("[==========] group ...: ..., upstream vectors DIR"), or when it was skipped because that
folder or file is absent; everything else is the project's own vectors and checks. The
fallback entries (*.no-upstream, *.own-only), which point at a missing folder on purpose,
count as suites but their lines are left out."""
import os
import re
import subprocess
from dataclasses import dataclass, field

# Every per-area suite on every backend, the fallback entries too. interop-node and the CLI
# drivers are not here.
TESTS = r"^(vectors|identity|event|nip19|nip44|nip59|nip17|file|interop)([.]|$)"

_STATUS = re.compile(r"\s*\d+/\d+\s+Test\s+#\d+:\s*\S+")
_START = re.compile(r"\s*Start\s+(\d+): (\S+)")
_OUTPUT = re.compile(r"\s*(\d+):\s*(.*)")
_CASES = re.compile(r": (\d+ cases)(?::|$)")


@dataclass
class Row:
    backend: str
    label: str
    result: str
    skipped: bool
    upstream: bool = False  # an upstream file; else the project's own
    absent: bool = False  # skipped because the upstream folder or file is absent


@dataclass
class Conformance:
    ran: bool = True  # False: ctest did not run (note says why)
    passed: int = 0
    failed: int = 0
    skipped: int = 0  # entries ctest itself reported skipped
    exit_status: int = 0
    upstream_dir: str = ""  # as the suites name it
    upstream_missing: bool = False  # a suite said the folder is not found
    rows: list = field(default_factory=list)
    ignored: set = field(default_factory=set)  # ctest numbers of the fallback entries
    note: str = ""  # one line: the ctest result and the upstream folder

    def line(self, raw):
        """Reads one line of ctest -V output."""
        line = raw.rstrip("\r\n")
        if _STATUS.match(line):
            if " Passed" in line:
                self.passed += 1
            elif "***Skipped" in line:
                self.skipped += 1
            else:
                self.failed += 1
            return
        m = _START.match(line)
        if m:
            if m.group(2).endswith((".no-upstream", ".own-only")):
                self.ignored.add(int(m.group(1)))
            return
        m = _OUTPUT.match(line)  # a test's own output: "N: ..."
        if not m or int(m.group(1)) in self.ignored:
            return
        self._group_line(m.group(2))
        self._file_line(m.group(2))

    def _group_line(self, s):
        key = ", upstream vectors "
        if s.startswith("[==========] group "):
            p = s.rfind(key)  # the last one: a title may say "upstream vectors" too
            if p >= 0 and not self.upstream_dir:
                self.upstream_dir = s[p + len(key):]
        elif s.startswith("WARNING: upstream vectors folder ") and " not found" in s:
            self.upstream_missing = True

    def _file_line(self, s):
        rb = s.find("]")
        if not s.startswith("[") or rb < 0 or s[rb + 1:rb + 2] != " ":
            return
        backend, body = s[1:rb], s[rb + 2:]
        m = _CASES.search(body)
        if m:
            self._add(backend, body[:m.start()], body[m.start() + 2:], False)
            return
        p = body.find(": skipped (")
        if p >= 0 and body.endswith(")"):
            why = body[p + len(": skipped ("):-1]
            if why.startswith("upstream vectors folder"):  # "... DIR not found", "... missing"
                self.upstream_missing = True
                result = "skipped: the upstream folder is absent"
            else:
                result = f"skipped ({why})"
            self._add(backend, body[:p], result, True)

    def _add(self, backend, label, result, skipped):
        if any(r.backend == backend and r.label == label and r.result == result
               for r in self.rows):
            return  # a file several tests skip is one row
        self.rows.append(Row(backend, label, result, skipped))

    def finish(self, status):
        """After the last line: classifies the rows, groups each label's rows together and
        writes the note. status is ctest's exit status."""
        self.exit_status = status
        for r in self.rows:
            self._classify(r)
        order = {}
        for i, r in enumerate(self.rows):
            order.setdefault((r.upstream, r.label), i)
        self.rows.sort(key=lambda r: order[(r.upstream, r.label)])  # stable
        up = self.totals(True)
        where = self.upstream_dir or "(not named)"
        if self._all_absent(up):
            self.note = (f"ctest: {self.passed} suites passed, {self.failed + self.skipped} "
                         f"failed (exit {status}); upstream vectors NOT FOUND at {where}: "
                         "every upstream file skipped, only the project's own vectors ran")
        else:
            self.note = (f"ctest: {self.passed} suites passed, {self.failed + self.skipped} "
                         f"failed (exit {status}); upstream vectors: {up['files']} files from "
                         f"{where}, {up['run']} cases run, {up['failed']} failed")

    def not_run(self, why):
        self.ran = False
        self.note = why

    def _classify(self, r):
        absent = "skipped (file not found: "
        if r.result.startswith("skipped: the upstream folder is absent"):
            r.upstream = r.absent = True
        elif (r.result.startswith(absent) and self.upstream_dir
              and r.result[len(absent):].startswith(self.upstream_dir)):
            r.upstream = r.absent = True
            r.result = "skipped: the file is absent from the upstream folder"
        else:
            first = r.label.split(" ", 1)[0]
            r.upstream = bool(self.upstream_dir and first and
                              os.path.isfile(f"{self.upstream_dir}/{first}"))

    def _all_absent(self, up):
        return self.upstream_missing or (up["rows"] > 0 and up["absent"] == up["rows"])

    def totals(self, upstream):
        t = dict(rows=0, files=0, cases=0, run=0, passed=0, failed=0, skipped=0, absent=0)
        files = set()
        for r in self.rows:
            if r.upstream != upstream:
                continue
            t["rows"] += 1
            files.add(r.label.split(" ", 1)[0])
            t["skipped"] += r.skipped
            t["absent"] += r.absent
            m = re.match(r"(\d+) cases: (\d+) run", r.result)
            if not r.skipped and m:
                t["cases"] += int(m.group(1))
                t["run"] += int(m.group(2))
                pf = re.findall(r"(\d+) passed, (\d+) failed", r.result)
                if pf:
                    t["passed"] += int(pf[-1][0])
                    t["failed"] += int(pf[-1][1])
        t["files"] = len(files)
        return t

    def markdown(self):
        """The section below its heading: the note, the upstream summary and the two tables,
        upstream files and the project's own."""
        if not self.ran:
            return f"{self.note}\n"
        up, own = self.totals(True), self.totals(False)
        where = self.upstream_dir or "the suites named no folder"
        out = [f"ctest: {self.passed} conformance suites passed, "
               f"{self.failed + self.skipped} failed (exit {self.exit_status}).\n\n"]
        if self._all_absent(up):
            out.append(f"**Upstream vectors not found** (`{where}`): every upstream file below "
                       "was skipped, so only the project's own vectors ran. Configure with "
                       "`-DSOFTCHAT_VECTORS_DIR=` the folder of upstream files and run the audit "
                       "again.\n\n")
        else:
            out.append(f"Upstream vectors: `{where}`.\n\n")
        out.append(_summary("Upstream files (Wycheproof, the NIPs' test vectors, BIP-340, RFC "
                            "examples)", up, True))
        out.append(_summary("The project's own vectors and checks", own, False))
        out.append("### Upstream files\n\n" + self._table(True))
        out.append("\n### The project's own vectors and checks\n\n" + self._table(False))
        out.append("\n")
        return "".join(out)

    def _table(self, upstream):
        cell = lambda s: s.replace("|", "\\|")  # noqa: E731
        lines = ["| File | Backend | Result |\n|---|---|---|\n"]
        for r in self.rows:
            if r.upstream == upstream:
                lines.append(f"| {cell(r.label)} | {cell(r.backend)} | {cell(r.result)} |\n")
        return "".join(lines)


def _summary(what, t, files):
    head = f"{what}: " + (f"{t['files']} files, " if files else "")
    return (f"{head}{t['rows']} results (one per file or check and backend): {t['cases']} "
            f"cases, {t['run']} run, {t['passed']} passed, {t['failed']} failed; {t['skipped']} "
            "results skipped.\n\n")


def run(build_dir):
    """Runs the conformance suites with ctest in build_dir and reads their per-file counts."""
    c = Conformance()
    if not os.access(os.path.join(build_dir, "CTestTestfile.cmake"), os.R_OK):
        c.not_run(f"Not run: {build_dir} is not a build directory with tests (--build-dir).")
        return c
    try:
        p = subprocess.Popen(["ctest", "--test-dir", build_dir, "-V", "-R", TESTS],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, errors="replace")
    except OSError:
        c.not_run("Not run: cannot start ctest.")
        return c
    for line in p.stdout:
        c.line(line)
    c.finish(p.wait())
    return c
