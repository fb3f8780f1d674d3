"""Verdicts of our build against a peer on a row both measured side by side (docs/benchmarks.md,
"Verdicts"): a paired statistic. softchat-bench run measures the two in rounds, our process
and then the peer's, next to each other (runner.c), so run i of each side is pair i, and each
pair gives a ratio, our median over the peer's. The verdict reads a confidence interval of
the median of those ratios: faster when the whole interval lies below 1.00, slower when it
lies above, even otherwise.

The interval is the sign test's, from the order statistics of the ratios (no assumption about
their distribution, and one process disturbed by a neighbour moves it by one rank at most):
with the n ratios sorted, [r(k), r(n+1-k)] holds the median ratio with probability
1 - 2 P(Binomial(n, 1/2) <= k - 1), and k is the largest that keeps that at least 95 %.
Nine pairs give [r(2), r(8)] at 96.1 %; fewer than six pairs give no 95 % interval, and no
verdict but even."""
import math
from dataclasses import dataclass

CONFIDENCE = 0.95
NONE, EVEN, FASTER, SLOWER = "-", "even", "faster", "slower"


@dataclass
class Verdict:
    kind: str = NONE  # NONE: not comparable (a side missing, failed or unsupported)
    ratio: float = 0.0  # the median of the pair ratios (ours / peer)
    lo: float = 0.0  # the interval of the median ratio
    hi: float = 0.0
    pairs: int = 0
    coverage: float = 0.0  # of [lo, hi]; 0 when there are too few pairs for CONFIDENCE


def _binom_cdf(k, n):
    """P(Binomial(n, 1/2) <= k)."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n


def order(n, confidence=CONFIDENCE):
    """(k, coverage): the ranks k and n + 1 - k (1-based) of the interval, or (0, 0.0) when
    n pairs are too few for the confidence."""
    best = (0, 0.0)
    for k in range(1, n // 2 + 1):
        cov = 1 - 2 * _binom_cdf(k - 1, n)
        if cov < confidence:
            break
        best = (k, cov)
    return best


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def ratios(ours, peer):
    """Pair i's ratio: run i of ours over run i of the peer (the same round)."""
    return [a["median_ns"] / b["median_ns"] for a, b in zip(ours["runs"], peer["runs"])
            if a["median_ns"] > 0 and b["median_ns"] > 0]


def _usable(r):
    return r is not None and not r["failed"] and not r["unsupported"] and r["runs"]


def of(ours, peer):
    """The verdict of ours against peer (either may be None: NONE)."""
    if not _usable(ours) or not _usable(peer):
        return Verdict()
    rs = sorted(ratios(ours, peer))
    if not rs:
        return Verdict()
    k, cov = order(len(rs))
    v = Verdict(EVEN, median(rs), rs[0], rs[-1], len(rs), cov)
    if k == 0:
        return v  # no interval at CONFIDENCE: [lo, hi] is the range, and decides nothing
    v.lo, v.hi = rs[k - 1], rs[len(rs) - k]
    v.kind = FASTER if v.hi < 1.0 else SLOWER if v.lo > 1.0 else EVEN
    return v


def within(v, bound):
    """Whether the interval's upper end is at most `bound` (1.02: at worst 2 % slower)."""
    return v.kind != NONE and v.coverage > 0 and v.hi <= bound


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
        return "yes: the libsecp256k1 build"
    if ours == SLOWER:
        return "no: slower like for like too" if uses_curve else "no: no curve call"
    if uses_curve and ours == EVEN and like == FASTER:
        return "the libsecp256k1 build costs the lead"
    return ""


def _num(x):
    """Two decimals, or two significant digits below 0.1 (a peer a hundred times slower)."""
    return f"{x:.2f}" if x >= 0.1 else f"{x:.2g}"


def fmt(v):
    """"0.82x [0.78, 0.86]": the median ratio and its interval (the range when too few pairs
    for one)."""
    if v.kind == NONE:
        return "-"
    if v.coverage == 0:
        return f"{_num(v.ratio)}x (range {_num(v.lo)}–{_num(v.hi)}, {v.pairs} pairs: too few)"
    return f"{_num(v.ratio)}x [{_num(v.lo)}, {_num(v.hi)}]"
