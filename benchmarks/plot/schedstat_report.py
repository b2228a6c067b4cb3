#!/usr/bin/env python3
"""Summarises schedstat_sample.py's file: per process kind (java, native) and kind of thread, the threads' time on a CPU
and time runnable but waiting for one (the run queue), over a window of the samples.

usage: schedstat_report.py FILE [FROM TO | --tail SECONDS | --tail half]

Without a window: each thread's whole sampled life. FROM TO: seconds since the sampler started. --tail S: the S seconds
that end 0.2 s before the last sample (a job's steady end); --tail half: the second half of the samples' span (all of
it when that half holds fewer than 3 samples). A PE's main thread (in a JVM the thread named java that is not the
process's first; in C the process's first thread) is named so; other thread names have their digits folded
(GC Thread#3 -> GC Thread##).
"""
import re
import statistics
import sys
from collections import defaultdict


def window(path, args):
    if not args:
        return float("-inf"), float("inf")
    if args[0] != "--tail":
        return float(args[0]), float(args[1])
    with open(path) as f:
        times = [float(line.split()[0]) for line in f if line.strip()]
    if not times:
        return float("-inf"), float("inf")
    if args[1] == "half":
        mid = (min(times) + max(times)) / 2
        if len({t for t in times if t >= mid}) < 3:
            return float("-inf"), float("inf")  # a job too short for its second half to hold 3 samples: its whole life
        return mid, max(times)
    hi = max(times) - 0.2
    return hi - float(args[1]), hi


def thread_kind(pid, tid, kind, name):
    """A PE's main thread: in a JVM the one the launcher starts the program on (named java, not the process's first
    thread, which only waits for it); in C the process's first thread. Other names have their digits folded."""
    if kind == "java" and name == "java":
        return "launcher's thread" if tid == pid else "PE main thread"
    if kind == "native" and tid == pid:
        return "PE main thread"
    return re.sub(r"\d+", "#", name)


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    path = sys.argv[1]
    lo, hi = window(path, sys.argv[2:])
    # a thread is taken by the name it ends with: a JVM thread starts with its process's name (java) and names itself a
    # moment later, so a sample in between would count it as one more PE main thread
    first, last, names = {}, {}, {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 8:
                continue
            key = (parts[1], parts[2], parts[3])
            names[key] = parts[4]
            t = float(parts[0])
            if t < lo or t > hi:
                continue
            v = (t, int(parts[5]), int(parts[6]), int(parts[7]))
            first.setdefault(key, v)
            last[key] = v
    if not first:
        sys.exit(f"{path}: no samples in the window")
    groups = defaultdict(list)
    for key, a in first.items():
        b = last[key]
        pid, tid, kind = key
        groups[(kind, thread_kind(pid, tid, kind, names[key]))].append((b[1] - a[1], b[2] - a[2], b[3] - a[3]))
    span = max(v[0] for v in last.values()) - min(v[0] for v in first.values())
    print(f"window: {max(lo, min(v[0] for v in first.values())):.1f}-{min(hi, max(v[0] for v in last.values())):.1f} s "
          f"({span:.1f} s), {len(set(k[0] for k in first))} processes")
    print()
    print("| process | thread | threads | on a core, s | waiting for a core, s | waiting per thread, ms: median / max "
          "| wait per timeslice, µs |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (kind, cls), rows in sorted(groups.items(), key=lambda kv: -sum(r[0] for r in kv[1])):
        cpu = sum(r[0] for r in rows) / 1e9
        wait = sum(r[1] for r in rows) / 1e9
        if cpu < 0.01 and wait < 0.01:
            continue
        waits = [r[1] / 1e6 for r in rows]
        slices = sum(r[2] for r in rows)
        per_slice = f"{wait * 1e6 / slices:.0f}" if slices else "–"
        print(f"| {kind} | {cls} | {len(rows)} | {cpu:.2f} | {wait:.3f} | {statistics.median(waits):.2f} / "
              f"{max(waits):.2f} | {per_slice} |")


if __name__ == "__main__":
    main()
