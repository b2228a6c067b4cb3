#!/usr/bin/python3
"""Joins P2pBench CSVs (jshmem) with shmem_p2p CSVs (native OpenSHMEM) row by row.

With --coll NP:SIDE:CSV entries (CollectivesBench and shmem_coll CSVs, one per side and PE count) it
adds a second section, collective latency by (operation, size, PEs), and one chart per collective:
latency vs PEs at a small and a large size, jshmem and native lines.

Writes a Markdown table (operation, size, both medians with their spread, the ratio jshmem/native
and which side is better: lower latency, higher bandwidth or rate) and PNG charts. Called by
benchmarks/compare-native; usable alone:

  compare_native.py --jshmem j1.csv j2.csv --native n1.csv n2.csv --md out.md --png-prefix out

Input is the CSV both programs print: benchmark,size,unit,median,min,max,values (values separated
by ';'). Benchmark names may contain commas and are not quoted, so a line is split from the right.
Every repetition of every run is pooled per (benchmark, size); the table shows the median of the
pooled values and their min..max, the same statistics Results.java computes for one run.
"""

import argparse
import os
import statistics
import sys

LOWER_IS_BETTER = {"us", "ns"}
TIE = 0.05  # within 5% either way is reported as a tie


def read_csv(paths):
    """(benchmark, size) -> {"unit": str, "values": [float]}, in order of first appearance."""
    rows = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if not lines or not lines[0].startswith("benchmark,size,unit,median,min,max,values"):
            sys.exit(f"compare_native: {path}: not a benchmark CSV (first line {lines[:1]})")
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            parts = line.rsplit(",", 6)
            if len(parts) != 7:
                sys.exit(f"compare_native: {path}:{number}: expected 7 fields, got {len(parts)}: {line}")
            benchmark, size, unit, _median, _min, _max, values = parts
            row = rows.setdefault((benchmark, int(size)), {"unit": unit, "values": []})
            if row["unit"] != unit:
                sys.exit(f"compare_native: {path}:{number}: unit {unit} != {row['unit']} for {benchmark} size={size}")
            row["values"].extend(float(v) for v in values.split(";") if v)
    return rows


def stats(row):
    if row is None or not row["values"]:
        return None
    v = row["values"]
    return statistics.median(v), min(v), max(v)


def human_size(benchmark, size):
    if benchmark.startswith("barrier"):
        return f"{size} PEs"
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def fmt(x):
    if x is None:
        return "—"
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def cell(s):
    return "—" if s is None else f"{fmt(s[0])} ({fmt(s[1])}–{fmt(s[2])})"


def verdict(unit, j, n):
    """ratio jshmem/native, and which side wins by how much."""
    if j is None or n is None or j[0] <= 0 or n[0] <= 0:
        return "—", "—"
    ratio = j[0] / n[0]
    lower = unit in LOWER_IS_BETTER
    jshmem_better = ratio < 1 if lower else ratio > 1
    factor = max(ratio, 1 / ratio)
    if factor < 1 + TIE:
        return f"{ratio:.2f}", "tie"
    return f"{ratio:.2f}", f"{'jshmem' if jshmem_better else 'native'} {factor:.1f}×"


def ordered_keys(jshmem, native):
    """Benchmarks in order of first appearance (P2pBench's order), each one's sizes ascending."""
    keys = list(jshmem) + [k for k in native if k not in jshmem]
    first = {}
    for name, _ in keys:
        first.setdefault(name, len(first))
    return sorted(keys, key=lambda k: (first[k[0]], k[1]))


def scale_points(entries):
    """--scale NP:SIDE:CSV entries -> {side: [(np, barrier_all median µs)]}, sorted by np."""
    by_side = {}
    for entry in entries:
        np_, side, path = entry.split(":", 2)
        for (name, _size), row in read_csv([path]).items():
            if name == "barrier_all latency" and row["values"]:
                by_side.setdefault(side, []).append((int(np_), stats(row)[0]))
    return {side: sorted(points) for side, points in by_side.items()}


def scale_table(entries):
    by_side = scale_points(entries)
    if not by_side:
        return ""
    pes = sorted({np_ for points in by_side.values() for np_, _ in points})
    j, n = dict(by_side.get("jshmem", [])), dict(by_side.get("native", []))
    out = ["", "barrier_all latency vs PEs (3 repetitions, one run per PE count):", "",
           "| PEs | jshmem µs | native µs | jshmem/native | Winner |", "|---:|---:|---:|---:|---|"]
    for np_ in pes:
        js = (j[np_],) * 3 if np_ in j else None
        ns = (n[np_],) * 3 if np_ in n else None
        ratio, win = verdict("us", js, ns)
        out.append(f"| {np_} | {fmt(j.get(np_))} | {fmt(n.get(np_))} | {ratio} | {win} |")
    return "\n".join(out) + "\n"


COLL_SIZES = (8, 64 << 10)  # the sizes charted vs PEs (the barrier row has size 0)


def coll_rows(entries):
    """--coll NP:SIDE:CSV entries -> {side: {(benchmark, size, np): row}}, and benchmarks in first-seen order."""
    by_side, order = {}, []
    for entry in entries:
        np_, side, path = entry.split(":", 2)
        for (name, size), row in read_csv([path]).items():
            if name not in order:
                order.append(name)
            dest = by_side.setdefault(side, {}).setdefault((name, size, int(np_)), {"unit": row["unit"], "values": []})
            dest["values"].extend(row["values"])
    return by_side, order


def coll_table(entries, reps, runs=1):
    by_side, order = coll_rows(entries)
    if not by_side:
        return ""
    j, n = by_side.get("jshmem", {}), by_side.get("native", {})
    keys = sorted(set(j) | set(n), key=lambda k: (order.index(k[0]), k[1], k[2]))
    pes = sorted({k[2] for k in keys})
    out = ["", f"## Collectives over all PEs vs PEs ({', '.join(map(str, pes))} PEs)", "",
           f"jshmem: CollectivesBench on the team WORLD; native: shmem_coll, OpenSHMEM 1.4 active-set collectives over all PEs. "
           f"{'One run' if runs == 1 else f'{runs} runs (alternating)'} per side and PE count{f', {reps} repetitions' if reps else ''}"
           f"; each cell: median (min–max) of the repetitions{'' if runs == 1 else ' of all runs'} of the slowest PE's average "
           "per call, µs, lower is better. Size: bytes per PE (broadcast and reduce: the "
           "message; fcollect and alltoall: one PE's block).", "",
           "| Operation | Size | PEs | jshmem µs | native µs | jshmem/native | Winner |", "|---|---:|---:|---:|---:|---:|---|"]
    for key in keys:
        name, size, np_ = key
        js, ns = stats(j.get(key)), stats(n.get(key))
        ratio, win = verdict("us", js, ns)
        shown = "—" if size == 0 else human_size("", size)
        out.append(f"| {name} | {shown} | {np_} | {cell(js)} | {cell(ns)} | {ratio} | {win} |")
    alone = {side: sorted({k[0] for k in mine} - {k[0] for k in other})
             for side, mine, other in (("jshmem", j, n), ("native", n, j))}
    if j and n:
        for side, names in alone.items():
            if names:
                out.append(f"\nNote: collective rows only {side} has: {'; '.join(names)}")
    return "\n".join(out) + "\n"


def markdown(jshmem, native, args):
    keys = ordered_keys(jshmem, native)
    out = [f"# jshmem vs native OpenSHMEM, {args.np} PEs", ""]
    for line in args.header or []:
        out.append(f"- {line}")
    out.append("- Each cell: median of all repetitions of all runs (min–max). "
               "Ratio is jshmem/native; latency (µs, ns): lower is better; bandwidth and rates: higher is better.")
    for note in args.note or []:
        out.append(f"- Note: {note}")
    if jshmem and native:
        for side, mine, other in (("jshmem", jshmem, native), ("native", native, jshmem)):
            alone = sorted({name for name, _ in mine} - {name for name, _ in other})
            if alone:
                out.append(f"- Note: rows only {side} has (names differ or the other side skipped them): {'; '.join(alone)}")
    out += ["", "| Operation | Size | Unit | Better | jshmem | native | jshmem/native | Winner |",
            "|---|---:|---|---|---:|---:|---:|---|"]
    for key in keys:
        benchmark, size = key
        unit = (jshmem.get(key) or native.get(key))["unit"]
        j, n = stats(jshmem.get(key)), stats(native.get(key))
        ratio, win = verdict(unit, j, n)
        better = "lower" if unit in LOWER_IS_BETTER else "higher"
        out.append(f"| {benchmark} | {human_size(benchmark, size)} | {unit} | {better} | {cell(j)} | {cell(n)} | {ratio} | {win} |")
    return ("\n".join(out) + "\n" + (scale_table(args.scale) if args.scale else "")
            + (coll_table(args.coll, args.coll_reps, args.coll_runs) if args.coll else ""))


def series(rows, benchmark):
    points = sorted((size, stats(row)[0]) for (name, size), row in rows.items() if name == benchmark and row["values"])
    return [p[0] for p in points], [p[1] for p in points]


def size_ticks(ax, xs):
    ticks = [x for x in xs if (x.bit_length() - 1) % 2 == 1 or x == xs[-1]]  # 8 B, 32 B, 128 B, ...
    ax.set_xticks(ticks)
    ax.set_xticklabels([human_size("", t).replace(" ", "") for t in ticks], rotation=45)
    ax.minorticks_off()


def charts(jshmem, native, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("compare_native: matplotlib missing (apt-get install python3-matplotlib): no charts", file=sys.stderr)
        return []
    written = []
    styles = {"jshmem": dict(color="tab:blue"), "native": dict(color="tab:orange")}

    def save(fig, suffix):
        fig.tight_layout()
        path = f"{args.png_prefix}-{suffix}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    def pes_axes(ax, ylabel, pes):
        """The common frame of the latency-vs-PEs charts: log latency over the PE counts run."""
        ax.set_xlabel("PEs")
        ax.set_ylabel(ylabel)
        ax.set_xticks(sorted(pes))
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)

    def plot_sizes(names, ylabel, title, suffix, unit_label):
        fig, ax = plt.subplots(figsize=(8, 5))
        xs_all = []
        for name, marker in names:
            for side, rows in (("jshmem", jshmem), ("native", native)):
                xs, ys = series(rows, name)
                if xs:
                    xs_all = sorted(set(xs_all) | set(xs))
                    ax.plot(xs, ys, marker=marker, label=f"{side}: {name}", linestyle="-" if side == "jshmem" else "--",
                            **styles[side])
        if not xs_all:
            plt.close(fig)
            return
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        size_ticks(ax, xs_all)
        ax.set_xlabel("message size")
        ax.set_ylabel(f"{ylabel} ({unit_label}, median)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, suffix)

    plot_sizes([("put latency (put + quiet)", "o"), ("get latency", "s")], "latency", f"Latency vs size, {args.np} PEs",
               "latency", "µs, lower is better")
    bw = next((name for name, _ in list(jshmem) + list(native) if name.startswith("put bandwidth")), None)
    if bw:
        plot_sizes([(bw, "o")], "bandwidth", f"Put bandwidth vs size, {args.np} PEs", "bandwidth", "MB/s, higher is better")

    # single-size latency rows side by side (ping-pong, atomics, barrier)
    ops = [k for k in ordered_keys(jshmem, native)
           if (jshmem.get(k) or native.get(k))["unit"] == "us" and not k[0].startswith(("put latency", "get latency"))]
    if ops:
        fig, ax = plt.subplots(figsize=(8, 0.6 * len(ops) + 1.5))
        height = 0.38
        for i, side_rows in enumerate((("jshmem", jshmem), ("native", native))):
            side, rows = side_rows
            vals = [(stats(rows.get(k)) or (0,))[0] for k in ops]
            ax.barh([y + (i - 0.5) * height for y in range(len(ops))], vals, height=height, label=side, **styles[side])
        ax.set_yticks(range(len(ops)))
        ax.set_yticklabels([k[0].replace(" (one way)", "\n(one way)") for k in ops], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("µs (median), lower is better")
        ax.set_title(f"Small-operation latency, {args.np} PEs")
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend()
        save(fig, "ops")

    # collective latency vs PEs: --scale NP:SIDE:FILE entries
    if args.scale:
        by_side = scale_points(args.scale)
        if by_side:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            for side, points in sorted(by_side.items()):
                points.sort()
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=side,
                        linestyle="-" if side == "jshmem" else "--", **styles.get(side, {}))
            if args.cores:
                ax.axvline(args.cores, color="grey", linestyle=":", label=f"{args.cores} cores (oversubscribed beyond)")
            pes_axes(ax, "barrier_all latency (µs, median), lower is better", {p[0] for pts in by_side.values() for p in pts})
            ax.set_title("barrier_all latency vs PEs")
            ax.legend()
            save(fig, "barrier-vs-pes")

    # collective latency vs PEs, one chart per collective: --coll NP:SIDE:FILE entries
    if args.coll:
        by_side, order = coll_rows(args.coll)
        for name in order:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            all_pes = set()
            sizes = sorted({k[1] for rows in by_side.values() for k in rows if k[0] == name})
            shown = [s for s in sizes if s in COLL_SIZES or s == 0] or sizes[:1]
            for side in ("jshmem", "native"):
                rows = by_side.get(side, {})
                for size, marker in zip(shown, ("o", "s", "^")):
                    points = sorted((k[2], stats(r)[0]) for k, r in rows.items() if k[0] == name and k[1] == size and r["values"])
                    if not points:
                        continue
                    all_pes |= {p[0] for p in points}
                    label = side if size == 0 else f"{side}, {human_size('', size)}"
                    ax.plot([p[0] for p in points], [p[1] for p in points], marker=marker, label=label,
                            linestyle="-" if side == "jshmem" else "--", **styles[side])
            if not all_pes:
                plt.close(fig)
                continue
            if args.cores and args.cores < max(all_pes):
                ax.axvline(args.cores, color="grey", linestyle=":", label=f"{args.cores} cores (oversubscribed beyond)")
            pes_axes(ax, "latency per call (µs, median), lower is better", all_pes)
            what = "" if shown == [0] else " at " + " and ".join(human_size("", s) for s in shown) + (
                " per PE" if name.startswith(("fcollect", "alltoall")) else "")
            ax.set_title(f"{name}{what}: latency vs PEs")
            ax.set_xlim(min(all_pes) - 0.3, max(all_pes) + 0.3)
            ax.legend(fontsize=8, framealpha=0.85)
            save(fig, f"coll-{name.split(' (')[0].replace(' ', '-')}-vs-pes")
    return written


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jshmem", nargs="*", default=[], help="P2pBench CSV files (pooled)")
    p.add_argument("--native", nargs="*", default=[], help="shmem_p2p CSV files (pooled)")
    p.add_argument("--np", default="2", help="PE count, for titles")
    p.add_argument("--md", help="write the Markdown here (it is always printed to stdout)")
    p.add_argument("--png-prefix", help="write charts as PREFIX-latency.png, -bandwidth.png, -ops.png, -barrier-vs-pes.png")
    p.add_argument("--header", action="append", help="a bullet line under the title (repeatable)")
    p.add_argument("--note", action="append", help="a note line (repeatable)")
    p.add_argument("--cores", type=int, help="CPU count, marked on the PE-scaling chart")
    p.add_argument("--scale", action="append", help="NP:SIDE:CSV for the barrier-vs-PEs chart (repeatable)")
    p.add_argument("--coll", action="append",
                   help="NP:SIDE:CSV of CollectivesBench (jshmem) or shmem_coll (native) at NP PEs (repeatable): the collectives section")
    p.add_argument("--coll-reps", type=int, help="repetitions per collectives run, for the section's text")
    p.add_argument("--coll-runs", type=int, default=1, help="runs per side and PE count, for the section's text")
    args = p.parse_args()

    jshmem, native = read_csv(args.jshmem), read_csv(args.native)
    if not jshmem and not native and not args.coll:
        sys.exit("compare_native: no input rows")
    md = markdown(jshmem, native, args)
    if args.png_prefix:
        pngs = charts(jshmem, native, args)
        if pngs:
            md += "\nCharts: " + ", ".join(f"[{os.path.basename(x)}]({os.path.basename(x)})" for x in pngs) + "\n"
    if args.md:
        with open(args.md, "w", encoding="utf-8") as f:
            f.write(md)
    sys.stdout.write(md)


if __name__ == "__main__":
    main()
