/*
 * shmem_p2p: the native twin of io.jshmem.bench.P2pBench, written against the OpenSHMEM C API.
 *
 * It measures the same rows as the Java program, with the same loop structure, warm-up, iteration
 * counts and timer semantics (CLOCK_MONOTONIC here, System.nanoTime there), and prints the same
 * text table and the same CSV (benchmark,size,unit,median,min,max,values) with IDENTICAL benchmark
 * names, so benchmarks/compare-native can join the two outputs row by row. When P2pBench changes,
 * change this file the same way: the comparison is only fair while the two stay mirrors.
 *
 * Differences that cannot be avoided are printed as "# note:" lines under the title (and picked up
 * by compare-native): today only put_signal, which OpenSHMEM 1.4 (Open MPI 4.1's OSHMEM) lacks and
 * which is then emulated with put + fence + atomic_set and waited for with wait_until.
 *
 * Build: oshcc -O2 -o shmem_p2p shmem_p2p.c      (or: make -C benchmarks/native)
 * Run:   oshrun -np 2 ./shmem_p2p [--reps N] [--warmup N] [--quick] [--csv FILE]
 */
#define _POSIX_C_SOURCE 200809L

#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 64
#define BUF_BYTES (4L << 20)
#define WORDS 64
#define MAX_ROWS 128
#define NAME_LEN 96

/* OpenSHMEM 1.5 defines SHMEM_SIGNAL_SET with shmem_put_signal; 1.4 has neither. */
#if defined(SHMEM_SIGNAL_SET)
#define HAVE_PUT_SIGNAL 1
#else
#define HAVE_PUT_SIGNAL 0
#endif

#define BENCH_PROGRAM "shmem_p2p"
#include "bench_results.h"

/* ------------------------------------------------------------------------------------------------
 * The benchmarks: P2pBench.java in C, method by method.
 * --------------------------------------------------------------------------------------------- */



/* P2pBench.iters: max(20, min(base, cap / size)) with base = small (or small / 10 with --quick). */
static int iters_for(long size, int small)
{
    const long base = quick ? small / 10 : small;
    const long cap = (quick ? 32L << 20 : 256L << 20) / (size > 1 ? size : 1);
    const long it = base < cap ? base : cap;
    return (int)(it > 20 ? it : 20);
}

static void put_window(char *buf, const char *src, long size)
{
    for (int i = 0; i < WINDOW; i++)
    {
        shmem_putmem_nbi(buf, src, (size_t)size, 1);
    }
    shmem_quiet();
}

/* Rounds first..last of the p + wait_until ping-pong on PE 0 or 1 (P2pBench.pingPongP); returns the ns taken. */
static long ping_pong_p(long *words, int first, int last)
{
    const long t0 = now_ns();
    if (me == 0)
    {
        for (int i = first; i <= last; i++)
        {
            shmem_long_p(&words[0], i, 1);
            shmem_long_wait_until(&words[0], SHMEM_CMP_EQ, i);
        }
    }
    else
    {
        for (int i = first; i <= last; i++)
        {
            shmem_long_wait_until(&words[0], SHMEM_CMP_EQ, i);
            shmem_long_p(&words[0], i, 0);
        }
    }
    return now_ns() - t0;
}

static void signal_wait(long *words, int i)
{
#if HAVE_PUT_SIGNAL
    shmem_signal_wait_until((uint64_t *)&words[1], SHMEM_CMP_EQ, (uint64_t)i);
#else
    shmem_long_wait_until(&words[1], SHMEM_CMP_EQ, i);
#endif
}

static void put_signal(long *words, long *one, int i, int peer)
{
#if HAVE_PUT_SIGNAL
    shmem_long_put_signal(&words[2], one, 1, (uint64_t *)&words[1], (uint64_t)i, SHMEM_SIGNAL_SET, peer);
#else
    /* the fence orders the payload before the signal, which is put_signal's delivery guarantee */
    shmem_long_put(&words[2], one, 1, peer);
    shmem_fence();
    shmem_long_atomic_set(&words[1], i, peer);
#endif
}

/* Rounds first..last of the put_signal + signal_wait_until ping-pong (P2pBench.pingPongSignal); returns the ns taken. */
static long ping_pong_signal(long *words, long *one, int first, int last)
{
    const long t0 = now_ns();
    if (me == 0)
    {
        for (int i = first; i <= last; i++)
        {
            one[0] = i;
            put_signal(words, one, i, 1);
            signal_wait(words, i);
        }
    }
    else
    {
        for (int i = first; i <= last; i++)
        {
            one[0] = i;
            signal_wait(words, i);
            put_signal(words, one, i, 0);
        }
    }
    return now_ns() - t0;
}

/* Ping-pong between PE 0 and PE 1, one way = half a round trip: warm-up rounds and timed rounds are two
 * calls of the same loop function, as in P2pBench. */
static void ping_pong(long *words)
{
    const int iters = 50000; /* with --quick too, as P2pBench */
    const int warm = iters / 10;
    long one[1];

    words[0] = 0;
    words[1] = 0;
    shmem_barrier_all();
    if (me <= 1)
    {
        ping_pong_p(words, 1, warm); /* p + wait_until on word 0; the value is the round number */
        const long ns = ping_pong_p(words, warm + 1, warm + iters);
        if (me == 0)
        {
            results_add("ping-pong p + wait_until (one way)", 8, "us", (double)ns / 2e3 / iters);
        }
    }
    shmem_barrier_all();
    if (me <= 1)
    {
        ping_pong_signal(words, one, 1, warm); /* put_signal of 8 bytes + signal_wait_until on word 1 */
        const long ns = ping_pong_signal(words, one, warm + 1, warm + iters);
        if (me == 0)
        {
            results_add("ping-pong put_signal + signal_wait_until (one way)", 8, "us", (double)ns / 2e3 / iters);
        }
    }
    shmem_barrier_all();
}

static void all_hammer(long *words, int iters)
{
    shmem_barrier_all();
    const long t0 = now_ns();
    for (int i = 0; i < iters; i++)
    {
        shmem_long_atomic_add(&words[11], 1L, 0);
    }
    shmem_barrier_all();
    const long t1 = now_ns();
    if (me == 0)
    {
        char name[NAME_LEN];
        snprintf(name, sizeof name, "atomic add throughput, all %d PEs on one word (Mops/s)", n);
        results_add(name, 8, "Mops/s", (double)iters * n / ((double)(t1 - t0) / 1e3));
    }
}

static void barrier(int iters)
{
    for (int i = 0; i < iters / 10; i++)
    {
        shmem_barrier_all();
    }
    const long t0 = now_ns();
    for (int i = 0; i < iters; i++)
    {
        shmem_barrier_all();
    }
    const long t1 = now_ns();
    if (me == 0)
    {
        results_add("barrier_all latency", n, "us", (double)(t1 - t0) / 1e3 / iters);
    }
}

/* private buffers, made once in main (as P2pBench's) and written so no page is the shared zero page */
static char *src;
static char *dst;

static void run_all(void)
{
    char *buf = shmem_malloc(BUF_BYTES);
    long *words = shmem_calloc(WORDS, sizeof(long));
    if (buf == NULL || words == NULL)
    {
        fprintf(stderr, "shmem_p2p: allocation failed on PE %d (buf=%p words=%p)\n", me, (void *)buf, (void *)words);
        shmem_global_exit(1);
    }

    for (long size = 8; size <= 1L << 20; size <<= 1)
    {
        const int iters = iters_for(size, 20000);
        LATENCY("put latency (put + quiet)", size, iters, (shmem_putmem(buf, src, (size_t)size, 1), shmem_quiet()));
        LATENCY("get latency", size, iters, shmem_getmem(dst, buf, (size_t)size, 1));
    }
    for (long size = 8; size <= 4L << 20; size <<= 1)
    {
        const int w = iters_for(size * WINDOW, 2000);
        const int windows = w > 4 ? w : 4;
        shmem_barrier_all();
        if (me == 0)
        {
            for (int i = 0; i < 2; i++)
            {
                put_window(buf, src, size);
            }
            const long t0 = now_ns();
            for (int i = 0; i < windows; i++)
            {
                put_window(buf, src, size);
            }
            const long t1 = now_ns();
            char name[NAME_LEN];
            snprintf(name, sizeof name, "put bandwidth (nbi window %d)", WINDOW);
            results_add(name, size, "MB/s", (double)size * WINDOW * windows / ((double)(t1 - t0) / 1e3));
            if (size == 8)
            {
                results_add("put message rate", size, "Mmsg/s", (double)WINDOW * windows / ((double)(t1 - t0) / 1e3));
            }
        }
        shmem_barrier_all();
    }
    ping_pong(words);
    const int amo_iters = quick ? 20000 : 200000;
    LATENCY("fetch_add latency", 8, amo_iters, (void)shmem_long_atomic_fetch_add(&words[8], 1L, 1));
    LATENCY("compare_swap latency", 8, amo_iters, (void)shmem_long_atomic_compare_swap(&words[9], 0L, 0L, 1));
    LATENCY("atomic add throughput, 1 PE (ns/op)", 8, amo_iters, shmem_long_atomic_add(&words[10], 1L, 1));
    all_hammer(words, amo_iters);
    barrier(quick ? 5000 : 50000);
    shmem_free(words);
    shmem_free(buf);
}

int main(int argc, char **argv)
{
    int reps = 7;
    int warmup = 4;
    const char *csv = NULL;
    bench_parse_args(argc, argv, &reps, &warmup, &csv);

    bench_init(2);
    src = malloc(BUF_BYTES);
    dst = malloc(BUF_BYTES);
    if (src == NULL || dst == NULL)
    {
        fprintf(stderr, "shmem_p2p: allocation of 2 x %ld bytes failed on PE %d\n", BUF_BYTES, me);
        shmem_global_exit(1);
    }
    memset(src, me + 1, BUF_BYTES);
    memset(dst, 0, BUF_BYTES);
    for (int w = 0; w < warmup; w++) /* the warm-up passes, as the Java side's; their values are then dropped */
    {
        run_all();
    }
    results_clear();
    for (int r = 0; r < reps; r++)
    {
        run_all();
    }
    const int rc = bench_report("p2p benchmarks", "medians", reps, HAVE_PUT_SIGNAL ? NULL
        : "no shmem_put_signal in this OpenSHMEM (1.4): the put_signal row is put + fence + atomic_set, "
          "waited for with wait_until", csv);
    free(dst);
    free(src);
    shmem_finalize();
    return rc;
}
