"""The report from what an audit left in its directory: the records (bench.json, compared.json,
bench-*.json, peers/*.json), footprint.tsv, the self-test's and ctest's output (selftest.txt,
conformance.log), jvm/ and audit.json (what the records do not say: the clock, the wall
time, what could not be measured and why). Writes report.md and the charts; a pure function
of the directory, so `scripts/run.sh --report-only DIR` writes the report again."""
import json
import os

import charts
import conformance
import footprint
import jvm
import web
import records
from report import Audit, Lane, Peer
import report


def load_state(out_dir):
    try:
        with open(os.path.join(out_dir, "audit.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def save_state(out_dir, state):
    with open(os.path.join(out_dir, "audit.json"), "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
        f.write("\n")


def _load(path):
    try:
        return records.load(path)
    except (OSError, ValueError):
        return None


def selftest_lines(text):
    """The markdown lines of the self-test from `softchat selftest`'s output
    ("openssl: hash ok mac ok ..." per backend)."""
    out = []
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if not rest:
            continue
        rest = rest.strip()
        if rest.startswith("context refused"):
            out.append(f"- {name}: {rest}\n")
            continue
        words, groups = rest.split(" "), []
        i = 0
        while i + 1 < len(words):
            g, w = words[i], words[i + 1]
            i += 2
            if w == "FAILED" and i < len(words) and words[i].startswith("("):
                w, i = f"FAILED {words[i]}", i + 1
            groups.append(f"{g} {w}")
        out.append(f"- {name}: {', '.join(groups)}\n")
    return "".join(out)


def gather(out_dir):
    """The Audit of the directory (raises ValueError when it holds neither bench.json nor
    compared.json)."""
    st = load_state(out_dir)
    ours = _load(os.path.join(out_dir, "bench.json"))
    compared = _load(os.path.join(out_dir, "compared.json"))
    base = ours or compared
    if base is None:
        raise ValueError(f"{out_dir} holds no bench.json or compared.json")
    a = Audit(rows=ours["results"] if ours else [], runs=base.get("runs", 1),
              compared=compared["results"] if compared else [],
              pairs=compared.get("runs", 0) if compared else 0,
              revision=base.get("revision", ""), cpu=base.get("machine", {}).get("cpu", "unknown"))
    libs = base.get("libraries", {})
    a.default_backend = next(iter(libs.get("backends", {})), None) or \
        (records.backends(a.rows) or [""])[0]
    a.secp = libs.get("libsecp256k1", "")
    a.clock = st.get("clock", "wall")
    a.clock_note = st.get("clock_note", "")
    a.wall_s = st.get("wall_s", 0.0)
    try:
        with open(os.path.join(out_dir, "selftest.txt"), encoding="utf-8") as f:
            a.selftest = selftest_lines(f.read())
    except OSError:
        a.selftest = st.get("selftest_failure", "Not run.\n")
    a.conf = conformance.Conformance()
    try:
        with open(os.path.join(out_dir, "conformance.log"), encoding="utf-8",
                  errors="replace") as f:
            for line in f:
                a.conf.line(line)
        a.conf.finish(st.get("conformance_exit", 0))
    except OSError:
        a.conf.not_run(st.get("conformance_failure", "Not run."))
    try:
        with open(os.path.join(out_dir, "pool-sim.txt"), encoding="utf-8") as f:
            a.pool_sim = f.read()
    except OSError:
        a.pool_sim = ""
    try:
        a.footprint = footprint.read_tsv(os.path.join(out_dir, "footprint.tsv"))
    except OSError:
        a.footprint = []
    for e in st.get("lanes", []):
        x = Lane(e["build"], label=e.get("label", ""), secp=e.get("secp", ""),
                 options=e.get("options", ""), failure=e.get("failure", ""))
        x.title = f"{a.default_backend}, libsecp256k1 {x.secp}"
        doc = None if x.failure else _load(os.path.join(out_dir, f"bench-{x.name}.json"))
        if doc is not None:
            x.rows = doc["results"]
        elif not x.failure:
            x.failure = f"its record bench-{x.name}.json is missing"
        a.lanes.append(x)
    for p in st.get("peers", []):
        peer = Peer(p["name"], failure=p.get("failure", ""))
        doc = None if peer.failure else _load(os.path.join(out_dir, "peers", f"{p['name']}.json"))
        if doc is not None:
            peer.ok, peer.doc = True, doc
        elif not peer.failure:
            peer.failure = f"its record peers/{p['name']}.json is missing"
        a.peers.append(peer)
    return a


def write(out_dir, with_jvm, with_web=False):
    """Writes report.md and the charts. Returns (Audit, targets missed, JVM and web targets
    missed or None)."""
    a = gather(out_dir)
    note = charts.available()
    if note is None:
        rows = list(a.rows) + [r for p in a.peers if p.ok for r in p.rows]
        charts.latency_vs_size(rows, os.path.join(out_dir, "latency-vs-size.svg"))
        charts.operation_bars(rows, os.path.join(out_dir, "operations.svg"))
    text = report.write(a, note)
    jvm_missed = None
    if with_jvm:
        section, jvm_missed = jvm.section(out_dir)
        text += section
    if with_web:
        section, web_missed = web.section(out_dir)
        text += section
        jvm_missed = web_missed if jvm_missed is None else jvm_missed + web_missed
    with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return a, report.targets(a)[1], jvm_missed


def quick(out_dir):
    """Writes the headline of a quick run into out_dir and returns it."""
    a = gather(out_dir)
    text = (f"# Softchat Core against rust-nostr and nostr-tools: the quick headline\n\n"
            f"Revision {a.revision}. CPU: {a.cpu}. Wall time: {a.wall_s:.0f} s, builds included. "
            f"Our default build against each peer on the operations both measure, "
            f"{report.pairs_text(a)}; ours / peer is the median of the pair ratios with that "
            "interval: faster when it lies below 1.00, slower when above, even otherwise "
            "(docs/benchmarks.md, \"Verdicts\"). Not the audit: no other backend, build, floor, "
            "footprint or JVM, no cache-warm rows or verify_batch (scripts/run.sh without "
            "--quick).\n\n" + report.clock_text(a) + report.headline(a))
    with open(os.path.join(out_dir, "quick.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return text


def summary(out_dir, a, missed, jvm_missed):
    """The summary on stdout: where the report is, the targets, the conformance line."""
    print(f"audit written to {out_dir}/report.md ({a.wall_s:.0f} s)\n")
    print(report.targets(a)[0])
    print(f"{missed} target{'' if missed == 1 else 's'} missed; conformance: {a.conf.note}")
    if jvm_missed is not None:
        print(f"JVM and web: {jvm_missed} target{'' if jvm_missed == 1 else 's'} missed or not "
              "measured (report.md, sections JVM and Web)")
