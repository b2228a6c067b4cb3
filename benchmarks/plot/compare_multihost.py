#!/usr/bin/env python3
"""Joins RemoteBench (jshmem) and shmem_remote (Open MPI OSHMEM) CSVs into one Markdown table.

Every run's CSV has the columns benchmark,size,unit,median,min,max,values (values ';'-separated). Row
names may hold commas ("barrier_all, 2 PEs"), so a line is split from the right. The repetitions of all
runs of one side are pooled: the table shows their median, min and max, and jshmem / OSHMEM of the
medians, read by the unit: for us (time) above 1 means jshmem is slower, for M/s and MB/s (rates)
above 1 means jshmem is faster.

Usage: compare_multihost.py --jshmem A.csv ... --native B.csv ... [--header TEXT]... [--note TEXT]... [--md OUT]
"""
import argparse
import statistics


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jshmem", nargs="*", default=[])
    ap.add_argument("--native", nargs="*", default=[])
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--title", default="jshmem (proxy transport) vs Open MPI OSHMEM (UCX tcp), two test hosts")
    ap.add_argument("--md")
    a = ap.parse_args()
    j = read(a.jshmem)
    n = read(a.native)
    keys = list(j) + [k for k in n if k not in j]
    out = [f"### {a.title}", ""]
    out += [f"- {h}" for h in a.header]
    out += ["", "| row | unit | jshmem median (min–max) | OSHMEM median (min–max) | jshmem / OSHMEM |",
            "|---|---|---:|---:|---:|"]
    for key in keys:
        unit = (j.get(key) or n.get(key))[0]
        jv = j.get(key, (unit, []))[1]
        nv = n.get(key, (unit, []))[1]
        ratio = "–"
        if jv and nv and statistics.median(nv) > 0:
            r = statistics.median(jv) / statistics.median(nv)
            if unit == "us":
                verdict = "slower" if r > 1 else "faster"
                times = r if r > 1 else 1 / r
            else:
                verdict = "faster" if r > 1 else "slower"
                times = r if r > 1 else 1 / r
            ratio = f"{r:.3g} (jshmem {times:.3g}x {verdict})"
        out.append(f"| {key[0]} | {unit} | {cell(jv)} | {cell(nv)} | {ratio} |")
    if a.note:
        out += [""] + [f"Note: {t}" for t in a.note]
    text = "\n".join(out) + "\n"
    print(text, end="")
    if a.md:
        with open(a.md, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
