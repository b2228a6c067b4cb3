/*
 * shmem_coll: the native twin of io.jshmem.bench.CollectivesBench, written against the OpenSHMEM C API.
 *
 * Same rows (identical benchmark names, sizes and units, so benchmarks/compare-native joins them),
 * same loop structure, warm-up (--warmup unrecorded passes over every row first, default 3, then max(5, iters / 10)
 * calls between two barrier_all before each timed loop), iteration counts
 * (CollectivesBench.iters) and timing: every PE times its own loop (CLOCK_MONOTONIC here,
 * System.nanoTime there), the per-call averages are MAX-reduced and PE 0 records the slowest PE's
 * average in microseconds; repetitions give the median, min and max. Sizes are bytes per PE
 * (broadcast and reduce: the whole message; fcollect and alltoall: one PE's block). The symmetric
 * source and destination are allocated and freed in every repetition, as in Java. When
 * CollectivesBench changes, change this file the same way.
 *
 * OpenSHMEM 1.4 (Open MPI 4.1's OSHMEM) has no teams and no team collectives, so this program uses
 * the active-set API over all PEs (PE_start 0, logPE_stride 0, PE_size n): shmem_sync_all for the
 * team sync row (sync without quiet, as Team.sync), shmem_broadcast64, shmem_fcollect64,
 * shmem_alltoall64 and shmem_long_sum_to_all. Every pSync starts at SHMEM_SYNC_VALUE and consecutive
 * calls alternate between two pSync arrays (and two pWrk arrays), which the 1.4 specification allows
 * without a barrier between the calls. One semantic difference: active-set broadcast does not write
 * the root's destination (team broadcast does); the cost difference is one local copy on PE 0,
 * negligible next to the transfer. Both are printed as "# note:" lines (repeated by compare-native).
 *
 * Build: oshcc -O2 -o shmem_coll shmem_coll.c    (or: make -C benchmarks/native)
 * Run:   oshrun -np 4 ./shmem_coll [--reps N] [--warmup N] [--quick] [--only TEXT] [--csv FILE]
 * --only runs only the rows whose name contains TEXT (e.g. reduce) or one of its comma-separated parts, as
 * CollectivesBench's --only.
 */
#define _POSIX_C_SOURCE 200809L

#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BYTES (1L << 20)
#define MAX_BLOCK (64L << 10)
#define MAX_ROWS 128
#define NAME_LEN 96
#define MAX_LONGS (MAX_BYTES / 8)
#define WRK_LONGS (MAX_LONGS / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? MAX_LONGS / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE)

#define SYNC_SIZE_MAX 1024 /* >= every SHMEM_*_SYNC_SIZE, checked in main */

#define BENCH_PROGRAM "shmem_coll"
#include "bench_results.h"

/* ------------------------------------------------------------------------------------------------
 * The benchmarks: CollectivesBench.java in C.
 * --------------------------------------------------------------------------------------------- */


/* two pSync and two pWrk arrays, alternated call by call (symmetric: static storage) */
static long psync[2][SYNC_SIZE_MAX];
static long pwrk[2][WRK_LONGS];
static int flip;
static double timing[2];
static double timing_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 2 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 2];
static long timing_psync[SYNC_SIZE_MAX];

static void *src;
static void *dest;
static long cur_size;
static const char *only = ""; /* --only TEXT: only the rows whose name contains TEXT */


/* CollectivesBench.iters */
static int iters_for(long bytes)
{
    const long budget = quick ? 4L << 20 : 64L << 20;
    const long max = quick ? 500 : 5000;
    const long b = bytes * n > 1 ? bytes * n : 1;
    long it = budget / b;
    it = it < max ? it : max;
    return (int)(it > 10 ? it : 10);
}

static void op_sync(void)
{
    shmem_sync_all();
}

static void op_broadcast(void)
{
    shmem_broadcast64(dest, src, (size_t)(cur_size / 8), 0, 0, 0, n, psync[flip]);
    flip ^= 1;
}

static void op_reduce(void)
{
    shmem_long_sum_to_all(dest, src, (int)(cur_size / 8), 0, 0, n, pwrk[flip], psync[flip]);
    flip ^= 1;
}

static void op_fcollect(void)
{
    shmem_fcollect64(dest, src, (size_t)(cur_size / 8), 0, 0, n, psync[flip]);
    flip ^= 1;
}

static void op_alltoall(void)
{
    shmem_alltoall64(dest, src, (size_t)(cur_size / 8), 0, 0, n, psync[flip]);
    flip ^= 1;
}

/* Whether name contains only, or one of its comma-separated parts (as CollectivesBench's --only). */
static int selected(const char *name)
{
    char parts[256];
    snprintf(parts, sizeof parts, "%s", only);
    if (parts[0] == '\0')
    {
        return 1;
    }
    char *save = NULL;
    for (const char *part = strtok_r(parts, ",", &save); part != NULL; part = strtok_r(NULL, ",", &save))
    {
        if (strstr(name, part) != NULL)
        {
            return 1;
        }
    }
    return 0;
}

/* Every PE times iters calls; PE 0 records the slowest PE's average in microseconds. */
static void measure(const char *name, long size, int iters, void (*op)(void))
{
    if (!selected(name))
    {
        return;
    }
    cur_size = size;
    shmem_barrier_all();
    const int warm = iters / 10 > 5 ? iters / 10 : 5;
    for (int i = 0; i < warm; i++)
    {
        op();
    }
    shmem_barrier_all();
    const long t0 = now_ns();
    for (int i = 0; i < iters; i++)
    {
        op();
    }
    const long t1 = now_ns();
    timing[0] = (double)(t1 - t0) / 1e3 / iters;
    shmem_barrier_all();
    shmem_double_max_to_all(&timing[1], &timing[0], 1, 0, 0, n, timing_wrk, timing_psync);
    if (me == 0)
    {
        results_add(name, size, "us", timing[1]);
    }
}

static void run_all(void)
{
    const long bytes = MAX_BYTES > MAX_BLOCK * n ? MAX_BYTES : MAX_BLOCK * n;
    src = shmem_malloc((size_t)bytes);
    dest = shmem_malloc((size_t)bytes);
    if (src == NULL || dest == NULL)
    {
        fprintf(stderr, "shmem_coll: allocation of 2 x %ld bytes failed on PE %d\n", bytes, me);
        shmem_global_exit(1);
    }
    memset(src, me + 1, (size_t)bytes);
    memset(dest, 0, (size_t)bytes);
    shmem_barrier_all();
    measure("barrier (team sync)", 0, quick ? 2000 : 20000, op_sync);
    for (long size = 8; size <= MAX_BYTES; size <<= 1)
    {
        measure("broadcast", size, iters_for(size), op_broadcast);
    }
    for (long size = 8; size <= MAX_BYTES; size <<= 1)
    {
        measure("sum reduce (longs)", size, iters_for(size), op_reduce);
    }
    for (long size = 8; size <= MAX_BLOCK; size <<= 1)
    {
        measure("fcollect (bytes per PE)", size, iters_for(size * n), op_fcollect);
    }
    for (long size = 8; size <= MAX_BLOCK; size <<= 1)
    {
        measure("alltoall (bytes per PE pair)", size, iters_for(size * n), op_alltoall);
    }
    shmem_barrier_all();
    shmem_free(dest);
    shmem_free(src);
}

int main(int argc, char **argv)
{
    int reps = 5;
    int warmup = 3;
    const char *csv = NULL;
    /* --only TEXT is this program's own option (CollectivesBench's); the others are bench_results.h's */
    int kept = 1;
    for (int i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--only") == 0)
        {
            if (i + 1 == argc)
            {
                fprintf(stderr, "shmem_coll: --only needs TEXT (a part of a row's name, e.g. reduce)\n");
                return 2;
            }
            only = argv[++i];
        }
        else
        {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    bench_parse_args(argc, argv, &reps, &warmup, &csv);
    if (SHMEM_BARRIER_SYNC_SIZE > SYNC_SIZE_MAX || SHMEM_BCAST_SYNC_SIZE > SYNC_SIZE_MAX || SHMEM_COLLECT_SYNC_SIZE > SYNC_SIZE_MAX
        || SHMEM_REDUCE_SYNC_SIZE > SYNC_SIZE_MAX || SHMEM_ALLTOALL_SYNC_SIZE > SYNC_SIZE_MAX)
    {
        fprintf(stderr, "shmem_coll: this OpenSHMEM's pSync sizes exceed %d longs; raise SYNC_SIZE_MAX\n", SYNC_SIZE_MAX);
        return 2;
    }
    for (int s = 0; s < SYNC_SIZE_MAX; s++)
    {
        psync[0][s] = psync[1][s] = timing_psync[s] = SHMEM_SYNC_VALUE;
    }

    bench_init(1);
    shmem_barrier_all(); /* every PE's pSync is initialized before anyone uses it */
    for (int w = 0; w < warmup; w++) /* the warm-up passes, as the Java side's; their values are then dropped */
    {
        run_all();
    }
    results_clear();
    for (int r = 0; r < reps; r++)
    {
        run_all();
    }
    const int rc = bench_report("collectives over all PEs", "medians of the slowest PE's average per call", reps,
        "no team collectives in this OpenSHMEM (1.4): shmem_coll uses the active-set API over all PEs "
        "(shmem_sync_all, broadcast64, fcollect64, alltoall64, long_sum_to_all, alternating pSync); "
        "active-set broadcast does not write the root's destination (team broadcast does), a negligible cost difference", csv);
    shmem_finalize();
    return rc;
}
