#!/usr/bin/env python3
"""Per-iteration view of ISx log files (the LOG_FILE argument of the isx example, of its C twin and of ParRes ISx).

An ISx log holds a header (NUM_PES, Num_Iters, the column names) when the file was new, then one row per PE and timed
iteration, PE by PE in rank order; a job that appends to an existing file writes rows only. So a file written by
several jobs of the same shape (benchmarks/scale --isx passes the same LOG_FILE to the C twin and then to jshmem) is
cut into jobs of NUM_PES x Num_Iters rows. For each job this prints, per timed iteration, the mean over the PEs of
ATA_KEYS and of TOTAL (ms), then the means over the first --first iterations and over the second half: where a JVM's
warm-up shows (the proxy's paths are compiled during the first iterations) against a native side that has none.

Usage: isx_iterations.py [--labels A,B,...] [--first K] LOG...
"""
import argparse
import statistics
import sys

COLUMNS = ["TOTAL", "ATA_KEYS", "ATA_KEYS_COUNTS", "MAKE_INPUT", "COUNT_BUCKET_SIZES", "BUCKETIZE", "COMPUTE_OFFSETS",
           "LOCAL_SORT"]


def jobs(path):
    """[(pes, iters, rows)] of one log file; rows: lists of floats in COLUMNS order, PE-major."""
    pes = iters = None
    rows = []
    with open(path, errors="replace") as f:
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if line.startswith("SHMEM"):
                for cell in cells:
                    if cell.startswith("NUM_PES "):
                        pes = int(cell.split()[1])
                    elif cell.startswith("Num_Iters "):
                        iters = int(cell.split()[1])
            elif line.strip() and not line.startswith("TOTAL"):
                rows.append([float(c) for c in cells if c.strip()])
    if pes is None or iters is None:
        sys.exit("%s: no ISx header (NUM_PES, Num_Iters)" % path)
    per_job = pes * iters
    if len(rows) % per_job:
        sys.exit("%s: %d rows are not whole jobs of %d PEs x %d iterations" % (path, len(rows), pes, iters))
    return [(pes, iters, rows[i:i + per_job]) for i in range(0, len(rows), per_job)]


def per_iteration(pes, iters, rows, column):
    """Mean over the PEs of one column, per iteration, in ms."""
    at = COLUMNS.index(column)
    return [statistics.mean(rows[pe * iters + it][at] for pe in range(pes)) * 1e3 for it in range(iters)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", help="comma-separated names of the jobs, in file order (default: job 1, job 2, ...)")
    ap.add_argument("--first", type=int, default=3, help="iterations in the first summary (default 3)")
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()
    found = [(path, j) for path in args.logs for j in jobs(path)]
    labels = args.labels.split(",") if args.labels else []
    print("| job | PEs | column | ms per timed iteration (mean over the PEs) | first %d | second half |" % args.first)
    print("|---|---:|---|---|---:|---:|")
    for n, (path, (pes, iters, rows)) in enumerate(found):
        label = labels[n % len(labels)] if labels else "job %d" % (n + 1)
        for column in ("ATA_KEYS", "TOTAL"):
            ms = per_iteration(pes, iters, rows, column)
            first = statistics.mean(ms[:args.first])
            half = statistics.mean(ms[iters // 2:])
            print("| %s (%s) | %d | %s | %s | %.1f | %.1f |" % (label, path, pes, column, " ".join("%.0f" % x for x in ms),
                                                                first, half))


if __name__ == "__main__":
    main()
