#!/usr/bin/env python3
"""Sums up `isx --trace-exchange` (examples/.../isx/ExchangeTrace.java): where each iteration's key exchange went.

Usage: benchmarks/plot/isx_exchange.py [--per-host P] ERR_FILE...
  ERR_FILE   the job's standard error (benchmarks/scale keeps it as raw-scale-isx-*/<side>-N/err.txt); the
             EXCHANGE and FADD lines of every PE of one job
  --per-host PEs per test host, block-wise (default 8): a fetch-add is remote when its target is on another host

Prints a row per iteration (medians over the PEs, ms): the spread of the PEs' leaving the iteration's first barrier,
the local phases after it (to the exchange), the spread of the PEs' start of the exchange, the fetch-adds and puts, the
quiet, the barrier after it, a remote and a local fetch-add, and the PE's remote fetch-adds summed, and after the
exchange (traces of 2026-11-28 on) zeroing the histogram, the local sort and the iteration's last barrier; then,
over the second half of the iterations, the remote fetch-add's median by step (1: the next PE) and the time between a
fetch-add's return and the next one's start (the put, and the loop) after a remote and after a local fetch-add.
"""
import collections
import statistics as st
import sys


def main(argv):
    per_host = 8
    files = []
    i = 0
    while i < len(argv):
        if argv[i] == '--per-host':
            per_host = int(argv[i + 1])
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if not files:
        sys.exit(__doc__)
    for f in files:
        report(f, per_host)


def report(path, per_host):
    exch = {}
    fadd = collections.defaultdict(list)
    skipped = 0
    for line in open(path, errors='replace'):
        p = line.split()
        try:
            if line.startswith('EXCHANGE '):
                # 'began' came later (2026-11-28): a trace without it leaves those two columns empty
                # so did 'zero', 'sort' and 'last' (the rest of ISx's TOTAL after the exchange)
                exch[(int(p[2]), int(p[4]))] = (int(p[6]), float(p[8]), float(p[10]), float(p[12]),
                                                int(p[14]) if len(p) > 14 else None,
                                                tuple(float(p[k]) for k in (16, 18, 20)) if len(p) > 20 else None)
            elif line.startswith('FADD '):
                fadd[(int(p[2]), int(p[4]))].append((int(p[6]), int(p[8]), float(p[10]), int(p[12])))
        except (ValueError, IndexError):
            skipped += 1  # a line another process's output cut into
    if skipped:
        print(f'{path}: {skipped} malformed trace lines skipped', file=sys.stderr)
    if not exch:
        sys.exit(f'{path}: no EXCHANGE lines (was isx run with --trace-exchange?)')
    pes = sorted({pe for pe, _ in exch})
    its = sorted({it for _, it in exch})
    print(f'### {path}: {len(pes)} PEs, {len(its)} iterations (0: the burn-in), {per_host} PEs per host\n')
    print('| it | first barrier left, spread | local phases | exchange start, spread | fetch-adds and puts | quiet | barrier | '
          'remote fetch-add | local fetch-add | remote fetch-adds, sum | zero | sort | last barrier | last barrier, max |')
    print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    remote = lambda pe, t: t // per_host != pe // per_host
    for it in its:
        rows = [exch[(pe, it)] for pe in pes if (pe, it) in exch]
        rem, loc, sums = [], [], []
        for pe in pes:
            r = [us for (_, t, us, _) in fadd[(pe, it)] if remote(pe, t)]
            rem += r
            loc += [us for (_, t, us, _) in fadd[(pe, it)] if not remote(pe, t)]
            sums.append(sum(r))
        med = lambda v: f'{st.median(v) / 1e3:.2f}' if v else '–'
        spread = lambda i: f'{(max(r[i] for r in rows) - min(r[i] for r in rows)) / 1e6:.2f}' if rows[0][i] is not None else '–'
        local = med([(r[0] - r[4]) / 1e3 for r in rows]) if rows[0][4] is not None else '–'
        tails = [r[5] for r in rows if r[5] is not None]
        tail = lambda k: med([t[k] for t in tails]) if tails else '–'
        last_max = f'{max(t[2] for t in tails) / 1e3:.2f}' if tails else '–'
        print(f'| {it} | {spread(4)} | {local} | {spread(0)} | {med([r[1] for r in rows])} | '
              f'{med([r[2] for r in rows])} | {med([r[3] for r in rows])} | {med(rem)} | {med(loc)} | {med(sums)} | '
              f'{tail(0)} | {tail(1)} | {tail(2)} | {last_max} |')
    late = [it for it in its if it >= (len(its) + 1) // 2]
    by_step = collections.defaultdict(list)
    gap_remote, gap_local = [], []
    for pe in pes:
        for it in late:
            rows = sorted(fadd[(pe, it)])
            for (step, t, us, _) in rows:
                if remote(pe, t):
                    by_step[step].append(us)
            for a, b in zip(rows, rows[1:]):
                gap = (b[3] - b[2] * 1000 - a[3]) / 1e3
                (gap_remote if remote(pe, a[1]) else gap_local).append(gap)
    print(f'\nIterations {late[0]}-{late[-1]}: remote fetch-add by step, median ms: ' +
          ', '.join(f'{s}: {st.median(v) / 1e3:.2f}' for s, v in sorted(by_step.items())))
    for name, v in (('a remote', gap_remote), ('a local', gap_local)):
        if v:
            v = sorted(v)
            print(f'From {name} fetch-add\'s return to the next one\'s start (its put): median {st.median(v):.0f} µs, '
                  f'p90 {v[int(0.9 * (len(v) - 1))]:.0f} µs')
    print()


if __name__ == '__main__':
    main(sys.argv[1:])
