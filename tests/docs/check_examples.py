#!/usr/bin/env python3
"""docs/api.md shows the worked examples as they are compiled and run by the suite.

  check_examples.py API_MD EXAMPLES_DIR

Each marker line `<!-- example: FILE REGION -->` in API_MD must be followed by a ```c block
whose text equals the lines between `/* api.md: begin REGION */` and `/* api.md: end REGION */`
of EXAMPLES_DIR/FILE (with their common indentation removed). Every region of every example
must be shown. Exit status 0 when all match; 1 with a line per difference otherwise.
"""
import os
import re
import sys
import textwrap


def regions(path):
    text = open(path, encoding="utf-8").read()
    out = {}
    for m in re.finditer(r"^[ \t]*/\* api\.md: begin (\w+) \*/\n(.*?)^[ \t]*/\* api\.md: end \1 \*/",
                         text, re.S | re.M):
        out[m.group(1)] = textwrap.dedent(m.group(2)).rstrip("\n")
    return out


def main():
    md_path, ex_dir = sys.argv[1], sys.argv[2]
    md = open(md_path, encoding="utf-8").read()
    problems, shown = [], set()
    for m in re.finditer(r"<!-- example: (\S+) (\w+) -->\n```c\n(.*?)\n```", md, re.S):
        f, region, block = m.group(1), m.group(2), m.group(3)
        path = os.path.join(ex_dir, f)
        if not os.path.exists(path):
            problems.append("%s: no such example" % f)
            continue
        want = regions(path).get(region)
        if want is None:
            problems.append("%s: no region %s" % (f, region))
        elif want != block:
            problems.append("%s %s: api.md differs from the example (copy the region again)" %
                            (f, region))
        shown.add((f, region))
    for f in sorted(os.listdir(ex_dir)):
        if f.endswith(".c"):
            for r in regions(os.path.join(ex_dir, f)):
                if (f, r) not in shown:
                    problems.append("%s %s: region not shown in api.md" % (f, r))
    for p in problems:
        print("check-examples: " + p)
    print("check-examples: %d regions shown, %d problems" % (len(shown), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
