"""The JVM section of the audit: the Kotlin facade under JMH with its JVM peers
(bindings/kotlin/jmh/run.sh, into OUT/jvm), read from JMH's JSON (jvm/jmh.json), the object
counts (jvm/alloc.json) and the peers' status (jvm/peers.json). JMH runs one side's forks after
the other's, so there are no pairs to read as the native comparison does (verdict.py): a side
is faster only when its time is lower by more than max(5 %, 3 x the run-to-run variation),
where the variation of a row is the relative standard deviation of its forks' means (JMH
rawData), the larger of the two sides'."""
import json
import math
import os
import subprocess

ORDER = ("import_identity", "nip44_encrypt", "nip44_decrypt", "nip44_encrypt_held",
         "nip44_decrypt_held", "sign_event", "parse_verify_event", "nip59_rumor",
         "nip17_message", "gift_wrap", "unwrap", "attachment_encrypt")


def run(src, out_dir, build_dir, quick):
    """Runs the JMH benchmarks into OUT/jvm; a failure is written to jvm/failure.txt.
    Returns True when they ran."""
    jdir = os.path.join(out_dir, "jvm")
    os.makedirs(jdir, exist_ok=True)
    cmd = [os.path.join(src, "bindings/kotlin/jmh/run.sh"), jdir] + (["--quick"] if quick else [])
    cmd += ["--jni", os.path.join(build_dir, "bindings/kotlin/jni/libsoftchat_jni.so")]
    with open(os.path.join(jdir, "run.log"), "w") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    failure = os.path.join(jdir, "failure.txt")
    if rc == 0:
        if os.path.exists(failure):
            os.remove(failure)
        return True
    with open(failure, "w") as f:
        f.write(f"bindings/kotlin/jmh/run.sh exited with status {rc} (log: jvm/run.log)\n")
    return False


def _load(out_dir, name):
    try:
        with open(os.path.join(out_dir, "jvm", name), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _fork_variation(raw):
    means = [sum(f) / len(f) for f in raw or [] if f]
    if len(means) < 2:
        return 0.0, len(means)
    m = sum(means) / len(means)
    v = sum((x - m) ** 2 for x in means) / (len(means) - 1)
    return (math.sqrt(v) / m if m > 0 else 0.0), len(means)


def _fixed_bytes(op):
    """The sizes of the operations without a size parameter."""
    if op == "parse_verify_event":
        return 374
    if "attachment" in op:
        return 64000
    if op.startswith("nip") or op in ("gift_wrap", "unwrap"):
        return 15
    return 32


def _rows(jmh, alloc):
    rows = []
    for b in jmh if isinstance(jmh, list) else []:
        params, pm = b.get("params") or {}, b.get("primaryMetric")
        name, side = b.get("benchmark"), params.get("side")
        if not isinstance(name, str) or not isinstance(side, str) or pm is None:
            continue
        op = name.rsplit(".", 1)[-1]
        try:
            size = int(params.get("bytes", 0))
        except ValueError:
            size = 0
        if size == 0:
            size = _fixed_bytes(op)
            if op == "attachment_encrypt_64000":
                op = "attachment_encrypt"
        err = pm.get("scoreError")
        var, forks = _fork_variation(pm.get("rawData"))
        norm = (b.get("secondaryMetrics") or {}).get("gc.alloc.rate.norm")
        rows.append(dict(op=op, side=side, bytes=size, ns=pm.get("score", float("nan")),
                         err=0.0 if err is None or err != err else err, var=var, forks=forks,
                         bytes_op=norm.get("score", -1) if norm else -1, objects=-1))
    for r in (alloc or {}).get("rows", []):
        row = _find(rows, r.get("operation"), r.get("side"), int(r.get("bytes", 0) or 0))
        if row is not None and isinstance(r.get("objects"), (int, float)):
            row["objects"] = r["objects"]
    return rows


def _find(rows, op, side, size):
    return next((r for r in rows if r["op"] == op and r["side"] == side and r["bytes"] == size),
                None)


def _fmt_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def _fmt_alloc(r):
    o = f"{r['objects']:.1f}" if r["objects"] >= 0 else "n/c"
    return f"{r['bytes_op']:.0f} B, {o} obj" if r["bytes_op"] >= 0 else f"n/m, {o} obj"


def _verdict(ours, peer):
    """(-1 slower, 0 within the margin, 1 faster; the margin)."""
    margin = max(3 * max(ours["var"], peer["var"]), 0.05)
    if ours["ns"] < peer["ns"] * (1 - margin):
        return 1, margin
    if peer["ns"] < ours["ns"] * (1 - margin):
        return -1, margin
    return 0, margin


def _table(rows):
    out = ["| operation | bytes | softchat (facade) | allocated / call | baseline | allocated / "
           "call | baseline ÷ softchat | verdict (margin) |\n"
           "|---|---:|---:|---:|---|---:|---:|---|\n"]
    missed = 0
    for op in ORDER:
        for r in rows:
            if r["op"] != op or r["side"] != "softchat":
                continue
            a, b = _fmt_ns(r["ns"]), _fmt_alloc(r)
            p = _find(rows, op, "bouncycastle" if op.startswith("nip44") else "bc-acinq",
                      r["bytes"])
            if p is None:
                out.append(f"| {op} | {r['bytes']} | {a} | {b} | no peer runs it | | | |\n")
                continue
            vd, margin = _verdict(r, p)
            v = ("softchat faster" if vd > 0 else "**baseline faster**" if vd < 0
                 else "within margin")
            missed += vd < 0
            out.append(f"| {op} | {r['bytes']} | {a} | {b} | {p['side']} {_fmt_ns(p['ns'])} | "
                       f"{_fmt_alloc(p)} | {p['ns'] / r['ns']:.2f}× | {v} "
                       f"({margin * 100:.0f} %) |\n")
    return "".join(out), missed


def _rust_table(rows):
    """(the facade against rust-nostr's JVM binding on every row both ran, the target's line,
    1 when the target is missed or not measured)."""
    out = ["\nAgainst rust-nostr's JVM binding (nostr-sdk-kmp-jvm), on every row both sides ran:\n\n"
           "| operation | bytes | softchat (facade) | rust-nostr | rust-nostr ÷ softchat | "
           "verdict (margin) |\n|---|---:|---:|---:|---:|---|\n"]
    shared, slower, big = 0, 0, []
    for op in ORDER:
        for r in rows:
            if r["op"] != op or r["side"] != "softchat":
                continue
            p = _find(rows, op, "rust-nostr", r["bytes"])
            if p is None:
                continue
            shared += 1
            vd, margin = _verdict(r, p)
            slower += vd <= 0
            ratio = p["ns"] / r["ns"]
            if op in ("nip44_encrypt", "nip44_decrypt") and r["bytes"] == 64000:
                big.append(ratio)
            v = ("softchat faster" if vd > 0 else "**rust-nostr faster**" if vd < 0
                 else "within margin")
            out.append(f"| {op} | {r['bytes']} | {_fmt_ns(r['ns'])} | {_fmt_ns(p['ns'])} | "
                       f"{ratio:.2f}× | {v} ({margin * 100:.0f} %) |\n")
    what = ("faster than rust-nostr's JVM binding on every shared operation; ≥ 2× on NIP-44 "
            "64000 B")
    if shared == 0:
        return "", f"| {what} | not measured: no row of rust-nostr's binding | **not measured** |\n", 1
    measured = f"{shared - slower} of {shared} rows faster"
    measured += (f"; NIP-44 64000 B {', '.join(f'{x:.2f}×' for x in big)}" if big
                 else "; NIP-44 64000 B not in this profile")
    ok = slower == 0 and len(big) == 2 and min(big) >= 2.0
    return ("".join(out), f"| {what} | {measured} | {'met' if ok else '**missed**'} |\n",
            0 if ok else 1)


def _alloc_target(rows):
    counted = [r["objects"] for r in rows
               if r["side"] == "softchat" and r["op"].startswith("nip44") and r["objects"] >= 0]
    if not counted:
        return "| objects per NIP-44 call ≤ 7 | not counted | **missed** |\n", 1
    over = sum(o > 7.0 for o in counted)
    return (f"| objects per NIP-44 call ≤ 7 (the seeds' 5–7) | worst {max(counted + [0]):.1f} "
            f"over {len(counted)} rows | {'met' if over == 0 else '**missed**'} |\n", int(over > 0))


def section(out_dir):
    """(the JVM section's markdown, the JVM targets missed or not measured)."""
    out = ["\n## JVM: the Kotlin facade under JMH, with its peers\n\n"]
    try:
        with open(os.path.join(out_dir, "jvm", "failure.txt"), encoding="utf-8") as f:
            failure = f.read()
    except OSError:
        failure = None
    jmh = _load(out_dir, "jmh.json")
    if failure is not None or jmh is None:
        why = failure if failure is not None else "jvm/jmh.json is missing."
        out.append(f"Not measured: {why}\n")
        return "".join(out), 1
    rows = _rows(jmh, _load(out_dir, "alloc.json"))
    out.append("JMH 1.37 on the same machine and in the same run for every side (raw: "
               "`jvm/jmh.json`, `jvm/alloc.json`, `jvm/peers.json`). Average time per call; "
               "forks, warm-up and measurement as in `jvm/jmh.json` (full profile: 3 forks, "
               "3 × 1 s warm-up, 5 × 1 s measurement), G1 with a fixed 1 GiB heap; each result "
               "consumed by JMH's Blackhole. Bytes per call from `-prof gc` "
               "(gc.alloc.rate.norm); objects per call from `AllocCount` (Epsilon GC, class "
               "histograms around N warmed calls). Every side gets the same keys, texts and "
               "payloads, and passed the official NIP-44 vectors in its setup. The NIP-44 "
               "rows talk to one peer, so the facade's lifted-key cache (8 keys per context) "
               "applies there; the baseline lifts the key on every call. parse_verify_event "
               "cycles 16 events by 16 authors and unwrap 16 wraps (fresh one-time keys) on "
               "every side. Verdict: faster only when lower by more than max(5 %, 3 × the "
               "run-to-run variation of the forks).\n\n")
    out.append("Peers:\n\n")
    for p in (_load(out_dir, "peers.json") or {}).get("peers", []):
        out.append(f"- **{p.get('name')}** — {p.get('status')}: {p.get('what')}\n")
    out.append("\n")
    table, missed = _table(rows)
    out.append(table)
    rust, rust_line, rust_missed = _rust_table(rows)
    out.append(rust)
    out.append("\nJVM targets:\n\n| target | measured | status |\n|---|---|---|\n")
    out.append(rust_line)
    line, over = _alloc_target(rows)
    out.append(line)
    return "".join(out), missed + rust_missed + over
