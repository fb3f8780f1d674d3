"""The records of softchat-bench (schema softchat-bench/1, docs/benchmarks.md): reading,
writing, finding rows, and the one way the report prints a latency."""
import json
import math

SCHEMA = "softchat-bench/1"


def load(path):
    """A record as a dict; raises ValueError when it is not of the schema."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ValueError(f"{path}: schema is not {SCHEMA}")
    for r in doc.get("results", []):
        normalise(r)
    return doc


def normalise(r):
    """Fills the defaults a row may leave out, as softchat-bench compare reads them."""
    r.setdefault("threads", 1)
    r.setdefault("floor", False)
    r.setdefault("runs", [])
    r["unsupported"] = bool(r.get("unsupported", False))
    r["failed"] = bool(r.get("failed", False)) or (
        not r["unsupported"] and not isinstance(r.get("median_ns"), (int, float)))
    return r


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def measured(r):
    """Whether a row has numbers: not failed, not unsupported."""
    return r is not None and not r["failed"] and not r["unsupported"]


def key(r):
    return (r["operation"], r["bytes"], r["threads"])


def find(rows, backend, op, bytes_, all_cores=False):
    """The measured operation row of (backend, op, bytes) on one thread (or on several)."""
    for r in rows:
        if (measured(r) and not r["floor"] and r["backend"] == backend and r["operation"] == op
                and r["bytes"] == bytes_
                and (r["threads"] > 1 if all_cores else r["threads"] == 1)):
            return r
    return None


def find_key(rows, backend, k):
    """The row of backend with key k (operation, bytes, threads), whatever its state."""
    for r in rows:
        if not r["floor"] and r["backend"] == backend and key(r) == k:
            return r
    return None


def backends(rows):
    """The distinct backends of the operation rows, in order."""
    out = []
    for r in rows:
        if not r["floor"] and r["backend"] not in out:
            out.append(r["backend"])
    return out


def fmt_ns(ns, none="-"):
    """"812 ns", "44.18 µs", "1.52 ms"; `none` when there is no measurement."""
    if ns is None or not isinstance(ns, (int, float)) or ns < 0 or not math.isfinite(ns):
        return none
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns / 1e6:.2f} ms"


def all_cores(r):
    return " (all cores)" if r["threads"] > 1 else ""
