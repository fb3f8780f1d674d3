#!/usr/bin/env python3
"""The JVM benchmarks' verdicts: reads what bindings/kotlin/jmh/run.sh wrote into OUT_DIR
(jmh.json, alloc.json, peers.json) and writes

  summary.json  softchat-jvm-summary/1: per operation and size, every side's time (ns per
                call, JMH's error, the forks' run-to-run variation), bytes and objects per
                call, and the facade against each peer that runs it: the ratio (peer time /
                facade time), the verdict and its margin; then the JVM targets with status
  OUT_DIR/summary.md  the same as Markdown tables, for a report to include as it is

    summary.py OUT_DIR

Verdict (the audit's rule for runs that are not paired): the facade is faster when its time
is lower by more than max(5 %, 3 x the larger of the two sides' run-to-run variation, the
relative standard deviation of their forks' means); slower by the same margin the other
way; else within the margin. A profile with one fork has no variation: its verdicts use 5 %
and say so (smoke numbers are not measurements).

Targets: faster than rust-nostr's JVM binding on every operation both run, and >= 2x on
NIP-44 at 64000 bytes; at most 7 objects per NIP-44 call (the facade, every row counted);
import_identity not behind the ACINQ baseline (bc-acinq).
Exit status 0 when the files were read (whatever the verdicts), 2 when jmh.json is missing.
"""
import json
import math
import os
import sys

ORDER = ("import_identity", "nip44_encrypt", "nip44_decrypt", "nip44_encrypt_held",
         "nip44_decrypt_held", "sign_event", "parse_verify_event", "nip59_rumor",
         "nip17_message", "gift_wrap", "unwrap", "attachment_encrypt")
PEERS = ("rust-nostr", "bouncycastle", "bc-acinq")


def fixed_bytes(op):
    """The sizes of the operations without a size parameter."""
    if op == "parse_verify_event":
        return 374
    if "attachment" in op:
        return 64000
    if op.startswith("nip") or op in ("gift_wrap", "unwrap"):
        return 15
    return 32


def fork_variation(raw):
    means = [sum(f) / len(f) for f in raw or [] if f]
    if len(means) < 2:
        return 0.0, len(means)
    m = sum(means) / len(means)
    v = sum((x - m) ** 2 for x in means) / (len(means) - 1)
    return (math.sqrt(v) / m if m > 0 else 0.0), len(means)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rows_of(jmh, alloc):
    rows = {}
    for b in jmh:
        params, pm = b.get("params") or {}, b.get("primaryMetric") or {}
        op, side = b.get("benchmark", "").rsplit(".", 1)[-1], params.get("side")
        if not side or "score" not in pm:
            continue
        size = int(params.get("bytes", 0) or 0)
        if size == 0:
            size = fixed_bytes(op)
            op = "attachment_encrypt" if op == "attachment_encrypt_64000" else op
        var, forks = fork_variation(pm.get("rawData"))
        norm = (b.get("secondaryMetrics") or {}).get("gc.alloc.rate.norm") or {}
        err = pm.get("scoreError")
        rows.setdefault((op, size), {})[side] = {
            "ns": pm["score"], "error_ns": None if err is None or err != err else err,
            "variation": var, "forks": forks, "bytes_per_call": norm.get("score"),
            "objects_per_call": None}
    for r in (alloc or {}).get("rows", []):
        key = (r.get("operation"), int(r.get("bytes", 0) or 0))
        side = rows.get(key, {}).get(r.get("side"))
        if side is not None and isinstance(r.get("objects"), (int, float)):
            side["objects_per_call"] = r["objects"]
    return rows


def verdict(ours, peer):
    margin = max(3 * max(ours["variation"], peer["variation"]), 0.05)
    if ours["ns"] < peer["ns"] * (1 - margin):
        v = "softchat faster"
    elif peer["ns"] < ours["ns"] * (1 - margin):
        v = "peer faster"
    else:
        v = "within margin"
    return {"ratio": peer["ns"] / ours["ns"], "verdict": v, "margin": margin,
            "forks": min(ours["forks"], peer["forks"])}


def targets(rows, peers_run):
    out = []
    shared = [(k, s["rust-nostr"], s["softchat"]) for k, s in rows.items()
              if "rust-nostr" in s and "softchat" in s]
    if "rust-nostr" not in peers_run or not shared:
        out.append({"target": "faster than rust-nostr's JVM binding on every shared operation",
                    "measured": "not measured", "status": "not measured"})
    else:
        slow = [f"{op} {n}" for (op, n), p, o in shared if verdict(o, p)["verdict"] != "softchat faster"]
        worst = min(p["ns"] / o["ns"] for _, p, o in shared)
        out.append({"target": "faster than rust-nostr's JVM binding on every shared operation",
                    "measured": f"{len(shared) - len(slow)} of {len(shared)} rows faster; lowest ratio {worst:.2f}x"
                                + (f"; not faster: {', '.join(slow)}" if slow else ""),
                    "status": "met" if not slow else "missed"})
        big = [(op, p["ns"] / o["ns"]) for (op, n), p, o in shared
               if n == 64000 and op in ("nip44_encrypt", "nip44_decrypt")]
        out.append({"target": ">= 2x rust-nostr's JVM binding on NIP-44 at 64000 bytes",
                    "measured": ", ".join(f"{op} {r:.2f}x" for op, r in big) or "no 64000-byte row",
                    "status": "met" if big and all(r >= 2 for _, r in big) else
                              ("not measured" if not big else "missed")})
    counted = [(op, n, s["softchat"]["objects_per_call"]) for (op, n), s in rows.items()
               if op.startswith("nip44") and "softchat" in s and s["softchat"]["objects_per_call"] is not None]
    worst = max((c for _, _, c in counted), default=None)
    out.append({"target": "objects per NIP-44 call <= 7",
                "measured": f"worst {worst:.1f} over {len(counted)} rows" if counted else "not counted",
                "status": "not measured" if not counted else ("met" if worst <= 7 else "missed")})
    imp = rows.get(("import_identity", 32), {})
    if "softchat" in imp and "bc-acinq" in imp:
        v = verdict(imp["softchat"], imp["bc-acinq"])
        out.append({"target": "import_identity not behind the ACINQ baseline",
                    "measured": f"{v['ratio']:.2f}x ({v['verdict']}, margin {v['margin'] * 100:.0f} %)",
                    "status": "missed" if v["verdict"] == "peer faster" else "met"})
    else:
        out.append({"target": "import_identity not behind the ACINQ baseline",
                    "measured": "not measured", "status": "not measured"})
    return out


def fmt_ns(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.1f} µs" if ns >= 1e3 else f"{ns:.0f} ns"


def fmt_side(s):
    if s is None:
        return "—"
    alloc = f"{s['bytes_per_call']:.0f} B" if s["bytes_per_call"] is not None else "n/m"
    obj = f"{s['objects_per_call']:.1f}" if s["objects_per_call"] is not None else "n/c"
    return f"{fmt_ns(s['ns'])} ({alloc}, {obj} obj)"


def markdown(summary, label):
    lines = [f"JVM benchmarks{(' — ' + label) if label else ''}: time per call (bytes and objects "
             "allocated per call); each peer ÷ softchat with the verdict and its margin.\n",
             "| operation | bytes | softchat | rust-nostr | bouncycastle / bc-acinq | rust-nostr ÷ softchat | baseline ÷ softchat |",
             "|---|---:|---:|---:|---:|---|---|"]
    for r in summary["rows"]:
        s = r["sides"]
        base = s.get("bouncycastle") or s.get("bc-acinq")
        cmp = {c["peer"]: c for c in r["comparisons"]}
        rn = cmp.get("rust-nostr")
        bl = cmp.get("bouncycastle") or cmp.get("bc-acinq")
        cell = lambda c: f"{c['ratio']:.2f}× {c['verdict']} ({c['margin'] * 100:.0f} %)" if c else "—"
        lines.append(f"| {r['operation']} | {r['bytes']} | {fmt_side(s.get('softchat'))} | "
                     f"{fmt_side(s.get('rust-nostr'))} | {fmt_side(base)} | {cell(rn)} | {cell(bl)} |")
    lines += ["", "| target | measured | status |", "|---|---|---|"]
    lines += [f"| {t['target']} | {t['measured']} | {t['status']} |" for t in summary["targets"]]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    jmh = load(os.path.join(out, "jmh.json"))
    if not isinstance(jmh, list):
        print(f"summary: no {out}/jmh.json", file=sys.stderr)
        return 2
    peers = load(os.path.join(out, "peers.json")) or {}
    peers_run = {p.get("name") for p in peers.get("peers", []) if p.get("status") == "measured"}
    rows = rows_of(jmh, load(os.path.join(out, "alloc.json")))
    order = {op: i for i, op in enumerate(ORDER)}
    listed = []
    for (op, n) in sorted(rows, key=lambda k: (order.get(k[0], 99), k[1])):
        s = rows[(op, n)]
        comps = [dict(peer=p, **verdict(s["softchat"], s[p])) for p in PEERS
                 if p in s and "softchat" in s]
        listed.append({"operation": op, "bytes": n, "sides": s, "comparisons": comps})
    forks = max((side["forks"] for r in listed for side in r["sides"].values()), default=0)
    label = os.environ.get("SOFTCHAT_JVM_LABEL", "")
    summary = {"schema": "softchat-jvm-summary/1", "label": label, "max_forks": forks,
               "rule": "faster when lower by more than max(5 %, 3 x the forks' run-to-run variation)",
               "rows": listed, "targets": targets(rows, peers_run)}
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
        f.write(markdown(summary, label))
    for t in summary["targets"]:
        print(f"jvm: {t['target']}: {t['measured']} [{t['status']}]", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
