"""The performance audit, the main job of scripts/run.sh (docs/benchmarks.md, "The audit").
It decides what runs: the builds (builds.py), the self-test and the conformance suites, the
benchmark of every backend with its floors, the comparison (our default build, the other
builds and the peers in interleaved pairs of processes: lanes.py; softchat-bench measures
them), the JVM benchmarks and the footprint; then it writes OUT/report.md with its charts
(render.py). softchat-bench only measures and records.

With --quick, a first answer in a few minutes instead: the default build (without tests), then
our default backend against rust-nostr and nostr-tools on the shared operations, in
interleaved pairs, and the headline table of verdicts (OUT/quick.md, and on stdout).

Usage: scripts/run.sh [OUT_DIR] [options]   (python3 scripts/audit [OUT_DIR] [options])"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import builds  # noqa: E402
import conformance  # noqa: E402
import footprint  # noqa: E402
import jvm  # noqa: E402
import web  # noqa: E402
import lanes as L  # noqa: E402
import records  # noqa: E402
import render  # noqa: E402

INTERLEAVED = "scripts/run.sh: the comparison, its processes interleaved with libsoftchat's"


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="scripts/run.sh",
        description="Builds, measures and writes OUT_DIR/report.md (docs/benchmarks.md).")
    p.add_argument("out", nargs="?", metavar="OUT_DIR",
                   help="where the report and the records go (default: audit, with --quick "
                        "audit/quick)")
    p.add_argument("--quick", action="store_true",
                   help="the headline only: the default build against rust-nostr and "
                        "nostr-tools on the shared operations, with verdicts (a few minutes)")
    p.add_argument("--runs", type=int, default=3, choices=range(1, 17), metavar="N",
                   help="independent processes per configuration in the benchmark of every "
                        "backend (1..16, default 3)")
    p.add_argument("--pairs", type=int, default=9, choices=range(1, 17), metavar="N",
                   help="interleaved pairs of processes per row in the comparison with the "
                        "other builds and the peers (1..16, default 9; 6 at least for a 95 %% "
                        "interval)")
    p.add_argument("--only", metavar="OP[,OP...]",
                   help="those operations only (a focused audit; the floors are all measured)")
    p.add_argument("--clock", choices=("wall", "cpu", "auto"),
                   default=os.environ.get("SOFTCHAT_AUDIT_CLOCK", "auto"),
                   help="what samples are timed with (softchat-bench run --clock); auto: cpu "
                        "when the machine is busy with other work at the start, else wall "
                        "(default $SOFTCHAT_AUDIT_CLOCK, else auto)")
    p.add_argument("--no-peers", action="store_true",
                   help="no comparison: measure no peer and no other build")
    p.add_argument("--jvm", choices=("full", "quick", "off"), default="full",
                   help="the Kotlin facade under JMH (quick: the CI smoke profile)")
    p.add_argument("--web", choices=("full", "quick", "off"), default="full",
                   help="the npm package against nostr-tools and rust-nostr's wasm in Node and "
                        "headless Chromium (quick: the smoke profile)")
    p.add_argument("--jvm-only", action="store_true",
                   help="run and report the JVM benchmarks alone")
    p.add_argument("--build-dir", metavar="DIR",
                   help="an existing build to measure and test instead of build/release (no "
                        "builds)")
    p.add_argument("--no-build", action="store_true",
                   help="use the build directories as they are (skip configure and build)")
    p.add_argument("--report-only", action="store_true",
                   help="write the report again from the records in OUT_DIR")
    o = p.parse_args(argv)
    if o.out is None:
        o.out = "audit/quick" if o.quick else "audit"
    return o


T0 = time.time()


def step(n, total, what):
    print(f"[{n}/{total}] {what} ({time.time() - T0:.0f} s)", file=sys.stderr, flush=True)


def pick_clock(choice):
    """(clock, why): auto is cpu when the machine is busy with other work at the start (its
    1-minute load average at least half a core), else wall."""
    if choice != "auto":
        return choice, "asked for"
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    busy = load >= 0.5
    return ("cpu" if busy else "wall"), (
        f"auto: load average {load:.2f} on {cores} cores at the start, "
        f"{'a machine shared with other work' if busy else 'a quiet machine'}")


class Run:
    """One audit: its options, directories and what it has learnt so far (the state that
    render.py reads back from audit.json)."""

    def __init__(self, o):
        self.o = o
        self.out = o.out
        os.makedirs(os.path.join(self.out, "peers"), exist_ok=True)
        self.main = (os.path.abspath(o.build_dir) if o.build_dir
                     else os.path.join(SRC, "build/quick" if o.quick else "build/release"))
        self.bench = os.path.join(self.main, "bench/softchat-bench")
        self.clock, why = pick_clock(o.clock)
        self.state = {"mode": "quick" if o.quick else "full", "clock": self.clock,
                      "clock_note": why, "runs": o.runs}
        self.default_backend = None
        self.lanes = []  # (label, argv, owner: a build's or a peer's name) measured beside ours

    def measure(self, path, backend="all", lanes=(), only=None, floors=True, runs=None):
        """softchat-bench run into path (its table on stdout is dropped). Returns the record,
        or None when none was written."""
        cmd = [self.bench, "run", "--backend", backend, "--runs", str(runs or self.o.runs),
               "--clock", self.clock, "--json", path]
        if lanes:
            lf = os.path.join(self.out, "lanes.tsv")
            L.write_file(lf, lanes)
            cmd += ["--lanes", lf]
        if only:
            cmd += ["--only", only]
        if not floors:
            cmd += ["--no-floors"]
        subprocess.run(cmd, stdout=subprocess.DEVNULL)
        try:
            return records.load(path)
        except (OSError, ValueError):
            return None


def selftest(r):
    cli = os.path.join(r.main, "cli/softchat")
    path = os.path.join(r.out, "selftest.txt")
    if not os.access(cli, os.X_OK):
        r.state["selftest_failure"] = f"Not run: {cli} is not built.\n"
        if os.path.exists(path):
            os.remove(path)
        return
    p = subprocess.run([cli, "selftest"], capture_output=True, text=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(p.stdout)
    sys.stderr.write(render.selftest_lines(p.stdout))


def run_conformance(r):
    """ctest -V of the conformance suites in the main build, its output kept for the report."""
    log = os.path.join(r.out, "conformance.log")
    if not os.access(os.path.join(r.main, "CTestTestfile.cmake"), os.R_OK):
        r.state["conformance_failure"] = (f"Not run: {r.main} is not a build directory with "
                                          "tests (--build-dir).")
        if os.path.exists(log):
            os.remove(log)
        return
    with open(log, "w", encoding="utf-8") as f:
        rc = subprocess.call(["ctest", "--test-dir", r.main, "-V", "-R", conformance.TESTS],
                             stdout=f, stderr=subprocess.STDOUT)
    r.state["conformance_exit"] = rc
    c = conformance.Conformance()
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            c.line(line)
    c.finish(rc)
    print(f"  {c.note}", file=sys.stderr)


def run_pool_sim(r):
    """The pool's fault simulator (tests/pool/sim.h) on the default backend: its scenarios
    per second of CPU and what they injected, kept for the report (pool-sim.txt)."""
    sim = os.path.join(r.main, "tests", "test_pool_sim")
    path = os.path.join(r.out, "pool-sim.txt")
    if not os.access(sim, os.X_OK):
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"Not run: {sim} is not built (a build directory with tests).\n")
        return
    p = subprocess.run([sim, "--backend", r.default_backend, "--scenarios", "2000"],
                       capture_output=True, text=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(p.stdout + p.stderr)
    print(f"  pool simulator: exit {p.returncode}", file=sys.stderr)


def default_backend(bench):
    """The default backend of a build: the first it compiles (softchat-bench --version lists
    them, the default first)."""
    out = subprocess.run([bench, "--version"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("backends:") and line.split()[1:]:
            return line.split()[1]
    sys.exit(f"audit: {bench} --version names no backend")


def benchmark(r):
    """Every operation and floor on every backend, into bench.json."""
    if r.measure(os.path.join(r.out, "bench.json"), only=r.o.only) is None:
        sys.exit("audit: the benchmark could not run (softchat-bench run wrote no record)")


def prepare_lanes(r, lane_builds, peers, leave_out=()):
    """The other builds' and the peers' lanes (a peer installed first; its lanes labelled in
    leave_out are not measured); what could not be prepared is kept in the state with its
    reason."""
    r.state["lanes"], r.state["peers"] = [], []
    for b in lane_builds:
        entry = {"build": b.name}
        if b.why:
            entry["failure"] = b.why
        else:
            try:
                label, argv, secp = L.build_lane(SRC, b.dir, r.default_backend)
                r.lanes.append((label, argv, b.name))
                entry.update(label=label, secp=secp,
                             options=L.cache_options(os.path.join(SRC, b.dir)))
            except OSError as e:
                entry["failure"] = str(e)
        if "failure" in entry:
            print(f"  {b.dir} not measured: {entry['failure']}", file=sys.stderr)
        r.state["lanes"].append(entry)
    metas = {}
    for name in peers:
        peer, plan = L.prepare_peer(SRC, name, r.out)
        print(f"  {name}: {'installed' if peer.ok else peer.failure}", file=sys.stderr)
        r.state["peers"].append({"name": name, "failure": peer.failure})
        if peer.ok:
            metas[name] = peer.doc
            r.lanes += [(label, argv, name) for label, argv in plan if label not in leave_out]
    return metas


def compare(r, metas, ops):
    """Our default backend, the other builds and the peers in interleaved pairs of processes,
    one pair per round; the records split by who was measured."""
    # In each round: ours, then rust-nostr's process right after it, then the other builds
    # (each next to the same rust-nostr process), then the other peers.
    builds_ = {e["build"] for e in r.state["lanes"]}
    r.lanes.sort(key=lambda x: 0 if x[2] == "rust-nostr" else 1 if x[2] in builds_ else 2)
    raw = os.path.join(r.out, "run.json")
    doc = r.measure(raw, backend=r.default_backend, lanes=[x[:2] for x in r.lanes],
                    only=",".join(ops), floors=False, runs=r.o.pairs)
    if doc is None:
        sys.exit("audit: the comparison could not run (softchat-bench run wrote no record)")
    os.remove(raw)
    rows = doc.pop("results")
    owners = {label: owner for label, _, owner in r.lanes}
    records.write(os.path.join(r.out, "compared.json"),
                  dict(doc, results=[x for x in rows if x["backend"] not in owners]))
    for entry in r.state["lanes"]:
        if "label" in entry:
            mine = [x for x in rows if owners.get(x["backend"]) == entry["build"]]
            libs = dict(doc.get("libraries", {}), libsecp256k1=entry["secp"])
            records.write(os.path.join(r.out, f"bench-{entry['build']}.json"),
                          dict(doc, libraries=libs, command=INTERLEAVED, results=mine))
    for name, meta in metas.items():
        mine = [x for x in rows if owners.get(x["backend"]) == name]
        rec = {k: v for k, v in meta.items() if k not in ("results", "runs", "command")}
        rec.update(runs=r.o.pairs, command=INTERLEAVED, results=mine)
        records.write(os.path.join(r.out, "peers", f"{name}.json"), rec)


def compared_ops(only, table):
    """The operations of the comparison: the table's, or those of --only among them."""
    if not only:
        return list(table)
    wanted = only.split(",")
    return [op for op in table if op in wanted]


def jvm_only(r):
    step(1, 1, "jvm: the Kotlin facade under JMH, with its peers")
    ran = jvm.run(SRC, r.out, r.main, r.o.jvm == "quick")
    section, missed = jvm.section(r.out)
    with open(os.path.join(r.out, "report.md"), "w", encoding="utf-8") as f:
        f.write("# libsoftchat audit: JVM only\n" + section)
    print(f"JVM: {missed} target{'' if missed == 1 else 's'} missed or not measured "
          "(report.md, section JVM)")
    print(f"written to {r.out}/report.md")
    return 0 if ran else 2


def full(r, t0):
    o = r.o
    wanted = [] if o.build_dir else [b for b in builds.BUILDS if b.role != "quick"]
    if o.no_peers:
        wanted = [b for b in wanted if b.role != "lane"]
    builds.build_all(SRC, wanted, o.no_build, os.path.join(r.out, "build.log"))
    if not os.access(r.bench, os.X_OK):
        sys.exit(f"audit: {r.bench} is not built")
    t1 = time.time()
    steps = 8
    print(f"clock: {r.clock} ({r.state['clock_note']})", file=sys.stderr)
    step(1, steps, "self-test of every backend")
    selftest(r)
    step(2, steps, "conformance suites (ctest)")
    run_conformance(r)
    step(3, steps, "benchmark: every operation and floor on every backend; the pool simulator")
    r.default_backend = default_backend(r.bench)
    benchmark(r)
    run_pool_sim(r)
    if o.no_peers:
        step(4, steps, "comparison skipped (--no-peers)")
        r.state["lanes"], r.state["peers"] = [], []
    else:
        step(4, steps, f"comparison: {r.default_backend}, the other builds and the peers, in "
                       f"{o.pairs} interleaved pairs per row")
        metas = prepare_lanes(r, [b for b in wanted if b.role == "lane"], L.PEERS)
        compare(r, metas, compared_ops(o.only, L.COMPARED))
    step(5, steps, f"jvm: the {o.jvm} profile" if o.jvm != "off" else "jvm: skipped (--jvm off)")
    if o.jvm != "off":
        ok = jvm.run(SRC, r.out, r.main, o.jvm == "quick")
        print(f"  {'measured' if ok else 'not measured (see jvm/failure.txt)'}", file=sys.stderr)
    step(6, steps, f"web: the {o.web} profile" if o.web != "off" else "web: skipped (--web off)")
    if o.web != "off":
        ok = web.run(SRC, r.out, o.web == "quick")
        print(f"  {'measured' if ok else 'not measured (see web/failure.txt)'}", file=sys.stderr)
    step(7, steps, "footprint")
    profiles = [(b.profile, os.path.join(SRC, b.dir)) for b in wanted if b.profile and not b.why]
    footprint.write_tsv(os.path.join(r.out, "footprint.tsv"), footprint.measure(profiles))
    step(8, steps, "report")
    r.state["wall_s"] = time.time() - t1
    r.state["build_s"] = t1 - t0
    render.save_state(r.out, r.state)
    a, missed, jvm_missed = render.write(r.out, o.jvm != "off", o.web != "off")
    render.summary(r.out, a, missed, jvm_missed)
    return 0


def quick(r, t0):
    """The headline: the default build against rust-nostr and nostr-tools, in pairs."""
    o = r.o
    wanted = [] if o.build_dir else [b for b in builds.BUILDS if b.role == "quick"]
    builds.build_all(SRC, wanted, o.no_build, os.path.join(r.out, "build.log"))
    if not os.access(r.bench, os.X_OK):
        sys.exit(f"audit: {r.bench} is not built")
    r.state["build_s"] = time.time() - t0
    print(f"clock: {r.clock} ({r.state['clock_note']})", file=sys.stderr)
    step(1, 2, "peers: rust-nostr and nostr-tools")
    r.default_backend = default_backend(r.bench)
    metas = prepare_lanes(r, [], L.QUICK_PEERS, L.QUICK_LEAVE_OUT)
    step(2, 2, f"comparison: {r.default_backend} against the peers, in {o.pairs} interleaved "
               "pairs per row")
    compare(r, metas, compared_ops(o.only, L.QUICK))
    r.state["wall_s"] = time.time() - t0
    render.save_state(r.out, r.state)
    print(render.quick(r.out), end="")
    return 0


def main(argv):
    o = parse_args(argv)
    t0 = time.time()
    if o.report_only:
        if render.load_state(o.out).get("mode") == "quick":
            print(render.quick(o.out), end="")
            return 0
        a, missed, jvm_missed = render.write(o.out, os.path.isdir(os.path.join(o.out, "jvm")),
                                             os.path.isdir(os.path.join(o.out, "web")))
        render.summary(o.out, a, missed, jvm_missed)
        return 0
    r = Run(o)
    if o.jvm_only:
        return jvm_only(r)
    return quick(r, t0) if o.quick else full(r, t0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
