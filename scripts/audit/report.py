"""The audit report (report.md) and the targets it checks. Targets are those published for
the default backend; a missed target is reported with its number, never hidden."""
from dataclasses import dataclass, field

import floors
import records
import verdict as V
from records import all_cores, find, fmt_ns

RATIO_TARGETS = [  # (operation, bytes, the most its median may be over its floor)
    ("nip44_encrypt", 32, 1.10), ("nip44_decrypt", 32, 1.10), ("nip44_encrypt", 1024, 1.10),
    ("nip44_decrypt", 1024, 1.10), ("nip44_encrypt", 64000, 1.25),
    ("nip44_decrypt", 64000, 1.25), ("import_identity", 32, 1.10), ("sign_event", 32, 1.10),
    ("parse_verify_event", 374, 1.15),
]

# Held NIP-44 at 32 bytes: the 1.0 API's bound, then the hardening targets.
# (operation, bytes, bound in ns, strict: the median must be below it, as printed)
LATENCY_TARGETS = [
    ("nip44_encrypt_held", 32, 3000, True, "under 3 µs"),
    ("nip44_encrypt_held", 32, 1500, False, "at most 1.5 µs"),
    ("nip44_decrypt_held", 32, 1000, False, "at most 1.0 µs"),
]

# Checked on every backend the audit measured, at every size.
ZERO_ALLOC_OPS = ("import_identity", "sign_event", "nip44_encrypt", "nip44_decrypt",
                  "nip44_encrypt_held", "nip44_decrypt_held", "parse_verify_event", "unwrap")

# The operations we must be faster than rust-nostr on, default backend.
FASTER_TARGETS = [
    ("nip59_rumor", 15), ("sign_event", 32), ("gift_wrap", 15), ("nip44_encrypt", 64000),
    ("nip44_decrypt", 64000), ("nip44_encrypt_held", 32), ("nip44_decrypt_held", 32),
    ("nip44_encrypt_held", 1024), ("nip44_decrypt_held", 1024), ("nip44_encrypt_held", 64000),
    ("nip44_decrypt_held", 64000),
]


@dataclass
class Peer:
    name: str
    ok: bool = False
    failure: str = ""  # why it could not be installed or run
    doc: dict = field(default_factory=dict)  # its record: description and rows

    @property
    def rows(self):
        return self.doc.get("results", [])


@dataclass
class Compare:
    """One row rust-nostr and we both measured: the first measurement and, when its runs
    disagreed, the re-measurement, with the settled verdicts of our default build and of the
    like-for-like build against the peer."""
    peer: dict
    ours: dict = None
    alt: dict = None
    ours2: dict = None
    alt2: dict = None
    peer2: dict = None
    v: V.Final = field(default_factory=V.Final)
    v_alt: V.Final = field(default_factory=V.Final)


@dataclass
class Audit:
    rows: list = field(default_factory=list)  # ours: operations and floors
    default_backend: str = ""
    secp: str = ""  # the libsecp256k1 release of the default build
    runs: int = 3
    revision: str = ""
    cpu: str = "unknown"
    clock: str = "wall"
    wall_s: float = 0.0
    selftest: str = ""  # markdown lines
    conf: object = None  # conformance.Conformance
    footprint: list = field(default_factory=list)  # (profile, artifact, variant, bytes)
    peers: list = field(default_factory=list)  # Peer
    # The same library built against another libsecp256k1 (the release a peer bundles):
    alt_rows: list = field(default_factory=list)  # its default-backend rows
    alt_secp: str = ""
    alt_label: str = ""  # e.g. "openssl, libsecp256k1 0.4.1"
    alt_failure: str = ""  # why it was not measured, when it was asked for
    alt_options: str = ""  # how that libsecp256k1 was built (its CMakeCache)
    cmp: list = field(default_factory=list)  # Compare, against rust-nostr
    n_retried: int = 0


def _suffix(op, sfx):
    return len(op) > len(sfx) and op.endswith(sfx)


def is_warm(op):
    """A cache-warm row (reported apart)."""
    return _suffix(op, "_warm")


def is_reference(op):
    """rust-nostr's API as shipped (no counterpart)."""
    return _suffix(op, "_verified")


def _target(out, what, measured, ok):
    out.append(f"| {what} | {measured} | {'met' if ok else '**missed**'} |\n")
    return 0 if ok else 1


def _floor_targets(out, a):
    missed = 0
    for op, size, most in RATIO_TARGETS:
        r = find(a.rows, a.default_backend, op, size)
        fl, _ = floors.floor_ns(a.rows, op, size)
        what = f"{op} {size} B within {most:.2f}x of the floor"
        if r is None or not fl or fl <= 0:
            missed += _target(out, what, "not measured", False)
            continue
        ratio = r["median_ns"] / fl
        missed += _target(out, what, f"{ratio:.3f}x ({fmt_ns(r['median_ns'])} vs floor "
                                     f"{fmt_ns(fl)})", ratio <= most)
    return missed


def _latency_targets(out, a):
    missed = 0
    for op, size, bound, strict, text in LATENCY_TARGETS:
        r = find(a.rows, a.default_backend, op, size)
        ok = r is not None and (r["median_ns"] < bound if strict else r["median_ns"] <= bound)
        missed += _target(out, f"{op} {size} B {text}",
                          fmt_ns(r["median_ns"]) if r else "not measured", ok)
    return missed


def _most_allocs(a, backend, op):
    """The row of op on backend with the most allocations per call over every size; None
    when none was counted there."""
    worst = None
    for r in a.rows:
        al = r.get("allocations")
        if (records.measured(r) and not r["floor"] and al is not None and al >= 0
                and r["backend"] == backend and r["operation"] == op
                and (worst is None or al > worst["allocations"])):
            worst = r
    return worst


def _alloc_targets(out, a):
    names = records.backends(a.rows)
    missed = 0
    for op in ZERO_ALLOC_OPS:
        worst, counted = None, 0
        for b in names:
            r = _most_allocs(a, b, op)
            if r is not None:
                counted += 1
                if worst is None or r["allocations"] > worst["allocations"]:
                    worst = r
        if worst is None:
            got = "not measured"
        elif worst["allocations"] < 0.005:
            got = (f"{worst['allocations']:.2f} per call ({counted} of {len(names)} backends, "
                   "every size)")
        else:
            got = (f"{worst['allocations']:.2f} per call at worst ({worst['backend']}, "
                   f"{worst['bytes']} B; {counted} of {len(names)} backends)")
        missed += _target(out, f"0 allocations per call on every backend: {op}", got,
                          worst is not None and counted == len(names)
                          and worst["allocations"] < 0.005)
    return missed


def _scaling_target(out, a):
    one = find(a.rows, a.default_backend, "verify_batch", 1000)
    many = find(a.rows, a.default_backend, "verify_batch", 1000, all_cores=True)
    if one is None or many is None:
        return _target(out, "verify_batch on all cores >= 1.7x of 1 core", "not measured", False)
    ratio = one["median_ns"] / many["median_ns"]
    return _target(out, f"verify_batch on {many['threads']} cores >= 1.7x the events/s of 1 "
                        "core", f"{ratio:.2f}x", many["threads"] >= 2 and ratio >= 1.7)


def _find_cmp(a, op, size):
    for c in a.cmp:
        if c.peer["operation"] == op and c.peer["bytes"] == size and c.peer["threads"] == 1:
            return c
    return None


def _fmt_verdict(v):
    """"0.82x, margin 6%: faster" """
    if v.kind == V.NONE:
        return "not measured"
    return (f"{v.ratio:.2f}x, margin {v.margin * 100:.0f}%: {v.kind}"
            f"{' (after a re-measurement)' if v.retried else ''}")


def _rust_targets(out, a):
    """No shared row slower beyond the margin (each build), and faster on the listed rows
    (default build)."""
    if not a.cmp:
        return 0
    shared = slower = explained = slower_alt = shared_alt = 0
    slow = []
    for c in a.cmp:
        op = c.peer["operation"]
        if is_warm(op) or is_reference(op):
            continue
        if c.v.kind != V.NONE:
            shared += 1
            if c.v.kind == V.SLOWER:
                slower += 1
                explained += V.curve_explains(c.v.kind, c.v_alt.kind,
                                              floors.uses_curve(op, c.peer["bytes"]))
                where = " all cores" if c.peer["threads"] > 1 else ""
                slow.append(f"{op} {c.peer['bytes']} B{where} ({c.v.ratio:.2f}x)")
        if c.v_alt.kind != V.NONE:
            shared_alt += 1
            slower_alt += c.v_alt.kind == V.SLOWER
    missed = 0
    got = f"{slower} of {shared} slower" + (": " + ", ".join(slow) if slow else "")
    if slower > 0 and shared_alt > 0:
        got += (f"; the older libsecp256k1 alone explains {explained} of the {slower} (not "
                "slower like for like)")
    missed += _target(out, "no operation shared with rust-nostr slower beyond the margin "
                           f"({a.default_backend}, libsecp256k1 {a.secp})", got,
                      slower == 0 and shared > 0)
    if shared_alt > 0:
        missed += _target(out, f"the same, like for like ({a.alt_label})",
                          f"{slower_alt} of {shared_alt} slower", slower_alt == 0)
    for op, size in FASTER_TARGETS:
        c = _find_cmp(a, op, size)
        what = f"faster than rust-nostr: {op} {size} B"
        if c is None:
            missed += _target(out, what, "not measured", False)
            continue
        got = _fmt_verdict(c.v)
        if c.v.kind != V.FASTER and c.ours is not None:
            # how much of our time is the floor's library calls, which the peer makes too
            fl, curve_only = floors.floor_ns(a.rows, op, size)
            if fl and fl > 0:
                got += (f"; ours at {c.ours['median_ns'] / fl:.2f}x of its "
                        f"{'curve-only ' if curve_only else ''}floor")
        missed += _target(out, what, got, c.v.kind == V.FASTER)
    out.append("| faster than rust-nostr: attachment_encrypt/decrypt 64000 B | not comparable: "
               "rust-nostr has no attachment API (NIP-17 kind-15 file encryption) | n/a |\n")
    return missed


def targets(a):
    """(markdown of the targets table, how many were missed)."""
    out = [f"| Target ({a.default_backend} backend) | Measured | Verdict |\n|---|---|---|\n"]
    missed = (_floor_targets(out, a) + _latency_targets(out, a) + _alloc_targets(out, a)
              + _scaling_target(out, a) + _rust_targets(out, a))
    return "".join(out), missed


def _backend_table(a, backend):
    out = [f"\n### {backend}\n\n| Operation | Bytes | Median | p95 | Allocs/call | Peak RSS | "
           "Floor | Ratio to floor |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"]
    for r in a.rows:
        if r["floor"] or r["backend"] != backend:
            continue
        if not records.measured(r):
            state = "unsupported on this backend" if r["unsupported"] else "**failed**"
            out.append(f"| {r['operation']} | {r['bytes']} | {state} | | | | | |\n")
            continue
        fl, curve_only = floors.floor_ns(a.rows, r["operation"], r["bytes"])
        fls = fmt_ns(fl) + (" (curve)" if curve_only and fl and fl > 0 else "")
        al = r.get("allocations")
        al = "-" if al is None or al < 0 else f"{al:.2f}"
        ratio = f"{r['median_ns'] / fl:.2f}x" if fl and fl > 0 else "-"
        out.append(f"| {r['operation']}{all_cores(r)} | {r['bytes']} | {fmt_ns(r['median_ns'])} "
                   f"| {fmt_ns(r['p95_ns'])} | {al} | {r.get('rss_kb', -1)} KiB | {fls} | "
                   f"{ratio} |\n")
    return "".join(out)


def _versus_table(a, names):
    out = ["| Operation | Bytes |" + "".join(f" {n} |" for n in names) + "\n|---|---:|"
           + "---:|" * len(names) + "\n"]
    for base in a.rows:
        if base["floor"] or base["backend"] != names[0] or not records.measured(base):
            continue
        line = f"| {base['operation']}{all_cores(base)} | {base['bytes']} |"
        for j, n in enumerate(names):
            r = find(a.rows, n, base["operation"], base["bytes"], base["threads"] > 1)
            m = fmt_ns(r["median_ns"] if r else None)
            if j == 0 or r is None:
                line += f" {m} |"
            else:
                line += f" {m} ({(r['median_ns'] / base['median_ns'] - 1) * 100:+.0f}%) |"
        out.append(line + "\n")
    return "".join(out)


def _peer_row(a, q, alt):
    r = find(a.rows, a.default_backend, q["operation"], q["bytes"], q["threads"] > 1)
    line = (f"| {q['operation']}{all_cores(q)} | {q['bytes']} | {q['backend']} | "
            f"{fmt_ns(q['median_ns'])} | {fmt_ns(r['median_ns'] if r else None)} | ")
    line += f"{q['median_ns'] / r['median_ns']:.2f}x |" if r else "- |"
    if alt:
        x = find(a.alt_rows, records.backends(a.alt_rows)[0] if a.alt_rows else "",
                 q["operation"], q["bytes"], q["threads"] > 1)
        line += (f" {fmt_ns(x['median_ns'])} | {q['median_ns'] / x['median_ns']:.2f}x |" if x
                 else " - | - |")
    return line + "\n"


def _libraries(doc):
    libs = doc.get("libraries", {})
    return "; ".join(f"{k} {v}" for k, v in libs.items() if isinstance(v, str))


def _peer_section(a, p, alt):
    out = [f"\n### {p.name}\n\n"]
    if not p.ok:
        out.append(f"**Not measured: {p.failure}**\n")
        return "".join(out)
    out.append(f"Versions: {_libraries(p.doc) or '-'}.\n\n")
    unsupported = "; ".join(f"{u.get('operation', '?')}: {u.get('reason', '?')}"
                            for u in p.doc.get("unsupported", []))
    if unsupported:
        out.append(f"Not implemented by the peer: {unsupported}.\n\n")
    notes = "; ".join(n for n in p.doc.get("notes", []) if isinstance(n, str))
    if notes:
        out.append(f"Notes: {notes}.\n\n")
    out.append(f"| Operation | Bytes | Peer | Peer median | softchat ({a.default_backend}, "
               f"libsecp256k1 {a.secp}) | Ratio (peer / softchat) |"
               + (f" softchat ({a.alt_label}) | Ratio |" if alt else "")
               + "\n|---|---:|---|---:|---:|---:|" + ("---:|---:|" if alt else "") + "\n")
    for q in p.rows:
        if records.measured(q):
            out.append(_peer_row(a, q, alt))
    return "".join(out)


def _fmt_row(r):
    """"44.18 µs (51.20 µs)": median (p95)"""
    if not records.measured(r):
        return "-"
    return f"{fmt_ns(r['median_ns'])} ({fmt_ns(r['p95_ns'])})"


def _fmt_cell(v):
    """"0.82x | 6% | **faster**": ratio, margin, verdict"""
    if v.kind == V.NONE:
        return "- | - | -"
    mark = "" if v.kind == V.EVEN else "**"
    return f"{v.ratio:.2f}x | {v.margin * 100:.0f}% | {mark}{v.kind}{mark}"


def _retry_note(c):
    v = c.v
    if not v.retried:
        return "-"
    return (f"{v.first.kind} {v.first.ratio:.2f}x ±{v.first.margin * 100:.0f}%, then "
            f"{v.second.kind} {v.second.ratio:.2f}x ±{v.second.margin * 100:.0f}% "
            f"({'the second' if v.second_decides else 'the first'} decides)")


def _compare_table(a, want, alt):
    out = [f"| Operation | Bytes | softchat ({a.default_backend}, libsecp256k1 {a.secp}) | "
           "rust-nostr | Ratio | Margin | Verdict |"
           + (f" softchat ({a.alt_label}) | Ratio | Margin | Verdict | Gap explained by the "
              "curve? |" if alt else "")
           + " Re-measured |\n|---|---:|---:|---:|---:|---:|---|"
           + ("---:|---:|---:|---|---|" if alt else "") + "---|\n"]
    for c in a.cmp:
        if not want(c.peer["operation"]):
            continue
        # the medians of the measurement that decided
        ours = c.ours2 if c.v.second_decides else c.ours
        peer = c.peer2 if c.v.second_decides else c.peer
        line = (f"| {c.peer['operation']}{all_cores(c.peer)} | {c.peer['bytes']} | "
                f"{_fmt_row(ours)} | {_fmt_row(peer)} | {_fmt_cell(c.v)} |")
        if alt:
            x = c.alt2 if c.v_alt.second_decides else c.alt
            note = V.curve_note(c.v.kind, c.v_alt.kind,
                                floors.uses_curve(c.peer["operation"], c.peer["bytes"]))
            line += f" {_fmt_row(x)} | {_fmt_cell(c.v_alt)} | {note} |"
        out.append(f"{line} {_retry_note(c)} |\n")
    return "".join(out)


def _rust_section(a):
    """The comparison with rust-nostr: equal work, interleaved processes, verdicts."""
    if not a.cmp:
        return ""
    alt = len(a.alt_rows) > 0
    out = ["\n### rust-nostr, like with like\n\n"
           "Equal work on both sides (bench/peers/README.md): the same keys, contents, tags and "
           "timestamps; signing without rust-nostr's verification of its own new signature (its "
           "API as shipped is in the reference rows below); keys rotated through 16 of each so "
           "no call meets a public key lifted by an earlier one (libsoftchat keeps 8 lifted, "
           "rust-nostr none); unwrap and parse from JSON text on both sides. rust-nostr's "
           "processes ran interleaved with ours, process by process (A B A B). Ratio: our median "
           "over rust-nostr's (below 1: we are faster). Margin: max(5%, 3x the larger relative "
           "standard deviation of the run medians); a verdict other than even needs the ratio "
           "beyond it. A row whose runs, compared side by side, disagreed with its verdict was "
           f"measured again ({a.n_retried} of {len(a.cmp)} rows, in `retry.json`); the quieter "
           "of the two measurements decides (its medians are the ones shown), and two opposite "
           "verdicts make it even.\n\n"]
    if alt:
        out.append("The like-for-like build is this library against rust-nostr's libsecp256k1 "
                   f"({a.alt_secp}), compiled with the options secp256k1-sys compiles it with "
                   f"({a.alt_options or 'see its CMakeCache'}). Where our default build is slower "
                   "and the like-for-like build is not, the older libsecp256k1 (Debian's "
                   f"{a.secp}) explains the gap alone.\n\n")
    out.append(_compare_table(a, lambda op: not is_warm(op) and not is_reference(op), alt))
    out.append("\n**Cache-warm rows** (reported apart: one peer, receiver or sender repeated, "
               "so libsoftchat's curve adapter answers from its lifted keys; rust-nostr keeps "
               "none, so its row is the same work on one key):\n\n")
    out.append(_compare_table(a, is_warm, alt))
    refs = [c for c in a.cmp if is_reference(c.peer["operation"])]
    if refs:
        out.append("\n**Reference rows**: rust-nostr's API as shipped, which verifies every "
                   "signature it makes (no libsoftchat counterpart, no verdict):\n\n"
                   "| Operation | Bytes | rust-nostr |\n|---|---:|---:|\n")
        for c in refs:
            out.append(f"| {c.peer['operation']} | {c.peer['bytes']} | {_fmt_row(c.peer)} |\n")
    return "".join(out)


def _footprint_table(a):
    if not a.footprint:
        return "Not measured (no build profiles).\n"
    variants = ("unstripped", "stripped", "unstripped.gz", "stripped.gz")
    sizes = {(p, art, v): b for p, art, v, b in a.footprint}
    out = ["| Profile | Artifact | Unstripped | Stripped | Unstripped, gzip -n | Stripped, "
           "gzip -n |\n|---|---|---:|---:|---:|---:|\n"]
    seen = []
    for p, art, _, _ in a.footprint:
        if (p, art) in seen:
            continue
        seen.append((p, art))
        out.append(f"| {p} | {art} |" + "".join(
            f" {sizes.get((p, art, v), -1) / 1000.0:.1f} KB |" for v in variants) + "\n")
    out.append("\nTarget: a stripped libsoftchat.so with one backend under 300 KB (the Rust SDK "
               "we measure ourselves against ships a 3.96 MB .so). Mobile (the arm64-* profiles: "
               "dependencies linked in): under 600 KB stripped per ABI with mbed TLS or PSA and "
               "libsecp256k1.\n")
    return "".join(out)


def write(a, charts_note=None):
    """report.md as a string. charts_note: why the charts were not drawn, or None."""
    names = records.backends(a.rows)
    runs = a.runs
    out = [f"# Softchat Core performance audit\n\nRevision {a.revision}. CPU: {a.cpu}. Wall time "
           f"of the audit: {a.wall_s:.0f} s. Every number below is a per-call median (and p95) "
           f"over {runs} independent process{'' if runs == 1 else 'es'} per configuration, under "
           "the contract in docs/benchmarks.md; the raw records are `bench.json`, "
           "`footprint.tsv` and `peers/*.json` beside this file.\n\n"]
    if a.clock == "cpu":
        out.append("Clock: the measuring thread's CPU time (`--clock cpu`), so the time a "
                   "process waits for a core on this shared machine is left out; the rows on "
                   "several threads, and nostr-tools (Node has no per-thread CPU clock), are timed "
                   "with the wall clock. Each run in the records names its clock.\n\n")
    out.append("## Targets\n\n" + targets(a)[0])
    out.append(f"\n## Self-test\n\n{a.selftest}\n## Conformance\n\n")
    out.append(a.conf.markdown() if a.conf is not None else "Not run.\n")
    out.append("## Latency per backend\n\nRatio to floor: the operation's median over the sum of "
               "its cryptography measured alone in the same run (libsecp256k1 called directly, "
               "and the fastest backend's SHA-256 / HMAC / ChaCha20 / AES-GCM at each size); "
               "\"(curve)\" floors count only the curve operations.\n")
    for b in names:
        out.append(_backend_table(a, b))
    out.append("\n## Backend against backend\n\nMedian per call; the percentage is the delta to "
               "the first backend (negative is faster).\n\n")
    if names:
        out.append(_versus_table(a, names))
    if charts_note:
        out.append(f"\nCharts not drawn: {charts_note}.\n")
    else:
        out.append("\n![latency against payload size](latency-vs-size.svg)\n\n"
                   "![latency per operation](operations.svg)\n")
    out.append("\n## Peers, side by side (same machine, same run)\n")
    out.append(_rust_section(a))
    out.append("\n### Every peer row\n\nRatio above 1 means the peer is slower.\n")
    if a.alt_failure:
        out.append(f"\nLike-for-like build: **not measured: {a.alt_failure}**\n")
    for p in a.peers:
        out.append(_peer_section(a, p, len(a.alt_rows) > 0))
    out.append("\n## Footprint\n\n" + _footprint_table(a))
    return "".join(out)
