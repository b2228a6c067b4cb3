#!/usr/bin/env python3
"""Where the proxy's signals without data spent their time: the SIGNAL lines of `-Djshmem.proxy.trace=true`.

Usage: benchmarks/plot/proxy_signals.py [--worst K] [--from NS] ERR_FILE...
  ERR_FILE  a job's standard error (every PE's `SIGNAL pe P posted|framed|applied PEER NS agent|caller` lines,
            ProxyTrace, transports/.../proxy/ProxyTrace.java; benchmarks/scale keeps it as <side>-N/err.txt)
  --worst K list the K signals that took longest from post to applied (default 10)
  --from NS leave out signals posted before this monotonic time (e.g. a job's burn-in; default: none)

The proxy delivers a PE's commands to one target in order, so the k-th signal PE S posted to T is the k-th S framed
onto T's connection and the k-th T applied from S. For each signal: post -> framed (the sender's ring, until a duty
cycle of the proxy thread or of a waiting caller copied it onto the connection and wrote it), framed -> applied (the
socket, and the target until a duty cycle read and applied it), and the whole. Prints each stage's median, p90, p99,
maximum and the count over 1 ms; which thread framed and applied them; and the slowest signals with their stages.

Two PEs that signal each other equally often (two nodes' leaders in a barrier: each signals the other, then waits for
the other's signal) also get their rounds: the k-th signal each way. A round's release comes when the later of the two
signals is applied; what it costs beyond the later post (both had arrived by then) is the round's excess, and the later
poster's signal (the last to arrive) is the one on that path: its stages say whether its sender (post -> framed) or the
socket and its target (framed -> applied) held it up.
"""
import argparse
import collections
import sys


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0], usage=__doc__.split('\n')[2].removeprefix('Usage: '))
    ap.add_argument('--worst', type=int, default=10)
    ap.add_argument('--from', dest='since', type=int, default=None)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args(argv)
    for f in args.files:
        report(f, args.worst, args.since)


def pctl(v, q):
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))]


def report(path, worst, since):
    events = collections.defaultdict(list)  # (kind, pe, peer) -> [(ns, who)]
    for line in open(path, errors='replace'):
        p = line.split()
        if len(p) != 7 or p[0] != 'SIGNAL' or p[1] != 'pe':
            continue
        try:
            events[(p[3], int(p[2]), int(p[4]))].append((int(p[5]), p[6]))
        except ValueError:
            continue  # a line another process's output cut into
    if not events:
        sys.exit(f'{path}: no SIGNAL lines (was the job run with -Djshmem.proxy.trace=true over the proxy?)')
    rows = []
    pairs = {(pe, peer) for (kind, pe, peer) in events if kind == 'posted'}
    unmatched = 0
    for (src, dst) in sorted(pairs):
        posted = events[('posted', src, dst)]
        framed = events[('framed', src, dst)]
        applied = events[('applied', dst, src)]
        n = min(len(posted), len(framed), len(applied))
        unmatched += len(posted) - n
        for k in range(n):
            if since is not None and posted[k][0] < since:
                continue
            rows.append((src, dst, k, posted[k][0], framed[k][0], applied[k][0], framed[k][1], applied[k][1]))
    if not rows:
        sys.exit(f'{path}: no signal could be paired with its target\'s apply')
    print(f'### {path}: {len(rows)} signals without data between {len(pairs)} pairs of PEs'
          + (f' ({unmatched} posted were never applied or framed in the log)' if unmatched else '') + '\n')
    print('| stage | median µs | p90 µs | p99 µs | max µs | over 1 ms |')
    print('|---|---:|---:|---:|---:|---:|')
    for name, f in (('post -> framed (sender)', lambda r: r[4] - r[3]),
                    ('framed -> applied (socket and target)', lambda r: r[5] - r[4]),
                    ('post -> applied', lambda r: r[5] - r[3])):
        v = sorted(f(r) for r in rows)
        print(f'| {name} | {pctl(v, 0.5) / 1e3:.1f} | {pctl(v, 0.9) / 1e3:.1f} | {pctl(v, 0.99) / 1e3:.1f} | '
              f'{v[-1] / 1e3:.1f} | {sum(1 for x in v if x > 1_000_000)} |')
    framed_by = collections.Counter(r[6] for r in rows)
    applied_by = collections.Counter(r[7] for r in rows)
    print(f'\nFramed by the proxy thread {framed_by["agent"]}, by a waiting caller {framed_by["caller"]}; applied by the '
          f'proxy thread {applied_by["agent"]}, by a waiting caller {applied_by["caller"]}.')
    late = [r for r in rows if r[5] - r[3] > 1_000_000]
    if late:
        print(f'Of the {len(late)} over 1 ms, {sum(1 for r in late if r[4] - r[3] > r[5] - r[4])} spent most of it before '
              f'being framed (the sender), the rest after (socket and target).')
    rounds_table(rows, worst)
    print(f'\nThe {min(worst, len(rows))} slowest (µs; posted: ns on the monotonic clock):\n')
    print('| from | to | k | posted | post -> framed | by | framed -> applied | by | total |')
    print('|---:|---:|---:|---:|---:|---|---:|---|---:|')
    for r in sorted(rows, key=lambda r: r[5] - r[3], reverse=True)[:worst]:
        print(f'| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {(r[4] - r[3]) / 1e3:.1f} | {r[6]} | {(r[5] - r[4]) / 1e3:.1f} | {r[7]} | '
              f'{(r[5] - r[3]) / 1e3:.1f} |')
    print()


def rounds_table(rows, worst):
    by_pair = collections.defaultdict(dict)
    for r in rows:
        by_pair[(r[0], r[1])][r[2]] = r
    found = False
    for (a, b) in sorted(by_pair):
        if a > b or (b, a) not in by_pair or len(by_pair[(a, b)]) != len(by_pair[(b, a)]):
            continue
        there, back = by_pair[(a, b)], by_pair[(b, a)]
        rounds = []
        for k in sorted(set(there) & set(back)):
            x, y = there[k], back[k]
            last = x if x[3] > y[3] else y
            rounds.append((max(x[5], y[5]) - max(x[3], y[3]), k, last))
        if not rounds:
            continue
        found = True
        ex = sorted(e for e, _, _ in rounds)
        sender = sum(1 for e, _, l in rounds if e > 1_000_000 and l[4] - l[3] > l[5] - l[4])
        over = sum(1 for e in ex if e > 1_000_000)
        print(f'\nPEs {a} and {b}, {len(rounds)} rounds (the k-th signal each way): excess over the later post, median '
              f'{pctl(ex, 0.5) / 1e3:.1f} µs, p90 {pctl(ex, 0.9) / 1e3:.1f}, max {ex[-1] / 1e3:.1f}; over 1 ms: {over}, of them '
              f'{sender} held up at the last poster (post -> framed), {over - sender} after it (framed -> applied).')
        print('\n| k | excess µs | last poster | its post -> framed µs | by | framed -> applied µs | by |')
        print('|---:|---:|---:|---:|---|---:|---|')
        for e, k, l in sorted(rounds, key=lambda t: t[0], reverse=True)[:worst]:
            print(f'| {k} | {e / 1e3:.1f} | {l[0]} | {(l[4] - l[3]) / 1e3:.1f} | {l[6]} | {(l[5] - l[4]) / 1e3:.1f} | {l[7]} |')
    return found


if __name__ == '__main__':
    main(sys.argv[1:])
