"""The report from what an audit left in its directory: the records (bench.json, bench-*.json,
peers/*.json, retry.json), footprint.tsv, the self-test's and ctest's output (selftest.txt,
conformance.log), jvm/ and audit.json (what the records do not say: the clock, the wall
time, what could not be measured and why). Writes report.md and the charts; a pure function
of the directory, so `scripts/run.sh --report-only DIR` writes the report again."""
import json
import os

import charts
import conformance
import footprint
import jvm
import records
import verdict as V
from report import Audit, Compare, Peer
import report

LIKE_FOR_LIKE = "secp-rust"  # the build set beside rust-nostr like for like (builds.py)


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


def compare_rows(a, rust, alt_label, retry_rows, retried):
    """The rows rust-nostr and we both measured, with their settled verdicts; retried: the
    keys re-measured (retry_rows holds them)."""
    cmp = []
    for q in rust:
        if not records.measured(q):
            continue
        k = records.key(q)
        c = Compare(peer=q, ours=records.find_key(a.rows, a.default_backend, k),
                    alt=records.find_key(a.alt_rows, alt_label, k) if alt_label else None)
        v1, a1 = V.of(c.ours, q), V.of(c.alt, q)
        if k in retried and retry_rows:
            c.ours2 = records.find_key(retry_rows, a.default_backend, k)
            c.alt2 = records.find_key(retry_rows, alt_label, k) if alt_label else None
            c.peer2 = records.find_key(retry_rows, q["backend"], k)
            c.v = V.settle(v1, V.of(c.ours2, c.peer2))
            c.v_alt = V.settle(a1, V.of(c.alt2, c.peer2))
        else:
            c.v, c.v_alt = V.settle(v1), V.settle(a1)
        cmp.append(c)
    return cmp


def needs_retry(a, rust, alt_label):
    """The keys whose side-by-side runs disagree with their verdict (either build)."""
    keys = []
    for c in compare_rows(a, rust, alt_label, [], set()):
        if V.needs_retry(c.v.first) or V.needs_retry(c.v_alt.first):
            keys.append(records.key(c.peer))
    return keys


def gather(out_dir):
    """The Audit of the directory (raises OSError/ValueError when bench.json is missing)."""
    st = load_state(out_dir)
    ours = records.load(os.path.join(out_dir, "bench.json"))
    a = Audit(rows=ours["results"], runs=ours.get("runs", 1), revision=ours.get("revision", ""),
              cpu=ours.get("machine", {}).get("cpu", "unknown"))
    libs = ours.get("libraries", {})
    a.default_backend = next(iter(libs.get("backends", {})), None) or \
        (records.backends(a.rows) or [""])[0]
    a.secp = libs.get("libsecp256k1", "")
    a.clock = st.get("clock", "wall")
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
        a.footprint = footprint.read_tsv(os.path.join(out_dir, "footprint.tsv"))
    except OSError:
        a.footprint = []
    alt_label = None
    for lane in st.get("lanes", []):
        if lane.get("build") != LIKE_FOR_LIKE:
            continue
        if lane.get("failure"):
            a.alt_failure = lane["failure"]
            continue
        doc = _load(os.path.join(out_dir, f"bench-{LIKE_FOR_LIKE}.json"))
        if doc is not None:
            alt_label = lane["label"]
            a.alt_rows = doc["results"]
            a.alt_secp = lane.get("secp", "")
            a.alt_label = f"{a.default_backend}, libsecp256k1 {a.alt_secp}"
            a.alt_options = lane.get("options", "")
    for p in st.get("peers", []):
        peer = Peer(p["name"], failure=p.get("failure", ""))
        doc = None if peer.failure else _load(os.path.join(out_dir, "peers", f"{p['name']}.json"))
        if doc is not None:
            peer.ok, peer.doc = True, doc
        elif not peer.failure:
            peer.failure = f"its record peers/{p['name']}.json is missing"
        a.peers.append(peer)
    rust = next((p for p in a.peers if p.ok and p.name == "rust-nostr"), None)
    if rust is not None:
        retry = _load(os.path.join(out_dir, "retry.json"))
        retried = {tuple(k) for k in st.get("retried", [])}
        a.cmp = compare_rows(a, rust.rows, alt_label, retry["results"] if retry else [], retried)
        a.n_retried = sum(1 for c in a.cmp if c.v.retried)
    return a


def write(out_dir, with_jvm):
    """Writes report.md and the charts. Returns (Audit, targets missed, JVM targets missed or
    None)."""
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
    with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return a, report.targets(a)[1], jvm_missed


def summary(out_dir, a, missed, jvm_missed):
    """The summary on stdout: where the report is, the targets, the conformance line."""
    print(f"audit written to {out_dir}/report.md ({a.wall_s:.0f} s)\n")
    print(report.targets(a)[0])
    print(f"{missed} target{'' if missed == 1 else 's'} missed; conformance: {a.conf.note}")
    if jvm_missed is not None:
        print(f"JVM: {jvm_missed} target{'' if jvm_missed == 1 else 's'} missed or not measured "
              "(report.md, section JVM)")
