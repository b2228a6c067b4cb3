#!/usr/bin/env python3
"""Samples the kernel's per-thread scheduler statistics of a job's processes while it runs.

usage: schedstat_sample.py OUT STOPFILE [INTERVAL_S]

Every INTERVAL_S (default 0.2) it reads /proc/PID/task/TID/schedstat (time on a CPU, time runnable but waiting for
one, timeslices) of every thread of every process that is a jshmem PE JVM (a java process whose command line names
io.jshmem, not the launcher's) or a native ISx/benchmark PE (its name is isx, shmem_coll or shmem_scale), and appends one line per thread:
"SECONDS PID TID KIND THREAD_NAME CPU_NS WAIT_NS SLICES". It stops when STOPFILE exists. schedstat_report.py
summarises the file.
"""
import os
import sys
import time

NATIVE = {"isx", "shmem_coll", "shmem_scale"}


def kind_of(pid, comm):
    if comm in NATIVE:
        return "native"
    if comm != "java":  # a JVM's process is named after its launcher; shells and timeout(1) may carry the same words
        return None
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read()
    except OSError:
        return None
    if b"io.jshmem" in cmd and b"ShmemRun" not in cmd and b"RootAgent" not in cmd:
        return "java"
    return None


def main():
    out, stop = sys.argv[1], sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.2
    kinds = {}
    t0 = time.monotonic()
    with open(out, "w") as o:
        while not os.path.exists(stop):
            now = time.monotonic() - t0
            for p in os.listdir("/proc"):
                if not p.isdigit():
                    continue
                try:
                    with open(f"/proc/{p}/comm") as f:
                        comm = f.read().strip()
                except OSError:
                    continue
                if kinds.get(p, (None,))[0] != comm:  # new, or it exec'd (a launcher's wrapper became the PE)
                    kinds[p] = (comm, kind_of(p, comm))
                k = kinds[p][1]
                if k is None:
                    continue
                try:
                    tids = os.listdir(f"/proc/{p}/task")
                except OSError:
                    continue
                for t in tids:
                    try:
                        with open(f"/proc/{p}/task/{t}/comm") as f:
                            name = f.read().strip().replace(" ", "_")
                        with open(f"/proc/{p}/task/{t}/schedstat") as f:
                            cpu, wait, slices = f.read().split()[:3]
                    except OSError:
                        continue
                    o.write(f"{now:.3f} {p} {t} {k} {name} {cpu} {wait} {slices}\n")
            o.flush()
            time.sleep(interval)


if __name__ == "__main__":
    main()
