#!/usr/bin/env python3
"""The floor of compare-multihost: what plain TCP does between the same two test hosts, measured in the run.

  tcp_floor.py serve PORT                 (on host 2; serves one client, then exits)
  tcp_floor.py measure HOST PORT CSV      (on host 1; writes rows in RemoteBench's CSV format)

Rows: "TCP ping-pong 8 B (floor)", the round trip of 8 bytes over one TCP_NODELAY connection, Python
blocking sockets (us, 2000 round trips per repetition), and "TCP stream 1 MiB writes (floor)", one
connection sending 1 MiB writes for ~1 s (MB/s); 5 repetitions each, the median and range kept.
"""
import socket
import statistics
import sys
import time

REPS = 5
ROUND_TRIPS = 2000
CHUNK = 1 << 20


def recv_exact(s, n):
    buf = bytearray()
    while len(buf) < n:
        got = s.recv(n - len(buf))
        if not got:
            raise EOFError("peer closed")
        buf += got
    return bytes(buf)


def serve(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(1)
    ls.settimeout(120)
    c, _ = ls.accept()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while True:
        mode = c.recv(1)
        if not mode or mode == b"q":
            break
        if mode == b"p":
            for _ in range(ROUND_TRIPS):
                c.sendall(recv_exact(c, 8))
        elif mode == b"s":
            total = int.from_bytes(recv_exact(c, 8), "little")
            left = total
            while left:
                got = c.recv(min(left, CHUNK))
                if not got:
                    raise EOFError("peer closed")
                left -= len(got)
            c.sendall(b"k")
    c.close()
    ls.close()


def measure(host, port, csv):
    s = None
    for _ in range(100):
        try:
            s = socket.create_connection((host, port), timeout=5)
            break
        except OSError:
            time.sleep(0.1)
    if s is None:
        raise SystemExit(f"tcp_floor: cannot connect to {host}:{port}")
    s.settimeout(60)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    rtts, rates = [], []
    payload = b"x" * 8
    data = b"y" * CHUNK
    for _ in range(REPS):
        s.sendall(b"p")
        t0 = time.perf_counter()
        for _ in range(ROUND_TRIPS):
            s.sendall(payload)
            recv_exact(s, 8)
        rtts.append((time.perf_counter() - t0) / ROUND_TRIPS * 1e6)
    for _ in range(REPS):
        chunks = 1024
        s.sendall(b"s" + (chunks * CHUNK).to_bytes(8, "little"))
        t0 = time.perf_counter()
        for _ in range(chunks):
            s.sendall(data)
        recv_exact(s, 1)
        rates.append(chunks * CHUNK / (time.perf_counter() - t0) / 1e6)
    s.sendall(b"q")
    s.close()
    with open(csv, "w") as f:
        f.write("benchmark,size,unit,median,min,max,values\n")
        for name, size, unit, vals in (("TCP ping-pong 8 B (floor)", 8, "us", rtts),
                                       ("TCP stream 1 MiB writes (floor)", CHUNK, "MB/s", rates)):
            f.write(f"{name},{size},{unit},{statistics.median(vals):.3f},{min(vals):.3f},{max(vals):.3f},"
                    + ";".join(f"{v:.3f}" for v in vals) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    else:
        measure(sys.argv[2], int(sys.argv[3]), sys.argv[4])
