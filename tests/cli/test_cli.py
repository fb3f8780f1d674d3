#!/usr/bin/env python3
"""End-to-end tests of the softchat command-line tool, for one backend.

    test_cli.py --cli PATH --backend NAME [--vectors DIR] [--wrap "valgrind -q ..."]

Every command and every exit status is exercised through the real binary: exit 0 with the
exact output, exit 1 (invalid input: one line on stderr, nothing on stdout) and exit 2 (usage,
I/O, environment). The upstream conformance data (NIP-44, NIP-19, NIP-01, BIP-340) is read at
run time from --vectors (default: the repository's vectors/upstream). When that folder is
present, every file the driver reads must be in it and parse: a missing or malformed one is a
failure. When the folder does not exist (the own-only mode, chosen by pointing at a missing
folder), those cases are reported as skipped, loudly, and the rest still runs. --wrap runs
every CLI invocation under a command such as valgrind (the memory-bound check is skipped then:
RSS under valgrind means nothing). When the driver itself runs under valgrind (ctest -T
memcheck wraps the interpreter, not the CLI), it wraps every CLI run in valgrind memcheck on
its own, so that stage checks the CLI.

Python standard library only. Exit status: 0 when no case failed, 1 otherwise.
"""

import argparse
import csv
import hashlib
import json
import os
import select
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time

# ---- constants from the specs (BIP-340 row 0, NIP-19 examples) ----------------------------
SEC3 = "0000000000000000000000000000000000000000000000000000000000000003"
PUB3 = "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"
SEC1 = "0000000000000000000000000000000000000000000000000000000000000001"
SEC2 = "0000000000000000000000000000000000000000000000000000000000000002"
CURVE_N = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"
NSEC_SPEC = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5"
NSEC_SPEC_HEX = "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa"
NSEC_SPEC_PUB = "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e"
NPUB_SPEC_PUB = "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg"
EVENT_MAX = 1048576
# The repository's verbatim copies of the upstream data (vectors/upstream/README.md).
UPSTREAM_DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "vectors", "upstream")
HEX = set("0123456789abcdef")


# Forks and execs argv[2:] with stdin from argv[1] and stdout, stderr discarded; prints its
# exit status and getrusage(RUSAGE_CHILDREN).ru_maxrss (KiB).
MEASURE = """
import os, resource, sys
pid = os.fork()
if pid == 0:
    os.dup2(os.open(sys.argv[1], os.O_RDONLY), 0)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execv(sys.argv[2], sys.argv[2:])
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


class CaseFailure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise CaseFailure(msg)


class Result:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err

    def describe(self):
        return "rc=%d stdout=%r stderr=%r" % (self.rc, self.out[:300], self.err[:600])


class Suite:
    def __init__(self, opts):
        self.cli_path = opts.cli
        self.backend = opts.backend
        self.vectors = opts.vectors
        self.vectors_arg = opts.vectors_arg
        self.wrap = shlex.split(opts.wrap) if opts.wrap else []
        self.seal_path = opts.seal
        self.tmp = tempfile.TemporaryDirectory(prefix="softchat-cli-")
        self.counts = {}  # group -> [passed, failed, skipped]
        self.notes = {}   # group -> skip reasons
        self.failures = []
        self.missing = []  # vector files skipped: the own-only mode (no --vectors folder)
        self.unreadable = {}  # vector file -> why it could not be read from a present folder
        self.key_files = {}

    # ---- running the CLI ------------------------------------------------------------------
    def argv(self, args):
        return self.wrap + [self.cli_path, "--backend", self.backend] + list(args)

    def run(self, *args, stdin=b"", **kw):
        if isinstance(stdin, str):
            stdin = stdin.encode()
        p = subprocess.run(self.argv(args), input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=600, **kw)
        return Result(p.returncode, p.stdout, p.stderr.decode(errors="replace"))

    def run_measured(self, args, stdin_path):
        """Runs the CLI with stdin from a file and returns (exit status, its max RSS in KiB).

        Linux carries a process's pre-exec high-water mark into ru_maxrss, so a CLI forked
        from this (large) interpreter would report this interpreter's size. The CLI is
        therefore forked by a small fresh interpreter (python -S), which reports
        getrusage(RUSAGE_CHILDREN) for its only child."""
        out = subprocess.run([sys.executable, "-S", "-c", MEASURE, stdin_path] + self.argv(args),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        check(out.returncode == 0, "measuring helper failed: %r" % out.stderr)
        rc, rss = out.stdout.split()
        return int(rc), int(rss)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, data, mode=0o600):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        os.chmod(path, mode)
        return path

    def key_file(self, sec_hex):
        if sec_hex not in self.key_files:
            self.key_files[sec_hex] = self.write("key-%d" % len(self.key_files), sec_hex + "\n")
        return self.key_files[sec_hex]

    def pub_of(self, sec_hex):
        r = self.run("key", "pub", "--sec-file", self.key_file(sec_hex))
        expect_ok(r)
        return r.out.decode().strip()

    # ---- vectors --------------------------------------------------------------------------
    def vector(self, name):
        """The parsed vector file, or None when it cannot be had: the own-only mode (no
        folder), or a file missing or malformed in a present folder (the reason recorded for
        missing_file, which then fails it)."""
        if self.vectors is None:
            return None
        path = os.path.join(self.vectors, name)
        try:
            if name.endswith(".json"):
                with open(path, encoding="utf-8") as f:
                    return json.load(f)
            with open(path, encoding="utf-8", newline="") as f:
                return list(csv.DictReader(f))
        except (OSError, ValueError, csv.Error) as e:
            self.unreadable[name] = "%s: %s" % (type(e).__name__, e)
            return None

    # ---- bookkeeping ----------------------------------------------------------------------
    def case(self, group, name, fn, *a):
        c = self.counts.setdefault(group, [0, 0, 0])
        start = time.monotonic()
        try:
            fn(*a)
        except CaseFailure as e:
            c[1] += 1
            self.failures.append("%s / %s: %s" % (group, name, e))
            print("FAIL [%s] %s / %s: %s" % (self.backend, group, name, e))
            return False
        except subprocess.TimeoutExpired as e:
            c[1] += 1
            self.failures.append("%s / %s: timeout %s" % (group, name, e))
            print("FAIL [%s] %s / %s: timeout" % (self.backend, group, name))
            return False
        except (ValueError, KeyError, IndexError, TypeError, OSError) as e:
            # output the case could not even read (malformed JSON, a missing field): a
            # failure of this case, not the end of the run
            c[1] += 1
            self.failures.append("%s / %s: %s: %s" % (group, name, type(e).__name__, e))
            print("FAIL [%s] %s / %s: %s: %s" % (self.backend, group, name, type(e).__name__, e))
            return False
        c[0] += 1
        print("ok   [%s] %s / %s (%.1fs)" % (self.backend, group, name, time.monotonic() - start))
        return True

    def missing_file(self, name):
        """A vector file vector() could not give: skipped in the own-only mode; a failure
        when the folder is present (every file it must hold is required)."""
        if self.vectors is None:
            self.missing.append(name)
            print("SKIP [%s] %s: every case: own-only mode, no vectors folder"
                  % (self.backend, name))
            return
        why = self.unreadable.get(name, "not read")
        self.failures.append("%s: cannot be read from --vectors %s: %s"
                             % (name, self.vectors, why))
        print("FAIL [%s] %s: %s (the vectors folder is present, so the file is required)"
              % (self.backend, name, why))

    def skip(self, group, name, why, n=1):
        c = self.counts.setdefault(group, [0, 0, 0])
        c[2] += n
        self.notes.setdefault(group, set()).add(why)
        print("SKIP [%s] %s / %s: %s" % (self.backend, group, name, why))

    def report(self):
        print()
        for group, (p, f, s) in self.counts.items():
            extra = ""
            if s:
                extra = " (skipped: %s)" % "; ".join(sorted(self.notes.get(group, ())))
            print("[%s] %s: %d cases: %d passed, %d failed, %d skipped%s"
                  % (self.backend, group, p + f + s, p, f, s, extra))
        for name in self.missing:
            print("[%s] %s: SKIPPED: own-only mode, --vectors %s does not exist"
                  % (self.backend, name, self.vectors_arg))
        for name, why in self.unreadable.items():
            print("[%s] %s: FAILED: not readable from --vectors %s (%s)"
                  % (self.backend, name, self.vectors_arg, why))
        if self.failures:
            print("\n%d FAILED:" % len(self.failures))
            for f in self.failures:
                print("  " + f)
        return 1 if self.failures else 0


# ---- expectations ---------------------------------------------------------------------------
def expect_ok(r, stdout_check=None):
    check(r.rc == 0, "expected exit 0: " + r.describe())
    check(r.err == "", "expected an empty stderr: " + r.describe())
    if stdout_check is not None:
        check(stdout_check(r.out), "unexpected stdout: " + r.describe())


def expect_invalid(r, *needles, stdout_empty=True):
    """Exit 1: one line on stderr naming the reason, nothing on stdout."""
    check(r.rc == 1, "expected exit 1: " + r.describe())
    if stdout_empty:
        check(r.out == b"", "expected nothing on stdout: " + r.describe())
    lines = r.err.splitlines()
    check(len(lines) == 1 and lines[0].startswith("softchat: "),
          "expected one 'softchat: ' line on stderr: " + r.describe())
    for n in needles:
        check(n in r.err, "stderr should mention %r: %s" % (n, r.describe()))


def expect_usage(r, *needles):
    """Exit 2 for a usage error: the reason and the usage text on stderr, nothing on stdout."""
    check(r.rc == 2, "expected exit 2: " + r.describe())
    check(r.out == b"", "expected nothing on stdout: " + r.describe())
    check("usage: softchat" in r.err, "expected the usage text on stderr: " + r.describe())
    for n in needles:
        check(n in r.err, "stderr should mention %r: %s" % (n, r.describe()))


def expect_error(r, *needles):
    """Exit 2 for an I/O or environment error."""
    check(r.rc == 2, "expected exit 2: " + r.describe())
    check(r.out == b"", "expected nothing on stdout: " + r.describe())
    check(r.err.startswith("softchat: "), "expected a reason on stderr: " + r.describe())
    for n in needles:
        check(n in r.err, "stderr should mention %r: %s" % (n, r.describe()))


def is_hex_line(out, n=64):
    s = out.decode()
    return len(s) == n + 1 and s.endswith("\n") and set(s[:-1]) <= HEX


def verdicts(r):
    return r.out.decode().splitlines()


# ==== key =====================================================================================
def test_key(s):
    g = "key"

    def new_stdout():
        a, b = s.run("key", "new"), s.run("key", "new")
        expect_ok(a, is_hex_line)
        expect_ok(b, is_hex_line)
        check(a.out != b.out, "two fresh keys are equal")
        expect_ok(s.run("key", "pub", "--sec-file", s.write("fresh", a.out)), is_hex_line)
    s.case(g, "new to stdout: 64 lowercase hex + newline, fresh each time", new_stdout)

    def new_file():
        path = s.path("new-key")
        # umask 0: the 0600 must come from the open() call itself, not from the umask
        r = s.run("key", "new", "--out", path, preexec_fn=lambda: os.umask(0))
        expect_ok(r, lambda o: o == b"")
        check(stat.S_IMODE(os.stat(path).st_mode) == 0o600,
              "mode %o, expected 600" % stat.S_IMODE(os.stat(path).st_mode))
        with open(path, "rb") as f:
            body = f.read()
        check(is_hex_line(body), "file body %r" % body)
        expect_ok(s.run("key", "pub", "--sec-file", path), is_hex_line)
        # never overwrites
        r = s.run("key", "new", "--out", path)
        expect_error(r, "already exists")
        with open(path, "rb") as f:
            check(f.read() == body, "existing key file was modified")
        # a dangling symlink in its place is not followed either
        link = s.path("dangling")
        os.symlink(s.path("nowhere/target"), link)
        expect_error(s.run("key", "new", "--out", link))
        expect_error(s.run("key", "new", "--out", s.path("no-such-dir/key")), "cannot create")
    s.case(g, "new --out: mode 0600, never overwrites", new_file)

    def new_file_atomic():
        # written under a temporary name beside the final path, then linked into place:
        # nothing but the key file is left in the directory, after a success or a refusal
        d = s.path("key-dir")
        os.mkdir(d)
        path = os.path.join(d, "key")
        expect_ok(s.run("key", "new", "--out", path), lambda o: o == b"")
        check(os.listdir(d) == ["key"], "left in the directory: %r" % os.listdir(d))
        with open(path, "rb") as f:
            body = f.read()
        expect_error(s.run("key", "new", "--out", path), "already exists")
        check(os.listdir(d) == ["key"], "left after a refusal: %r" % os.listdir(d))
        with open(path, "rb") as f:
            check(f.read() == body, "existing key file was modified")
        # a read-only directory: the temporary file cannot be made, nothing appears
        ro = s.path("ro-dir")
        os.mkdir(ro)
        os.chmod(ro, 0o500)
        try:
            if os.access(ro, os.W_OK):  # root ignores the mode: nothing to learn here
                return
            expect_error(s.run("key", "new", "--out", os.path.join(ro, "key")), "cannot create")
            check(os.listdir(ro) == [], "left in a read-only directory: %r" % os.listdir(ro))
        finally:
            os.chmod(ro, 0o700)
    s.case(g, "new --out: temporary file + link, nothing else left behind", new_file_atomic)

    def pub_row0():
        expect_ok(s.run("key", "pub", "--sec-file", s.key_file(SEC3)),
                  lambda o: o == (PUB3 + "\n").encode())
    s.case(g, "pub of secret 3 is the BIP-340 row 0 key F930...", pub_row0)

    def pub_forms():
        # nsec, uppercase hex, surrounding whitespace, no trailing newline
        for body in (NSEC_SPEC, NSEC_SPEC + "\n", " \t\r\n" + NSEC_SPEC + "\r\n \n",
                     NSEC_SPEC_HEX.upper(), "\n\n  " + NSEC_SPEC_HEX + "\t\n"):
            r = s.run("key", "pub", "--sec-file", s.write("form", body))
            expect_ok(r, lambda o: o == (NSEC_SPEC_PUB + "\n").encode())
    s.case(g, "pub: nsec file, uppercase hex, whitespace around the key", pub_forms)

    def bad_key_files():
        bad = {
            "empty": "", "whitespace": " \n\t\n", "63 hex": SEC3[:-1], "65 hex": SEC3 + "0",
            "non-hex": "z" * 64, "two keys": SEC3 + " " + SEC3, "zero": "0" * 64,
            "curve order n": CURVE_N, "all ff": "f" * 64, "npub": NPUB_SPEC_PUB,
            "bad nsec checksum": NSEC_SPEC[:-1] + "q", "huge": SEC3 + "\n" * 5000,
            "binary": b"\x00\xff" * 32,
        }
        for name, body in bad.items():
            r = s.run("key", "pub", "--sec-file", s.write("bad", body))
            expect_invalid(r)
            secret_text = body if isinstance(body, str) else ""
            if len(secret_text.strip()) >= 16:
                check(secret_text.strip()[:16] not in r.err,
                      "%s: the key file's content is echoed: %s" % (name, r.err))
        expect_error(s.run("key", "pub", "--sec-file", s.path("missing")), "cannot open")
        expect_error(s.run("key", "pub", "--sec-file", s.tmp.name))  # a directory
    s.case(g, "pub: invalid key files are exit 1 without echoing them; unreadable exit 2",
           bad_key_files)

    def argv_secret_refused():
        for args in (["key", "pub", "--sec", SEC3], ["key", "pub", "--sec=" + SEC3],
                     ["key", "pub", "--nsec", NSEC_SPEC], ["key", "pub", "--seckey", SEC3],
                     ["nip44", "encrypt", "--secret", SEC3, "--pub", PUB3],
                     ["event", "sign", "--key", SEC3]):
            expect_usage(s.run(*args), "--sec-file")
        expect_usage(s.run("nip44", "encrypt", "--sec-file", s.key_file(SEC1), "--pub",
                           NSEC_SPEC), "secret key")
        expect_usage(s.run("nip19", "encode", "nsec", SEC3))
        expect_usage(s.run("nip19", "encode", "npub", NSEC_SPEC), "secret key")
        # decode takes an nsec only from stdin: on the command line it is refused before
        # decoding (a mistyped one too, in either case) and never echoed
        for arg in (NSEC_SPEC, NSEC_SPEC.upper(), NSEC_SPEC[:-1] + "q", "nsec1"):
            r = s.run("nip19", "decode", arg)
            expect_usage(r, "secret key", "stdin")
            check(NSEC_SPEC[5:21] not in r.err and NSEC_SPEC_HEX[:16] not in r.err,
                  "the nsec is echoed: " + r.err)
        # a secret typed where it does not belong (an extra operand, a file name) is not
        # echoed in the error either
        for args in (["key", "pub", NSEC_SPEC], ["nip19", "decode", "-", NSEC_SPEC],
                     ["key", "pub", "--sec-file", NSEC_SPEC], ["key", "pub", "--sec-file", SEC3],
                     [NSEC_SPEC]):
            r = s.run(*args)
            check(r.rc == 2 and NSEC_SPEC[5:21] not in r.err and SEC3[:16] not in r.err,
                  "%s: the secret is echoed: %s" % (args[:2], r.err))
    s.case(g, "a secret key on the command line is refused (exit 2)", argv_secret_refused)

    def key_usage():
        expect_usage(s.run("key"))
        expect_usage(s.run("key", "bogus"))
        expect_usage(s.run("key", "pub"), "--sec-file")
        expect_usage(s.run("key", "pub", "--sec-file"), "needs a value")
        expect_usage(s.run("key", "pub", "--sec-file", "a", "--sec-file", "b"), "more than once")
        expect_usage(s.run("key", "new", "extra"), "unexpected argument")
        expect_usage(s.run("key", "new", "--bogus"), "unknown option")
    s.case(g, "usage errors (exit 2)", key_usage)

    rows = s.vector("bip340.test-vectors.csv")
    if rows is None:
        s.missing_file("bip340.test-vectors.csv")
        return
    for row in rows:
        if not row.get("secret key"):
            continue

        def bip340_row(row=row):
            expect_ok(s.run("key", "pub", "--sec-file", s.key_file(row["secret key"])),
                      lambda o: o == (row["public key"].lower() + "\n").encode())
        s.case("bip340.test-vectors.csv", "row %s" % row["index"], bip340_row)


# ==== event sign ==============================================================================
def sign(s, template, sec=SEC3):
    if not isinstance(template, (str, bytes)):
        template = json.dumps(template)
    return s.run("event", "sign", "--sec-file", s.key_file(sec), stdin=template)


def signed(s, template, sec=SEC3):
    r = sign(s, template, sec)
    expect_ok(r)
    out = r.out.decode()
    check(out.endswith("\n") and out.count("\n") == 1, "not one line: %r" % out)
    return json.loads(out)


def test_event_sign(s):
    g = "event sign"

    def round_trip():
        before = int(time.time())
        content = "h\u00e9llo \U0001F984 \"q\" \\ \n\t\x00\x1f / \u2028"
        ev = signed(s, {"kind": 1, "content": content})
        after = int(time.time())
        check(list(ev) == ["id", "pubkey", "created_at", "kind", "tags", "content", "sig"],
              "field order %r" % list(ev))
        check(ev["pubkey"] == PUB3, "pubkey %s" % ev["pubkey"])
        check(ev["tags"] == [], "tags default %r" % ev["tags"])
        check(ev["content"] == content, "content %r" % ev["content"])
        check(before - 2 <= ev["created_at"] <= after + 2,
              "created_at %d not now (%d..%d)" % (ev["created_at"], before, after))
        check(len(ev["sig"]) == 128 and set(ev["sig"]) <= HEX, "sig %r" % ev["sig"])
        r = s.run("event", "verify", stdin=json.dumps(ev))
        expect_ok(r, lambda o: o == ("valid %s\n" % ev["id"]).encode())
    s.case(g, "sign -> verify round trip; tags default [], created_at default now", round_trip)

    def fields_kept():
        t = {"kind": 30023, "created_at": 4294967296, "content": "",
             "tags": [["d", "x"], ["e", "", "wss://r"], ["t"]], "extra": {"a": [1, 2]}}
        ev = signed(s, t)
        check(ev["kind"] == 30023 and ev["created_at"] == 4294967296 and ev["tags"] == t["tags"],
              "fields changed: %r" % ev)
        check("extra" not in ev, "unknown field kept")
        expect_ok(s.run("event", "verify", stdin=json.dumps(ev)))
    s.case(g, "kind, created_at, tags kept; unknown fields dropped", fields_kept)

    def pubkey_rules():
        first = signed(s, {"kind": 1, "content": "x", "created_at": 1})
        # a template with its own (matching) pubkey, and a stale id and sig: replaced
        t = dict(first, content="y")
        ev = signed(s, t)
        check(ev["id"] != first["id"] and ev["sig"] != first["sig"], "id/sig not replaced")
        expect_ok(s.run("event", "verify", stdin=json.dumps(ev)))
        # another key's pubkey is refused, never silently replaced
        t = {"kind": 1, "content": "x", "pubkey": NSEC_SPEC_PUB}
        expect_invalid(sign(s, t), "pubkey")
    s.case(g, "pubkey must be the key's own; id and sig are replaced", pubkey_rules)

    def invalid_templates():
        cases = [
            ("not json", b"hello", "SC_ERR_JSON"),
            ("empty", b"", "SC_ERR_JSON"),
            ("array", b"[1,2]", None),  # SC_ERR_JSON or SC_ERR_EVENT_FIELD: the parser's call
            ("trailing data", b'{"kind":1,"content":"x"} {}', "SC_ERR_JSON"),
            ("missing kind", b'{"content":"x"}', "SC_ERR_EVENT_FIELD"),
            ("missing content", b'{"kind":1}', "SC_ERR_EVENT_FIELD"),
            ("kind too large", b'{"kind":70000,"content":"x"}', "SC_ERR_EVENT_RANGE"),
            ("negative created_at", b'{"kind":1,"content":"x","created_at":-1}',
             "SC_ERR_EVENT_RANGE"),
            ("content not a string", b'{"kind":1,"content":5}', "SC_ERR_EVENT_FIELD"),
            ("tags not arrays", b'{"kind":1,"content":"x","tags":["a"]}', "SC_ERR_EVENT_FIELD"),
            ("empty tag", b'{"kind":1,"content":"x","tags":[[]]}', "SC_ERR_EVENT_FIELD"),
            ("duplicate kind", b'{"kind":1,"kind":2,"content":"x"}', "SC_ERR_EVENT_FIELD"),
            ("invalid UTF-8", b'{"kind":1,"content":"\xff"}', "SC_ERR_UTF8"),
            ("malformed id", b'{"kind":1,"content":"x","id":"abc"}', "SC_ERR_EVENT_FIELD"),
        ]
        for name, body, status in cases:
            r = sign(s, body)
            try:
                expect_invalid(r, *([status] if status else []))
            except CaseFailure as e:
                raise CaseFailure("%s: %s" % (name, e))
        big = json.dumps({"kind": 1, "content": "x" * EVENT_MAX})
        expect_invalid(sign(s, big), "SC_ERR_TOO_LARGE")
    s.case(g, "invalid templates: exit 1, the status named, nothing on stdout",
           invalid_templates)

    def sign_usage():
        expect_usage(s.run("event", "sign", stdin="{}"), "--sec-file")
        expect_usage(s.run("event", "sign", "--sec-file", s.key_file(SEC3), "x"))
        expect_usage(s.run("event"))
        expect_usage(s.run("event", "bogus"))
        expect_invalid(s.run("event", "sign", "--sec-file", s.write("z", "0" * 64),
                             stdin='{"kind":1,"content":""}'))
    s.case(g, "usage errors (exit 2) and a bad key (exit 1)", sign_usage)


# ==== event verify ============================================================================
def test_event_verify(s):
    g = "event verify"
    evs = [signed(s, {"kind": 1, "content": "event %d" % i, "tags": [["n", str(i)]]})
           for i in range(3)]
    ids = [e["id"] for e in evs]
    valid = ["valid " + i for i in ids]

    def json_lines():
        body = "".join(json.dumps(e) + "\n" for e in evs)
        expect_ok(s.run("event", "verify", stdin=body),
                  lambda o: o.decode().splitlines() == valid)
        # no final newline, CRLF line ends
        body = "\r\n".join(json.dumps(e) for e in evs)
        expect_ok(s.run("event", "verify", stdin=body),
                  lambda o: o.decode().splitlines() == valid)
    s.case(g, "JSON Lines", json_lines)

    def pretty():
        body = "\n".join(json.dumps(e, indent=2) for e in evs) + "\n"
        expect_ok(s.run("event", "verify", stdin=body),
                  lambda o: o.decode().splitlines() == valid)
        body = "\n\n".join(json.dumps(dict(reversed(list(e.items()))), indent="\t")
                           for e in evs)
        expect_ok(s.run("event", "verify", stdin=body),
                  lambda o: o.decode().splitlines() == valid)
    s.case(g, "pretty-printed, multi-line events (any key order)", pretty)

    def one_line():
        body = "".join(json.dumps(e, separators=(",", ":")) for e in evs)
        expect_ok(s.run("event", "verify", stdin=body),
                  lambda o: o.decode().splitlines() == valid)
        body = " \t".join(json.dumps(e) for e in evs)
        expect_ok(s.run("event", "verify", stdin=body),
                  lambda o: o.decode().splitlines() == valid)
    s.case(g, "several events on one line", one_line)

    def mixed():
        tampered = dict(evs[1], content="changed")
        bad_sig = dict(evs[2], sig=evs[2]["sig"][:-1] + ("0" if evs[2]["sig"][-1] != "0" else "1"))
        no_sig = {k: v for k, v in evs[0].items() if k != "sig"}
        braces = dict(evs[1], content="} { ] [ \" \\")
        lines = [json.dumps(evs[0]), json.dumps(tampered), json.dumps(evs[1]),
                 json.dumps(bad_sig), json.dumps(no_sig), json.dumps(braces), json.dumps(evs[2])]
        r = s.run("event", "verify", stdin="\n".join(lines))
        check(r.rc == 1, "expected exit 1: " + r.describe())
        got = verdicts(r)
        want = [valid[0], "invalid id-mismatch: ", valid[1], "invalid invalid-sig: ",
                "invalid event-field: ", "invalid id-mismatch: ", valid[2]]
        check(len(got) == len(want), "verdicts %r" % got)
        for g_, w in zip(got, want):
            check(g_.startswith(w), "verdict %r, expected %r... in %r" % (g_, w, got))
        check(got[1] == "invalid id-mismatch: event id does not match its content",
              "reason text %r" % got[1])
        check(len(r.err.splitlines()) == 1 and "4 of 7" in r.err, "stderr %r" % r.err)
    s.case(g, "invalid events among valid ones: one line each, in order, exit 1", mixed)

    def garbage():
        e0, e1 = json.dumps(evs[0]), json.dumps(evs[1])
        cases = [
            ("text before and after", "hello world\n%s\nmore junk here\n%s\ntrailing" % (e0, e1),
             ["invalid json: ", valid[0], "invalid json: ", valid[1], "invalid json: "]),
            ("a top-level array", "[%s,%s]" % (e0, e1),
             ["invalid json: ", valid[0], "invalid json: ", valid[1], "invalid json: "]),
            ("a truncated line swallows nothing", e0[:60] + "\n" + e1 + "\n",
             ["invalid json: raw control character", valid[1]]),
            ("truncated at the end", e0 + "\n" + e1[:-5],
             [valid[0], "invalid json: input ends inside an event"]),
            ("mismatched brackets", '{"a":[}\n' + e1 + '\n{"b":{]}' + e0,
             ["invalid json: mismatched", valid[1], "invalid json: mismatched", valid[0]]),
            ("nested too deep", '{"a":' + "[" * 300 + "]" * 300 + "}\n" + e1,
             ["invalid too-large: event nested deeper", valid[1]]),
            ("deep but within the splitter's limit", '{"a":' + "[" * 200 + "]" * 200 + "}" + e1,
             ["invalid too-large: ", valid[1]]),
            ("garbage only", "xyz\n", ["invalid json: "]),
            ("a BOM", "\ufeff" + e0, ["invalid json: ", valid[0]]),
        ]
        for name, body, want in cases:
            r = s.run("event", "verify", stdin=body)
            got = verdicts(r)
            check(r.rc == 1, "%s: expected exit 1: %s" % (name, r.describe()))
            check(len(got) == len(want), "%s: verdicts %r, expected %r" % (name, got, want))
            for g_, w in zip(got, want):
                check(g_.startswith(w), "%s: verdicts %r, expected %r" % (name, got, want))
    s.case(g, "garbage between events: reported, then resynchronised at the next '{'", garbage)

    def empty():
        for body in ("", " \n\t\r\n"):
            expect_invalid(s.run("event", "verify", stdin=body), "no event")
    s.case(g, "no event at all: exit 1, nothing on stdout", empty)

    def oversized():
        big = json.dumps(dict(evs[0], content="x" * (EVENT_MAX + 10)))
        body = json.dumps(evs[0]) + "\n" + big + "\n" + json.dumps(evs[1]) + "\n"
        r = s.run("event", "verify", stdin=body)
        check(r.rc == 1, "expected exit 1: " + r.describe())
        got = verdicts(r)
        check(len(got) == 3 and got[0] == valid[0] and got[2] == valid[1] and
              got[1].startswith("invalid too-large: "), "verdicts %r" % got)
        # an event of exactly the limit is accepted by the splitter (the parser decides)
        pad = EVENT_MAX - len(json.dumps(dict(evs[0], content="")))
        exact = json.dumps(dict(evs[0], content="y" * pad))
        check(len(exact) == EVENT_MAX, "test setup: %d" % len(exact))
        r = s.run("event", "verify", stdin=exact + "\n" + json.dumps(evs[1]))
        got = verdicts(r)
        check(len(got) == 2 and got[0].startswith("invalid id-mismatch") and got[1] == valid[1],
              "verdicts %r" % got)
    s.case(g, "an event over 1 MiB is 'invalid too-large' and skipped", oversized)

    def streams_early():
        # a verdict is written before the end of the input: a live feed is usable
        p = subprocess.Popen(s.argv(["event", "verify"]), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            p.stdin.write((json.dumps(evs[0]) + "\n").encode())
            p.stdin.flush()
            ready, _, _ = select.select([p.stdout], [], [], 60)
            check(ready, "no verdict before the end of the input")
            line = p.stdout.readline().decode()
            check(line == valid[0] + "\n", "verdict %r" % line)
            p.stdin.write((json.dumps(evs[1]) + "\n").encode())
            p.stdin.close()
            rest = p.stdout.read().decode()
            check(rest == valid[1] + "\n", "rest %r" % rest)
            check(p.wait(60) == 0, "exit %r" % p.returncode)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
            p.stderr.close()
    s.case(g, "verdicts stream out before the input ends", streams_early)

    def big_stream():
        # at least 5 MB of events: JSON Lines, pretty-printed ones, several per line
        variety = [json.dumps(signed(s, {"kind": 1, "content": ("%d " % i) * 600}))
                   for i in range(4)]
        blocks = [variety[0] + "\n", json.dumps(json.loads(variety[1]), indent=2) + "\n",
                  variety[2] + variety[3] + "\n"]
        unit = "".join(blocks)
        per_unit = 4
        copies = 5 * 1000 * 1000 // len(unit) + 1
        path = s.path("stream.jsonl")
        with open(path, "w") as f:
            for _ in range(copies):
                f.write(unit)
        size = os.path.getsize(path)
        check(size >= 5 * 1000 * 1000, "test setup: stream of %d bytes" % size)
        r = s.run("event", "verify", stdin=open(path, "rb").read())
        check(r.rc == 0, "expected exit 0: rc=%d stderr=%r" % (r.rc, r.err))
        got = r.out.decode().splitlines()
        check(len(got) == copies * per_unit, "%d verdicts for %d events"
              % (len(got), copies * per_unit))
        check(all(v.startswith("valid ") for v in got), "an event was not valid")
        if s.wrap:
            return  # RSS means nothing under a wrapper such as valgrind
        small = s.path("one.jsonl")
        with open(small, "w") as f:
            f.write(variety[0] + "\n")
        rc0, base = s.run_measured(["event", "verify"], small)
        rc1, big = s.run_measured(["event", "verify"], path)
        # the control: a command that does hold all of stdin must show it in the measurement
        rc2, held = s.run_measured(["nip44", "encrypt", "--extended", "--sec-file",
                                    s.key_file(SEC1), "--pub", PUB3], path)
        print("     [%s] max RSS, event verify: one event %d KiB, %d bytes of events %d KiB; "
              "nip44 encrypt of the same bytes (holds them all) %d KiB"
              % (s.backend, base, size, big, held))
        check(rc0 == 0 and rc1 == 0 and rc2 == 0, "exit statuses %d %d %d" % (rc0, rc1, rc2))
        check(held - base > size // 1024, "the RSS measurement is blind: holding %d bytes grew "
              "max RSS by only %d KiB" % (size, held - base))
        check(big - base < 2048, "max RSS grew by %d KiB for %d bytes of input: stdin is "
              "buffered" % (big - base, size))
    s.case(g, "a 5 MB stream verifies with bounded memory", big_stream)

    def verify_usage():
        expect_usage(s.run("event", "verify", "x"))
        expect_usage(s.run("event", "verify", "--sec-file", "x"))
    s.case(g, "usage errors (exit 2)", verify_usage)

    data = s.vector("nip01.events.json")
    if data is None:
        s.missing_file("nip01.events.json")
        return
    tokens = ("id-mismatch", "invalid-sig", "event-field")
    for e in data["events"]:
        def one(e=e):
            r = s.run("event", "verify", stdin=json.dumps(e["event"], ensure_ascii=False))
            if e["valid"]:
                expect_ok(r, lambda o: o.decode() == "valid %s\n" % e["event"]["id"])
            else:
                check(r.rc == 1, "expected exit 1: " + r.describe())
                v = verdicts(r)
                check(len(v) == 1 and any(v[0].startswith("invalid %s: " % t) for t in tokens),
                      "verdict %r" % v)
        s.case("nip01.events.json", e["name"], one)

    def whole_file():
        body = "\n".join(json.dumps(e["event"], indent=1) for e in data["events"])
        r = s.run("event", "verify", stdin=body)
        v = verdicts(r)
        check(r.rc == 1 and len(v) == len(data["events"]), r.describe())
        for e, line in zip(data["events"], v):
            ok = line == "valid " + e["event"]["id"]
            check(ok == e["valid"], "%s: %r" % (e["name"], line))
    s.case("nip01.events.json", "every event in one pretty-printed stream", whole_file)


# ==== nip44 ===================================================================================
def encrypt(s, sec, pub, pt, *extra):
    return s.run("nip44", "encrypt", "--sec-file", s.key_file(sec), "--pub", pub, *extra,
                 stdin=pt)


def decrypt(s, sec, pub, payload):
    return s.run("nip44", "decrypt", "--sec-file", s.key_file(sec), "--pub", pub, stdin=payload)


def test_nip44(s):
    g = "nip44"
    pub1, pub2 = s.pub_of(SEC1), s.pub_of(SEC2)

    def round_trip():
        pt = "h\u00e9llo \U0001F984\n\x00 \u2028 end".encode()
        r = encrypt(s, SEC1, pub2, pt)
        expect_ok(r, lambda o: o.endswith(b"\n") and o.count(b"\n") == 1)
        payload = r.out
        check(encrypt(s, SEC1, pub2, pt).out != payload, "two encryptions are equal (nonce)")
        expect_ok(decrypt(s, SEC2, pub1, payload), lambda o: o == pt)
        # trailing whitespace of any kind is ignored; no newline is added to the output
        expect_ok(decrypt(s, SEC2, pub1, payload.rstrip() + b" \r\n\t\n"), lambda o: o == pt)
        # npub for --pub
        npub = s.run("nip19", "encode", "npub", pub1)
        expect_ok(npub)
        expect_ok(decrypt(s, SEC2, npub.out.decode().strip(), payload), lambda o: o == pt)
    s.case(g, "encrypt -> decrypt round trip (exact bytes, trailing whitespace ignored)",
           round_trip)

    def tampered():
        payload = encrypt(s, SEC1, pub2, "attack at dawn").out.decode().strip()
        mid = len(payload) // 2
        flipped = payload[:mid] + ("A" if payload[mid] != "A" else "B") + payload[mid + 1:]
        expect_invalid(decrypt(s, SEC2, pub1, flipped), "SC_ERR_MAC")
        expect_invalid(decrypt(s, SEC3, pub1, payload), "SC_ERR_MAC")  # wrong key
        expect_invalid(decrypt(s, SEC2, pub1, "#" + payload[1:]), "SC_ERR_VERSION")
        expect_invalid(decrypt(s, SEC2, pub1, payload[:100]), "SC_ERR_PAYLOAD_SIZE")
        expect_invalid(decrypt(s, SEC2, pub1, payload[:-4] + "!!!!"), "SC_ERR_BASE64")
        expect_invalid(decrypt(s, SEC2, pub1, ""), "SC_ERR_VERSION")
        expect_invalid(decrypt(s, SEC2, pub1, " " + payload))
        # over the 64 MiB limit: a valid payload, then whitespace past the read limit, then
        # garbage: refused as too large, never trimmed to the valid prefix
        over = payload.encode() + b" " * (64 * 1024 * 1024) + b"junk"
        expect_invalid(decrypt(s, SEC2, pub1, over), "SC_ERR_TOO_LARGE")
    s.case(g, "tampered or malformed payloads: exit 1, nothing on stdout", tampered)

    def bad_input():
        expect_invalid(encrypt(s, SEC1, pub2, b""), "empty")
        expect_invalid(encrypt(s, SEC1, pub2, b"ok \xff\xfe"), "SC_ERR_UTF8")
        expect_invalid(encrypt(s, SEC1, pub2, b"\xed\xa0\x80"), "SC_ERR_UTF8")  # surrogate
        expect_invalid(encrypt(s, SEC1, "f" * 64, b"x"), "--pub")  # x >= p: no point
        expect_invalid(encrypt(s, "0" * 64, pub2, b"x"))
    s.case(g, "empty or non-UTF-8 plaintext, invalid keys: exit 1", bad_input)

    def extended_policy():
        pt = b"a" * 65536
        r = encrypt(s, SEC1, pub2, pt)
        expect_invalid(r, "SC_ERR_POLICY", "--extended")
        r = encrypt(s, SEC1, pub2, pt, "--extended")
        expect_ok(r)
        expect_ok(decrypt(s, SEC2, pub1, r.out), lambda o: o == pt)
        expect_ok(encrypt(s, SEC1, pub2, b"a" * 65535))
        big = b"\xe2\x82\xac" * 100000  # 300000 bytes of UTF-8
        r = encrypt(s, SEC1, pub2, big, "--extended")
        expect_ok(r)
        expect_ok(decrypt(s, SEC2, pub1, r.out), lambda o: o == big)
    s.case(g, "65536 bytes and more need --extended (SC_ERR_POLICY otherwise)", extended_policy)

    def nip44_usage():
        k = s.key_file(SEC1)
        expect_usage(s.run("nip44"))
        expect_usage(s.run("nip44", "bogus"))
        expect_usage(s.run("nip44", "encrypt", "--sec-file", k), "--pub")
        expect_usage(s.run("nip44", "encrypt", "--pub", pub2), "--sec-file")
        expect_usage(s.run("nip44", "encrypt", "--sec-file", k, "--pub", "zz"), "--pub")
        expect_usage(s.run("nip44", "encrypt", "--sec-file", k, "--pub", pub2, "--nonce", "00"),
                     "--nonce")
        expect_usage(s.run("nip44", "decrypt", "--sec-file", k, "--pub", pub2, "--extended"),
                     "unknown option")
        expect_usage(s.run("nip44", "decrypt", "--sec-file", k, "--pub", pub2, "--nonce",
                           "00" * 32), "unknown option")
        expect_error(s.run("nip44", "encrypt", "--sec-file", s.path("missing"), "--pub", pub2,
                           stdin="x"), "cannot open")
    s.case(g, "usage errors (exit 2)", nip44_usage)

    v = s.vector("nip44.vectors.json")
    if v is None:
        s.missing_file("nip44.vectors.json")
    else:
        nip44_vectors(s, v["v2"])
    v = s.vector("nip44.extended-prefix.json")
    if v is None:
        s.missing_file("nip44.extended-prefix.json")
    else:
        nip44_extended_vectors(s, v, pub1, pub2)


def nip44_vectors(s, v):
    f = "nip44.vectors.json"
    for i, c in enumerate(v["valid"]["encrypt_decrypt"]):
        def one(c=c):
            pub1, pub2 = s.pub_of(c["sec1"]), s.pub_of(c["sec2"])
            r = encrypt(s, c["sec1"], pub2, c["plaintext"], "--nonce", c["nonce"])
            expect_ok(r, lambda o: o.decode() == c["payload"] + "\n")
            r = decrypt(s, c["sec2"], pub1, c["payload"])
            expect_ok(r, lambda o: o == c["plaintext"].encode())
        s.case(f, "valid.encrypt_decrypt[%d]" % i, one)
    s.skip(f, "valid.encrypt_decrypt_long_msg",
           "conversation-key-only cases: the CLI derives keys from secret keys",
           len(v["valid"]["encrypt_decrypt_long_msg"]))
    s.skip(f, "valid.get_conversation_key / get_message_keys / calc_padded_len",
           "the CLI does not expose conversation keys, message keys or padding",
           len(v["valid"]["get_conversation_key"]) + 2)
    for i, c in enumerate(v["invalid"]["get_conversation_key"]):
        def bad_ck(c=c):
            r = encrypt(s, c["sec1"], c["pub2"], "x")
            # an unusable secret key is in the key file (exit 1); an unusable public key is
            # either malformed (a usage error) or not on the curve (exit 1)
            check(r.rc in (1, 2) and r.out == b"", r.describe())
            if r.rc == 1:
                expect_invalid(r)
        s.case(f, "invalid.get_conversation_key[%d] (%s)" % (i, c.get("note", "")), bad_ck)
    for i, c in enumerate(v["invalid"]["decrypt"]):
        # these name a conversation key only; the checks before the MAC do not depend on it,
        # so their exact reason is asserted; the MAC/padding cases must still fail
        note = c.get("note", "")
        status = ("SC_ERR_VERSION" if "version" in note or c["payload"] == "" else
                  "SC_ERR_BASE64" if "base64" in note else
                  "SC_ERR_PAYLOAD_SIZE" if "length" in note else None)

        def bad(c=c, status=status):
            r = decrypt(s, SEC2, s.pub_of(SEC1), c["payload"])
            expect_invalid(r, *([status] if status else []))
        s.case(f, "invalid.decrypt[%d] (%s)" % (i, note), bad)


def nip44_extended_vectors(s, v, pub1, pub2):
    f = "nip44.extended-prefix.json"
    ck12 = "c41c775356fd92eadc63ff5a0dc1da211b268cbea22316767095b2871ea1412d"
    for c in v["valid"]:
        if c["conversation_key"] != ck12:
            s.skip(f, "valid %d" % c["repeat"], "conversation key of unknown secret keys")
            continue

        def one(c=c):
            pt = (c["pattern"] * c["repeat"]).encode()
            check(hashlib.sha256(pt).hexdigest() == c["plaintext_sha256"], "test setup")
            flags = ["--extended"] if c["prefix_len"] == 6 else []
            r = encrypt(s, SEC1, pub2, pt, "--nonce", c["nonce"], *flags)
            expect_ok(r)
            payload = r.out.rstrip(b"\n")
            check(len(payload) == c["payload_b64_len"], "payload length %d" % len(payload))
            check(hashlib.sha256(payload).hexdigest() == c["payload_sha256"],
                  "payload sha256 differs")
            expect_ok(decrypt(s, SEC2, pub1, r.out), lambda o: o == pt)
            if not flags:
                return
            expect_invalid(encrypt(s, SEC1, pub2, pt, "--nonce", c["nonce"]), "SC_ERR_POLICY")
        s.case(f, "valid %d bytes (prefix %d)" % (c["repeat"], c["prefix_len"]), one)
    for i, c in enumerate(v["invalid_decrypt"]):
        if c["conversation_key"] != ck12:
            s.skip(f, "invalid_decrypt[%d]" % i, "conversation key of unknown secret keys")
            continue
        if "payload" not in c:
            s.skip(f, "invalid_decrypt[%d]" % i, "given as a construction and a payload hash only")
            continue

        def bad(c=c):
            expect_invalid(decrypt(s, SEC2, pub1, c["payload"]),
                           *(["SC_ERR_PADDING"] if "padding" in c.get("note", "") else []))
        s.case(f, "invalid_decrypt[%d] (%s)" % (i, c.get("note", "")), bad)
    s.skip(f, "calc_padded_len", "the CLI does not expose padding", 1)


# ==== nip19 ===================================================================================
def expected_json(c):
    """The CLI's decode JSON for a vector case: (ordered dict, as the CLI writes it)."""
    hrp = c["hrp"]
    if hrp in ("npub", "nsec", "note"):
        key = {"npub": "pubkey", "nsec": "seckey", "note": "id"}[hrp]
        return {"type": hrp, key: c["hex"]}
    tlv = c["tlv"]
    relays = [t["value"] for t in tlv if t["type"] == 1]
    special = next(t["value"] for t in tlv if t["type"] == 0)
    author = next((t["value"] for t in tlv if t["type"] == 2), None)
    kind = next((t["value"] for t in tlv if t["type"] == 3), None)
    if hrp == "nprofile":
        return {"type": hrp, "pubkey": special, "relays": relays}
    if hrp == "nevent":
        d = {"type": hrp, "id": special, "relays": relays}
        if author is not None:
            d["author"] = author
        if kind is not None:
            d["kind"] = kind
        return d
    return {"type": hrp, "identifier": special, "pubkey": author, "kind": kind, "relays": relays}


def encode_args(d):
    """The nip19 encode arguments that rebuild a decoded entity."""
    t = d["type"]
    if t in ("npub", "note"):
        return [t, d["pubkey" if t == "npub" else "id"]]
    args = [t]
    if t == "nprofile":
        args.append(d["pubkey"])
    elif t == "nevent":
        args.append(d["id"])
        if "author" in d:
            args += ["--author", d["author"]]
        if "kind" in d:
            args += ["--kind", str(d["kind"])]
    else:
        args += ["--identifier", d["identifier"], "--author", d["pubkey"], "--kind",
                 str(d["kind"])]
    for r in d["relays"]:
        args += ["--relay", r]
    return args


def test_nip19(s):
    g = "nip19"
    pub = s.pub_of(SEC3)

    def round_trips():
        for args, want in (
                (["npub", pub], {"type": "npub", "pubkey": pub}),
                (["note", SEC1], {"type": "note", "id": SEC1}),
                (["nprofile", pub], {"type": "nprofile", "pubkey": pub, "relays": []}),
                (["nevent", SEC2, "--kind", "0", "--relay", "wss://a", "--relay", "wss://b"],
                 {"type": "nevent", "id": SEC2, "relays": ["wss://a", "wss://b"], "kind": 0}),
                (["naddr", "--identifier", "", "--author", pub, "--kind", "65535"],
                 {"type": "naddr", "identifier": "", "pubkey": pub, "kind": 65535,
                  "relays": []}),
                (["naddr", "--identifier", "q\"\\\u00e9\U0001F984\t", "--author", pub, "--kind",
                  "30023", "--relay", "wss://r"],
                 {"type": "naddr", "identifier": "q\"\\\u00e9\U0001F984\t", "pubkey": pub,
                  "kind": 30023, "relays": ["wss://r"]})):
            r = s.run("nip19", "encode", *args)
            expect_ok(r, lambda o: o.startswith(args[0].encode() + b"1") and o.endswith(b"\n"))
            d = s.run("nip19", "decode", r.out.decode().strip())
            expect_ok(d)
            out = d.out.decode()
            check(out.endswith("\n") and out.count("\n") == 1, "not one line: %r" % out)
            got = json.loads(out)
            check(got == want and list(got) == list(want), "decoded %r, expected %r"
                  % (got, want))
        # npub accepted where a public key is expected
        npub = s.run("nip19", "encode", "npub", pub).out.decode().strip()
        expect_ok(s.run("nip19", "encode", "nprofile", npub), lambda o: o.startswith(
            b"nprofile1"))
    s.case(g, "encode -> decode round trips, JSON schema and key order", round_trips)

    def nsec():
        r = s.run("nip19", "encode", "nsec", "--sec-file", s.key_file(NSEC_SPEC_HEX))
        expect_ok(r, lambda o: o == (NSEC_SPEC + "\n").encode())
        r = s.run("nip19", "decode", "-", stdin="\n  " + NSEC_SPEC + "\n")
        expect_ok(r, lambda o: json.loads(o) == {"type": "nsec", "seckey": NSEC_SPEC_HEX})
        expect_usage(s.run("nip19", "encode", "nsec"), "--sec-file")
    s.case(g, "nsec from a key file; decode from stdin with '-'", nsec)

    def bad_strings():
        good = s.run("nip19", "encode", "npub", pub).out.decode().strip()
        for bad in ("", "npub1", good[:-1] + ("q" if good[-1] != "q" else "p"), good.upper()[:10]
                    + good[10:], "nfoo1" + good[5:], "npub" + good[5:], good + "q", "x" * 6000,
                    good.replace("1", "b", 1)):
            expect_invalid(s.run("nip19", "decode", bad))
        expect_invalid(s.run("nip19", "decode", "-", stdin=""))
        expect_invalid(s.run("nip19", "decode", "-", stdin=good + " " * 20000 + "junk"))
    s.case(g, "invalid strings: exit 1, nothing on stdout", bad_strings)

    def encode_usage():
        expect_usage(s.run("nip19"))
        expect_usage(s.run("nip19", "bogus"))
        expect_usage(s.run("nip19", "decode"), "STRING")
        expect_usage(s.run("nip19", "decode", "a", "b"))
        expect_usage(s.run("nip19", "encode"), "TYPE")
        expect_usage(s.run("nip19", "encode", "nrelay", pub), "TYPE")
        expect_usage(s.run("nip19", "encode", "npub"))
        expect_usage(s.run("nip19", "encode", "npub", "zz"))
        expect_usage(s.run("nip19", "encode", "note", pub[:-2]))
        expect_usage(s.run("nip19", "encode", "npub", pub, "--relay", "wss://x"), "--relay")
        expect_usage(s.run("nip19", "encode", "nprofile", pub, "--kind", "1"), "--kind")
        expect_usage(s.run("nip19", "encode", "naddr", "--identifier", "x", "--author", pub))
        expect_usage(s.run("nip19", "encode", "naddr", "--identifier", "x", "--author", pub,
                           "--kind", "65536"), "--kind")
        expect_usage(s.run("nip19", "encode", "nevent", SEC1, "--kind", "-1"), "--kind")
        expect_usage(s.run("nip19", "encode", "nevent", SEC1, "--kind", "1x"), "--kind")
        expect_usage(s.run("nip19", "encode", "nevent", SEC1, "--author", "nope"), "--author")
        expect_usage(s.run("nip19", "encode", "nprofile", pub, "--relay", "w" * 256), "255")
        expect_usage(s.run("nip19", "encode", "nprofile", pub,
                           *sum((["--relay", "wss://%d" % i] for i in range(17)), [])), "--relay")
    s.case(g, "usage errors (exit 2)", encode_usage)

    data = s.vector("nip19.vectors.json")
    if data is None:
        s.missing_file("nip19.vectors.json")
        return
    f = "nip19.vectors.json"
    for c in data["cases"]:
        label = c["bech32"][:24] + "..."
        if not c["valid"]:
            # an nsec goes through stdin (on the command line it is refused before decoding)
            s.case(f, "decode must fail: " + c.get("why", label),
                   lambda c=c: expect_invalid(
                       s.run("nip19", "decode", "-", stdin=c["bech32"] + "\n")
                       if c["bech32"].lower().startswith("nsec1")
                       else s.run("nip19", "decode", c["bech32"])))
            continue

        def dec(c=c):
            want = expected_json(c)
            if c["hrp"] == "nsec":  # secret keys only through stdin
                r = s.run("nip19", "decode", "-", stdin=c["bech32"] + "\n")
            else:
                r = s.run("nip19", "decode", c["bech32"])
            expect_ok(r)
            got = json.loads(r.out)
            check(got == want and list(got) == list(want), "decoded %r, expected %r"
                  % (got, want))

        def enc(c=c):
            want = expected_json(c)
            if c["hrp"] == "nsec":
                r = s.run("nip19", "encode", "nsec", "--sec-file", s.key_file(c["hex"]))
            else:
                r = s.run("nip19", "encode", *encode_args(want))
            expect_ok(r, lambda o: o.decode() == c["bech32"] + "\n")
        s.case(f, "decode " + label, dec)
        s.case(f, "encode " + label, enc)


# ==== every command ===========================================================================
def test_general(s):
    g = "general"

    def helps():
        for args in (["--help"], ["-h"], ["help"], ["key", "--help"], ["key", "new", "--help"],
                     ["key", "pub", "--help"], ["event", "--help"], ["event", "sign", "--help"],
                     ["event", "verify", "--help"], ["nip44", "--help"],
                     ["nip44", "encrypt", "--help"], ["nip44", "decrypt", "--help"],
                     ["nip19", "--help"], ["nip19", "encode", "--help"],
                     ["nip19", "encode", "naddr", "--help"], ["nip19", "decode", "--help"],
                     ["backends", "--help"], ["selftest", "--help"],
                     ["key", "pub", "--sec-file", s.path("missing"), "--help"]):
            r = s.run(*args)
            expect_ok(r, lambda o: o.startswith(b"usage: softchat"))
    s.case(g, "--help on every command: usage on stdout, exit 0", helps)

    def top_usage():
        r = s.run()
        check(r.rc == 2 and r.out == b"" and "usage: softchat" in r.err, r.describe())
        r = s.run("bogus")
        check(r.rc == 2 and r.out == b"" and "unknown command" in r.err, r.describe())
        # text quoted in a message reaches the terminal without its control bytes
        r = s.run("bo\x1b[2Jgus\x07\r\x7f")
        check(r.rc == 2 and "unknown command 'bo?[2Jgus???'\n" in r.err, r.describe())
        r = subprocess.run(s.wrap + [s.cli_path, "--backend", "no-such-backend", "key", "new"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(r.returncode == 2 and r.stdout == b"" and b"no backend" in r.stderr,
              "unknown backend: rc=%d %r" % (r.returncode, r.stderr))
        # --backend is also accepted after the command
        r = subprocess.run(s.wrap + [s.cli_path, "key", "pub", "--sec-file", s.key_file(SEC3),
                                     "--backend", s.backend],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(r.returncode == 0 and r.stdout == (PUB3 + "\n").encode(), "trailing --backend")
    s.case(g, "no command, unknown command, unknown backend: exit 2", top_usage)

    def write_errors():
        if not os.path.exists("/dev/full"):
            raise CaseFailure("no /dev/full on this system")
        with open("/dev/full", "wb") as full:
            for args, stdin in ((["key", "pub", "--sec-file", s.key_file(SEC3)], b""),
                                (["key", "new"], b""),
                                (["nip19", "decode", "-"], NSEC_SPEC.encode()),
                                (["backends"], b""), (["selftest"], b""), (["--help"], b""),
                                (["--version"], b""), (["nip19", "decode", "--help"], b"")):
                p = subprocess.run(s.argv(args), input=stdin, stdout=full,
                                   stderr=subprocess.PIPE)
                check(p.returncode == 2 and b"cannot write" in p.stderr,
                      "%s: rc=%d %r" % (args, p.returncode, p.stderr))
    if os.path.exists("/dev/full"):
        s.case(g, "a failed write to stdout is exit 2", write_errors)
    else:
        s.skip(g, "write errors", "no /dev/full on this system")


# ==== relay ===================================================================================
def test_relay(s):
    g = "relay"

    def publish_nothing():
        # a listening socket stands in for the relay: a connection attempt would complete in
        # its backlog, so an accept() that finds none proves none was made
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            srv.bind(("127.0.0.1", 0))
            srv.listen(8)
            url = "ws://127.0.0.1:%d" % srv.getsockname()[1]
            for stdin in (b"", b"\n", b"\n \t\r\n\n"):
                for extra in ([], ["--sec-file", s.key_file(SEC3)]):
                    r = s.run("relay", "publish", "--url", url, *extra, stdin=stdin)
                    expect_invalid(r, "no event on stdin", "nothing published")
            srv.setblocking(False)
            try:
                c, _ = srv.accept()
                c.close()
                raise CaseFailure("relay publish connected with nothing to publish")
            except BlockingIOError:
                pass
        finally:
            srv.close()
    s.case(g, "publish with no event on stdin (empty, blank lines): exit 1, one line, no "
              "connection, nothing on stdout", publish_nothing)


MEMCHECK_WRAP = "%s -q --error-exitcode=97 --leak-check=full " \
                "--errors-for-leak-kinds=definite,indirect --track-origins=yes"


def under_valgrind():
    """True when this interpreter runs under valgrind (its preload objects are mapped)."""
    try:
        with open("/proc/self/maps") as f:
            return "vgpreload" in f.read()
    except OSError:
        return False


def run_suite(doc, tests, vector_kinds):
    """The driver's main: options, the valgrind wrap, the vectors folder check, then each test
    of `tests` in turn. vector_kinds names the vector cases skipped without the folder."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="path of the softchat binary")
    ap.add_argument("--backend", required=True)
    ap.add_argument("--vectors", default=UPSTREAM_DEFAULT,
                    help="folder of upstream conformance data (default: %(default)s)")
    ap.add_argument("--wrap", help="command prefix for every CLI run (e.g. valgrind -q ...)")
    ap.add_argument("--seal", help="path of seal_blob (tests/cli/seal_blob.c): AES-256-GCM "
                                   "under any IV, for the kind 15 legacy-IV cases")
    opts = ap.parse_args()
    opts.vectors_arg = opts.vectors
    if opts.wrap is None and under_valgrind():
        valgrind = shutil.which("valgrind")
        if valgrind is None:
            print("FAIL: running under valgrind, but no valgrind on PATH to check the CLI with")
            return 1
        opts.wrap = MEMCHECK_WRAP % valgrind
        print("note: running under valgrind: every CLI run is wrapped in: " + opts.wrap)
    if not os.path.isdir(opts.vectors):
        print("\n" + "!" * 78)
        print("WARNING: OWN-ONLY MODE: vectors folder %s is missing: %s vector"
              % (opts.vectors, vector_kinds))
        print("cases are SKIPPED (not passed). Point --vectors (SOFTCHAT_VECTORS_DIR) at the "
              "data.")
        print("!" * 78 + "\n")
        opts.vectors = None
    s = Suite(opts)
    try:
        for t in tests:
            try:
                t(s)
            except CaseFailure as e:  # a failure in a test's own setup
                s.counts.setdefault(t.__name__, [0, 0, 0])[1] += 1
                s.failures.append("%s (setup): %s" % (t.__name__, e))
        return s.report()
    finally:
        s.tmp.cleanup()


def main():
    return run_suite(__doc__, (test_general, test_key, test_event_sign, test_event_verify,
                               test_nip44, test_nip19, test_relay),
                     "the NIP-44, NIP-19, NIP-01 and BIP-340")


if __name__ == "__main__":
    sys.exit(main())
