"""Verdicts of one implementation against another on a row both measured in the same run
(docs/benchmarks.md, "Verdicts"). The variation of a side is the relative standard deviation
of its run medians; the margin is max(5 %, 3 x the larger variation). Ours is faster when its
median is lower than the peer's by more than the margin, slower when higher by more than the
margin, else even. Runs are measured side by side (run r of each side in the same round of
the interleaved runner), so each pair of runs gives a verdict of its own under the row's
margin; when one disagrees with the row's verdict, the row is measured again and settled by
settle(), so one noisy process cannot decide it."""
import math
from dataclasses import dataclass, field

MIN_MARGIN = 0.05
NONE, EVEN, FASTER, SLOWER = "-", "even", "faster", "slower"


@dataclass
class Verdict:
    kind: str = NONE
    ratio: float = 0.0  # ours / peer, medians
    margin: float = 0.0  # a fraction: max(5 %, 3 x the larger variation)
    runs_agree: bool = False  # every side-by-side pair of runs gives kind under margin


@dataclass
class Final:
    first: Verdict = field(default_factory=Verdict)
    second: Verdict = field(default_factory=Verdict)  # the re-measurement (NONE: not retried)
    retried: bool = False
    second_decides: bool = False  # the re-measurement was the quieter one
    kind: str = NONE  # what counts
    ratio: float = 0.0
    margin: float = 0.0


def variation(r):
    """Relative standard deviation of the run medians (0 with fewer than two runs)."""
    m = [x["median_ns"] for x in r["runs"]]
    if len(m) < 2:
        return 0.0
    mean = sum(m) / len(m)
    ss = sum((x - mean) ** 2 for x in m)
    return math.sqrt(ss / (len(m) - 1)) / mean if mean > 0 else 0.0


def _judge(ratio, margin):
    if ratio < 1.0 - margin:
        return FASTER
    if ratio > 1.0 + margin:
        return SLOWER
    return EVEN


def _usable(r):
    return (r is not None and not r["failed"] and not r["unsupported"] and r["runs"]
            and (r.get("median_ns") or 0) > 0)


def of(ours, peer):
    """The verdict of ours against peer (either may be None: NONE)."""
    if not _usable(ours) or not _usable(peer):
        return Verdict()
    margin = max(MIN_MARGIN, 3.0 * max(variation(ours), variation(peer)))
    ratio = ours["median_ns"] / peer["median_ns"]
    kind = _judge(ratio, margin)
    agree = True
    for a, b in zip(ours["runs"], peer["runs"]):
        if not b["median_ns"] > 0 or _judge(a["median_ns"] / b["median_ns"], margin) != kind:
            agree = False
    return Verdict(kind, ratio, margin, agree)


def needs_retry(v):
    """Comparable, and its runs disagree."""
    return v.kind != NONE and not v.runs_agree


def settle(first, second=None):
    """Without a retry the first verdict counts; with one, the verdict of the quieter
    measurement (the smaller margin; the re-measurement on a tie) counts, unless the two say
    opposite things (one faster, one slower), which is even."""
    out = Final(first=first, retried=second is not None)
    q = first
    if second is not None:
        out.second = second
        if second.kind != NONE and (first.kind == NONE or second.margin <= first.margin):
            q = second
            out.second_decides = True
    out.kind, out.ratio, out.margin = q.kind, q.ratio, q.margin
    if second is not None and {first.kind, second.kind} == {FASTER, SLOWER}:
        out.kind = EVEN  # the two measurements contradict each other
    return out


def curve_explains(ours, like, uses_curve):
    """Whether the older libsecp256k1 alone explains a slower row: the default build is
    slower, the like-for-like build measured and not slower, and the operation calls the
    curve."""
    return ours == SLOWER and uses_curve and like not in (NONE, SLOWER)


def curve_note(ours, like, uses_curve):
    """What the like-for-like build says about the default build's verdict on a row. An
    operation without curve calls runs the same code in both builds, so their difference is
    noise and explains nothing."""
    if NONE in (ours, like):
        return ""
    if curve_explains(ours, like, uses_curve):
        return "yes: the older libsecp256k1"
    if ours == SLOWER:
        return "no: slower like for like too" if uses_curve else "no: no curve call"
    if uses_curve and ours == EVEN and like == FASTER:
        return "the older libsecp256k1 costs the lead"
    return ""
