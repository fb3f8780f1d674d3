"""The web section of the audit: the npm package (bindings/js) against nostr-tools 2.25 and
rust-nostr's wasm in Node and headless Chromium. bindings/js/build.sh builds the package,
bindings/js/bench/run.mjs measures into OUT/web/records.json (the benchmark contract:
separate processes and pages, interleaved pairs), and bindings/js/bench/report.mjs writes the
section with the paired verdicts, the targets (met or missed), the sizes and the boundary's
cost; its --targets JSON gives the count of missed targets for the summary."""
import json
import os
import subprocess

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def run(src, out_dir, quick):
    """Builds the package and measures it into OUT/web; a failure is written to
    web/failure.txt. Returns True when it ran."""
    wdir = os.path.join(out_dir, "web")
    os.makedirs(wdir, exist_ok=True)
    failure = os.path.join(wdir, "failure.txt")
    steps = [[os.path.join(src, "bindings/js/build.sh")],
             ["node", os.path.join(src, "bindings/js/bench/run.mjs")]
             + (["--smoke"] if quick else []) + ["--out", os.path.join(wdir, "records.json")]]
    with open(os.path.join(wdir, "run.log"), "w") as log:
        for cmd in steps:
            rc = subprocess.call(cmd, cwd=src, stdout=log, stderr=subprocess.STDOUT)
            if rc != 0:
                with open(failure, "w") as f:
                    f.write(f"{os.path.relpath(cmd[-1] if cmd[0] != 'node' else cmd[1], src)} "
                            f"exited with status {rc} (log: web/run.log)\n")
                return False
    if os.path.exists(failure):
        os.remove(failure)
    return True


def section(out_dir):
    """(the web section's markdown, the web targets missed or not measured)."""
    out = ["\n## Web: the npm package in Node and headless Chromium\n\n"]
    wdir = os.path.join(out_dir, "web")
    records = os.path.join(wdir, "records.json")
    try:
        with open(os.path.join(wdir, "failure.txt"), encoding="utf-8") as f:
            out.append(f"Not measured: {f.read()}")
            return "".join(out), 1
    except OSError:
        pass
    if not os.path.exists(records):
        out.append("Not measured: web/records.json is missing.\n")
        return "".join(out), 1
    targets = os.path.join(wdir, "targets.json")
    p = subprocess.run(["node", os.path.join(SRC, "bindings/js/bench/report.mjs"), records,
                        "--targets", targets], capture_output=True, text=True)
    if p.returncode != 0:
        out.append(f"Not reported: bindings/js/bench/report.mjs exited with status "
                   f"{p.returncode}: {p.stderr.strip()[:400]}\n")
        return "".join(out), 1
    # its headings one level down, under this section's
    out.append("".join(("#" + line if line.startswith("#") else line)
                       for line in p.stdout.splitlines(keepends=True)))
    try:
        with open(targets, encoding="utf-8") as f:
            missed = sum(1 for t in json.load(f) if not t.get("met"))
    except (OSError, ValueError):
        missed = 1
    return "".join(out), missed
