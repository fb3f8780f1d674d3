#!/usr/bin/env python3
"""Fails when a comment or a document names a repository path that does not exist.

Usage: tests/lint/check_paths.py [--root DIR] [--self-test] [--list]

Reports each stale reference as FILE:LINE: PATH and exits 1 if there is one; exits 0 when
every path named resolves. --self-test runs the rules on known-good and known-bad inputs
and fails if a bad one goes unreported or a good one is reported, so the check cannot pass
by seeing nothing. --list prints every path it checked (with where), to review the rules.
Python 3 standard library only.

What is read. The files git tracks (git ls-files), by kind:
  - documents, read whole: *.md, and *.txt other than CMakeLists.txt;
  - C-like sources (*.c *.h *.kt *.java *.mjs *.js *.ts *.rs *.swift *.modulemap): the text of
    /* */ and // comments (string literals skipped);
  - '#' languages (*.sh *.py *.cmake CMakeLists.txt *.toml *.pins *.supp *.pro, and
    extensionless scripts with a shell or Python #! line): the text after a '#' that starts
    a line or follows a blank, outside quotes; Python through its own tokenizer: comments
    and docstrings;
  - *.xml: <!-- --> comments;
  - a template X.in is read as X would be.
  CHANGELOG.md is left out: it records paths as they were when each entry was written.
  Code outside comments is not read (a wrong path there fails the build or the tests).

What is a path. A token of path characters (letters, digits, _ . - / and the pattern
characters < > * { } , inside braces) that either
  - starts with a top-level entry of the tree ("core/", "tests/", ".ci/", "README.md", ...;
    taken from git ls-files, so a new top-level folder is known at once); or
  - in a comment, starts with "./" or "../" (resolved from the mentioning file's folder; in a
    document such a path is an example unless it is a link target); or
  - is a link target in a Markdown document ([text](target), resolved from the document's
    folder, as a renderer does); or
  - is a partial path with one of the extensions below whose first component is a folder
    inside the tree (util/utf8.c in the map of core/, jni/nip17.c): it must be the end of
    some tracked path; or
  - is a bare file name (no '/') with one of the extensions .c .h .py .sh .cmake .md .kt
    .mjs, which must then exist beside the mentioning file or be the name of some tracked
    file. Not checked, for either form: a header in angle brackets (<stdint.h>: a system header), a file
    other projects provide (EXTERNAL_NAMES below, CMake package files *Config.cmake and
    *-config.cmake, the NIP documents NN.md of the nostr-protocol/nips repository), and
    a file the tools write into their output folder (GENERATED below).
  Trailing punctuation, a line reference (":35", ":111-138", "#L12") and a Markdown anchor
  are dropped first.

How it resolves. "<placeholder>" (e.g. backends/<name>/backend.cmake) and "*" match one path
component, "**" any number, and "{a,b}" either alternative, so the pattern must match at
least one tracked file or folder (a folder is any prefix of a tracked path). A path with a
trailing '/' must be a folder. A path that does not exist as written is tried once more with
each all-capital component or file stem that names nothing in the tree (NAME, DEST.cmake: a
placeholder in prose; README is not one) as "*".
A file made by CMake from a tracked template X.in (registry.c, softchatConfig.cmake,
backend_caps.h in the build tree) counts as existing.

What is skipped. URLs (a token inside something with "://", or after a host name such as
github.com/), paths with a variable in them ($VAR, ${VAR}, @VAR@, %s), and build outputs: a
path with a component in IGNORED_COMPONENTS (build, BUILD, audit, target, node_modules, ...:
they exist only after a build).
"""
import argparse
import io
import os
import re
import subprocess
import sys
import tokenize

# Components that exist only in build trees, never in the source tree.
IGNORED_COMPONENTS = {"build", "BUILD", "audit", "target", "node_modules", "dist", ".venv",
                      "venv", "__pycache__", ".gradle", "m2"}
# Files other projects provide, named in comments about them (headers of the JDK, cmocka and
# the crypto libraries; mbed TLS's configuration script).
EXTERNAL_NAMES = {"jni.h", "jni_md.h", "cmocka.h", "psa/crypto.h", "mbedtls/version.h",
                  "config.py"}
# Files the project's tools write into an output folder of the caller's choosing.
GENERATED = {"report.md"}
BARE_EXTENSIONS = ("c", "h", "py", "sh", "cmake", "md", "kt", "mjs")

C_LIKE = {"c", "h", "kt", "kts", "java", "mjs", "js", "ts", "rs", "swift", "modulemap", "gradle"}
HASH = {"sh", "py", "cmake", "toml", "pins", "supp", "pro", "yml", "yaml", "bash"}
DOCS = {"md", "txt"}

PATH_CHARS = r"[A-Za-z0-9_.\-<>*{}/]"
TOKEN = re.compile(r"(?:\.\.?/)*[A-Za-z0-9_.\-<>*{][A-Za-z0-9_.\-<>*{},/]*")
MD_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
LINE_REF = re.compile(r"(?::\d+(?:[-,]\d+)*|#L\d+(?:-L?\d+)?)+$")
URL_HOST = re.compile(r"(?:[A-Za-z0-9-]+\.)+(?:com|org|io|net|dev|rs|sh|eu|app)/$")


# ---- reading comments --------------------------------------------------------------------

def kind_of(path, text):
    """The reading rule for a tracked file: 'doc', 'c', 'hash', 'py', 'xml' or None."""
    name = os.path.basename(path)
    if name == "CHANGELOG.md":
        return None
    if name.endswith(".in"):
        name = name[:-3]
    if name == "CMakeLists.txt":
        return "hash"
    ext = name.rsplit(".", 1)[1] if "." in name else ""
    if ext in DOCS:
        return "doc"
    if ext == "py":
        return "py"
    if ext in C_LIKE:
        return "c"
    if ext in HASH:
        return "hash"
    if ext == "xml":
        return "xml"
    if ext == "" and text.startswith("#!"):
        first = text.split("\n", 1)[0]
        return "py" if "python" in first else "hash" if re.search(r"\b(ba|z|da)?sh\b", first) else None
    return None


def c_comments(text):
    """(line, text) for each line of each comment of a C-like source."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for k, part in enumerate(text[i + 2:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i + 2:end]))
            i = end
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """(line, text) for '#' comments: from a '#' that starts a line or follows a blank,
    outside quotes, to the end of the line."""
    out = []
    for no, raw in enumerate(text.split("\n"), 1):
        q = None
        for k, ch in enumerate(raw):
            if q:
                if ch == q:
                    q = None
            elif ch in "\"'" and not (ch == "'" and k > 0 and raw[k - 1].isalnum()):
                q = ch
            elif ch == "#" and (k == 0 or raw[k - 1] in " \t"):
                out.append((no, raw[k + 1:]))
                break
    return out


def python_comments(text):
    """(line, text) for the comments and the docstrings (a string that is a statement of its
    own) of a Python source, by its own tokenizer."""
    out = []
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return hash_comments(text)
    starts = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)
    for k, t in enumerate(toks):
        if t.type == tokenize.COMMENT:
            out.append((t.start[0], t.string[1:]))
        elif (t.type == tokenize.STRING and (k == 0 or toks[k - 1].type in starts) and
              k + 1 < len(toks) and toks[k + 1].type in (tokenize.NEWLINE, tokenize.ENDMARKER)):
            for j, part in enumerate(t.string.split("\n")):
                out.append((t.start[0] + j, part))
    return out


def xml_comments(text):
    out = []
    for m in re.finditer(r"<!--(.*?)-->", text, re.S):
        line = text.count("\n", 0, m.start()) + 1
        for k, part in enumerate(m.group(1).split("\n")):
            out.append((line + k, part))
    return out


def readable(path, text):
    """(line, text, is_markdown) for the parts of a file that are comments or documents."""
    kind = kind_of(path, text)
    if kind == "doc":
        md = path.endswith(".md")
        return [(no, line, md) for no, line in enumerate(text.split("\n"), 1)]
    if kind == "c":
        return [(no, t, False) for no, t in c_comments(text)]
    if kind == "hash":
        return [(no, t, False) for no, t in hash_comments(text)]
    if kind == "py":
        return [(no, t, False) for no, t in python_comments(text)]
    if kind == "xml":
        return [(no, t, False) for no, t in xml_comments(text)]
    return []


# ---- the tree and matching -----------------------------------------------------------------

class Tree:
    def __init__(self, files):
        self.files = set(files)
        self.dirs = set()
        for f in files:
            parts = f.split("/")
            for k in range(1, len(parts)):
                self.dirs.add("/".join(parts[:k]))
        self.top = {f.split("/")[0] for f in files}
        self.basenames = {}
        for f in files:
            self.basenames.setdefault(os.path.basename(f), []).append(f)
        self.templates = {os.path.basename(f)[:-3] for f in files if f.endswith(".in")}
        self.inner = {d.split("/")[-1] for d in self.dirs if "/" in d}
        self.stems = {p.split("/")[-1].split(".")[0] for p in self.files | self.dirs}

    def exists(self, path, want_dir):
        if self.match(path, want_dir):
            return True
        if not want_dir and os.path.basename(path) in self.templates:
            return True
        caps = "/".join(re.sub(r"^[A-Z][A-Z_]*[A-Z](?=\.[a-z]+$|$)",
                               lambda m: m.group(0) if m.group(0) in self.stems else "*", c)
                        for c in path.split("/"))
        return caps != path and self.match(caps, want_dir)

    def match(self, path, want_dir):
        if any(c in path for c in "<>*{"):
            rx = pattern(path)
            pool = self.dirs if want_dir else self.files | self.dirs
            return any(rx.fullmatch(p) for p in pool)
        if want_dir:
            return path in self.dirs
        return path in self.files or path in self.dirs


def expand_braces(p):
    m = re.search(r"\{([^{}]*)\}", p)
    if not m:
        return [p]
    out = []
    for alt in m.group(1).split(","):
        out.extend(expand_braces(p[:m.start()] + alt + p[m.end():]))
    return out


def pattern(p):
    alts = []
    for q in expand_braces(p):
        rx, i = "", 0
        while i < len(q):
            if q.startswith("**", i):
                rx += ".*"
                i += 2
            elif q[i] == "*":
                rx += "[^/]*"
                i += 1
            elif q[i] == "<":
                j = q.find(">", i)
                if j < 0:
                    rx += re.escape(q[i:])
                    break
                rx += "[^/]+"
                i = j + 1
            else:
                rx += re.escape(q[i])
                i += 1
        alts.append(rx)
    return re.compile("|".join("(?:%s)" % a for a in alts))


def normalise(base, rel):
    parts = []
    for c in (base.split("/") if base else []) + rel.split("/"):
        if c in ("", "."):
            continue
        if c == "..":
            if not parts:
                return None  # above the repository
            parts.pop()
        else:
            parts.append(c)
    return "/".join(parts)


def clean(tok):
    """The token without trailing punctuation and line references."""
    before = None
    while tok != before:
        before = tok
        tok = LINE_REF.sub("", tok).rstrip(".,;:)'\"`!?")
    if tok.count("{") != tok.count("}"):
        tok = tok.split("{")[0] if tok.count("{") > tok.count("}") else tok
    if tok.count("<") != tok.count(">"):
        return ""
    return tok


def skipped(tok, line, start):
    before = line[:start]
    if "://" in line[max(0, start - 200):start + len(tok)] and re.search(r"\S*://\S*$", before):
        return True
    if URL_HOST.search(before) or before.endswith("@") or before.endswith("~/"):
        return True
    if re.search(r"[$%@]", tok) or re.search(r"[$%]\{?[A-Za-z_]*$", before):
        return True
    return any(c in IGNORED_COMPONENTS for c in tok.split("/"))


def candidates(path, no, line, md, tree):
    """(line, shown path, resolved path or None, want_dir) for each path named in line."""
    found = []
    here = os.path.dirname(path)
    taken = []
    if md:
        for m in MD_LINK.finditer(line):
            target = m.group(1).split("#")[0]
            taken.append((m.start(1), m.end(1)))
            if not target or re.match(r"[a-z]+:", target) or target.startswith("/"):
                continue
            t = clean(target)
            if t and not skipped(t, line, m.start(1)):
                found.append((no, t, normalise(here, t.rstrip("/")), t.endswith("/")))
    for m in TOKEN.finditer(line):
        if any(a <= m.start() < b for a, b in taken):
            continue
        if m.start() > 0 and re.match(PATH_CHARS, line[m.start() - 1]):
            continue
        tok = clean(m.group(0))
        if not tok or skipped(tok, line, m.start()):
            continue
        if tok.startswith(("./", "../")):
            if not md:
                found.append((no, tok, normalise(here, tok.rstrip("/")), tok.endswith("/")))
            continue
        first = tok.split("/")[0]
        if "/" in tok and first in tree.top:
            found.append((no, tok, tok.rstrip("/"), tok.endswith("/")))
        elif ("/" in tok and first in tree.inner and re.fullmatch(
                r"[^ ]+\.(%s)" % "|".join(BARE_EXTENSIONS), tok)):
            if tok in EXTERNAL_NAMES or line[:m.start()].endswith("<"):
                continue
            found.append((no, tok, "**/" + tok, False))
        elif "/" not in tok and re.fullmatch(
                r"[A-Za-z0-9_\-.]+\.(%s)" % "|".join(BARE_EXTENSIONS), tok):
            if (tok in EXTERNAL_NAMES or tok in GENERATED or line[:m.start()].endswith("<") or
                    re.fullmatch(r"\d+\.md|.+(Config|-config)\.cmake", tok)):
                continue
            if tok in tree.basenames or normalise(here, tok) in tree.files:
                continue
            found.append((no, tok, "**/" + tok, False))
    return found


def check(files, texts, listing=None):
    tree = Tree(files)
    problems = []
    for f in files:
        text = texts(f)
        if text is None:
            continue
        for no, line, md in readable(f, text):
            for lno, shown, resolved, want_dir in candidates(f, no, line, md, tree):
                ok = resolved is not None and tree.exists(resolved, want_dir)
                if listing is not None:
                    listing.append("%s:%d: %s %s" % (f, lno, shown, "ok" if ok else "MISSING"))
                if not ok:
                    problems.append("%s:%d: %s" % (f, lno, shown))
    return problems


# ---- self-test ---------------------------------------------------------------------------

SELF_TREE = ["core/util/base64.c", "core/nip44/nip44.c", "core/nip44/nip44_internal.h",
             "backends/openssl/backend.cmake", "backends/sodium/backend.cmake",
             "tests/docs/check_headers.py", "docs/api.md", "README.md", "scripts/test.sh"]
SELF_GOOD = {
    "core/nip44/ok.c": "/* see core/util/base64.c:35 and nip44_internal.h, <stdint.h>,\n"
                       " * backends/<name>/backend.cmake, core/{util,nip44}/, core/nip44/*.c,\n"
                       " * https://github.com/x/y/blob/main/core/gone.c, build/t/core/gone.c,\n"
                       " * ${SRC}/core/gone.c and README.md; util/base64.c, <psa/crypto.h>. */\n"
                       "const char *s = \"core/gone.c\"; // scripts/test.sh\n",
    "docs/ok.md": "See [the API](api.md), [readme](../README.md#top) and `tests/docs/check_headers.py`.\n",
    "scripts/ok.sh": "#!/bin/sh\n# runs tests/docs/check_headers.py\necho \"core/gone.c\" # ./test.sh\n",
    "tests/docs/ok.py": "\"\"\"Checks docs/api.md.\"\"\"\nx = 'core/gone.c'  # ../../README.md\n",
    "CHANGELOG.md": "- moved core/base64.c to core/util/base64.c\n",
}
SELF_BAD = {
    "core/util/bad.c": ("/* Shared by core/base64.c and core/base64_simd.c. */\n", ["core/base64.c",
                                                                                   "core/base64_simd.c"]),
    "core/util/bad2.h": ("// tests/check-headers.py enforces this\n", ["tests/check-headers.py"]),
    "core/util/bad3.c": ("/* see gone_helper.c, backends/<name>/missing.cmake, util/gone.c */\n",
                         ["gone_helper.c", "backends/<name>/missing.cmake", "util/gone.c"]),
    "docs/bad.md": ("Read [the API](docs/api.md) and `scripts/gone.sh`; core/nip44/ is fine,"
                    " core/nip99/ is not.\n", ["docs/api.md", "scripts/gone.sh", "core/nip99/"]),
    "scripts/bad.sh": ("#!/bin/sh\n# see scripts/gone.sh and docs/README, not docs/NAME.md\n",
                       ["scripts/gone.sh", "docs/README"]),
    "tests/docs/bad.py": ("\"\"\"Checks docs/gone.md.\"\"\"\n# ../../core/nip44/nip45.c\n",
                          ["docs/gone.md", "../../core/nip44/nip45.c"]),
}


def self_test():
    failures = []
    texts = dict(SELF_GOOD)
    texts.update({k: v[0] for k, v in SELF_BAD.items()})
    files = SELF_TREE + list(texts)
    got = check(files, lambda f: texts.get(f, ""))
    for f in SELF_GOOD:
        for p in got:
            if p.startswith(f + ":"):
                failures.append("reported in a good input: " + p)
    for f, (_, want) in SELF_BAD.items():
        mine = [p.split(": ", 1)[1] for p in got if p.startswith(f + ":")]
        for w in want:
            if w not in mine:
                failures.append("not reported: %s in %s (got %s)" % (w, f, mine))
    for msg in failures:
        print("check_paths self-test: " + msg, file=sys.stderr)
    if not failures:
        print("check_paths self-test: %d known-bad paths reported, %d good inputs clean"
              % (sum(len(v[1]) for v in SELF_BAD.values()), len(SELF_GOOD)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", ".."))
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.abspath(args.root)
    files = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                           stdout=subprocess.PIPE).stdout.decode().split("\0")
    files = [f for f in files if f and os.path.isfile(os.path.join(root, f))]

    def texts(f):
        try:
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                return fh.read()
        except (UnicodeDecodeError, OSError):
            return None

    listing = [] if args.list else None
    problems = check(files, texts, listing)
    if listing is not None:
        print("\n".join(listing))
    for p in problems:
        print(p)
    if problems:
        print("check_paths: %d path(s) named in comments or documents do not exist"
              % len(problems), file=sys.stderr)
        return 1
    print("check_paths: every path named in %d tracked files exists" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
