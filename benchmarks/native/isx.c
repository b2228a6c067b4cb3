/*
 * isx: the C twin of the jshmem isx example (io.jshmem.examples.isx.Isx), over OpenSHMEM 1.4 as Open MPI 4.1's
 * OSHMEM provides it. Both are ParRes ISx's integer sort (its SHMEM program), written anew in this project:
 * the same arguments, sizes, keys, steps, timers, verification and printed rows, so benchmarks/compare-isx can
 * put them side by side (and a run of ParRes ISx with the same arguments is comparable).
 *
 *   oshrun -np N target/isx [--scaling weak|strong|weak_iso] [--inject-fault PE] [--trace-exchange] [KEYS [[ITERATIONS] LOG_FILE]]
 *
 * KEYS: keys per PE (strong: in total), default 2^27; ITERATIONS: timed iterations after one burn-in, default 1;
 * LOG_FILE: ISx's tab-separated log, appended ('-' or absent: none). Keys are uniform in [0, 2^28) (weak_iso:
 * [0, 8192 N)) from pcg32 seeded with the PE number as state and stream; one bucket per PE of width
 * ceil(max / N) (weak_iso: 8192).
 *
 * Each iteration, between barriers: draw the keys, count them per bucket, prefix-sum the counts, order the keys
 * by bucket, then per destination in round-robin order from this PE a fetch-add on its receive offset reserves
 * room and shmem_putmem fills it (this PE's own bucket: a fetch-add on itself and memcpy); a barrier completes
 * the puts; then the counting sort of the received keys. The last iteration is verified on every PE (keys in
 * range, counts sum to the keys received, the job kept every key); any failure makes every PE exit 1.
 *
 * --trace-exchange (not an ISx option; the Java example's ExchangeTrace): after the job every PE prints to stderr, per
 * iteration, when its first barrier returned, when the exchange started (CLOCK_MONOTONIC, which System.nanoTime reads
 * too), the fetch-adds and puts, the quiet and the barrier after them, and each remote fetch-add's time, and at the
 * iteration's barriers how long the process has waited for a core so far (/proc/thread-self/schedstat, -1 where
 * unreadable), in the Java side's lines, so that benchmarks/plot/isx_exchange.py reads both:
 *   EXCHANGE pe P it I start NS exchange US quiet US barrier US began NS zero US sort US last US ended NS
 *       rq_began NS rq_quieted NS rq_done NS rq_sorted NS rq_ended NS
 *   FADD pe P it I step K target T us US end NS
 */
#define _POSIX_C_SOURCE 200809L

#include <shmem.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ISX_VERSION "1.1"
#define DEFAULT_KEYS (1LL << 27)
#define DEFAULT_MAX_KEY (1LL << 28)
#define ISO_BUCKET_WIDTH 8192
#define BURN_IN 1
#define MAX_KEYS_PER_PE (2147483647LL - 64)

enum { T_TOTAL, T_ATA_KEYS, T_MAKE_INPUT, T_COUNT_BUCKET_SIZES, T_BUCKETIZE, T_COMPUTE_OFFSETS, T_LOCAL_SORT, NPHASES };
#define COLUMNS (NPHASES + 1) /* the phases' means, then the mean keys sent to other PEs */
static const char *const phase_names[NPHASES] = {
    "TOTAL", "ATA_KEYS", "MAKE_INPUT", "COUNT_BUCKET_SIZES", "BUCKETIZE", "COMPUTE_OFFSETS", "LOCAL_SORT"};

enum scaling { WEAK, STRONG, WEAK_ISO };
static const char *const scaling_banner[] = {"WEAK", "STRONG", "WEAK_ISOBUCKET"};

static int me, npes;
static enum scaling scaling = WEAK;
static long long keys_arg = DEFAULT_KEYS;
static int iterations = 1, fault_pe = -1, trace_exchange;
static const char *log_file;
static int keys_per_pe, max_key, bucket_width, capacity;

/* symmetric */
static long long receive_offset;
static int *received;
static long long verdict_src[3], verdict_dst[3];
static double mine[COLUMNS];
static double *every_pe;
static long psync_reduce[SHMEM_REDUCE_SYNC_SIZE];
static long psync_collect[SHMEM_COLLECT_SYNC_SIZE];
static long long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 3 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 3];

/* timers: seconds per phase and timed iteration, keys sent per timed iteration */
static double *seconds[NPHASES];
static int laps[NPHASES];
static struct timespec started[NPHASES];
static long long *sent_keys;
static int sent_laps;

/* ---- pcg32 (O'Neill): 64-bit LCG state, xorshift then random rotation of the output ---- */
typedef struct { uint64_t state, inc; } pcg32;

static uint32_t pcg32_next(pcg32 *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t x = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (x >> rot) | (x << ((32 - rot) & 31));
}

static void pcg32_seed(pcg32 *r, uint64_t init_state, uint64_t init_seq)
{
    r->state = 0;
    r->inc = (init_seq << 1) | 1u;
    pcg32_next(r);
    r->state += init_state;
    pcg32_next(r);
}

/* uniform in [0, bound): draws below 2^32 mod bound are rejected */
static uint32_t pcg32_bounded(pcg32 *r, uint32_t bound)
{
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t v = pcg32_next(r);
        if (v >= threshold)
            return v % bound;
    }
}

/* ---- timers ---- */
static void timers_reset(void)
{
    for (int p = 0; p < NPHASES; p++)
        laps[p] = 0;
    sent_laps = 0;
}

static void timer_start(int p) { clock_gettime(CLOCK_MONOTONIC, &started[p]); }

static void timer_stop(int p)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    seconds[p][laps[p]++] = (double)(t.tv_sec - started[p].tv_sec) + (double)(t.tv_nsec - started[p].tv_nsec) * 1e-9;
}

/* ---- arguments ---- */
static void usage_exit(const char *why)
{
    if (me == 0)
        fprintf(stderr, "isx: %s\nusage: oshrun -np N isx [--scaling weak|strong|weak_iso] [--inject-fault PE] [--trace-exchange] [KEYS [[ITERATIONS] LOG_FILE]]\n", why);
    shmem_finalize();
    exit(2);
}

static long long whole(const char *what, const char *s, long long min, long long max)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > max) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s '%s': expected a whole number from %lld to %lld", what, s, min, max);
        usage_exit(msg);
    }
    return v;
}

static void parse(int argc, char **argv)
{
    const char *pos[4];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--scaling") == 0 || strncmp(a, "--scaling=", 10) == 0) {
            const char *v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : "");
            if (strcmp(v, "weak") == 0) scaling = WEAK;
            else if (strcmp(v, "strong") == 0) scaling = STRONG;
            else if (strcmp(v, "weak_iso") == 0 || strcmp(v, "weak-iso") == 0) scaling = WEAK_ISO;
            else usage_exit("--scaling: expected weak, strong or weak_iso");
        } else if (strcmp(a, "--inject-fault") == 0) {
            if (i + 1 == argc) usage_exit("--inject-fault needs a PE");
            fault_pe = (int)whole("--inject-fault", argv[++i], 0, npes - 1);
        } else if (strcmp(a, "--trace-exchange") == 0) {
            trace_exchange = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            usage_exit("unknown option");
        } else {
            if (npos == 3) usage_exit("too many arguments: expected KEYS [[ITERATIONS] LOG_FILE]");
            pos[npos++] = a;
        }
    }
    if (npos >= 1) keys_arg = whole("KEYS", pos[0], 1, scaling == STRONG ? (1LL << 62) : MAX_KEYS_PER_PE);
    if (npos == 3) iterations = (int)whole("ITERATIONS", pos[1], 1, 1000000);
    if (npos >= 2 && strcmp(pos[npos - 1], "-") != 0) log_file = pos[npos - 1];

    long long per_pe = scaling == STRONG ? (keys_arg + npes - 1) / npes : keys_arg;
    long long maxk = scaling == WEAK_ISO ? (long long)npes * ISO_BUCKET_WIDTH : DEFAULT_MAX_KEY;
    long long width = scaling == WEAK_ISO ? ISO_BUCKET_WIDTH : (maxk + npes - 1) / npes;
    if (per_pe > MAX_KEYS_PER_PE) usage_exit("too many keys per PE");
    if (maxk <= npes || maxk > 2147483647LL) usage_exit("the key range must be larger than the PE count and fit an int");
    keys_per_pe = (int)per_pe;
    max_key = (int)maxk;
    bucket_width = (int)width;
    long long cap = per_pe + per_pe / 4 + 4096; /* as the Java side: a quarter more and 4096 keys */
    capacity = (int)(cap > 2147483647LL - 8 ? 2147483647LL - 8 : cap);
}

/* ---- --trace-exchange: recorded during the run, printed after it ---- */
#define TR_ITER 8 /* per iteration: began, start, exchanged, quieted, done, zeroed, sorted, ended (ns) */
static long long *tr_iter;
static long long *tr_fadd; /* per iteration and step 1..npes-1: target, ns taken, end (ns) */
static long long *tr_rq;   /* per iteration: run-queue wait so far at began, quieted, done, sorted, ended (ns) */
static int tr_it;
static int tr_schedstat = -1;

/* this thread's time runnable but not running so far (ns), the second field of /proc/thread-self/schedstat; -1 if unknown */
static long long run_queue_ns(void)
{
    char buf[128];
    if (tr_schedstat < 0) return -1;
    ssize_t got = pread(tr_schedstat, buf, sizeof buf - 1, 0);
    if (got <= 0) return -1;
    buf[got] = 0;
    long long on_cpu, waited;
    return sscanf(buf, "%lld %lld", &on_cpu, &waited) == 2 ? waited : -1;
}

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void trace_print_mine(void)
{
    for (int it = 0; it < iterations + BURN_IN; it++) {
        const long long *r = &tr_iter[TR_ITER * it];
        const long long *q = &tr_rq[5 * it];
        fprintf(stderr, "EXCHANGE pe %d it %d start %lld exchange %.1f quiet %.1f barrier %.1f began %lld zero %.1f sort %.1f last %.1f"
            " ended %lld rq_began %lld rq_quieted %lld rq_done %lld rq_sorted %lld rq_ended %lld\n",
            me, it, r[1], (r[2] - r[1]) / 1e3, (r[3] - r[2]) / 1e3, (r[4] - r[3]) / 1e3, r[0], (r[5] - r[4]) / 1e3, (r[6] - r[5]) / 1e3,
            (r[7] - r[6]) / 1e3, r[7], q[0], q[1], q[2], q[3], q[4]);
        for (int k = 1; k < npes; k++) {
            const long long *f = &tr_fadd[3 * ((long long)it * (npes - 1) + k - 1)];
            fprintf(stderr, "FADD pe %d it %d step %d target %lld us %.1f end %lld\n", me, it, k, f[0], f[1] / 1e3, f[2]);
        }
    }
    fflush(stderr);
}

/* every PE's lines, collective: PE by PE in rank order with a barrier between them (as the log), so that the launcher's
 * forwarding of many PEs' stderr does not interleave their lines */
static void trace_print(void)
{
    for (int p = 0; p < npes; p++) {
        if (p == me) trace_print_mine();
        shmem_barrier_all();
    }
}

/* ---- the exchange: fetch-add reserves room on the destination, putmem fills it ---- */
static long long exchange(const int *bucketed, const int *send_offsets, const int *sizes, int *refused)
{
    long long self = shmem_longlong_atomic_fetch_add(&receive_offset, sizes[me], me);
    if (self + sizes[me] <= capacity)
        memcpy(&received[self], &bucketed[send_offsets[me]], (size_t)sizes[me] * sizeof(int));
    else
        ++*refused;
    long long sent = 0;
    for (int i = 1; i < npes; i++) {
        int target = (me + i) % npes;
        int size = sizes[target];
        long long begin = trace_exchange ? now_ns() : 0;
        long long at = shmem_longlong_atomic_fetch_add(&receive_offset, size, target);
        if (trace_exchange) {
            long long *f = &tr_fadd[3 * ((long long)tr_it * (npes - 1) + i - 1)];
            f[2] = now_ns();
            f[0] = target;
            f[1] = f[2] - begin;
        }
        if (at + size > capacity) {
            fprintf(stderr, "[pe %d/%d] bucket for PE %d not sent: offset %lld + %d keys > receive buffer %d\n", me, npes, target,
                at, size, capacity);
            ++*refused;
            continue;
        }
        if (size > 0)
            shmem_putmem(&received[at], &bucketed[send_offsets[target]], (size_t)size * sizeof(int), target);
        sent += size;
    }
    return sent;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void append_log(void)
{
    if (me == 0 && !file_exists(log_file)) {
        FILE *f = fopen(log_file, "a");
        if (!f) { perror(log_file); shmem_global_exit(1); }
        fprintf(f, "SHMEM\tNUM_PES %d\tMax_Key %d\tNum_Iters %d\t", npes, max_key, iterations);
        if (scaling == STRONG) fprintf(f, "Strong Scaling: %lld total keys\t", (long long)keys_per_pe * npes);
        else if (scaling == WEAK) fprintf(f, "Weak Scaling: %d keys per PE\t", keys_per_pe);
        else fprintf(f, "Weak Scaling Constant Bucket Width: %du keys per PE \tConstant Bucket Width: %d\t", keys_per_pe, bucket_width);
        fprintf(f, "Round Robin All2All\t\n");
        for (int p = 0; p < NPHASES; p++) {
            fprintf(f, "%s (sec)\t", phase_names[p]);
            if (p == T_ATA_KEYS) fprintf(f, "ATA_KEYS_COUNTS\t");
        }
        fprintf(f, "\n");
        fclose(f);
    }
    for (int pe = 0; pe < npes; pe++) {
        shmem_barrier_all();
        if (pe != me) continue;
        FILE *f = fopen(log_file, "a");
        if (!f) { perror(log_file); shmem_global_exit(1); }
        for (int i = 0; i < iterations; i++) {
            for (int p = 0; p < NPHASES; p++) {
                fprintf(f, "%f\t", seconds[p][i]);
                if (p == T_ATA_KEYS) fprintf(f, "%lld\t", sent_keys[i]);
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
    shmem_barrier_all();
}

static void report(void)
{
    for (int p = 0; p < NPHASES; p++) {
        double s = 0;
        for (int i = 0; i < laps[p]; i++) s += seconds[p][i];
        mine[p] = laps[p] ? s / laps[p] : 0;
    }
    double s = 0;
    for (int i = 0; i < sent_laps; i++) s += (double)sent_keys[i];
    mine[NPHASES] = sent_laps ? s / sent_laps : 0;
    shmem_barrier_all();
    shmem_fcollect64(every_pe, mine, COLUMNS, 0, 0, npes, psync_collect);
    shmem_barrier_all();
    if (log_file) append_log();
    if (me != 0) return;
    printf("Timing (seconds; mean of %d timed iterations after %d burn-in, over %d PEs):\n", iterations, BURN_IN, npes);
    printf("  %-20s %12s %12s\n", "phase", "avg per PE", "slowest PE");
    double avg[COLUMNS];
    for (int c = 0; c < COLUMNS; c++) {
        double sum = 0, max = 0;
        for (int p = 0; p < npes; p++) {
            double v = every_pe[p * COLUMNS + c];
            sum += v;
            if (v > max) max = v;
        }
        avg[c] = sum / npes;
        if (c < NPHASES) printf("  %-20s %12.6f %12.6f\n", phase_names[c], avg[c], max);
        else printf("  %-20s %12.0f %12.0f   (keys sent to other PEs)\n", "ATA_KEYS_COUNTS", avg[c], max);
    }
    printf("Average total time (per PE): %f seconds\n", avg[T_TOTAL]);
    printf("Average all2all time (per PE): %f seconds\n", avg[T_ATA_KEYS]);
}

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    parse(argc, argv);
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync_reduce[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++) psync_collect[i] = SHMEM_SYNC_VALUE;
    received = shmem_malloc((size_t)capacity * sizeof(int));
    every_pe = shmem_malloc((size_t)COLUMNS * npes * sizeof(double));
    if (!received || !every_pe) {
        fprintf(stderr, "[pe %d/%d] isx: shmem_malloc of a receive buffer of %d keys (%lld bytes) failed: set SHMEM_SYMMETRIC_SIZE"
            " above that\n", me, npes, capacity, (long long)capacity * 4);
        shmem_global_exit(1);
    }
    for (int p = 0; p < NPHASES; p++) seconds[p] = malloc((size_t)iterations * sizeof(double));
    if (trace_exchange) {
        tr_iter = calloc((size_t)(iterations + BURN_IN) * TR_ITER, sizeof(long long));
        tr_fadd = calloc((size_t)(iterations + BURN_IN) * (size_t)(npes > 1 ? npes - 1 : 1) * 3, sizeof(long long));
        tr_rq = calloc((size_t)(iterations + BURN_IN) * 5, sizeof(long long));
        tr_schedstat = open("/proc/thread-self/schedstat", O_RDONLY);
        if (!tr_iter || !tr_fadd || !tr_rq) {
            fprintf(stderr, "[pe %d/%d] isx: out of memory for the exchange trace\n", me, npes);
            shmem_global_exit(1);
        }
    }
    sent_keys = malloc((size_t)iterations * sizeof(long long));
    if (me == 0) {
        printf("ISx v%s (C, OpenSHMEM)\n  Number of Keys per PE: %d\n  Max Key Value: %d\n  Bucket Width: %d\n"
               "  Number of Iterations: %d\n  Number of PEs: %d\n  %s Scaling!\n",
            ISX_VERSION, keys_per_pe, max_key, bucket_width, iterations, npes, scaling_banner[scaling]);
        fflush(stdout);
    }
    /* The working arrays are made once and reused: ISx mallocs them every iteration, which with glibc puts page
     * faults into its phases (at -O2 malloc + memset of the counts becomes calloc, and LOCAL_SORT then faults in
     * the histogram page by page: 1.17 s against 0.07 s measured at 4 PEs, 65536 keys per PE). */
    int *keys = malloc((size_t)keys_per_pe * sizeof(int));
    int *bucketed = malloc((size_t)keys_per_pe * sizeof(int));
    int *counts = malloc((size_t)bucket_width * sizeof(int));
    if (!keys || !bucketed || !counts) {
        fprintf(stderr, "[pe %d/%d] isx: out of memory for %d keys and %d counts\n", me, npes, keys_per_pe, bucket_width);
        shmem_global_exit(1);
    }
    receive_offset = 0;
    timers_reset();
    int job_passed = 0;
    for (int it = 0; it < iterations + BURN_IN; it++) {
        if (it == BURN_IN) timers_reset();
        shmem_barrier_all();
        if (trace_exchange) {
            tr_it = it;
            tr_iter[TR_ITER * it] = now_ns();
            tr_rq[5 * it] = run_queue_ns();
        }
        timer_start(T_TOTAL);

        timer_start(T_MAKE_INPUT);
        pcg32 rng;
        pcg32_seed(&rng, (uint64_t)me, (uint64_t)me);
        for (int i = 0; i < keys_per_pe; i++) keys[i] = (int)pcg32_bounded(&rng, (uint32_t)max_key);
        timer_stop(T_MAKE_INPUT);

        int *sizes = malloc((size_t)npes * sizeof(int));
        timer_start(T_COUNT_BUCKET_SIZES);
        memset(sizes, 0, (size_t)npes * sizeof(int));
        for (int i = 0; i < keys_per_pe; i++) sizes[keys[i] / bucket_width]++;
        timer_stop(T_COUNT_BUCKET_SIZES);

        int *cursors = malloc((size_t)npes * sizeof(int));
        timer_start(T_COMPUTE_OFFSETS);
        int *send_offsets = malloc((size_t)npes * sizeof(int));
        for (int b = 0, at = 0; b < npes; b++) {
            send_offsets[b] = at;
            cursors[b] = at;
            at += sizes[b];
        }
        timer_stop(T_COMPUTE_OFFSETS);

        timer_start(T_BUCKETIZE);
        for (int i = 0; i < keys_per_pe; i++) {
            int key = keys[i];
            bucketed[cursors[key / bucket_width]++] = key;
        }
        timer_stop(T_BUCKETIZE);

        timer_start(T_ATA_KEYS);
        int refused = 0;
        if (trace_exchange) tr_iter[TR_ITER * it + 1] = now_ns();
        long long sent = exchange(bucketed, send_offsets, sizes, &refused);
        if (trace_exchange) {
            tr_iter[TR_ITER * it + 2] = now_ns();
            shmem_quiet(); /* the barrier's own quiet then finds nothing */
            tr_iter[TR_ITER * it + 3] = now_ns();
            tr_rq[5 * it + 1] = run_queue_ns();
        }
        shmem_barrier_all(); /* completes every PE's puts (ISx's BARRIER_ATA) */
        timer_stop(T_ATA_KEYS);
        if (trace_exchange) {
            tr_iter[TR_ITER * it + 4] = now_ns();
            tr_rq[5 * it + 2] = run_queue_ns();
        }
        sent_keys[sent_laps++] = sent;

        long long offset = receive_offset;
        int bucket_size = (int)(offset < capacity ? offset : capacity);
        int min_key = me * bucket_width;
        memset(counts, 0, (size_t)bucket_width * sizeof(int)); /* zeroed outside the phase, as in ISx */
        if (trace_exchange) tr_iter[TR_ITER * it + 5] = now_ns();
        timer_start(T_LOCAL_SORT);
        for (int i = 0; i < bucket_size; i++) {
            unsigned k = (unsigned)(received[i] - min_key);
            if (k < (unsigned)bucket_width) counts[k]++;
        }
        timer_stop(T_LOCAL_SORT);
        if (trace_exchange) {
            tr_iter[TR_ITER * it + 6] = now_ns();
            tr_rq[5 * it + 3] = run_queue_ns();
        }

        shmem_barrier_all();
        timer_stop(T_TOTAL);
        if (trace_exchange) {
            tr_iter[TR_ITER * it + 7] = now_ns();
            tr_rq[5 * it + 4] = run_queue_ns();
        }

        if (it == iterations) {
            long long max_incl = (long long)(me + 1) * bucket_width - 1;
            if (fault_pe == me && bucket_size > 0) received[0] = (int)(max_incl + 1);
            long long bad = 0, key_sum = 0, count_sum = 0;
            int first_bad = 0;
            for (int i = 0; i < bucket_size; i++) {
                int key = received[i];
                key_sum += key;
                if (key < min_key || key > max_incl) {
                    if (bad++ == 0) first_bad = key;
                }
            }
            for (int k = 0; k < bucket_width; k++) count_sum += counts[k];
            char why[512] = "";
            size_t w = 0;
            if (refused) w += (size_t)snprintf(why + w, sizeof why - w, "%d buckets not sent for want of room; ", refused);
            if (bad) w += (size_t)snprintf(why + w, sizeof why - w, "%lld keys outside [%d, %lld], the first %d; ", bad, min_key, max_incl, first_bad);
            if (count_sum != bucket_size) w += (size_t)snprintf(why + w, sizeof why - w, "the key counts sum to %lld, the bucket holds %d; ", count_sum, bucket_size);
            if (offset > capacity) w += (size_t)snprintf(why + w, sizeof why - w, "senders reserved %lld keys here, the receive buffer holds %d; ", offset, capacity);
            verdict_src[0] = bucket_size;
            verdict_src[1] = w ? 1 : 0;
            verdict_src[2] = key_sum;
            shmem_barrier_all();
            shmem_longlong_sum_to_all(verdict_dst, verdict_src, 3, 0, 0, npes, pwrk, psync_reduce);
            shmem_barrier_all();
            if (w == 0)
                printf("pe %d/%d: ISx verification PASS: %d keys, all in [%d, %lld], their counts sum to %d\n", me, npes, bucket_size,
                    min_key, max_incl, bucket_size);
            else
                printf("pe %d/%d: ISx verification FAIL: %.*s\n", me, npes, (int)(w >= 2 ? w - 2 : w), why);
            fflush(stdout);
            job_passed = verdict_dst[1] == 0 && verdict_dst[0] == (long long)keys_per_pe * npes;
        }
        receive_offset = 0;
        free(sizes);
        free(cursors);
        free(send_offsets);
        shmem_barrier_all();
    }
    free(keys);
    free(bucketed);
    free(counts);
    report();
    if (trace_exchange) {
        trace_print();
        if (tr_schedstat >= 0) close(tr_schedstat);
    }
    if (me == 0) {
        printf("ISx verification: %s on %d PEs: %lld of %lld keys after the exchange, %lld PEs failed their checks (key sum %lld)\n",
            job_passed ? "PASS" : "FAIL", npes, verdict_dst[0], (long long)keys_per_pe * npes, verdict_dst[1], verdict_dst[2]);
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(every_pe);
    shmem_free(received);
    shmem_finalize();
    return job_passed ? 0 : 1;
}
