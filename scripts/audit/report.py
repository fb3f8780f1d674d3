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

# Against rust-nostr, default build: faster (the interval below 1.00) on these rows ...
FASTER_TARGETS = [
    ("sign_event", 32), ("import_identity", 32), ("gift_wrap", 15), ("nip17_message", 15),
    ("unwrap", 15), ("nip59_rumor", 15), ("nip44_encrypt", 64000), ("nip44_decrypt", 64000),
    ("nip44_encrypt_held", 32), ("nip44_decrypt_held", 32), ("nip44_encrypt_held", 1024),
    ("nip44_decrypt_held", 1024), ("nip44_encrypt_held", 64000), ("nip44_decrypt_held", 64000),
]
# ... and at worst 2 % slower (the interval's upper end at most 1.02) on the rows bound by
# ECDH or verification, which run at libsecp256k1's speed (their floor ratio says so).
WITHIN = 1.02
WITHIN_TARGETS = [
    ("nip44_encrypt", 32), ("nip44_decrypt", 32), ("nip44_encrypt", 1024),
    ("nip44_decrypt", 1024), ("parse_verify_event", 374), ("verify_batch", 1000),
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
class Lane:
    """Another build of this library measured beside ours (builds.py, role lane)."""
    name: str  # the build's name: secp-rust (like for like), secp-system, ...
    label: str = ""  # its rows' backend name, e.g. "openssl@libsecp256k1-0.4.1"
    title: str = ""  # how the report names it, e.g. "openssl, libsecp256k1 0.4.1"
    secp: str = ""
    options: str = ""  # how its libsecp256k1 was built (its CMakeCache)
    failure: str = ""  # why it was not measured
    rows: list = field(default_factory=list)


@dataclass
class Compare:
    """One row a peer and we both measured in the comparison, with the verdict of our default
    build and of each other build against the peer."""
    peer: dict
    ours: dict = None
    v: V.Verdict = field(default_factory=V.Verdict)
    lanes: dict = field(default_factory=dict)  # lane name -> (its row, its verdict)


@dataclass
class Audit:
    rows: list = field(default_factory=list)  # ours: operations and floors, every backend
    compared: list = field(default_factory=list)  # ours in the comparison: default backend
    default_backend: str = ""
    secp: str = ""  # the libsecp256k1 release of the default build
    runs: int = 3
    pairs: int = 0  # runs of the comparison: pairs per row
    revision: str = ""
    cpu: str = "unknown"
    clock: str = "wall"
    clock_note: str = ""  # how the clock was chosen
    wall_s: float = 0.0
    selftest: str = ""  # markdown lines
    conf: object = None  # conformance.Conformance
    footprint: list = field(default_factory=list)  # (profile, artifact, variant, bytes)
    pool_sim: str = ""  # what test_pool_sim printed (pool-sim.txt)
    peers: list = field(default_factory=list)  # Peer
    lanes: list = field(default_factory=list)  # Lane: other builds measured beside ours

    def peer(self, name):
        return next((p for p in self.peers if p.ok and p.name == name), None)

    def like(self):
        """The like-for-like build (rust-nostr's libsecp256k1, built as its crate builds it),
        when measured."""
        return next((x for x in self.lanes if x.name == LIKE_FOR_LIKE and x.rows), None)

    def compare(self, peer):
        """Every row the peer measured, with the verdicts."""
        out = []
        for q in peer.rows if peer else []:
            if not records.measured(q):
                continue
            k = records.key(q)
            c = Compare(q, records.find_key(self.compared, self.default_backend, k))
            c.v = V.of(c.ours, q)
            for x in self.lanes:
                if x.rows:
                    r = records.find_key(x.rows, x.label, k)
                    c.lanes[x.name] = (r, V.of(r, q))
            out.append(c)
        return out


LIKE_FOR_LIKE = "secp-rust"


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


def _find(cmp, op, size):
    return next((c for c in cmp if c.peer["operation"] == op and c.peer["bytes"] == size
                 and c.peer["threads"] == 1), None)


def _floor_note(a, c):
    """"; ours at 1.02x of its floor": how much of our time is the floor's library calls,
    which the peer makes too."""
    fl, curve_only = floors.floor_ns(a.rows, c.peer["operation"], c.peer["bytes"])
    if not records.measured(c.ours) or not fl or fl <= 0:
        return ""
    kind = "curve-only floor" if curve_only else "floor"
    return f"; ours at {c.ours['median_ns'] / fl:.2f}x of its {kind}"


def _shared(c):
    op = c.peer["operation"]
    return not is_warm(op) and not is_reference(op)


def _rust_targets(out, a):
    """No shared row slower (each build), faster on FASTER_TARGETS and at worst 2 % slower on
    WITHIN_TARGETS (default build)."""
    cmp = a.compare(a.peer("rust-nostr"))
    if not cmp:
        return 0
    like = a.like()
    missed = 0
    shared = [c for c in cmp if _shared(c) and c.v.kind != V.NONE]
    slow = [c for c in shared if c.v.kind == V.SLOWER]
    got = f"{len(slow)} of {len(shared)} slower" + (": " + ", ".join(
        f"{c.peer['operation']} {c.peer['bytes']} B{' all cores' if c.peer['threads'] > 1 else ''}"
        f" ({V.fmt(c.v)})" for c in slow) if slow else "")
    if slow and like is not None:
        explained = sum(V.curve_explains(c.v.kind, c.lanes[like.name][1].kind,
                                         floors.uses_curve(c.peer["operation"], c.peer["bytes"]))
                        for c in slow if like.name in c.lanes)
        got += (f"; the libsecp256k1 build alone explains {explained} of the {len(slow)} (not "
                "slower like for like)")
    missed += _target(out, "no operation shared with rust-nostr slower: interval above 1.00 "
                           f"({a.default_backend}, libsecp256k1 {a.secp})", got,
                      not slow and shared)
    for x in a.lanes:
        mine = [c.lanes[x.name][1] for c in cmp if _shared(c) and x.name in c.lanes
                and c.lanes[x.name][1].kind != V.NONE]
        if mine:
            n = sum(v.kind == V.SLOWER for v in mine)
            what = "like for like" if x.name == LIKE_FOR_LIKE else x.name
            missed += _target(out, f"the same, {what} ({x.title})",
                              f"{n} of {len(mine)} slower", n == 0)
    for op, size in FASTER_TARGETS:
        c = _find(cmp, op, size)
        what = f"faster than rust-nostr: {op} {size} B (interval below 1.00)"
        if c is None or c.v.kind == V.NONE:
            missed += _target(out, what, "not measured", False)
            continue
        ok = c.v.kind == V.FASTER
        missed += _target(out, what, f"{V.fmt(c.v)}: {c.v.kind}"
                          + ("" if ok else _floor_note(a, c)), ok)
    for op, size in WITHIN_TARGETS:
        c = _find(cmp, op, size)
        what = (f"at worst {(WITHIN - 1) * 100:.0f} % slower than rust-nostr: {op} {size} B "
                f"(interval at most {WITHIN:.2f})")
        if c is None or c.v.kind == V.NONE:
            missed += _target(out, what, "not measured", False)
            continue
        missed += _target(out, what, f"{V.fmt(c.v)}: {c.v.kind}{_floor_note(a, c)}",
                          V.within(c.v, WITHIN))
    out.append("| faster than rust-nostr: attachment_encrypt/decrypt 64000 B | not comparable: "
               "rust-nostr has no attachment API (NIP-17 kind-15 file encryption) | n/a |\n")
    return missed


# The relay pool's own cost per delivered message (pool_receive less relay_parse_verify: the
# same text parsed and verified, which any client does) against unwrap's, at most this share.
POOL_OVERHEAD_MAX = 0.05


def _pool_target(out, a):
    rows = [find(a.rows, a.default_backend, op, 15)
            for op in ("pool_receive", "relay_parse_verify", "unwrap")]
    what = "relay pool overhead per delivered message under 5 % of unwrap"
    if any(r is None for r in rows):
        return _target(out, what, "not measured", False)
    pool, base, unwrap = (r["median_ns"] for r in rows)
    share = (pool - base) / unwrap
    return _target(out, what, f"{100 * share:.1f} % ({fmt_ns(pool)} pool_receive - "
                              f"{fmt_ns(base)} relay_parse_verify, unwrap {fmt_ns(unwrap)})",
                   share < POOL_OVERHEAD_MAX)


def targets(a):
    """(markdown of the targets table, how many were missed)."""
    out = [f"| Target ({a.default_backend} backend) | Measured | Verdict |\n|---|---|---|\n"]
    missed = (_floor_targets(out, a) + _latency_targets(out, a) + _alloc_targets(out, a)
              + _scaling_target(out, a) + _rust_targets(out, a) + _pool_target(out, a))
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


def _libraries(doc):
    libs = doc.get("libraries", {})
    return "; ".join(f"{k} {v}" for k, v in libs.items() if isinstance(v, str))


def _fmt_row(r):
    """"44.18 µs (51.20 µs)": median (p95)"""
    if not records.measured(r):
        return "-"
    return f"{fmt_ns(r['median_ns'])} ({fmt_ns(r['p95_ns'])})"


def _cells(v):
    """"0.82x [0.78, 0.86] | **faster**": the ratio with its interval, the verdict"""
    if v.kind == V.NONE:
        return "- | -"
    mark = "" if v.kind == V.EVEN else "**"
    return f"{V.fmt(v)} | {mark}{v.kind}{mark}"


def _ours_title(a):
    return f"softchat ({a.default_backend}, libsecp256k1 {a.secp})"


def _peer_section(a, p):
    """One peer: its versions and notes, then its rows against ours, with the verdicts."""
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
    lanes = [x for x in a.lanes if x.rows]
    out.append(f"| Operation | Bytes | Peer | Peer median | {_ours_title(a)} | Ratio (peer / "
               "softchat) | Ours / peer [interval] | Verdict |"
               + "".join(f" softchat ({x.title}) | Ratio |" for x in lanes)
               + "\n|---|---:|---|---:|---:|---:|---|---|" + "---:|---:|" * len(lanes) + "\n")
    for c in a.compare(p):
        q = c.peer
        line = (f"| {q['operation']}{all_cores(q)} | {q['bytes']} | {q['backend']} | "
                f"{fmt_ns(q['median_ns'])} | {fmt_ns(c.ours['median_ns'] if c.ours else None)} | "
                + (f"{q['median_ns'] / c.ours['median_ns']:.2f}x" if records.measured(c.ours)
                   else "-") + f" | {_cells(c.v)} |")
        for x in lanes:
            r = c.lanes.get(x.name, (None, None))[0]
            line += (f" {fmt_ns(r['median_ns'])} | {q['median_ns'] / r['median_ns']:.2f}x |"
                     if records.measured(r) else " - | - |")
        out.append(line + "\n")
    return "".join(out)


def _compare_table(a, cmp, want):
    like = a.like()
    lanes = [x for x in a.lanes if x.rows]
    out = [f"| Operation | Bytes | {_ours_title(a)} | rust-nostr | Ratio [interval] | Verdict |"
           + "".join(f" softchat ({x.title}) | Ratio [interval] | Verdict |" for x in lanes)
           + (" Gap explained by the curve? |" if like else "")
           + "\n|---|---:|---:|---:|---|---|" + "---:|---|---|" * len(lanes)
           + ("---|" if like else "") + "\n"]
    for c in cmp:
        if not want(c.peer["operation"]):
            continue
        line = (f"| {c.peer['operation']}{all_cores(c.peer)} | {c.peer['bytes']} | "
                f"{_fmt_row(c.ours)} | {_fmt_row(c.peer)} | {_cells(c.v)} |")
        for x in lanes:
            r, v = c.lanes.get(x.name, (None, V.Verdict()))
            line += f" {_fmt_row(r)} | {_cells(v)} |"
        if like:
            vl = c.lanes.get(like.name, (None, V.Verdict()))[1]
            line += " " + V.curve_note(c.v.kind, vl.kind, floors.uses_curve(
                c.peer["operation"], c.peer["bytes"])) + " |"
        out.append(line + "\n")
    return "".join(out)


def pairs_text(a):
    k, cov = V.order(a.pairs)
    if k == 0:
        return (f"{a.pairs} pairs per row are too few for a {V.CONFIDENCE * 100:.0f} % "
                "interval, so every verdict here is even (run with more pairs)")
    return (f"{a.pairs} pairs per row, so the interval runs from the {_nth(k)} to the "
            f"{_nth(a.pairs + 1 - k)} smallest pair ratio and holds the median ratio with "
            f"probability {cov * 100:.1f} %")


def _nth(k):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _lanes_text(a):
    out = []
    for x in a.lanes:
        if x.failure:
            out.append(f"Build {x.name}: **not measured: {x.failure}**\n\n")
        elif x.name == LIKE_FOR_LIKE:
            out.append(f"The like-for-like build ({x.title}) is this library against "
                       f"rust-nostr's libsecp256k1 ({x.secp}), compiled with the options "
                       f"secp256k1-sys compiles it with ({x.options or 'see its CMakeCache'}). "
                       "Where our default build is slower and the like-for-like build is not, "
                       f"our libsecp256k1 build (libsecp256k1 {a.secp}) explains the gap "
                       "alone.\n\n")
        else:
            out.append(f"The build {x.name} ({x.title}) is this library against the system "
                       f"libsecp256k1 (Debian's package, {x.secp}), as a distribution builds "
                       "it.\n\n")
    return "".join(out)


def _rust_section(a):
    """The comparison with rust-nostr: equal work, interleaved pairs, verdicts."""
    cmp = a.compare(a.peer("rust-nostr"))
    if not cmp:
        return ""
    out = ["\n### rust-nostr, like with like\n\n"
           "Equal work on both sides (bench/peers/README.md): the same keys, contents, tags and "
           "timestamps; signing without rust-nostr's verification of its own new signature (its "
           "API as shipped is in the reference rows below); keys rotated through 16 of each so "
           "no call meets a public key lifted by an earlier one (libsoftchat keeps 8 lifted, "
           "rust-nostr none); unwrap and parse from JSON text on both sides. Each row is "
           "measured in interleaved pairs of processes, ours then rust-nostr's, one pair in each "
           "round of the comparison; a pair's ratio is our median over rust-nostr's. Ratio: the "
           f"median of the pair ratios (below 1: we are faster), with its interval: "
           f"{pairs_text(a)} (the sign test). Faster when the whole interval lies below 1.00, "
           "slower when it lies above, even otherwise. The medians shown are those of the "
           "comparison's runs (`compared.json`, `peers/rust-nostr.json`).\n\n",
           _lanes_text(a)]
    out.append(_compare_table(a, cmp, _shared_op))
    out.append("\n**Cache-warm rows** (reported apart: one peer, receiver or sender repeated, "
               "so libsoftchat's curve adapter answers from its lifted keys; rust-nostr keeps "
               "none, so its row is the same work on one key):\n\n")
    out.append(_compare_table(a, cmp, is_warm))
    refs = [c for c in cmp if is_reference(c.peer["operation"])]
    if refs:
        out.append("\n**Reference rows**: rust-nostr's API as shipped, which verifies every "
                   "signature it makes (no libsoftchat counterpart, no verdict):\n\n"
                   "| Operation | Bytes | rust-nostr |\n|---|---:|---:|\n")
        for c in refs:
            out.append(f"| {c.peer['operation']} | {c.peer['bytes']} | {_fmt_row(c.peer)} |\n")
    return "".join(out)


def _shared_op(op):
    return not is_warm(op) and not is_reference(op)


def headline(a, peers=("rust-nostr", "nostr-tools")):
    """The headline table: ours against each peer on the rows they share (not the cache-warm
    or reference rows), the median pair ratio with its interval and the verdict; and a count
    per peer."""
    shown = [a.peer(n) for n in peers if a.peer(n)]
    # a peer's own rows (nostr-tools also has rows of its wasm configuration)
    cmps = {p.name: {records.key(c.peer): c for c in a.compare(p) if c.peer["backend"] == p.name}
            for p in shown}
    keys = []
    for p in shown:
        for c in cmps[p.name].values():
            if _shared(c) and c.v.kind != V.NONE and records.key(c.peer) not in keys:
                keys.append(records.key(c.peer))
    order = {r: i for i, r in enumerate(records.key(x) for x in a.compared)}
    keys.sort(key=lambda k: order.get(k, len(order)))
    out = [f"| Operation | Bytes | {_ours_title(a)} |"
           + "".join(f" {p.name} | Ours / {p.name} [interval] | Verdict |" for p in shown)
           + "\n|---|---:|---:|" + "---:|---|---|" * len(shown) + "\n"]
    for k in keys:
        ours = records.find_key(a.compared, a.default_backend, k)
        line = f"| {k[0]}{' (all cores)' if k[2] > 1 else ''} | {k[1]} | {_fmt_row(ours)} |"
        for p in shown:
            c = cmps[p.name].get(k)
            line += f" {_fmt_row(c.peer)} | {_cells(c.v)} |" if c else " - | - | - |"
        out.append(line + "\n")
    out.append("\n")
    for p in shown:
        vs = [c.v.kind for k, c in cmps[p.name].items() if k in keys and c.v.kind != V.NONE]
        out.append(f"Against {p.name}: {vs.count(V.FASTER)} faster, {vs.count(V.EVEN)} even, "
                   f"{vs.count(V.SLOWER)} slower, of {len(vs)} rows.\n")
    return "".join(out)


def clock_text(a):
    """The clock the samples were timed with, and why."""
    why = f"; {a.clock_note}" if a.clock_note else ""
    if a.clock == "cpu":
        return (f"Clock: the measuring thread's CPU time (`--clock cpu`{why}), so the time a "
                "process waits for a core on this shared machine is left out; the rows on "
                "several threads, and nostr-tools (Node has no per-thread CPU clock), are timed "
                "with the wall clock. Each run in the records names its clock.\n\n")
    return (f"Clock: the wall clock (`--clock wall`{why}): the latency a caller sees, including "
            "any time a process waits for a core. Each run in the records names its clock.\n\n")


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


def _pool_sim_text(a):
    """The simulator's run (2,000 scenarios on the default backend): its summary lines."""
    lines = [x.split("]", 1)[1].strip() for x in a.pool_sim.splitlines()
             if x.startswith(("[  STATS   ]", "[  PASSED  ]", "[  FAILED  ]"))]
    if not lines:
        return (a.pool_sim.strip() or "Not run.") + "\n"
    return ("`test_pool_sim` (tests/pool/sim.h), 2,000 seeded scenarios on the default backend; "
            "scenarios per second of CPU time:\n\n" + "".join(f"- {x}\n" for x in lines))


def _nip49_table(a, names):
    """NIP-49's cost per log_n: time and peak resident memory of the measuring process, per
    backend (the rows' bytes: scrypt's table, 128 * 8 * 2^log_n)."""
    sizes = sorted({r["bytes"] for r in a.rows if r["operation"] == "nip49_decrypt"})
    if not sizes:
        return "Not measured.\n"
    out = ["Opening an ncryptsec (`sc_nip49_decrypt`) at each scrypt cost: median per call and "
           "the measuring process's peak resident memory. scrypt's own table is "
           "128 * 8 * 2^log_n bytes.\n\n| log_n | scrypt table | "
           + " | ".join(names) + " |\n|---|---:|" + "---:|" * len(names) + "\n"]
    for size in sizes:
        cells = []
        for b in names:
            r = records.find_key(a.rows, b, ("nip49_decrypt", size, 1))
            if r is None:
                cells.append("not measured")
            elif not records.measured(r):
                cells.append("unsupported" if r["unsupported"] else "**failed**")
            else:
                cells.append(f"{fmt_ns(r['median_ns'])}, {r['rss_kb'] / 1024:.0f} MiB")
        out.append(f"| {(size // 1024).bit_length() - 1} | {size >> 20} MiB | "
                   + " | ".join(cells) + " |\n")
    return "".join(out)


def write(a, charts_note=None):
    """report.md as a string. charts_note: why the charts were not drawn, or None."""
    names = records.backends(a.rows)
    runs = a.runs
    out = [f"# Softchat Core performance audit\n\nRevision {a.revision}. CPU: {a.cpu}. Wall time "
           f"of the audit: {a.wall_s:.0f} s. Every number below is a per-call median (and p95) "
           f"over {runs} independent process{'' if runs == 1 else 'es'} per configuration, under "
           "the contract in docs/benchmarks.md"
           + (f", and in the comparison with the peers over {a.pairs} interleaved pairs of "
              "processes" if a.pairs else "")
           + "; the raw records are `bench.json`, `compared.json`, `footprint.tsv` and "
           "`peers/*.json` beside this file.\n\n", clock_text(a)]
    out.append("## Targets\n\n" + targets(a)[0])
    if a.peer("rust-nostr") or a.peer("nostr-tools"):
        out.append("\n## Headline: against rust-nostr and nostr-tools\n\nOur default build "
                   "against each peer on the operations both measure (the comparison below has "
                   "the other builds and the cache-warm rows). Ours / peer: the median of the "
                   f"pair ratios with its interval ({pairs_text(a)}); faster when the interval "
                   "lies below 1.00, slower when above, even otherwise.\n\n" + headline(a))
    out.append(f"\n## Self-test\n\n{a.selftest}\n## Conformance\n\n")
    out.append(a.conf.markdown() if a.conf is not None else "Not run.\n")
    out.append("\n## Relay pool simulator\n\n" + _pool_sim_text(a))
    out.append("\n## NIP-49: cost per log_n\n\n" + _nip49_table(a, names))
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
    out.append("\n### Every peer row\n\nRatio above 1 means the peer is slower; ours / peer is "
               "the median pair ratio with its interval, as above.\n")
    if not a.peer("rust-nostr"):
        out.append("\n" + _lanes_text(a))
    for p in a.peers:
        out.append(_peer_section(a, p))
    out.append("\n## Footprint\n\n" + _footprint_table(a))
    return "".join(out)
