/*
 * shmem_scale: the native twin of io.jshmem.bench.ScaleBench (benchmarks/scale), written against the
 * OpenSHMEM 1.4 C API (Open MPI 4.1's OSHMEM).
 *
 * One PE of a scale job: what a job of N PEs costs each PE, from the launch to the exit. Every PE writes
 * key=value words to --out DIR/pe-<rank>.txt with the same keys as ScaleBench: a first line before
 * shmem_finalize (so a crash in finalize still leaves it) and a second line after it.
 *   spawn_ms, main_ms, init_ms  wall-clock ms from the launch (--launch-ms, epoch ms taken by the script just
 *                               before it started oshrun) to this process's start (/proc/uptime less the start
 *                               time in /proc/self/stat, as the Java side), to main and to shmem_init returning;
 *   init_call_ms                shmem_init alone (OSHMEM has no phase timing: no ph_* keys);
 *   threads_init, sockets_init  right after init, threads_coll, sockets_coll after the collectives
 *                               (/proc/self/status Threads; /proc/self/fd links to socket:);
 *   barrier_us, allreduce_us, fcollect_us, alltoall_us
 *                               this PE's mean per call of --iters back-to-back calls after --warmup
 *                               unrecorded ones: shmem_barrier_all, shmem_long_sum_to_all of 1 long,
 *                               shmem_fcollect64 of 1 long per PE, shmem_alltoall64 of 1 long per pair (the
 *                               active-set API over all PEs: 1.4 has no teams), each result checked once;
 *                               consecutive calls alternate between two pSync/pWrk arrays, as shmem_coll.c;
 *   hwm_kb, rss_kb, anon_kb, shmem_kb   VmHWM, VmRSS, RssAnon, RssShmem after the collectives;
 *   native_kb                   RssAnon (no Java heap to subtract);
 *   finalize_ms, threads_fin, sockets_fin, end_ms   after shmem_finalize (end_ms: launch to the end of main).
 * When ScaleBench changes, change this file the same way.
 *
 * Build: oshcc -O2 -o shmem_scale shmem_scale.c    (or: make -C benchmarks/native)
 * Run:   oshrun -np N ./shmem_scale --out DIR --launch-ms $(date +%s%3N) [--iters 200] [--warmup 20]
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <shmem.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SYNC_SIZE_MAX 1024 /* >= every SHMEM_*_SYNC_SIZE, checked in main */

static long psync[2][SYNC_SIZE_MAX];
static long pwrk[2][SHMEM_REDUCE_MIN_WRKDATA_SIZE > 1 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 1];
static int flip;
static int me;
static int n;
static long *src;
static long *dest;

static long epoch_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* this process's start as epoch ms (to 10 ms): now less its age, from /proc/uptime and /proc/self/stat */
static long process_start_ms(long fallback)
{
    const long now = epoch_ms();
    double uptime = 0;
    FILE *f = fopen("/proc/uptime", "r");
    if (f == NULL || fscanf(f, "%lf", &uptime) != 1)
    {
        if (f != NULL)
        {
            fclose(f);
        }
        return fallback;
    }
    fclose(f);
    char buf[4096];
    f = fopen("/proc/self/stat", "r");
    if (f == NULL)
    {
        return fallback;
    }
    const size_t len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[len] = '\0';
    const char *p = strrchr(buf, ')');
    if (p == NULL)
    {
        return fallback;
    }
    p += 2; /* field 3 (state) */
    for (int field = 3; field < 22 && p != NULL; field++)
    {
        p = strchr(p, ' ');
        p = p != NULL ? p + 1 : NULL;
    }
    if (p == NULL)
    {
        return fallback;
    }
    const long ticks = strtol(p, NULL, 10);
    const long hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
    return now - (long)(uptime * 1000 - (double)ticks * 1000 / (double)hz + 0.5);
}

/* a kB field (or Threads) of /proc/self/status, -1 if absent */
static long status_field(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
    {
        return -1;
    }
    char line[256];
    long value = -1;
    const size_t len = strlen(name);
    while (fgets(line, sizeof(line), f) != NULL)
    {
        if (strncmp(line, name, len) == 0 && line[len] == ':')
        {
            value = strtol(line + len + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return value;
}

static long sockets(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL)
    {
        return -1;
    }
    long count = 0;
    struct dirent *e;
    char path[PATH_MAX];
    char target[PATH_MAX];
    while ((e = readdir(d)) != NULL)
    {
        if (e->d_name[0] == '.')
        {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        const ssize_t len = readlink(path, target, sizeof(target) - 1);
        if (len > 0)
        {
            target[len] = '\0';
            count += strncmp(target, "socket:", 7) == 0;
        }
    }
    closedir(d);
    return count;
}

static void fail(const char *what, int index, long got, long expected)
{
    fprintf(stderr, "[pe %d/%d] shmem_scale: %s: element %d is %ld, expected %ld\n", me, n, what, index, got, expected);
    shmem_global_exit(1);
}

static void op_barrier(void)
{
    shmem_barrier_all();
}

static void op_allreduce(void)
{
    shmem_long_sum_to_all(dest, src, 1, 0, 0, n, pwrk[flip], psync[flip]);
    flip ^= 1;
}

static void op_fcollect(void)
{
    shmem_fcollect64(dest, src, 1, 0, 0, n, psync[flip]);
    flip ^= 1;
}

static void op_alltoall(void)
{
    shmem_alltoall64(dest, src, 1, 0, 0, n, psync[flip]);
    flip ^= 1;
}

/* this PE's mean microseconds per call over iters calls, after warmup unrecorded ones (ScaleBench.time) */
static double time_us(int iters, int warmup, void (*op)(void))
{
    shmem_barrier_all();
    for (int i = 0; i < warmup; i++)
    {
        op();
    }
    shmem_barrier_all();
    const long t0 = now_ns();
    for (int i = 0; i < iters; i++)
    {
        op();
    }
    return (double)(now_ns() - t0) / 1e3 / iters;
}

int main(int argc, char **argv)
{
    const long main_ms = epoch_ms();
    const char *out = NULL;
    long launch_ms = -1;
    int iters = 200;
    int warmup = 20;
    for (int i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
        {
            out = argv[++i];
        }
        else if (strcmp(argv[i], "--launch-ms") == 0 && i + 1 < argc)
        {
            launch_ms = strtol(argv[++i], NULL, 10);
        }
        else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
        {
            iters = atoi(argv[++i]);
        }
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
        {
            warmup = atoi(argv[++i]);
        }
        else
        {
            fprintf(stderr, "shmem_scale: unknown argument %s (--out DIR --launch-ms EPOCH_MS [--iters N] [--warmup N])\n", argv[i]);
            return 2;
        }
    }
    if (out == NULL || launch_ms < 0 || iters < 1 || warmup < 0)
    {
        fprintf(stderr, "shmem_scale: --out DIR and --launch-ms EPOCH_MS are required, --iters >= 1, --warmup >= 0\n");
        return 2;
    }
    if (SHMEM_BARRIER_SYNC_SIZE > SYNC_SIZE_MAX || SHMEM_COLLECT_SYNC_SIZE > SYNC_SIZE_MAX || SHMEM_REDUCE_SYNC_SIZE > SYNC_SIZE_MAX
        || SHMEM_ALLTOALL_SYNC_SIZE > SYNC_SIZE_MAX)
    {
        fprintf(stderr, "shmem_scale: this OpenSHMEM's pSync sizes exceed %d longs; raise SYNC_SIZE_MAX\n", SYNC_SIZE_MAX);
        return 2;
    }
    for (int s = 0; s < SYNC_SIZE_MAX; s++)
    {
        psync[0][s] = psync[1][s] = SHMEM_SYNC_VALUE;
    }
    const long start_ms = process_start_ms(main_ms);

    const long t0 = now_ns();
    shmem_init();
    const long init_ns = now_ns() - t0;
    const long init_ms = epoch_ms();
    me = shmem_my_pe();
    n = shmem_n_pes();
    const long threads_init = status_field("Threads");
    const long sockets_init = sockets();
    char host[256] = "unknown";
    gethostname(host, sizeof(host) - 1);

    src = shmem_malloc((size_t)n * sizeof(long));
    dest = shmem_malloc((size_t)n * sizeof(long));
    if (src == NULL || dest == NULL)
    {
        fprintf(stderr, "[pe %d/%d] shmem_scale: shmem_malloc of 2 x %d longs failed\n", me, n, n);
        shmem_global_exit(1);
    }
    memset(dest, 0, (size_t)n * sizeof(long));
    shmem_barrier_all(); /* every PE's pSync is initialized before anyone uses it */

    const double barrier_us = time_us(iters, warmup, op_barrier);
    src[0] = me + 1;
    const double allreduce_us = time_us(iters, warmup, op_allreduce);
    if (dest[0] != (long)n * (n + 1) / 2)
    {
        fail("sum reduce of 1 long", 0, dest[0], (long)n * (n + 1) / 2);
    }
    src[0] = 1000L * me + 7;
    const double fcollect_us = time_us(iters, warmup, op_fcollect);
    for (int pe = 0; pe < n; pe++)
    {
        if (dest[pe] != 1000L * pe + 7)
        {
            fail("fcollect of 1 long", pe, dest[pe], 1000L * pe + 7);
        }
    }
    for (int pe = 0; pe < n; pe++)
    {
        src[pe] = (long)me * n + pe;
    }
    const double alltoall_us = time_us(iters, warmup, op_alltoall);
    for (int pe = 0; pe < n; pe++)
    {
        if (dest[pe] != (long)pe * n + me)
        {
            fail("alltoall of 1 long per pair", pe, dest[pe], (long)pe * n + me);
        }
    }
    shmem_barrier_all();
    shmem_free(dest);
    shmem_free(src);

    const long anon = status_field("RssAnon");
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/pe-%d.txt", out, me);
    FILE *f = fopen(path, "w");
    if (f == NULL)
    {
        fprintf(stderr, "[pe %d/%d] shmem_scale: cannot write %s\n", me, n, path);
        shmem_global_exit(1);
    }
    fprintf(f,
        "pe=%d npes=%d host=%s spawn_ms=%ld main_ms=%ld init_ms=%ld init_call_ms=%.3f threads_init=%ld sockets_init=%ld "
        "barrier_us=%.3f allreduce_us=%.3f fcollect_us=%.3f alltoall_us=%.3f threads_coll=%ld sockets_coll=%ld "
        "hwm_kb=%ld rss_kb=%ld anon_kb=%ld shmem_kb=%ld native_kb=%ld\n",
        me, n, host, start_ms - launch_ms, main_ms - launch_ms, init_ms - launch_ms, init_ns / 1e6, threads_init, sockets_init,
        barrier_us, allreduce_us, fcollect_us, alltoall_us, status_field("Threads"), sockets(),
        status_field("VmHWM"), status_field("VmRSS"), anon, status_field("RssShmem"), anon);
    fclose(f);

    shmem_barrier_all(); /* finalize is timed from a common start */
    const long f0 = now_ns();
    shmem_finalize();
    const long fin_ns = now_ns() - f0;
    f = fopen(path, "a");
    if (f != NULL)
    {
        fprintf(f, "finalize_ms=%.3f threads_fin=%ld sockets_fin=%ld end_ms=%ld\n", fin_ns / 1e6, status_field("Threads"), sockets(),
            epoch_ms() - launch_ms);
        fclose(f);
    }
    return 0;
}
