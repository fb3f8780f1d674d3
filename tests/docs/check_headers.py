#!/usr/bin/env python3
"""The header contract check: every function a public header exports (SC_API) has a doc block
that states what common.h's rule 13 asks for, and docs/api.md names it.

  check_headers.py API_DIR API_MD [LIBRARY]

For each SC_API function of API_DIR/softchat/*.h the block right above it must contain:
  Returns:        for every function that returns a value (sc_status, a size, a pointer, int)
  In: / In/Out:   when it takes parameters (Out: alone is enough when it only writes)
  Out:            when it writes through a non-const pointer (other than a context or state
                  object it takes first), unless In/Out: covers it
  Constant time:  for every function taking a parameter that may hold a secret, i.e. every
                  function but the size, name and version queries (a block may say "n/a")
  RNG:            for every function that takes an sc_ctx (the RNG lives in the context) or
                  returns an sc_status
and every status a block names must exist in status.h. With LIBRARY (a shared library), the
exported sc_* symbols must be exactly the SC_API functions of the headers.
Exit status: 0 when everything holds; 1 with one line per problem otherwise.
"""
import os
import re
import subprocess
import sys


def strip_comments_keep_docs(text):
    return text


def declarations(path):
    """Yields (name, return type, params, doc) for each SC_API function of a header."""
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"SC_API\s+([^;{]*?)\b(sc_[a-z0-9_]+)\s*\(([^;]*?)\)\s*(?:SC_NONNULL\([^)]*\))?\s*;",
                         text, re.S):
        ret = " ".join(m.group(1).replace("SC_WARN_UNUSED", "").split())
        name = m.group(2)
        params = " ".join(m.group(3).split())
        # the doc block: the last /** ... */ that ends right before this declaration
        before = text[:m.start()]
        end = before.rstrip()
        doc = ""
        if end.endswith("*/"):
            start = end.rfind("/**")
            if start >= 0 and "*/" not in end[start:-2]:
                doc = end[start:]
        # a declaration may share the block above it with its sibling (one block, two decls)
        if not doc:
            prev = re.search(r"/\*\*(?:(?!\*/).)*\*/\s*(?:SC_API[^;]*;\s*)+$", before, re.S)
            if prev:
                doc = prev.group(0)
        yield name, ret, params, doc


def split_params(params):
    if params.strip() in ("", "void"):
        return []
    out, depth, cur = [], 0, ""
    for c in params:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return out


def is_output(p, first):
    """A non-const pointer or array parameter (an output), not the context/state taken first."""
    if p.startswith("const ") or "*" not in p and "[" not in p:
        return False
    if first and re.match(r"(sc_ctx|sc_file_enc|sc_file_dec|sc_event_builder)\s*\*", p):
        return False
    return True


QUERY = re.compile(r"_(len|max|bytes)$|^sc_(status_str|status_name|version|version_secp256k1|"
                   r"backend_(count|at|default|find|group_name|cap_name|group_lib)|nip19_prefix|"
                   r"ctx_backend)$")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    api_dir, api_md = sys.argv[1], sys.argv[2]
    lib = sys.argv[3] if len(sys.argv) > 3 else None
    hdr_dir = os.path.join(api_dir, "softchat")
    statuses = set(re.findall(r"\b(SC_(?:OK|ERR_[A-Z0-9_]+))\b",
                              open(os.path.join(hdr_dir, "status.h"), encoding="utf-8").read()))
    md = open(api_md, encoding="utf-8").read()
    problems, names = [], set()
    for h in sorted(os.listdir(hdr_dir)):
        if not h.endswith(".h"):
            continue
        for name, ret, params, doc in declarations(os.path.join(hdr_dir, h)):
            names.add(name)
            where = "%s: %s" % (h, name)
            ps = split_params(params)
            if not doc:
                problems.append(where + ": no doc block")
                continue
            returns_value = ret != "void"
            if returns_value and "Returns:" not in doc:
                problems.append(where + ": no Returns:")
            if ps and not re.search(r"\bIn(/Out)?:", doc) and not (
                    all(is_output(p, i == 0) for i, p in enumerate(ps)) and "Out:" in doc):
                if not QUERY.search(name):
                    problems.append(where + ": no In: (or In/Out:)")
            outs = [p for i, p in enumerate(ps) if is_output(p, i == 0)]
            if outs and "Out:" not in doc:
                problems.append(where + ": writes through %s but has no Out:" % outs[0])
            if not QUERY.search(name) and "Constant time" not in doc:
                problems.append(where + ": no Constant time statement")
            takes_ctx = any(re.match(r"(const )?sc_ctx\s*\*", p) for p in ps)
            if (takes_ctx or ret == "sc_status") and not QUERY.search(name) and "RNG" not in doc:
                problems.append(where + ": no RNG statement")
            for s in re.findall(r"\b(SC_(?:OK|ERR_[A-Z0-9_]+))\b", doc):
                if s not in statuses:
                    problems.append(where + ": names %s, which status.h does not define" % s)
            if not re.search(r"`?\b%s\b" % re.escape(name), md):
                problems.append(where + ": missing from %s" % os.path.basename(api_md))
    if lib:
        out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True,
                             check=True).stdout
        exported = {l.split()[-1] for l in out.splitlines() if l.split()[-1].startswith("sc_")}
        for n in sorted(exported - names):
            problems.append("%s exports %s, which no public header declares" % (lib, n))
        for n in sorted(names - exported):
            problems.append("%s does not export %s, which a header declares" % (lib, n))
    for p in problems:
        print("check-headers: " + p)
    print("check-headers: %d functions, %d problems" % (len(names), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
