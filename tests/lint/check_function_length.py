#!/usr/bin/env python3
"""Reports C functions longer than 80 lines that do not say why they must be one.

Usage: tests/lint/check_function_length.py [--root DIR] [--max N] [--self-test] [PATH...]

Reads the tracked *.c files under core/, cli/ and bindings/ (or the PATHs given: files or
folders), finds every function definition and reports those longer than --max lines (80)
as FILE:LINE: NAME: N lines. Exits 1 if there is one, else 0. --self-test checks the rules on
known inputs. Python 3 standard library only.

A function's length is counted from the first line of its declaration (the return type) to
its closing brace, both included; comments and blank lines inside count too.

The marker. A function over the limit passes when the comment right above it (between it
and the previous declaration) contains "kept whole:" or "one function:" followed by the
reason, e.g.

    /* Kept whole: the five states of a round share one loop, and splitting it would pass
     * them all to each piece. */
    static sc_status run_ranges(...)

How definitions are found. Comments, string and character literals and preprocessor lines
are blanked first; a function definition is a brace block at file level whose header (the
text since the previous ';', '}' or blank-out) ends with a ')' (attributes after it
allowed) and is not an initializer ('=') or a struct, union or enum body.
"""
import argparse
import os
import re
import subprocess
import sys

DEFAULT_DIRS = ("core", "cli", "bindings")
MARKER = re.compile(r"\b(kept whole|one function)\s*:", re.I)


def blank(text):
    """text with comments, literals and preprocessor lines replaced by spaces (newlines kept),
    and the list of (start, end) offsets of the comments."""
    out, comments = [], []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        ch = text[i]
        if at_line_start and ch == "#" or (at_line_start and ch in " \t" and
                                           text[i:].lstrip(" \t").startswith("#")):
            end = i
            while True:  # a directive, with its continuation lines
                nl = text.find("\n", end)
                if nl < 0:
                    end = n
                    break
                if text[nl - 1] != "\\":
                    end = nl
                    break
                end = nl + 1
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            comments.append((i, end))
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            at_line_start = False
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            comments.append((i, end))
            out.append(" " * (end - i))
            i = end
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(ch + " " * (j - i - 1) + (ch if j < n else ""))
            i = j + 1
            at_line_start = False
            continue
        out.append(ch)
        if ch == "\n":
            at_line_start = True
        elif ch not in " \t":
            at_line_start = False
        i += 1
    return "".join(out), comments


def functions(text):
    """(name, first line, last line, marked) for each function defined in C source text."""
    code, comments = blank(text)
    found = []
    depth, head_start, i = 0, 0, 0
    while i < len(code):
        ch = code[i]
        if depth == 0 and ch in ";":
            head_start = i + 1
        elif ch == "{":
            if depth == 0:
                header = code[head_start:i]
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                h = header.strip()
                m = re.search(r"\b([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)\s*"
                              r"(?:__attribute__\s*\(\(.*\)\)\s*|[A-Z_]+\s*(?:\([^()]*\))?\s*)*$",
                              h, re.S)
                if m and "=" not in h and not re.match(r"(typedef\s+)?(struct|union|enum)\b",
                                                       h) and m.group(1) not in (
                                                           "if", "for", "while", "switch"):
                    lead = len(header) - len(header.lstrip())
                    start = head_start + lead
                    first = text.count("\n", 0, start) + 1
                    last = text.count("\n", 0, i) + 1
                    above = [c for c in comments if c[0] >= head_start and c[1] <= start]
                    marked = any(MARKER.search(text[a:b]) for a, b in above)
                    found.append((m.group(1), first, last, marked))
                head_start = i + 1
        i += 1
    return found


def offenders(path, text, limit):
    out = []
    for name, first, last, marked in functions(text):
        n = last - first + 1
        if n > limit and not marked:
            out.append("%s:%d: %s: %d lines" % (path, first, name, n))
    return out


SELF = '''/* a file */
#include <stdio.h>
#define X(a) \\
    { a }

static const int table[] = {1, 2, 3};

struct s {
    int a;
};

/* short */
static int small(int a)
{
    return a;
}

/* Kept whole: the reason. */
static int marked(void)
{
%s}

int __attribute__((unused)) long_one(const char *s, int (*cb)(int))
{
    const char *q = "}{";
%s    return 0;
}
'''


def self_test():
    body = "    x();\n" * 85
    text = SELF % (body, body)
    got = functions(text)
    names = {g[0]: g for g in got}
    failures = []
    if set(names) != {"small", "marked", "long_one"}:
        failures.append("functions found: %s" % sorted(names))
    bad = offenders("t.c", text, 80)
    if len(bad) != 1 or ": long_one: 90 lines" not in bad[0]:
        failures.append("offenders: %s" % bad)
    for f in failures:
        print("check_function_length self-test: " + f, file=sys.stderr)
    if not failures:
        print("check_function_length self-test: a long function reported, a marked one and "
              "short ones not")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", ".."))
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.abspath(args.root)
    files = subprocess.run(["git", "-C", root, "ls-files", "-z", "--"] +
                           (args.paths or list(DEFAULT_DIRS)), check=True,
                           stdout=subprocess.PIPE).stdout.decode().split("\0")
    files = sorted(f for f in files if f.endswith(".c"))
    problems = []
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            problems += offenders(f, fh.read(), args.max)
    for p in problems:
        print(p)
    if problems:
        print("check_function_length: %d function(s) over %d lines without a 'kept whole:' "
              "comment" % (len(problems), args.max), file=sys.stderr)
        return 1
    print("check_function_length: no function over %d lines in %d files without a reason"
          % (args.max, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
