#!/usr/bin/env python3
"""What the JIT did while a job's slowest collective calls ran, from the PEs' flight recordings.

Usage: jfr_warmup.py [--jfr-tool PATH] [--collective NAME] [--min-bytes B] [--max-bytes B] [--top N] RECORDING...

RECORDING: the PEs' .jfr files of one job (`shmemrun --jfr DIR`, or JAVA_TOOL_OPTIONS=-XX:StartFlightRecording=...
with `jdk.Compilation#threshold=0ms` for every compile), or `jfr print --json` output of them (*.json). Reads jshmem's
`jshmem.Collective` events and the JVM's `jdk.Compilation` and `jdk.Deoptimization` events.

Every PE calls a team's collectives in the same order, so the k-th call of a team on each PE is one call of the job:
its window runs from the first PE's entry to the last PE's return. Prints, per collective and size, the calls'
windows (median and largest), then for the N largest windows (of --collective, within the sizes) the compilations
that ran and the deoptimizations that happened on any PE inside them, summed by method: how many, on how many PEs,
and their compile time inside the window. A call that waits on a PE whose JIT was busy shows it there.
"""
import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from datetime import datetime


def parse_time(s):
    """JFR's ISO time (nanoseconds) as integer nanoseconds since the epoch."""
    m = re.match(r'(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$', s)
    if not m:
        raise ValueError('unreadable time ' + s)
    base = datetime.fromisoformat(m.group(1) + (m.group(3) or 'Z').replace('Z', '+00:00'))
    frac = (m.group(2) or '0').ljust(9, '0')[:9]
    return int(base.timestamp()) * 1_000_000_000 + int(frac)


def parse_duration(s):
    """JFR's ISO duration (PT1.5S, PT2M3.1S, PT0S) as integer nanoseconds."""
    m = re.match(r'PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$', s)
    if not m:
        raise ValueError('unreadable duration ' + s)
    h, mi, sec = int(m.group(1) or 0), int(m.group(2) or 0), float(m.group(3) or 0)
    return int(round(((h * 60 + mi) * 60 + sec) * 1e9))


def method_name(m):
    if not m:
        return '?'
    return m['type']['name'].replace('/', '.') + '.' + m['name']


def events_of(path, tool):
    if path.endswith('.json'):
        with open(path) as f:
            return json.load(f)['recording']['events']
    out = subprocess.run([tool, 'print', '--json', '--events', 'jshmem.Collective,jdk.Compilation,jdk.Deoptimization', path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)['recording']['events']


def load(paths, tool):
    """Per recording: its collective calls (in order) and its compilations and deoptimizations."""
    pes = []
    for path in paths:
        calls, comps, deopts = [], [], []
        pe = None
        for e in events_of(path, tool):
            v = e['values']
            start = parse_time(v['startTime'])
            if e['type'] == 'jshmem.Collective':
                pe = v.get('pe', pe)
                calls.append((v.get('team'), v.get('collective'), v.get('bytes'), v.get('algorithm'), start,
                              start + parse_duration(v.get('duration', 'PT0S'))))
            elif e['type'] == 'jdk.Compilation':
                comps.append((start, start + parse_duration(v.get('duration', 'PT0S')), method_name(v.get('method')),
                              v.get('compileLevel'), bool(v.get('isOsr'))))
            elif e['type'] == 'jdk.Deoptimization':
                deopts.append((start, method_name(v.get('method')), v.get('reason'), v.get('action')))
        calls.sort(key=lambda c: c[4])
        pes.append({'path': path, 'pe': pe, 'calls': calls, 'comps': comps, 'deopts': deopts})
    return pes


def job_calls(pes):
    """The job's calls: the k-th call of each team on every PE, with its window over the PEs."""
    per_team = collections.defaultdict(lambda: collections.defaultdict(list))
    for p in pes:
        seen = collections.Counter()
        for team, coll, nbytes, alg, start, end in p['calls']:
            k = seen[team]
            seen[team] += 1
            per_team[team][k].append((coll, nbytes, alg, start, end, p['pe']))
    calls = []
    for team, byk in per_team.items():
        for k, parts in byk.items():
            kinds = {(c, b) for c, b, _, _, _, _ in parts}
            if len(kinds) != 1:
                sys.exit(f'jfr_warmup: call {k} of team {team} is not the same collective on every PE: {sorted(kinds, key=str)}')
            coll, nbytes = kinds.pop()
            start = min(s for _, _, _, s, _, _ in parts)
            end = max(e for _, _, _, _, e, _ in parts)
            slowest = max(parts, key=lambda x: x[4] - x[3])
            calls.append({'team': team, 'k': k, 'collective': coll, 'bytes': nbytes, 'algorithm': parts[0][2],
                          'start': start, 'end': end, 'pes': len(parts), 'slowest_pe': slowest[5]})
    calls.sort(key=lambda c: c['start'])
    return calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('recordings', nargs='+')
    ap.add_argument('--jfr-tool', default=None, help='the JDK\'s jfr tool (default: $JAVA_HOME/bin/jfr, else jfr on PATH)')
    ap.add_argument('--collective', default=None, help='only calls of this collective among the largest windows (e.g. alltoall)')
    ap.add_argument('--min-bytes', type=int, default=0)
    ap.add_argument('--max-bytes', type=int, default=1 << 62)
    ap.add_argument('--top', type=int, default=10, help='how many of the largest windows to explain (default 10)')
    a = ap.parse_args()
    tool = a.jfr_tool or (os.path.join(os.environ['JAVA_HOME'], 'bin', 'jfr') if os.environ.get('JAVA_HOME') else shutil.which('jfr'))
    if not tool and not all(r.endswith('.json') for r in a.recordings):
        sys.exit('jfr_warmup: no jfr tool (set JAVA_HOME or give --jfr-tool)')
    pes = load(a.recordings, tool)
    calls = job_calls(pes)
    if not calls:
        sys.exit('jfr_warmup: no jshmem.Collective event in these recordings')
    by_kind = collections.defaultdict(list)
    for c in calls:
        by_kind[(c['collective'], c['bytes'])].append(c['end'] - c['start'])
    print(f'{len(pes)} recordings, {len(calls)} calls of the job\n')
    print('| collective | bytes | calls | median window, µs | largest, µs |')
    print('|---|---:|---:|---:|---:|')
    for (coll, nbytes), w in sorted(by_kind.items(), key=lambda x: (str(x[0][0]), x[0][1] or 0)):
        print(f'| {coll} | {nbytes} | {len(w)} | {statistics.median(w) / 1e3:,.0f} | {max(w) / 1e3:,.0f} |')
    chosen = [c for c in calls if (a.collective is None or c['collective'] == a.collective)
              and a.min_bytes <= (c['bytes'] or 0) <= a.max_bytes]
    chosen.sort(key=lambda c: c['end'] - c['start'], reverse=True)
    for c in chosen[:a.top]:
        lo, hi = c['start'], c['end']
        comp = collections.defaultdict(lambda: [0, set(), 0])
        deo = collections.defaultdict(lambda: [0, set()])
        for p in pes:
            for s, e, m, level, osr in p['comps']:
                if s < hi and e > lo:
                    k = (m, level, osr)
                    comp[k][0] += 1
                    comp[k][1].add(p['pe'])
                    comp[k][2] += min(e, hi) - max(s, lo)
            for t, m, reason, action in p['deopts']:
                if lo <= t <= hi:
                    deo[(m, reason, action)][0] += 1
                    deo[(m, reason, action)][1].add(p['pe'])
        busy = sum(x[2] for x in comp.values())
        print(f"\n### call {c['k']} of {c['team']}: {c['collective']} {c['bytes']} B ({c['algorithm']}), "
              f"{(hi - lo) / 1e3:,.0f} µs over {c['pes']} PEs, slowest PE {c['slowest_pe']}")
        print(f'compilations inside it: {sum(x[0] for x in comp.values())} ({busy / 1e6:,.1f} ms of compile time, all PEs)')
        for (m, level, osr), (n, who, ns) in sorted(comp.items(), key=lambda x: -x[1][2])[:12]:
            print(f"  {ns / 1e6:8.1f} ms  {n:4d} on {len(who):3d} PEs  level {level}{' OSR' if osr else ''}  {m}")
        if deo:
            print('deoptimizations inside it:')
            for (m, reason, action), (n, who) in sorted(deo.items(), key=lambda x: -x[1][0])[:8]:
                print(f'  {n:4d} on {len(who):3d} PEs  {reason} / {action}  {m}')


if __name__ == '__main__':
    main()
