#!/usr/bin/env python3
"""Tables and log-log charts of benchmarks/scale: what a job costs as its PE count N grows, per side.

Reads the raw folder benchmarks/scale wrote: one sub-folder per job (<side>-<N>) holding job.txt (key=value
lines the script wrote: side, npes, hosts, rc, status, launch_to_exit_ms, reported, error) and pes/pe-<rank>.txt
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
"""
import argparse
import csv
import glob
import os
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
    return (r["npes"], SIDES_ORDER.index(s) if s in SIDES_ORDER else 99, s)


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
               " | finalize | launch→exit s |")
    out.append("|" + "---|" * (9 + len(PHASES)))
    for r in rows:
        good = ok(r)
        cells = [str(r["npes"]), str(r["hosts"]), side_name(r["side"]), status_cell(r)]
        for k in ["launch_to_init_ms", "launch_to_main_ms", "init_call_ms"] + ["ph_" + p for p in PHASES] + ["finalize_ms"]:
            cells.append(f(r[k]) if good else "–")
        cells.append(f(r["launch_to_exit_ms"] / 1000) if r["launch_to_exit_ms"] is not None else "–")
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw")
    ap.add_argument("--md")
    ap.add_argument("--csv")
    ap.add_argument("--png")
    ap.add_argument("--redraw")
    ap.add_argument("--cores", type=int, default=os.cpu_count())
    ap.add_argument("--title", default="benchmarks/scale: cost against the number of PEs (log-log)")
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--note", action="append", default=[])
    a = ap.parse_args()
    if a.redraw:
        if not a.png:
            ap.error("--redraw needs --png")
        return 0 if chart(read_csv(a.redraw), a.png, a.title) else 1
    if not a.raw or not a.md:
        ap.error("--raw and --md are required")
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
