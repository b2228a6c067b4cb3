#!/usr/bin/env python3
"""A/B of two CollectivesBench runs of the same N: per collective, the rows where A is faster and the median of A / B.

Each argument is a coll.csv that benchmarks/scale --collectives writes per job (raw-scale-coll-<stamp>/<side>-<N>/coll.csv:
benchmark, size, unit, median, ...). Rows are matched by collective and size; "small" and "large" are the first and
second half of a collective's sizes. Use it for two builds or two settings run alternately on one machine (docs/perf/
waitpoll-many-cores-20261127.md), where cross-machine ratios to OSHMEM would mix in the machines' difference.

Usage: coll_ab.py A.csv B.csv
"""
import csv
import statistics
import sys


def load(path):
    with open(path, newline="") as f:
        return {(r["benchmark"], int(r["size"])): float(r["median"]) for r in csv.DictReader(f)}


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: coll_ab.py A.csv B.csv")
    a, b = load(argv[1]), load(argv[2])
    groups = {}
    for key, value in a.items():
        if key in b and b[key] > 0:
            groups.setdefault(key[0], []).append(value / b[key])
    if not groups:
        sys.exit("coll_ab.py: no row is in both files")
    every = []
    for name, ratios in groups.items():
        every += ratios
        half = max(1, len(ratios) // 2)
        print(f"{name[:26]:26} faster {sum(r < 1 for r in ratios):2}/{len(ratios):2}  median {statistics.median(ratios):.2f}"
              f"  small(first half) {statistics.median(ratios[:half]):.2f} large {statistics.median(ratios[len(ratios) // 2:]):.2f}")
    print(f"all faster {sum(r < 1 for r in every)}/{len(every)} median {statistics.median(every):.2f}")


if __name__ == "__main__":
    main(sys.argv)
