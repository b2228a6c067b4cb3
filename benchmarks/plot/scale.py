#!/usr/bin/env python3
"""Tables and log-log charts of benchmarks/scale: what a job costs as its PE count N grows, per side.

Reads the raw folder benchmarks/scale wrote: one sub-folder per job (<side>-<N>) holding job.txt (key=value
lines the script wrote: side, npes, hosts, rc, status, launch_to_exit_ms, reported, the machine's used memory before the
job and at its peak (mem_before_mb, mem_peak_mb), error) and pes/pe-<rank>.txt
(key=value words ScaleBench or shmem_scale wrote: a line before finalize, a line after it). Per job it takes the
slowest PE for times and latencies (max over PEs), the mean and max over PEs for memory, the max for threads and
sockets, and writes:
  - a Markdown file (--md): start-up and finalize, resources per PE and collectives, and, when OSHMEM ran, the
    ratios jshmem / OSHMEM at the same N (above 1: jshmem costs more);
  - a CSV of the same numbers per job (--csv), from which --redraw draws the charts again;
  - a PNG (--png) of log-log panels, cost against N, one line per side (needs matplotlib; without it the
    tables are still written and a line on stderr says the chart was skipped).

Usage: scale.py --raw DIR --md OUT [--csv OUT] [--png OUT] [--cores C] [--header TEXT]... [--note TEXT]...
       scale.py --redraw CSV --png OUT
       scale.py --mode coll|isx --raw DIR --md OUT [--png OUT]

--mode coll reads benchmarks/scale --collectives' raw folder (a coll.csv per job: CollectivesBench's or shmem_coll's
--csv) and writes a table per collective (rows: benchmark and size; columns: N; cells: µs per side and the ratio of
jshmem's default transport to OSHMEM), the rows at or under 1.0x per N, the jobs, and one PNG per collective
(OUT less .png, then -<collective>.png: a log-log panel of µs against N per size, a line per side). --mode isx reads
benchmarks/scale --isx's (out.txt per job: ISx's timing rows and verdict) and writes time against N per side, the
ratio, the phases, the jobs and a weak-scaling PNG. Both take their header lines from the folder's headers.txt and
notes.txt (benchmarks/scale writes them) unless --header/--note are given, so the same file and charts can be drawn
again later, elsewhere, from the raw folder alone (e.g. where the runs had no matplotlib).
"""
import argparse
import csv
import glob
import os
import re
import statistics
import sys

SIDES_ORDER = ["oshmem", "proxy", "ucx"]
COLORS = {"oshmem": "C0", "proxy": "C1", "ucx": "C2"}
PHASES = ["options", "bootstrap", "heap", "transports", "teams", "barrier"]
LATENCIES = [("barrier_us", "barrier_all µs"), ("allreduce_us", "allreduce 8 B µs"), ("fcollect_us", "fcollect 8 B µs"),
             ("alltoall_us", "alltoall 8 B µs")]


def read_job(path):
    """job.txt: one key=value a line, values may hold spaces."""
    out = {}
    with open(path, errors="replace") as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def read_pe(path):
    """pe-<rank>.txt: key=value words, on a line before finalize and one after."""
    out = {}
    with open(path, errors="replace") as f:
        for word in f.read().split():
            if "=" in word:
                k, v = word.split("=", 1)
                out[k] = v
    return out


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def aggregate(job_dir):
    job = read_job(os.path.join(job_dir, "job.txt"))
    pes = [read_pe(p) for p in sorted(glob.glob(os.path.join(job_dir, "pes", "pe-*.txt")))]

    def col(key):
        return [x for x in (num(p.get(key)) for p in pes) if x is not None]

    def mx(key):
        vals = col(key)
        return max(vals) if vals else None

    def mean(key):
        vals = col(key)
        return statistics.mean(vals) if vals else None

    row = {
        "side": job.get("side", "?"),
        "npes": int(job.get("npes", 0)),
        "hosts": int(job.get("hosts", 0)),
        "status": job.get("status", "?"),
        "error": job.get("error", ""),
        "reported": len([p for p in pes if "pe" in p]),
        "launch_to_exit_ms": num(job.get("launch_to_exit_ms")),
        "mem_before_mb": num(job.get("mem_before_mb")),
        "mem_peak_mb": num(job.get("mem_peak_mb")),
        "launch_to_init_ms": mx("init_ms"),
        "launch_to_main_ms": mx("main_ms"),
        "spawn_ms": mx("spawn_ms"),
        "init_call_ms": mx("init_call_ms"),
        "finalize_ms": mx("finalize_ms"),
        "hwm_mb_mean": (mean("hwm_kb") or 0) / 1024 if col("hwm_kb") else None,
        "hwm_mb_max": (mx("hwm_kb") or 0) / 1024 if col("hwm_kb") else None,
        "native_mb_mean": (mean("native_kb") or 0) / 1024 if col("native_kb") else None,
        "nmt_mb_mean": (mean("nmt_kb") or 0) / 1024 if [x for x in col("nmt_kb") if x >= 0] else None,
        "threads_init": mx("threads_init"),
        "threads_coll": mx("threads_coll"),
        "sockets_init": mx("sockets_init"),
        "sockets_coll": mx("sockets_coll"),
        "sockets_fin": mx("sockets_fin"),
    }
    for p in PHASES:
        row["ph_" + p] = mx("ph_%s_ms" % p)
    for key, _ in LATENCIES:
        row[key] = mx(key)
    return row


def f(x, digits=3):
    if x is None:
        return "–"
    if abs(x) >= 100:
        return "%.0f" % x
    return ("%." + str(digits) + "g") % x


def side_key(r):
    s = r["side"]
    return (r["npes"], SIDES_ORDER.index(s) if s in SIDES_ORDER else 99, s, int(r.get("round", "1") or 1))


def side_name(s):
    return "OSHMEM" if s == "oshmem" else "jshmem " + s


def ok(r):
    return r["status"].startswith("ok")


def status_cell(r):
    if ok(r):
        return r["status"]
    err = r["error"].replace("|", "\\|")
    if len(err) > 160:
        err = err[:157] + "..."
    return "**%s**%s" % (r["status"], (": " + err) if err else "")


def tables(rows, cores):
    out = []
    out.append("### Start-up and finalize (ms; slowest PE)")
    out.append("")
    out.append("| PEs | hosts | side | status | launch→init | launch→main | Shmem.init | " + " | ".join(PHASES) +
               " | finalize | launch→exit s | machine memory used, GB: before → peak |")
    out.append("|" + "---|" * (10 + len(PHASES)))
    for r in rows:
        good = ok(r)
        cells = [str(r["npes"]), str(r["hosts"]), side_name(r["side"]), status_cell(r)]
        for k in ["launch_to_init_ms", "launch_to_main_ms", "init_call_ms"] + ["ph_" + p for p in PHASES] + ["finalize_ms"]:
            cells.append(f(r[k]) if good else "–")
        cells.append(f(r["launch_to_exit_ms"] / 1000) if r["launch_to_exit_ms"] is not None else "–")
        cells.append(mem_cell(r))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("### Resources per PE and collectives (µs: slowest PE's mean per call)")
    out.append("")
    nmt = any(r["nmt_mb_mean"] is not None for r in rows)
    out.append("| PEs | side | peak RSS MB (mean / max) | native MB" + (" | NMT MB" if nmt else "") +
               " | threads (init / colls) | sockets (init / colls / after finalize) | " + " | ".join(n for _, n in LATENCIES) + " |")
    out.append("|" + "---|" * (6 + (1 if nmt else 0) + len(LATENCIES)))
    for r in rows:
        if not ok(r):
            continue
        cells = [str(r["npes"]), side_name(r["side"]), "%s / %s" % (f(r["hwm_mb_mean"]), f(r["hwm_mb_max"])), f(r["native_mb_mean"])]
        if nmt:
            cells.append(f(r["nmt_mb_mean"]))
        cells.append("%s / %s" % (f(r["threads_init"]), f(r["threads_coll"])))
        cells.append("%s / %s / %s" % (f(r["sockets_init"]), f(r["sockets_coll"]), f(r["sockets_fin"])))
        cells += [f(r[k]) for k, _ in LATENCIES]
        out.append("| " + " | ".join(cells) + " |")
    natives = {r["npes"]: r for r in rows if r["side"] == "oshmem" and ok(r)}
    ratio_rows = [r for r in rows if r["side"] != "oshmem" and ok(r) and r["npes"] in natives]
    if ratio_rows:
        out.append("")
        over = sorted({r["npes"] for r in ratio_rows if cores and r["npes"] > cores})
        out.append("### jshmem / OSHMEM at the same N (above 1: jshmem costs more)" +
                   (" — PEs outnumber the %d cores at N = %s: read these ratios, not the absolute times" %
                    (cores, ", ".join(map(str, over))) if over else ""))
        out.append("")
        keys = [("launch_to_init_ms", "launch→init"), ("launch_to_exit_ms", "launch→exit"), ("finalize_ms", "finalize"),
                ("hwm_mb_mean", "peak RSS"), ("threads_coll", "threads"), ("sockets_coll", "sockets")] + LATENCIES
        out.append("| PEs | side | " + " | ".join(n.replace(" µs", "") for _, n in keys) + " |")
        out.append("|" + "---|" * (2 + len(keys)))
        for r in ratio_rows:
            n = natives[r["npes"]]
            cells = [str(r["npes"]), side_name(r["side"])]
            for k, _ in keys:
                a, b = r[k], n[k]
                cells.append(("%.3g" % (a / b)) if a is not None and b else "–")
            out.append("| " + " | ".join(cells) + " |")
    return out


CSV_KEYS = ["side", "npes", "hosts", "status", "reported", "launch_to_init_ms", "launch_to_main_ms", "spawn_ms", "init_call_ms"] + \
    ["ph_" + p for p in PHASES] + ["finalize_ms", "launch_to_exit_ms", "hwm_mb_mean", "hwm_mb_max", "native_mb_mean", "nmt_mb_mean",
                                   "threads_init", "threads_coll", "sockets_init", "sockets_coll", "sockets_fin"] + \
    [k for k, _ in LATENCIES] + ["error"]


def write_csv(rows, path):
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_KEYS)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in CSV_KEYS})


def read_csv(path):
    rows = []
    with open(path) as fh:
        for d in csv.DictReader(fh):
            r = {}
            for k in CSV_KEYS:
                v = d.get(k, "")
                r[k] = v if k in ("side", "status", "error") else (num(v) if v != "" else None)
            r["npes"] = int(r["npes"] or 0)
            rows.append(r)
    return rows


def chart(rows, png, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scale.py: no matplotlib: chart %s skipped (tables only)" % png, file=sys.stderr)
        return False
    panels = [("launch_to_init_ms", "launch → init complete (ms, slowest PE)"),
              ("launch_to_exit_ms", "launch → exit (ms)"),
              ("finalize_ms", "finalize (ms, slowest PE)"),
              ("ph_transports", "init: transports step (ms, slowest PE)"),
              ("hwm_mb_mean", "peak RSS per PE (MB, mean)"),
              ("native_mb_mean", "native memory per PE (MB, mean)"),
              ("threads_coll", "threads per PE (max)"),
              ("sockets_coll", "sockets per PE (max)")] + \
        [(k, n.replace(" µs", " (µs, slowest PE)")) for k, n in LATENCIES]
    cols = 4
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False)
    sides = sorted({r["side"] for r in rows}, key=lambda s: SIDES_ORDER.index(s) if s in SIDES_ORDER else 99)
    for ax, (key, label) in zip(axes.flat, panels):
        for s in sides:
            pts = sorted((r["npes"], r[key]) for r in rows if r["side"] == s and ok(r) and r[key] is not None and r[key] > 0)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=side_name(s),
                        linestyle="--" if s == "oshmem" else "-", color=COLORS.get(s))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("PEs", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


# ---------------------------------------------------------------------------------------------------------------------
# --mode coll: benchmarks/scale --collectives (CollectivesBench and shmem_coll at every N, a coll.csv per job)
# ---------------------------------------------------------------------------------------------------------------------
COLLECTIVES = [("barrier (team sync)", "barrier"), ("broadcast", "broadcast"), ("sum reduce (longs)", "sum-reduce"),
               ("fcollect (bytes per PE)", "fcollect"), ("alltoall (bytes per PE pair)", "alltoall")]


def raw_lines(raw, name):
    path = os.path.join(raw, name)
    if not os.path.isfile(path):
        return []
    with open(path, errors="replace") as fh:
        return [line.rstrip("\n") for line in fh if line.strip()]


def default_transport(raws):
    """The transport SHMEM_TRANSPORT unset picks between hosts: (the job's, {N: another where N PEs pick another})."""
    for raw in raws:
        lines = raw_lines(raw, "default-transport.txt")
        if lines:
            per_n = {}
            for line in lines[1:]:  # "N transport": where jobs of N PEs choose otherwise (hybrid with 3 cores per PE)
                parts = line.split()
                if len(parts) == 2 and parts[0].isdigit():
                    per_n[int(parts[0])] = parts[1]
            return lines[0].strip(), per_n
    return "proxy", {}


def ratio_sides(dflt, per_n, jsides, ns, fallback=None):
    """The side each N's ratio uses (the default of that N, where it ran), and how to name them in a heading."""
    sides = {}
    for n in ns:
        t = per_n.get(n, dflt)
        sides[n] = t if t in jsides else fallback  # the default of N did not run: no ratio (coll), the first side (isx)
    used = sorted({t for t in sides.values() if t}, key=lambda t: [sides[n] for n in ns].index(t))
    if len(used) <= 1:
        return sides, (used[0] if used else None)
    return sides, "default (" + ", ".join("%s at N = %s" % (t, ", ".join(str(n) for n in ns if sides[n] == t)) for t in used) + ")"


def mode_jobs(raws):
    """Every job folder (<side>-<N>) of every raw folder with its job.txt, sorted by N and side."""
    jobs = []
    for d in [d for raw in raws for d in sorted(glob.glob(os.path.join(raw, "*-*")))]:
        if not os.path.isfile(os.path.join(d, "job.txt")):
            continue
        job = read_job(os.path.join(d, "job.txt"))
        job["npes"] = int(job.get("npes", 0))
        job["dir"] = d
        job.setdefault("side", "?")
        job.setdefault("status", "?")
        job.setdefault("error", "")
        jobs.append(job)
    return sorted(jobs, key=side_key)


def read_coll_rows(path, value):
    """CollectivesBench's / shmem_coll's --csv (benchmark,size,unit,median,min,max,values) -> {(benchmark, size): value(row)},
    the rows where value gives a number."""
    out = {}
    if not os.path.isfile(path):
        return out
    with open(path, errors="replace") as fh:
        for d in csv.DictReader(fh):
            v = value(d)
            if v is not None and d.get("benchmark"):
                out[(d["benchmark"], int(d.get("size") or 0))] = v
    return out


def read_coll_csv(path):
    """{(benchmark, size): median}."""
    return read_coll_rows(path, lambda d: num(d.get("median")))


def read_coll_spread(path):
    """{(benchmark, size): its slowest repetition over its fastest (max / min)}."""
    def spread(d):
        lo, hi = num(d.get("min")), num(d.get("max"))
        return hi / lo if lo and hi is not None else None
    return read_coll_rows(path, spread)


def spread_table(spreads, order, ns):
    """How far each side's repetitions of a row lie apart: per (side, N), the median over the rows of the slowest
    repetition over the fastest (a row several jobs measured: the median of theirs), and how many rows reach 2x.
    spreads: {(side, N): {row: [each job's max / min]}}."""
    lines = ["### Spread of the repetitions",
             "",
             "Per side and N: the median over the rows of the slowest repetition's time over the fastest's, and in brackets "
             "the rows where it is 2x or more. A median of a few repetitions that spread far lands on a fast or a slow one "
             "by chance: a ratio to the other side smaller than that spread is noise.",
             "",
             "| side | " + " | ".join("N = %d" % n for n in ns) + " |", "|---|" + "---:|" * len(ns)]
    any_cell = False
    for side in order:
        cells = []
        for n in ns:
            per_row = [statistics.median(vs) for vs in spreads.get((side, n), {}).values()]
            if per_row:
                any_cell = True
                cells.append("%.2f (%d of %d)" % (statistics.median(per_row), sum(1 for x in per_row if x >= 2.0), len(per_row)))
            else:
                cells.append("–")
        lines.append("| %s | " % side_name(side) + " | ".join(cells) + " |")
    return lines + [""] if any_cell else []


def size_name(b):
    if b == 0:
        return "–"
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= div and b % div == 0:
            return "%d %s" % (b // div, unit)
    return "%d B" % b


def mem_cell(job):
    """The machine's used memory before the job and at its peak (benchmarks/scale samples it every second), in GB."""
    before, peak = num(job.get("mem_before_mb")), num(job.get("mem_peak_mb"))
    return "%.1f → %.1f" % (before / 1000, peak / 1000) if before is not None and peak else "–"


def jobs_table(jobs, sides):
    out = ["| PEs | hosts | side | status | launch→exit s | machine memory used, GB: before → peak | first error line |",
           "|---:|---:|---|---|---:|---|---|"]
    for j in jobs:
        t = num(j.get("launch_to_exit_ms"))
        err = j.get("error", "").replace("|", "\\|")
        if len(err) > 200:
            err = err[:197] + "..."
        status = j["status"] if ok(j) else "**%s**" % j["status"]
        side = side_name(j["side"]) + ("" if j.get("round", "1") == "1" else " (round %s)" % j["round"])
        out.append("| %d | %s | %s | %s | %s | %s | %s |" % (j["npes"], j.get("hosts", "?"), side, status,
                                                            f(t / 1000) if t else "–", mem_cell(j), err))
    return out


def sides_of(jobs):
    jsides = sorted({j["side"] for j in jobs if j["side"] != "oshmem"}, key=lambda s: SIDES_ORDER.index(s) if s in SIDES_ORDER else 99)
    return jsides, any(j["side"] == "oshmem" for j in jobs)


def coll_report(raws, png):
    jobs = mode_jobs(raws)
    dflt, per_n = default_transport(raws)
    jsides, native = sides_of(jobs)
    ns = sorted({j["npes"] for j in jobs})
    side_of_n, ratio_side = ratio_sides(dflt, per_n, jsides, ns)
    # several raw folders (e.g. one run per --only) merge: a (side, N) has the rows of every job of it that ran; a row that
    # several jobs measured (--repeat, or folders of reruns) gets their median
    by, measured, spreads = {}, {}, {}
    for j in jobs:
        key = (j["side"], j["npes"])
        by.setdefault(key, []).append(j)
        if ok(j):
            path = os.path.join(j["dir"], "coll.csv")
            for row, v in read_coll_csv(path).items():
                measured.setdefault(key, {}).setdefault(row, []).append(v)
            for row, v in read_coll_spread(path).items():
                spreads.setdefault(key, {}).setdefault(row, []).append(v)
    data = {key: {row: statistics.median(vs) for row, vs in rows.items()} for key, rows in measured.items()}
    names = [b for b, _ in COLLECTIVES]
    seen = []
    for d in data.values():
        for (b, _s) in d:
            if b not in names and b not in seen:
                seen.append(b)
    colls = [(b, s) for b, s in COLLECTIVES] + [(b, re.sub(r"[^a-z0-9]+", "-", b.lower()).strip("-")) for b in seen]
    colls = [(b, slug) for b, slug in colls if any(k[0] == b for d in data.values() for k in d)]
    order = jsides + (["oshmem"] if native else [])
    lines = []
    lines.append("Each cell: " + " / ".join(("jshmem %s µs" % s) + (" (default)" if s == dflt and not per_n else "") for s in jsides) +
                 (" / OSHMEM µs" if native else "") +
                 (" · **ratio** jshmem %s ÷ OSHMEM (the transport SHMEM_TRANSPORT unset picks between hosts; bold: at or under 1.0x, "
                  "jshmem as fast or faster)" % ratio_side if ratio_side and native else "") +
                 ". µs: the median over the repetitions of the slowest PE's mean per call (and over the jobs, where a side ran several: "
                 "--repeat); ✗: the job failed (see Jobs); "
                 "–: no such row.")
    lines.append("")
    counts = {}  # (collective, N) -> (at or under, of)

    def value(side, n, key):
        js = by.get((side, n))
        if not js:
            return None, "·"
        v = data.get((side, n), {}).get(key)
        if v is not None:
            return v, f(v)
        # no value: ✗ where a job of this (side, N) that would have measured the row failed
        if any(not ok(j) and j.get("only", "") in key[0] for j in js):
            return None, "✗"
        return None, "–"

    for bench, slug in colls:
        sizes = sorted({k[1] for d in data.values() for k in d if k[0] == bench})
        lines.append("### %s" % bench)
        lines.append("")
        lines.append("| size | " + " | ".join("N = %d" % n for n in ns) + " |")
        lines.append("|---|" + "---:|" * len(ns))
        for size in sizes:
            cells = [size_name(size)]
            for n in ns:
                parts = [value(s, n, (bench, size))[1] for s in order]
                cell = " / ".join(parts)
                if side_of_n.get(n) and native:
                    a, _ = value(side_of_n[n], n, (bench, size))
                    b, _ = value("oshmem", n, (bench, size))
                    if a is not None and b:
                        r = a / b
                        at, of = counts.get((bench, n), (0, 0))
                        counts[(bench, n)] = (at + (1 if r <= 1.0 else 0), of + 1)
                        cell += " · " + ("**%.2fx**" % r if r <= 1.0 else "%.2fx" % r)
                cells.append(cell)
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if png:
            lines.append("![%s against N](%s)" % (bench, os.path.basename(coll_png(png, slug))))
            lines.append("")
    if counts:
        summary = ["### Rows at or under 1.0x (jshmem %s ÷ OSHMEM), per N" % ratio_side, "",
                   "| collective | " + " | ".join("N = %d" % n for n in ns) + " |", "|---|" + "---:|" * len(ns)]
        for bench, _ in colls:
            summary.append("| %s | " % bench + " | ".join(
                ("%d of %d" % counts[(bench, n)]) if (bench, n) in counts else "–" for n in ns) + " |")
        tot = []
        for n in ns:
            at = sum(counts[(b, n)][0] for b, _ in colls if (b, n) in counts)
            of = sum(counts[(b, n)][1] for b, _ in colls if (b, n) in counts)
            tot.append("**%d of %d**" % (at, of) if of else "–")
        summary.append("| all rows | " + " | ".join(tot) + " |")
        lines = summary + [""] + lines
    elif native and not ratio_side:
        named = dflt + "".join("; %s at N = %d" % (t, n) for n, t in sorted(per_n.items()))
        lines = ["No ratio: the default transport between hosts (%s) was not among the jshmem sides run (%s)." %
                 (named, ", ".join(jsides) or "none"), ""] + lines
    lines += spread_table(spreads, order, ns)
    lines += ["### Jobs", ""] + jobs_table(jobs, order)
    # a long CSV of every cell, for other tools (in the raw folder, when there is one)
    if len(raws) == 1:
        write_coll_csv(os.path.join(raws[0], "scale-coll.csv"), data)
    charts = []
    if png and data:
        charts = coll_charts(colls, data, order, png)
    if png and not charts:
        lines = [l for l in lines if not l.startswith("![")]
    return lines


def write_coll_csv(path, data):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["side", "npes", "benchmark", "size", "median_us"])
        for (side, n), d in sorted(data.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            for (b, s), v in d.items():
                w.writerow([side, n, b, s, "%.4f" % v])


def coll_png(png, slug):
    base = png[:-4] if png.endswith(".png") else png
    return "%s-%s.png" % (base, slug)


def coll_charts(colls, data, order, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("scale.py: no matplotlib: charts %s-*.png skipped (tables only; draw them later with --mode coll --raw DIR)" %
              png[:-4], file=sys.stderr)
        return []
    written = []
    for bench, slug in colls:
        sizes = sorted({k[1] for d in data.values() for k in d if k[0] == bench})
        cols = min(6, len(sizes))
        nrows = (len(sizes) + cols - 1) // cols
        fig, axes = plt.subplots(nrows, cols, figsize=(max(7.5, 3.3 * cols), 2.9 * nrows + 0.4), squeeze=False)
        ns = sorted({n for (_s, n) in data})
        for ax, size in zip(axes.flat, sizes):
            for s in order:
                pts = sorted((n, d[(bench, size)]) for (side, n), d in data.items()
                             if side == s and (bench, size) in d and d[(bench, size)] > 0)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=side_name(s),
                            linestyle="--" if s == "oshmem" else "-", color=COLORS.get(s))
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xticks(ns)
            ax.set_xticklabels([str(n) for n in ns], fontsize=6)
            ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
            ax.set_title(size_name(size) if size else bench, fontsize=8)
            ax.set_xlabel("PEs", fontsize=7)
            ax.set_ylabel("µs per call", fontsize=7)
            ax.tick_params(labelsize=6)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=6)
        for ax in list(axes.flat)[len(sizes):]:
            ax.axis("off")
        fig.suptitle("benchmarks/scale --collectives: %s\nµs per call against N (log-log), one panel per size" % bench, fontsize=9)
        fig.tight_layout()
        out = coll_png(png, slug)
        fig.savefig(out, dpi=100)
        plt.close(fig)
        written.append(out)
    return written


# ---------------------------------------------------------------------------------------------------------------------
# --mode isx: benchmarks/scale --isx (the isx example and benchmarks/native/isx at every N, out.txt per job)
# ---------------------------------------------------------------------------------------------------------------------
# one job's output is read as compare_isx.py reads a run's log (benchmarks/compare-isx): the same ISx lines
from compare_isx import PHASES as ISX_PHASES, parse as parse_isx_log  # noqa: E402 (this folder is on sys.path)


def parse_isx(path):
    """{phase: (avg per PE s, slowest PE s)}, verdict, key sum, keys per PE of one job's output (nothing if missing)."""
    if not os.path.isfile(path):
        return {}, None, None, None
    return parse_isx_log(path)


def isx_median(rs):
    """One (side, N)'s jobs as one: each phase's median over the jobs that passed (the latest job where none did), the
    verdict and key sum where they agree, and TOTAL's range over the good jobs ("spread") where there are several."""
    good = [r for r in rs if r["good"]]
    if not good:
        return rs[-1]
    rows = {}
    for phase in {p for r in good for p in r["rows"]}:
        vals = [r["rows"][phase] for r in good if phase in r["rows"]]
        rows[phase] = (statistics.median(v[0] for v in vals), statistics.median(v[1] for v in vals))
    totals = [r["rows"]["TOTAL"][0] for r in good]
    sums = {r["keysum"] for r in good}
    return {"job": good[-1]["job"], "rows": rows, "good": True, "verdict": "PASS" if len(good) == 1 else "PASS ×%d" % len(good),
            "keysum": sums.pop() if len(sums) == 1 else None, "keys": good[-1]["keys"], "jobs": len(rs),
            "spread": (min(totals), max(totals)) if len(good) > 1 else None}


def isx_report(raws, png):
    jobs = mode_jobs(raws)
    dflt, per_n = default_transport(raws)
    jsides, native = sides_of(jobs)
    order = jsides + (["oshmem"] if native else [])
    ns = sorted({j["npes"] for j in jobs})
    runs = {}
    for j in jobs:
        rows, verdict, keysum, keys = parse_isx(os.path.join(j["dir"], "out.txt"))
        runs.setdefault((j["side"], j["npes"]), []).append({"job": j, "rows": rows, "verdict": verdict, "keysum": keysum,
                                                             "keys": keys, "good": ok(j) and verdict == "PASS" and "TOTAL" in rows})
    # a (side, N) run several times (--repeat, or several raw folders): each phase's median over the jobs that passed
    res = {key: isx_median(rs) for key, rs in runs.items()}
    side_of_n, ratio_side = ratio_sides(dflt, per_n, jsides, ns, jsides[0] if jsides else None)

    def ms(side, n, phase, col):
        r = res.get((side, n))
        if r is None:
            return None, "·"
        if not r["good"]:
            return None, "✗"
        v = r["rows"].get(phase)
        return (v[col] * 1e3, "%.1f" % (v[col] * 1e3)) if v else (None, "–")

    lines = ["Times in ms per timed iteration (ISx's mean over the timed iterations, after one burn-in): 'avg' = the mean over "
             "the PEs (ISx's 'Average total time (per PE)' for TOTAL), 'slowest' = the PE with the largest mean; ATA_KEYS = "
             "the all-to-all key exchange. ✗: the job failed, timed out, was not run or failed its verification (see Jobs). "
             "'same keys': both sides' sum of every key after the exchange agree. Where a side ran several jobs of an N "
             "(--repeat), each value is the median over those that passed, and TOTAL avg gives their range in brackets.", ""]
    head = ["PEs", "hosts", "keys/PE"] + ["%s TOTAL avg" % side_name(s) for s in order]
    if native and ratio_side:
        head += ["jshmem %s ÷ OSHMEM" % ratio_side]
    head += ["%s TOTAL slowest" % side_name(s) for s in order] + ["%s ATA_KEYS avg" % side_name(s) for s in order]
    head += ["verified (%s)" % " / ".join(side_name(s) for s in order), "same keys"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---:|" * 3 + "---:|" * (len(head) - 5) + "---|---|")
    for n in ns:
        hosts = next((r["job"].get("hosts", "?") for (s, m), r in res.items() if m == n), "?")
        keys = sorted({r["keys"] for (s, m), r in res.items() if m == n and r["keys"]})
        cells = [str(n), hosts, "/".join(map(str, keys)) or "–"]
        for s in order:
            cell = ms(s, n, "TOTAL", 0)[1]
            spread = res[(s, n)].get("spread") if (s, n) in res else None
            cells.append(cell + (" (%.1f–%.1f)" % (spread[0] * 1e3, spread[1] * 1e3) if spread else ""))
        if native and ratio_side:
            a, _ = ms(side_of_n[n], n, "TOTAL", 0) if side_of_n.get(n) else (None, "–")
            b, _ = ms("oshmem", n, "TOTAL", 0)
            cells.append(("**%.2fx**" % (a / b) if a / b <= 1.0 else "%.2fx" % (a / b)) if a is not None and b else "–")
        cells += [ms(s, n, "TOTAL", 1)[1] for s in order] + [ms(s, n, "ATA_KEYS", 0)[1] for s in order]
        cells.append(" / ".join((res[(s, n)]["verdict"] or "no verdict") if (s, n) in res else "·" for s in order))
        sums = {res[(s, n)]["keysum"] for s in order if (s, n) in res and res[(s, n)]["keysum"] is not None}
        cells.append("yes" if len(sums) == 1 and sum(1 for s in order if (s, n) in res and res[(s, n)]["keysum"] is not None) > 1
                     else ("**no**" if len(sums) > 1 else "–"))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Every phase (avg per PE, ms; " + " \\| ".join(side_name(s) for s in order) + "):")
    lines.append("")
    lines.append("| PEs | " + " | ".join(ISX_PHASES) + " |")
    lines.append("|---:|" + "---|" * len(ISX_PHASES))
    for n in ns:
        lines.append("| %d | " % n + " | ".join(" \\| ".join(ms(s, n, p, 0)[1] for s in order) for p in ISX_PHASES) + " |")
    lines.append("")
    charted = png and any(r["good"] for r in res.values()) and isx_chart(res, order, png)
    if charted:
        lines += ["![ISx weak scaling](%s)" % os.path.basename(png), ""]
    lines += ["### Jobs", ""] + jobs_table(jobs, order)
    return lines


def isx_chart(res, order, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scale.py: no matplotlib: chart %s skipped (tables only; draw it later with --mode isx --raw DIR)" % png, file=sys.stderr)
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ns = sorted({n for (_s, n) in res})
    for ax, phase, title in ((axes[0], "TOTAL", "ISx TOTAL per iteration (s): avg over PEs (solid), slowest PE (dotted)"),
                             (axes[1], "ATA_KEYS", "all-to-all key exchange, ATA_KEYS (s, avg over PEs)")):
        for s in order:
            pts = sorted((n, r["rows"][phase]) for (side, n), r in res.items() if side == s and r["good"] and phase in r["rows"])
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1][0] for p in pts], marker="o", label=side_name(s),
                    linestyle="--" if s == "oshmem" else "-", color=COLORS.get(s))
            if phase == "TOTAL":
                ax.plot([p[0] for p in pts], [p[1][1] for p in pts], linestyle=":", color=COLORS.get(s), alpha=0.7)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(ns)
        ax.set_xticklabels([str(n) for n in ns], fontsize=7)
        ax.set_xlabel("PEs (weak scaling: the same keys per PE)", fontsize=8)
        ax.set_title(title, fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("benchmarks/scale --isx: time against PEs, jshmem and OSHMEM", fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return True


def mode_main(a):
    def lines_of(name):
        out = []
        for raw in a.raw:
            out += [l for l in raw_lines(raw, name) if l not in out]
        return out
    headers = a.header or lines_of("headers.txt")
    notes = a.note or lines_of("notes.txt")
    title = "benchmarks/scale --collectives" if a.mode == "coll" else "benchmarks/scale --isx (ISx weak scaling)"
    lines = ["# " + title, ""] + ["- " + h for h in headers] + [""]
    body = coll_report(a.raw, a.png) if a.mode == "coll" else isx_report(a.raw, a.png)
    lines += body
    if notes:
        lines += [""] + ["Note: " + n for n in notes]
    text = "\n".join(lines) + "\n"
    with open(a.md, "w") as fh:
        fh.write(text)
    sys.stdout.write(text)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", action="append", help="a raw folder; --mode coll|isx: repeat it to merge several runs")
    ap.add_argument("--md")
    ap.add_argument("--csv")
    ap.add_argument("--png")
    ap.add_argument("--redraw")
    ap.add_argument("--mode", choices=["scale", "coll", "isx"], default="scale")
    ap.add_argument("--cores", type=int, default=os.cpu_count())
    ap.add_argument("--title", default="benchmarks/scale: cost against the number of PEs (log-log)")
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--note", action="append", default=[])
    a = ap.parse_args()
    if a.mode != "scale":
        if not a.raw or not a.md:
            ap.error("--mode %s needs --raw and --md" % a.mode)
        return mode_main(a)
    if a.redraw:
        if not a.png:
            ap.error("--redraw needs --png")
        return 0 if chart(read_csv(a.redraw), a.png, a.title) else 1
    if not a.raw or not a.md:
        ap.error("--raw and --md are required")
    a.raw = a.raw[-1]
    rows = sorted((aggregate(d) for d in glob.glob(os.path.join(a.raw, "*-*")) if os.path.isfile(os.path.join(d, "job.txt"))),
                  key=side_key)
    lines = ["# benchmarks/scale", ""] + ["- " + h for h in a.header] + [""]
    lines += tables(rows, a.cores)
    if a.note:
        lines += [""] + ["Note: " + n for n in a.note]
    png_ok = False
    if a.png and any(ok(r) for r in rows):
        png_ok = chart(rows, a.png, a.title)
    if png_ok:
        lines += ["", "![cost against N](%s)" % os.path.basename(a.png)]
    text = "\n".join(lines) + "\n"
    with open(a.md, "w") as fh:
        fh.write(text)
    if a.csv:
        write_csv(rows, a.csv)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
