#!/usr/bin/env python3
"""Joins the logs of benchmarks/compare-isx (the isx example under bin/shmemrun and its C twin under oshrun) into a
Markdown table and a weak-scaling chart.

Each log is one run of one side at one PE count, named SIDE-npN-runK.log (SIDE: jshmem or native); both print the
same rows: per phase the mean over the PEs of each PE's mean over the timed iterations ('avg per PE') and the largest
PE mean ('slowest PE'), ISx's 'Average total time (per PE)' line and the job's verification verdict with the sum of
every key (the same keys on both sides give the same sum). Runs of the same (side, PEs) are pooled by their median.
Writes --md (also printed) and, if matplotlib is there, --png: time per iteration against PEs, both sides.
"""
import argparse
import os
import re
import statistics
import sys
import textwrap
from collections import defaultdict

PHASES = ["TOTAL", "ATA_KEYS", "MAKE_INPUT", "COUNT_BUCKET_SIZES", "BUCKETIZE", "COMPUTE_OFFSETS", "LOCAL_SORT"]
NAME = re.compile(r"(jshmem|native)-np(\d+)-run(\d+)\.log$")
ROW = re.compile(r"^\s+(%s)\s+([0-9.]+)\s+([0-9.]+)\s*$" % "|".join(PHASES))
VERDICT = re.compile(r"ISx verification: (PASS|FAIL) on (\d+) PEs: .*\(key sum (-?\d+)\)")
KEYS = re.compile(r"Number of Keys per PE: (\d+)")
LABEL = {"jshmem": "jshmem", "native": "C twin (OSHMEM)"}


def parse(path):
    """{phase: (avg, slowest)}, verdict, key sum, keys per PE of one log; None where the run printed nothing."""
    rows, verdict, keysum, keys = {}, None, None, None
    with open(path, errors="replace") as f:
        for line in f:
            line = re.sub(r"^\[pe \d+\] ", "", line.rstrip("\n"))
            m = ROW.match(line)
            if m:
                rows[m.group(1)] = (float(m.group(2)), float(m.group(3)))
            m = VERDICT.search(line)
            if m:
                verdict, keysum = m.group(1), int(m.group(3))
            m = KEYS.search(line)
            if m:
                keys = int(m.group(1))
    return rows, verdict, keysum, keys


def fmt(seconds):
    return "%.2f" % (seconds * 1e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--md", required=True)
    ap.add_argument("--png")
    ap.add_argument("--title", default="ISx")
    ap.add_argument("--command", default="")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    runs = defaultdict(list)  # (side, pes) -> [rows]
    verdicts = defaultdict(list)
    sums = defaultdict(set)
    keys_per_pe = set()
    for path in a.logs:
        m = NAME.search(os.path.basename(path))
        if not m:
            continue
        side, pes = m.group(1), int(m.group(2))
        rows, verdict, keysum, keys = parse(path)
        verdicts[(side, pes)].append(verdict or "no verdict")
        if keys:
            keys_per_pe.add(keys)
        if keysum is not None:
            sums[pes].add(keysum)
        if "TOTAL" in rows and verdict == "PASS":
            runs[(side, pes)].append(rows)
    pes_list = sorted({p for _, p in runs} | {p for _, p in verdicts})

    def med(side, pes, phase, col):
        v = [r[phase][col] for r in runs.get((side, pes), []) if phase in r]
        return statistics.median(v) if v else None

    def cell(v):
        return fmt(v) if v is not None else "–"

    out = ["# " + a.title, ""]
    if a.command:
        out += ["```", a.command, "```", ""]
    out += ["Median over the runs (each run: the mean of the timed iterations) of each phase, in ms. 'avg' = mean over "
            "the PEs (ISx's 'Average total time (per PE)' for TOTAL), 'slowest' = the PE with the largest mean. "
            "'jshmem / C' = jshmem's TOTAL avg over the C twin's (< 1: jshmem faster). 'verified' = runs whose job "
            "verdict was PASS, of those run; 'same keys' = both sides reported the same sum of every key.", ""]
    head = ("| PEs | keys/PE | jshmem TOTAL avg | C TOTAL avg | jshmem / C | jshmem TOTAL slowest | C TOTAL slowest "
            "| jshmem ATA_KEYS avg | C ATA_KEYS avg | verified jshmem | verified C | same keys |")
    out += [head, "|" + "---|" * (head.count("|") - 1)]
    kpp = ",".join(str(k) for k in sorted(keys_per_pe)) or "?"
    for p in pes_list:
        j, c = med("jshmem", p, "TOTAL", 0), med("native", p, "TOTAL", 0)
        ratio = "%.2f" % (j / c) if j and c else "–"
        ok = lambda side: "%d/%d" % (verdicts[(side, p)].count("PASS"), len(verdicts[(side, p)]))
        same = "yes" if len(sums[p]) == 1 else ("no: %s" % sorted(sums[p]) if sums[p] else "–")
        out.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p, kpp, cell(j), cell(c), ratio, cell(med("jshmem", p, "TOTAL", 1)), cell(med("native", p, "TOTAL", 1)),
            cell(med("jshmem", p, "ATA_KEYS", 0)), cell(med("native", p, "ATA_KEYS", 0)), ok("jshmem"), ok("native"), same))
    out += ["", "Every phase (avg per PE, ms; jshmem | C):", ""]
    head = "| PEs | " + " | ".join(PHASES) + " |"
    out += [head, "|" + "---|" * (head.count("|") - 1)]
    for p in pes_list:
        out.append("| %d | " % p + " | ".join("%s \\| %s" % (cell(med("jshmem", p, ph, 0)), cell(med("native", p, ph, 0)))
                                             for ph in PHASES) + " |")
    text = "\n".join(out) + "\n"
    with open(a.md, "w") as f:
        f.write(text)
    print(text)
    if not a.png:
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(python3-matplotlib missing: no chart)", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for side, color in (("jshmem", "tab:blue"), ("native", "tab:orange")):
        for phase, style in (("TOTAL", "-o"), ("ATA_KEYS", "--s")):
            pts = [(p, med(side, p, phase, 0)) for p in pes_list if med(side, p, phase, 0) is not None]
            if pts:
                ax.plot([x for x, _ in pts], [y * 1e3 for _, y in pts], style, color=color,
                        label="%s %s" % (LABEL[side], "total" if phase == "TOTAL" else "all-to-all (ATA_KEYS)"))
    ax.set_xscale("log", base=2)
    ax.set_xticks(pes_list)
    ax.set_xticklabels([str(p) for p in pes_list])
    ax.set_xlabel("PEs (weak scaling: %s keys per PE)" % kpp)
    ax.set_ylabel("ms per iteration (avg per PE, median of runs)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(textwrap.fill(a.title, 100), fontsize=7)
    fig.tight_layout()
    fig.savefig(a.png, dpi=90)
    print("chart: " + a.png)


if __name__ == "__main__":
    main()
