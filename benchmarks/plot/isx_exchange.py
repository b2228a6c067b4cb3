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

Traces that also read each PE's wait for a core at the barriers (rq_* fields, 2026-11-28 08:50 UTC on) get a second
table, per iteration: how far apart the hosts left its first barrier (each host's earliest PE), which host was last,
and how long PEs waited for a core in the two barriers before that (the last one of the iteration before and the first
one of this): the latest host's first PE (its node's leader), the other hosts' first PEs (the most of them), and the
most of any PE, named; then the most any PE waited for a core in the barrier after the exchange. A host late by
milliseconds whose leader waited about as long was not running when the release came.
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
                # and later 'ended' and the run-queue waits at the barriers (rq_began ... rq_ended, ns; -1: unknown)
                exch[(int(p[2]), int(p[4]))] = (int(p[6]), float(p[8]), float(p[10]), float(p[12]),
                                                int(p[14]) if len(p) > 14 else None,
                                                tuple(float(p[k]) for k in (16, 18, 20)) if len(p) > 20 else None,
                                                tuple(int(p[k]) for k in (24, 26, 28, 30, 32)) if len(p) > 32 else None)
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
    run_queue_table(exch, pes, its, per_host)


def run_queue_table(exch, pes, its, per_host):
    """Per iteration: the hosts' release spread at its first barrier and who waited for a core in the barriers."""
    rq = {k: v[6] for k, v in exch.items() if v[6] is not None and v[4] is not None and min(v[6]) >= 0}
    if not rq:
        return
    hosts = sorted({pe // per_host for pe in pes})
    ms = lambda ns: f'{ns / 1e6:.2f}'
    print('Waiting for a core at the barriers (each PE\'s /proc/thread-self/schedstat; ms): the hosts\' release spread at '
          'the iteration\'s first barrier (each host\'s earliest PE), the latest host, and the wait for a core in the two '
          'barriers before that release (the iteration before\'s last and this one\'s first); then the most any PE waited '
          'in the barrier after the exchange.\n')
    print('| it | hosts left, spread | latest host | its first PE waited | other hosts\' first PEs waited, most | '
          'any PE waited, most (PE) | barrier after the exchange: any PE waited, most (PE) |')
    print('|---:|---:|---:|---:|---:|---:|---:|')
    for it in its:
        if it == 0:
            continue
        left = {}
        for h in hosts:
            began = [exch[(pe, it)][4] for pe in pes if pe // per_host == h and (pe, it) in exch]
            if began:
                left[h] = min(began)
        if len(left) < 1:
            continue
        latest = max(left, key=left.get)
        spread = left[latest] - min(left.values())
        waited = {pe: rq[(pe, it)][0] - rq[(pe, it - 1)][3] for pe in pes if (pe, it) in rq and (pe, it - 1) in rq}
        if not waited:
            continue
        first = {h: min(pe for pe in pes if pe // per_host == h) for h in hosts}
        others = [waited[first[h]] for h in hosts if h != latest and first[h] in waited]
        worst = max(waited, key=waited.get)
        after = {pe: rq[(pe, it)][2] - rq[(pe, it)][1] for pe in pes if (pe, it) in rq}
        worst_after = max(after, key=after.get)
        print(f'| {it} | {ms(spread)} | {latest + 1} | {ms(waited[first[latest]]) if first[latest] in waited else "–"} | '
              f'{ms(max(others)) if others else "–"} | {ms(waited[worst])} ({worst}) | {ms(after[worst_after])} ({worst_after}) |')
    print()


if __name__ == '__main__':
    main(sys.argv[1:])
