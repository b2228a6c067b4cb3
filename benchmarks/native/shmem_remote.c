/*
 * shmem_remote: the native twin of io.jshmem.bench.RemoteBench, written against the OpenSHMEM C API.
 *
 * PE 0 talks to the last PE (on the other host when the job spans two): get 8 B, put 8 B + quiet,
 * fetch_add and compare_swap latency, the 8-byte put rate with nbi puts and one quiet per window of
 * 4096, put bandwidth of 1 MiB nbi puts (16 per quiet), barrier_all and sync_all over every PE. Same loops,
 * iteration counts, warm-up (default 1 pass) and repetitions (default 5) as the Java program, and the
 * same text table and CSV (benchmark,size,unit,median,min,max,values) with IDENTICAL row names, so
 * benchmarks/compare-multihost joins the two row by row. When RemoteBench changes, change this file
 * the same way.
 *
 * Build: oshcc -O2 -o shmem_remote shmem_remote.c      (or: make -C benchmarks/native)
 * Run:   oshrun -np 2 --host a,b ./shmem_remote [--reps N] [--warmup N] [--quick] [--csv FILE]
 */
#define _POSIX_C_SOURCE 200809L

#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE_WINDOW 4096
#define BIG_BYTES (1L << 20)
#define WORDS 64
#define MAX_ROWS 16
#define NAME_LEN 96

#define BENCH_PROGRAM "shmem_remote"
#include "bench_results.h"

static int peer;

/* the private 1 MiB source of the bandwidth row (RemoteBench's off-heap segment), made once in main */
static char *big;

/* RemoteBench.everyPe: times count calls of a collective op on every PE, between barriers; PE 0 records us per call */
static void every_pe(const char *what, int count, void (*op)(void))
{
    shmem_barrier_all();
    const long t0 = now_ns();
    for (int i = 0; i < count; i++)
    {
        op();
    }
    const long t1 = now_ns();
    if (me == 0)
    {
        char name[NAME_LEN];
        snprintf(name, sizeof name, "%s, %d PEs", what, shmem_n_pes());
        results_add(name, 0, "us", (double)(t1 - t0) / 1e3 / count);
    }
}

/* RemoteBench.runAll, line by line: the symmetric objects are allocated and freed in every pass */
static void run_all(void)
{
    long *words = shmem_calloc(WORDS, sizeof(long));
    char *buf = shmem_malloc(BIG_BYTES);
    if (buf == NULL || words == NULL)
    {
        fprintf(stderr, "shmem_remote: allocation failed on PE %d (buf=%p words=%p)\n", me, (void *)buf, (void *)words);
        shmem_global_exit(1);
    }
    const int iters = quick ? 300 : 2000;
    long one = 0;
    LATENCY("get 8 B", 8, iters, shmem_long_get(&one, &words[0], 1, peer));
    LATENCY("put 8 B + quiet", 8, iters, (shmem_long_put(&words[1], &one, 1, peer), shmem_quiet()));
    LATENCY("fetch_add", 8, iters, (void)shmem_long_atomic_fetch_add(&words[2], 1L, peer));
    LATENCY("compare_swap", 8, iters, (void)shmem_long_atomic_compare_swap(&words[3], 0L, 0L, peer));
    shmem_barrier_all();
    if (me == 0)
    {
        const int windows = quick ? 5 : 20;
        const long t0 = now_ns();
        for (int w = 0; w < windows; w++)
        {
            for (int i = 0; i < RATE_WINDOW; i++)
            {
                shmem_long_put_nbi(&words[4 + (i & 31)], &one, 1, peer);
            }
            shmem_quiet();
        }
        const long t1 = now_ns();
        char name[NAME_LEN];
        snprintf(name, sizeof name, "8-byte put rate (nbi, quiet per %d)", RATE_WINDOW);
        results_add(name, 8, "M/s", (double)windows * RATE_WINDOW / ((double)(t1 - t0) / 1e3));
        const int puts = quick ? 32 : 128;
        const long b0 = now_ns();
        for (int i = 0; i < puts; i++)
        {
            shmem_putmem_nbi(buf, big, BIG_BYTES, peer);
            if ((i & 15) == 15)
            {
                shmem_quiet();
            }
        }
        shmem_quiet();
        const long b1 = now_ns();
        results_add("put bandwidth (1 MiB nbi, quiet per 16)", BIG_BYTES, "MB/s", (double)puts * BIG_BYTES / ((double)(b1 - b0) / 1e3));
    }
    const int barriers = quick ? 300 : 2000;
    every_pe("barrier_all", barriers, shmem_barrier_all);
    every_pe("sync_all", barriers, shmem_sync_all);
    shmem_barrier_all();
    shmem_free(buf);
    shmem_free(words);
}

int main(int argc, char **argv)
{
    int reps = 5;
    int warmup = 1;
    const char *csv = NULL;
    bench_parse_args(argc, argv, &reps, &warmup, &csv);

    bench_init(2);
    peer = n - 1;
    big = aligned_alloc(4096, BIG_BYTES);
    if (big == NULL)
    {
        fprintf(stderr, "shmem_remote: allocation of %ld bytes failed on PE %d\n", BIG_BYTES, me);
        shmem_global_exit(1);
    }
    memset(big, 0, BIG_BYTES); /* as Arena.allocate: zeroed, every page touched */
    for (int w = 0; w < warmup; w++) /* the warm-up passes, as Results.run; their values are then dropped */
    {
        run_all();
    }
    results_clear();
    for (int r = 0; r < reps; r++)
    {
        run_all();
    }
    char what[64];
    snprintf(what, sizeof what, "PE 0 <-> PE %d", n - 1);
    const int rc = bench_report(what, "medians", reps, NULL, csv);
    free(big);
    shmem_finalize();
    return rc;
}
