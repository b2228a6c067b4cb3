#!/usr/bin/env python3
"""Joins the CSVs of benchmarks/compare-moe (MoeBench and shmem_moe) into a Markdown table and PNG charts.

Each CSV row is one run's median and p99 over its steps; rows of the same (impl, mode, PEs, tokens, phase)
from several runs are pooled by taking the median of the run medians (and of the p99s). Writes
OUT/moe.md (also printed) and OUT/moe-latency-vs-tokens.png, OUT/moe-latency-vs-pes.png.
"""
import argparse
import csv
import statistics
from collections import defaultdict

SERIES = [("jshmem", "normal"), ("oshmem", "normal"), ("jshmem", "collective"), ("mpi", "alltoallv"),
          ("jshmem", "low-latency")]
LABEL = {("jshmem", "normal"): "jshmem normal", ("oshmem", "normal"): "OSHMEM normal",
         ("jshmem", "collective"): "jshmem alltoall", ("mpi", "alltoallv"): "MPI_Alltoallv",
         ("jshmem", "low-latency"): "jshmem low-latency"}


def flow_order(label):
    """Sorts 'window=64K;inflight=0' labels by window bytes, then in-flight limit."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    w, f = label.replace("window=", "").split(";inflight=")
    return (int(w[:-1]) * units[w[-1].upper()] if w[-1].upper() in units else int(w), int(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="moe")
    ap.add_argument("csvs", nargs="+")
    a = ap.parse_args()
    runs = defaultdict(list)
    copy = defaultdict(list)
    for path in a.csvs:
        try:
            with open(path) as f:
                for r in csv.DictReader(f):
                    if r["impl"] == "memcpy":
                        copy[int(r["pes"])].append(float(r["gbps"]))
                        continue
                    key = (r["impl"], r["mode"], int(r["pes"]), int(r["tokens"]), r["phase"])
                    runs[key].append((float(r["median_us"]), float(r["p99_us"]), float(r["bytes_per_pe"])))
        except FileNotFoundError:
            pass
    pooled = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), v[0][2], len(v))
              for k, v in runs.items()}
    copy_gbps = {p: statistics.median(v) for p, v in copy.items()}
    pes = sorted({k[2] for k in pooled})
    tokens = sorted({k[3] for k in pooled})
    lines = ["# " + a.title, "",
             "Median over the runs of each run's median (p99 in parentheses) of the slowest PE's time per step, µs; "
             "GB/s = payload bytes sent per PE / median (DeepEP's count). 'vs OSHMEM' = OSHMEM normal / jshmem normal "
             "(> 1: jshmem faster); 'copy %' = jshmem normal GB/s / single-thread memcpy GB/s of this machine.", ""]
    head = "| PEs | tokens | phase | " + " | ".join(LABEL[s] for s in SERIES) + " | jshmem GB/s | vs OSHMEM | copy % |"
    lines += [head, "|" + "---|" * (head.count("|") - 1)]
    for p in pes:
        for t in tokens:
            for phase in ("dispatch", "combine"):
                cells = []
                for s in SERIES:
                    v = pooled.get((s[0], s[1], p, t, phase))
                    cells.append("%.0f (%.0f)" % (v[0], v[1]) if v else "–")
                j = pooled.get(("jshmem", "normal", p, t, phase))
                o = pooled.get(("oshmem", "normal", p, t, phase))
                if all(c == "–" for c in cells):
                    continue
                gbps = j[2] / j[0] / 1e3 if j else None
                lines.append("| %d | %d | %s | %s | %s | %s | %s |" % (
                    p, t, phase, " | ".join(cells), "%.2f" % gbps if gbps else "–",
                    "%.2f" % (o[0] / j[0]) if j and o else "–",
                    "%.0f" % (100 * gbps / copy_gbps[p]) if gbps and copy_gbps.get(p) else "–"))
    flow = sorted({k[1] for k in pooled if "/" in k[1]})
    if flow:
        labels = sorted({m.split("/", 1)[1] for m in flow}, key=flow_order)
        lines += ["", "Flow control (MODE/window=SHMEM_PROXY_WINDOW;inflight=--inflight, median (p99) µs, slowest PE):", "",
                  "| window, inflight | PEs | tokens | low-latency dispatch | low-latency combine | normal dispatch | normal combine |",
                  "|---|---|---|---|---|---|---|"]
        for lab in labels:
            for p in pes:
                for t in tokens:
                    cells = []
                    for mode in ("low-latency", "normal"):
                        for phase in ("dispatch", "combine"):
                            v = pooled.get(("jshmem", mode + "/" + lab, p, t, phase))
                            cells.append("%.0f (%.0f)" % (v[0], v[1]) if v else "–")
                    if any(c != "–" for c in cells):
                        lines.append("| %s | %d | %d | %s |" % (lab.replace("window=", "").replace(";inflight=", ", "), p, t,
                                                              " | ".join(cells)))
    if copy_gbps:
        lines += ["", "memcpy (one thread, the dispatch's bytes): " +
                  ", ".join("%d PEs %.2f GB/s" % (p, g) for p, g in sorted(copy_gbps.items()))]
    text = "\n".join(lines) + "\n"
    with open(a.out + "/moe.md", "w") as f:
        f.write(text)
    print(text)
    if not any((k[0], k[1]) in SERIES for k in pooled):
        return  # a flow-control run: table only
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(python3-matplotlib missing: no charts)")
        return
    fig, axes = plt.subplots(2, len(pes), figsize=(4.5 * len(pes), 7), squeeze=False)
    for c, p in enumerate(pes):
        for r, phase in enumerate(("dispatch", "combine")):
            ax = axes[r][c]
            for s in SERIES:
                pts = [(t, pooled[(s[0], s[1], p, t, phase)][0] / 1e3) for t in tokens if (s[0], s[1], p, t, phase) in pooled]
                if pts:
                    ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=LABEL[s])
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title("%s, %d PEs" % (phase, p))
            ax.set_xlabel("tokens per PE")
            ax.set_ylabel("median ms")
            ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(a.title, fontsize=8)
    fig.tight_layout()
    fig.savefig(a.out + "/moe-latency-vs-tokens.png", dpi=90)
    if len(pes) > 1:
        t = 1024 if 1024 in tokens else tokens[-1]
        fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
        for i, phase in enumerate(("dispatch", "combine")):
            for s in SERIES:
                pts = [(p, pooled[(s[0], s[1], p, t, phase)][0] / 1e3) for p in pes if (s[0], s[1], p, t, phase) in pooled]
                if pts:
                    axes[i].plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=LABEL[s])
            axes[i].set_title("%s, %d tokens per PE" % (phase, t))
            axes[i].set_xlabel("PEs")
            axes[i].set_ylabel("median ms")
            axes[i].set_yscale("log")
            axes[i].grid(True, which="both", alpha=0.3)
        axes[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(a.out + "/moe-latency-vs-pes.png", dpi=90)


if __name__ == "__main__":
    main()
