#!/usr/bin/env python3
"""Joins RemoteBench (jshmem, one column per transport) and shmem_remote (Open MPI OSHMEM) CSVs into one Markdown table.

Every run's CSV has the columns benchmark,size,unit,median,min,max,values (values ';'-separated). Row
names may hold commas ("barrier_all, 2 PEs"), so a line is split from the right. The repetitions of all
runs of one side are pooled: the table shows their median, min and max, and jshmem / OSHMEM of the
medians, read by the unit: for us (time) above 1 means jshmem is slower, for M/s and MB/s (rates)
above 1 means jshmem is faster.

With several jshmem transports (--side NAME A.csv ..., once per transport) each gets a column and a ratio,
and a last column gives the best jshmem transport's ratio per row. --floor C.csv ... adds what the network
itself does between the same hosts (plain TCP, ucx_perftest), measured in the same run, as a table below,
and the best 1 MiB put bandwidth as a fraction of the TCP stream.

--png OUT draws the latency rows (us) as grouped bars, one bar per side (median, whiskers min-max), with the
floor's one-way UCX latencies and TCP ping-pong as dashed lines (needs matplotlib; without it the table is
still written and the chart is skipped with a line on stderr).

Usage: compare_multihost.py [--jshmem A.csv ... | --side NAME A.csv ...]... --native B.csv ... [--floor C.csv ...]
                            [--header TEXT]... [--note TEXT]... [--md OUT] [--png OUT]
"""
import argparse
import statistics
import sys


def read(paths):
    """{(benchmark, size): (unit, [values])} in first-appearance order, pooled over the files."""
    rows = {}
    for path in paths:
        with open(path) as f:
            lines = f.read().splitlines()
        for line in lines[1:]:
            if not line.strip():
                continue
            benchmark, size, unit, _median, _min, _max, values = line.rsplit(",", 6)
            key = (benchmark, int(size))
            rows.setdefault(key, (unit, []))[1].extend(float(v) for v in values.split(";") if v)
    return rows


def cell(values):
    if not values:
        return "–"
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def fmt(x):
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def ratio_text(r, unit):
    faster = (r < 1) if unit == "us" else (r > 1)
    times = r if r > 1 else 1 / r
    return f"{r:.3g} ({times:.3g}x {'faster' if faster else 'slower'})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jshmem", nargs="*", default=[])
    ap.add_argument("--side", nargs="+", action="append", default=[], metavar=("NAME", "CSV"))
    ap.add_argument("--native", nargs="*", default=[])
    ap.add_argument("--floor", nargs="*", default=[])
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--title", default="jshmem vs Open MPI OSHMEM (UCX tcp), two test hosts")
    ap.add_argument("--md")
    ap.add_argument("--png")
    a = ap.parse_args()
    sides = [("jshmem", a.jshmem)] if a.jshmem else []
    sides += [(s[0], s[1:]) for s in a.side]
    data = [(name, read(paths)) for name, paths in sides]
    n = read(a.native)
    keys = []
    for _, rows in data:
        keys += [k for k in rows if k not in keys]
    keys += [k for k in n if k not in keys]
    several = len(data) > 1
    out = [f"### {a.title}", ""]
    out += [f"- {h}" for h in a.header]
    head = "| row | unit | " + " | ".join(f"jshmem {name} median (min–max)" for name, _ in data) + " | OSHMEM median (min–max) | "
    head += " | ".join(f"{name} / OSHMEM" for name, _ in data)
    if several:
        head += " | best jshmem / OSHMEM"
    out += ["", head + " |", "|---|---|" + "---:|" * (len(data) * 2 + 1 + (1 if several else 0))]
    best_bw = None
    for key in keys:
        unit = next((rows[key][0] for _, rows in data if key in rows), None) or n[key][0]
        nv = n.get(key, (unit, []))[1]
        cells, ratios, rs = [], [], []
        for _, rows in data:
            jv = rows.get(key, (unit, []))[1]
            cells.append(cell(jv))
            if jv and nv and statistics.median(nv) > 0:
                r = statistics.median(jv) / statistics.median(nv)
                rs.append(r)
                ratios.append(ratio_text(r, unit))
            else:
                ratios.append("–")
            if key[1] == 1048576 and unit == "MB/s" and jv:
                best_bw = max(best_bw or 0, statistics.median(jv))
        line = f"| {key[0]} | {unit} | " + " | ".join(cells) + f" | {cell(nv)} | " + " | ".join(ratios)
        if several:
            line += " | " + (ratio_text(min(rs) if unit == "us" else max(rs), unit) if rs else "–")
        out.append(line + " |")
    if a.floor:
        f = read(a.floor)
        out += ["", "Floor: the network between the same two hosts, measured in the same run (no OpenSHMEM in the way):", "",
                "| row | unit | median (min–max) |", "|---|---|---:|"]
        for key, (unit, vals) in f.items():
            out.append(f"| {key[0]} | {unit} | {cell(vals)} |")
        stream = [v for k, (u, v) in f.items() if u == "MB/s"]
        if stream and best_bw:
            out += ["", f"Best jshmem 1 MiB put bandwidth: {100 * best_bw / statistics.median(stream[0]):.0f} % of the TCP stream."]
    if a.note:
        out += [""] + [f"Note: {t}" for t in a.note]
    text = "\n".join(out) + "\n"
    print(text, end="")
    if a.md:
        with open(a.md, "w") as f:
            f.write(text)
    if a.png:
        chart(a.png, a.title, a.header[1] if len(a.header) > 1 else "", data, n, read(a.floor) if a.floor else {})


def chart(path, title, subtitle, data, native, floor):
    """Grouped bars of the latency rows (us): each jshmem side and OSHMEM; floor rows as dashed lines."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"compare_multihost.py: matplotlib missing, {path} not drawn (apt-get install python3-matplotlib)", file=sys.stderr)
        return
    sides = [(f"jshmem {name}", rows) for name, rows in data] + [("OSHMEM (UCX tcp)", native)]
    keys = []
    for _, rows in sides:
        keys += [k for k, (u, v) in rows.items() if u == "us" and v and k not in keys]
    if not keys:
        print(f"compare_multihost.py: no latency rows, {path} not drawn", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(max(7, 1.4 * len(keys) + 2), 4.6))
    width = 0.8 / len(sides)
    for i, (label, rows) in enumerate(sides):
        xs, meds, lo, hi = [], [], [], []
        for j, k in enumerate(keys):
            vals = rows.get(k, ("us", []))[1]
            if not vals:
                continue
            m = statistics.median(vals)
            xs.append(j - 0.4 + width * (i + 0.5))
            meds.append(m)
            lo.append(m - min(vals))
            hi.append(max(vals) - m)
        ax.bar(xs, meds, width, yerr=[lo, hi], capsize=2, label=label)
    styles = iter([":", "--", "-."])
    for (name, _size), (unit, vals) in floor.items():
        if unit == "us" and vals:
            ax.axhline(statistics.median(vals), color="grey", linestyle=next(styles, "--"), linewidth=1,
                       label=f"floor: {name} {fmt(statistics.median(vals))} us")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([k[0].replace(" + ", "+\n").replace(", ", ",\n") for k in keys], fontsize=8)
    ax.set_ylabel("µs (median, whiskers min–max; lower is better)")
    ax.set_title(title + ("\n" + subtitle if subtitle else ""), fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"compare_multihost.py: wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
