#!/usr/bin/env python3
"""An A/B of collectives runs: two sets of CollectivesBench results, row by row.

usage: coll_ab.py --a FILE [FILE...] --b FILE [FILE...] [--cell K] [--rows]
       coll_ab.py B.csv A.csv          (the older form: the first file's time over the second's)

Each FILE is a scale-coll-<stamp>.md, or anything that holds its tables (run-bundle's log of such a run), or a job's
coll.csv (benchmarks/scale --collectives writes one per job: raw-scale-coll-<stamp>/<side>-<N>/coll.csv); one kind on
both sides. For every row (collective, size, N) it takes the K-th number of a report's cell (default 0: the first
jshmem transport's µs; with --native, OSHMEM's is the next number) or a csv's median, the median over the A files and
over the B files, and prints:
- per collective and over all rows: how many rows B ran faster, and the median of B / A;
- the spread within each side: per row the slowest run over the fastest, the median over the rows. A difference
  between the sides smaller than that spread is the jobs' noise, not the change (on the 16-core machine one pair of
  jobs gave a median of 0.81 that three jobs a side brought to 1.00);
- with --rows, every row.
"""
import os
import re
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale import read_coll_csv, size_name  # noqa: E402 (this folder, put on sys.path above)

NUMBER = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?")


def parse(path, cell):
    """{(collective, size, N): µs} from the tables of one report, or from a job's coll.csv (N unknown there: "-")."""
    if path.endswith(".csv"):
        return {(bench, size_name(size), "-"): v for (bench, size), v in read_coll_csv(path).items()}
    rows = {}
    section, columns = None, []
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("### "):
                section, columns = line[4:].strip(), []
                continue
            if not line.startswith("|") or section is None or section == "Jobs":
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "size":
                columns = cells[1:]
                continue
            if not columns or set(cells[0]) <= set("-:"):
                continue
            for n, text in zip(columns, cells[1:]):
                numbers = NUMBER.findall(text.split("·")[0])
                if len(numbers) > cell:
                    rows[(section, cells[0], n)] = float(numbers[cell].replace(",", ""))
    return rows


def main(argv):
    if len(argv) == 2 and not any(a.startswith("--") for a in argv):
        argv = ["--a", argv[1], "--b", argv[0]]  # the older form: B.csv A.csv
    sides, side, cell, show_rows = {"a": [], "b": []}, None, 0, False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--a", "--b"):
            side = arg[2]
        elif arg == "--cell":
            i += 1
            cell = int(argv[i])
        elif arg == "--rows":
            show_rows = True
        elif side is not None and not arg.startswith("--"):
            sides[side].append(arg)
        else:
            sys.exit(__doc__)
        i += 1
    if not sides["a"] or not sides["b"]:
        sys.exit(__doc__)
    runs = {s: [parse(p, cell) for p in paths] for s, paths in sides.items()}
    keys = [k for k in runs["a"][0] if all(k in r for s in runs for r in runs[s])]
    if not keys:
        sys.exit("coll_ab.py: no row is in every file")
    ratio, spread = {}, defaultdict(list)
    for k in keys:
        med = {}
        for s in runs:
            values = [r[k] for r in runs[s]]
            med[s] = statistics.median(values)
            if len(values) > 1 and min(values) > 0:
                spread[s].append(max(values) / min(values))
        if med["a"] > 0:
            ratio[k] = (med["b"] / med["a"], med["a"], med["b"])
    names = {s: ", ".join(paths) if len(paths) <= 4 else f"{len(paths)} runs" for s, paths in sides.items()}
    print(f"A: {names['a']}; B: {names['b']}; {len(ratio)} rows; cell {cell}")
    print()
    print("| collective | rows | B faster | median B / A |")
    print("|---|---:|---:|---:|")
    by = defaultdict(list)
    for k, (r, _, _) in ratio.items():
        by[k[0]].append(r)
    for name, rs in list(by.items()) + [("all rows", [r for r, _, _ in ratio.values()])]:
        print(f"| {name} | {len(rs)} | {sum(1 for r in rs if r < 1)} | {statistics.median(rs):.3f} |")
    if spread:
        print()
    for s in ("a", "b"):
        if spread[s]:
            print(f"spread within {s.upper()} (slowest run / fastest, median over rows): {statistics.median(spread[s]):.2f}")
    if show_rows:
        print("\n| collective | size | N | A µs | B µs | B / A |\n|---|---|---|---:|---:|---:|")
        for k, (r, a, b) in ratio.items():
            print(f"| {k[0]} | {k[1]} | {k[2]} | {a:g} | {b:g} | {r:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
