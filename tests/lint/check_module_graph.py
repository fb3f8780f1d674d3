#!/usr/bin/env python3
"""The dependency graph of core/, and a check that it has no loops.

Usage: tests/lint/check_module_graph.py [--root DIR] [--graph] [--strict]

A file depends on another when it includes it ("area/x.h") or calls a function the other
defines (a non-static sc_* function defined in a core/ .c file). A folder of core/ depends on
another when one of its files does. Reports:
  - every loop between folders (e.g. ctx -> crypto -> ctx), and every header that declares
    a function defined in another folder (a declaration away from its definition): either
    fails the check;
  - every loop between files (e.g. event.c -> event_json.c -> event.c): printed, and failing
    only with --strict.
--graph also prints the folder graph, each edge with the files that make it. Exits 0 or 1.
Python 3 standard library only; the parsing is lexical (comments and strings blanked, then
regular expressions), which is enough for the project's one-definition-per-line style.
"""
import argparse
import collections
import os
import re
import sys

DEF = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(sc_\w+)\s*\([^;{]*?\)\s*\{", re.M)
DECL = re.compile(r"^(?!static\b|#)[A-Za-z_][\w \*]*?\b(sc_\w+)\s*\([^;{]*?\)[^;{]*;", re.M)
CALL = re.compile(r"\b(sc_\w+)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def strip(src):
    src = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src, flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', src)


def folder(f):
    return f.split("/")[0] if "/" in f else "."


def loops(edges):
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = sorted(set(edges) | {b for bs in edges.values() for b in bs})

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def analyse(core):
    files = []
    for d, _, fs in os.walk(core):
        files += [os.path.relpath(os.path.join(d, f), core) for f in fs if f.endswith((".c", ".h"))]
    raw = {f: open(os.path.join(core, f), encoding="utf-8").read() for f in files}
    text = {f: strip(raw[f]) for f in files}
    defined = {}
    declared = collections.defaultdict(set)
    for f, s in text.items():
        if f.endswith(".c"):
            for m in DEF.finditer(s):
                defined[m.group(1)] = f
        else:
            for m in DECL.finditer(s):
                declared[m.group(1)].add(f)
    edges, why = collections.defaultdict(set), collections.defaultdict(set)
    for f in files:
        for m in INCLUDE.finditer(raw[f]):
            if m.group(1) in raw and m.group(1) != f:
                edges[f].add(m.group(1))
                why[(f, m.group(1))].add("#include")
        if f.endswith(".c"):
            for m in CALL.finditer(text[f]):
                g = defined.get(m.group(1))
                if g and g != f:
                    edges[f].add(g)
                    why[(f, g)].add(m.group(1))
    folders, folder_why = collections.defaultdict(set), collections.defaultdict(set)
    for a, bs in edges.items():
        for b in bs:
            if folder(a) != folder(b):
                folders[folder(a)].add(folder(b))
                folder_why[(folder(a), folder(b))].add("%s -> %s" % (a, b))
    away = sorted((h, n, defined[n]) for n, hs in declared.items() for h in hs
                  if n in defined and folder(h) != folder(defined[n]))
    return edges, why, folders, folder_why, away


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", ".."))
    ap.add_argument("--graph", action="store_true")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    edges, why, folders, folder_why, away = analyse(os.path.join(args.root, "core"))
    if args.graph:
        print("core/ folders and the folders they depend on:")
        for a in sorted(folders):
            print("  %-11s -> %s" % (a, ", ".join(sorted(folders[a]))))
            for b in sorted(folders[a]):
                print("      %s: %s" % (b, "; ".join(sorted(folder_why[(a, b)]))))
    failed = False
    for comp in loops(folders):
        failed = True
        print("loop between folders of core/: %s" % " <-> ".join(comp))
        for a in comp:
            for b in comp:
                if (a, b) in folder_why:
                    print("    %s -> %s: %s" % (a, b, "; ".join(sorted(folder_why[(a, b)]))))
    for h, n, d in away:
        failed = True
        print("core/%s declares %s, defined in another folder (core/%s)" % (h, n, d))
    file_loops = loops(edges)
    for comp in file_loops:
        failed = failed or args.strict
        print("loop between files of core/: %s" % " <-> ".join(comp))
        for a in comp:
            for b in comp:
                if b in edges.get(a, ()):
                    print("    %s -> %s: %s" % (a, b, ", ".join(sorted(why[(a, b)]))))
    if failed:
        return 1
    print("check_module_graph: %d folders of core/, no loop between them%s" % (
        len(set(folders) | {b for bs in folders.values() for b in bs}),
        ", none between files" if not file_loops else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
