"""The report's charts, drawn with matplotlib (Debian's python3-matplotlib, scripts/setup.sh):
latency against payload size for the families measured at several sizes, and latency per
operation for the others; one series per backend, build or peer. SVG, reproducible (no date,
fixed ids)."""
import records

FAMILIES = ("nip44_encrypt", "nip44_decrypt", "nip44_encrypt_held", "nip44_decrypt_held",
            "attachment_encrypt", "attachment_decrypt")
# rows the report tables on their own (NIP-49's cost per scrypt size), drawn in neither chart
OWN_TABLE = ("nip49_decrypt",)


def available():
    """None when matplotlib can be imported, else why not."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        return f"matplotlib is not installed ({e}; scripts/setup.sh --with-tools)"
    return None


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "softchat-audit"
    matplotlib.rcParams["font.size"] = 9
    import matplotlib.pyplot as plt
    return plt


def _drawn(rows):
    return [r for r in rows if records.measured(r) and not r["floor"]
            and r["operation"] not in OWN_TABLE]


def _save(fig, path):
    fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")


def _ns_label(ns, _pos=None):
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.0f} µs"
    return f"{ns / 1e6:.0f} ms"


def _bytes_label(b):
    if b < 1024:
        return f"{b:.0f} B"
    if b < 1048576:
        return f"{b / 1024:.0f} KiB"
    return f"{b / 1048576:.0f} MiB"


def latency_vs_size(rows, path):
    """One panel per family: a line per series through its sizes (log-log)."""
    plt = _pyplot()
    from matplotlib.ticker import FuncFormatter
    rows = _drawn(rows)
    series = records.backends(rows)
    fig, axes = plt.subplots(3, 2, figsize=(10, 11))
    for ax, fam in zip(axes.flat, FAMILIES):
        ax.set_title(fam, loc="left", fontweight="bold")
        mine = [r for r in rows if r["operation"] == fam]
        if not mine:
            ax.text(0.5, 0.5, "not measured", ha="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
            continue
        for i, s in enumerate(series):
            pts = sorted((r["bytes"], r["median_ns"]) for r in mine if r["backend"] == s)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                        color=f"C{i % 10}", linestyle="-" if i < 10 else "--", label=s)
        ax.set_xscale("log")
        ax.set_yscale("log")
        sizes = sorted({r["bytes"] for r in mine})
        ax.set_xticks(sizes)
        ax.set_xticklabels([_bytes_label(b) for b in sizes])
        ax.minorticks_off()
        ax.yaxis.set_major_formatter(FuncFormatter(_ns_label))
        ax.grid(True, color="#eeeeee")
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 0.98))
    fig.suptitle("median latency per call against payload size (log-log)", x=0.02,
                 ha="left", fontsize=10, color="#555555")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    _save(fig, path)
    plt.close(fig)


def operation_bars(rows, path):
    """The operations measured at one size: a bar per series (log scale)."""
    plt = _pyplot()
    from matplotlib.ticker import FuncFormatter
    rows = [r for r in _drawn(rows) if r["operation"] not in FAMILIES]
    series = records.backends(rows)
    ops = []
    for r in rows:
        if (r["operation"], r["threads"]) not in ops:
            ops.append((r["operation"], r["threads"]))
    if not ops:
        fig = plt.figure(figsize=(4, 1))
        fig.text(0.05, 0.5, "no operation measured")
        _save(fig, path)
        plt.close(fig)
        return
    bar = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(10, 0.25 * len(ops) * max(2, len(series)) + 1))
    for i, s in enumerate(series):
        ys, widths = [], []
        for j, (op, threads) in enumerate(ops):
            r = next((r for r in rows if r["backend"] == s and r["operation"] == op
                      and r["threads"] == threads), None)
            if r is not None:
                ys.append(j + i * bar)
                widths.append(r["median_ns"])
        ax.barh(ys, widths, height=bar * 0.9, color=f"C{i % 10}",
                hatch="//" if i >= 10 else None, label=s)
    ax.set_yticks([j + bar * (len(series) - 1) / 2 for j in range(len(ops))])
    ax.set_yticklabels([op + (" (all cores)" if t > 1 else "") for op, t in ops])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(_ns_label))
    ax.grid(True, axis="x", color="#eeeeee")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_xlabel("median latency per call (log scale)", color="#555555")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
