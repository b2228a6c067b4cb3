/*
 * shmem_moe: the native twin of io.jshmem.bench.MoeBench (the moe example's normal and collective modes),
 * over Open MPI 4.1's OSHMEM and MPI.
 *
 * Same workload shape (T tokens of H bf16 elements per PE, top-K distinct experts of 4 per PE, chosen
 * uniformly, or expert 0 first for a fraction --hot), same message layout (token, unused, K experts,
 * K weights, payload; 8-byte aligned), same algorithm, same timing (every phase between two barriers,
 * the slowest PE's time per step, median and p99 over --reps steps after --warmup) and the same CSV:
 *  - normal (impl oshmem): the counts as one epoch-tagged word per source (shmem_long_atomic_set; two banks
 *    by epoch parity), then per destination one shmem_putmem of its packed tokens into a per-source region,
 *    shmem_fence and an atomic set of the epoch as the signal (OpenSHMEM 1.4 has no put_signal); where
 *    shmem_ptr reaches the destination, the tokens are packed straight into its region instead (as in
 *    Java), then a release fence and the signal; combine
 *    returns one weighted bf16 vector per (token, PE) the same way and the source sums them (float, PE
 *    ascending, rounded to bf16);
 *  - alltoallv (impl mpi): MPI_Alltoall of the counts, then MPI_Alltoallv of exactly the packed bytes, and
 *    the same back for combine.
 * The experts' compute (bf16(x * a_e + b_e), weighted, outside the timed phases) and the combine's sum are
 * those of the Java side. The routing comes from this file's own generator (same distribution, not the
 * same draws). Every received header is checked (token index in range, the experts name this PE) and the
 * combined tokens are checked against a local reference on every PE; a mismatch exits 1.
 * A "memcpy" row gives this machine's single-thread copy bandwidth for --tokens x packed bytes (the
 * physical limit the issue compares with).
 *
 * Build: make -C benchmarks/native (oshcc)    Run: oshrun -np 4 target/shmem_moe [--modes normal,alltoallv]
 *        [--tokens 128,512,1024,4096] [--hidden H] [--topk K] [--hot F] [--reps N] [--warmup N] [--csv FILE]
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <shmem.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int me, n, T, H = 1024, K = 4, L = 4, E, reps = 20, warmup = 5;
static double hot;
static int hdr, msg, comb;

/* symmetric */
static char *recv_buf, *comb_recv;
static long *sig; /* [0,2n) count banks, [2n,3n) data epoch per source, [3n,4n) combine epoch per PE */

/* local */
static int *idx;
static float *wgt;
static uint16_t *src; /* T x H bf16 */
static char *staging; /* n x T x msg */
static char **direct;  /* per destination PE: its region for this PE's tokens when shmem_ptr reaches it, else NULL */
static char *comb_send; /* n x T x comb */
static int *send_count, *slot_of, *recv_count;
static long *recv_base, *comb_base;
static uint16_t *combined;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint16_t bf16_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
}

static float bf16_float(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static void expert(int e, const float *x, float *y)
{
    const float a = 0.5f + (e % 8) * 0.125f, b = ((e % 5) - 2) * 0.0625f;
    for (int i = 0; i < H; i++)
    {
        y[i] = bf16_float(bf16_bits(x[i] * a + b));
    }
}

static void route(void)
{
    uint64_t s = 0x1234567ULL * (me + 1);
    for (int t = 0; t < T; t++)
    {
        for (int k = 0; k < K; k++)
        {
            int e;
            if (k == 0 && hot > 0 && (mix(s++) >> 11) * 0x1.0p-53 < hot)
            {
                e = 0;
            }
            else
            {
                int dup;
                do
                {
                    e = (int)(mix(s++) % (uint64_t)E);
                    dup = 0;
                    for (int j = 0; j < k; j++)
                    {
                        dup |= idx[t * K + j] == e;
                    }
                } while (dup);
            }
            idx[t * K + k] = e;
            wgt[t * K + k] = (1 + (int)(mix(s++) % 16)) / 16.0f;
        }
        for (int i = 0; i < H; i++)
        {
            src[(long)t * H + i] = bf16_bits(((int)(mix(((uint64_t)me << 40) + ((uint64_t)t << 16) + i) & 0xFF) - 128) / 64.0f);
        }
    }
}

static void pack(void)
{
    memset(send_count, 0, n * sizeof(int));
    for (long i = 0; i < (long)T * n; i++)
    {
        slot_of[i] = -1;
    }
    for (int t = 0; t < T; t++)
    {
        for (int k = 0; k < K; k++)
        {
            const int p = idx[t * K + k] / L;
            if (slot_of[t * n + p] >= 0)
            {
                continue;
            }
            const int slot = send_count[p]++;
            slot_of[t * n + p] = slot;
            char *m = direct[p] ? direct[p] + (long)slot * msg : staging + ((long)p * T + slot) * msg;
            int32_t head[2] = {t, 0};
            memcpy(m, head, 8);
            memcpy(m + 8, &idx[t * K], 4L * K);
            memcpy(m + 8 + 4L * K, &wgt[t * K], 4L * K);
            memcpy(m + hdr, &src[(long)t * H], 2L * H);
        }
    }
}

static void dispatch_normal(long epoch)
{
    const int bank = (int)(epoch & 1) * n;
    for (int i = 0; i < n; i++)
    {
        const int p = (me + 1 + i) % n;
        shmem_long_atomic_set(&sig[bank + me], epoch << 32 | send_count[p], p);
    }
    for (int i = 0; i < n; i++)
    {
        const int p = (me + 1 + i) % n;
        if (send_count[p] > 0 && direct[p])
        {
            __atomic_thread_fence(__ATOMIC_RELEASE); /* the stores of pack() before the signal */
            shmem_long_atomic_set(&sig[2 * n + me], epoch, p);
        }
        else if (send_count[p] > 0)
        {
            shmem_putmem(recv_buf + (long)me * T * msg, staging + (long)p * T * msg, (size_t)send_count[p] * msg, p);
            shmem_fence();
            shmem_long_atomic_set(&sig[2 * n + me], epoch, p);
        }
    }
    for (int s = 0; s < n; s++)
    {
        shmem_long_wait_until(&sig[bank + s], SHMEM_CMP_GE, epoch << 32);
        recv_count[s] = (int)(sig[bank + s] & 0xFFFFFFFFL);
        recv_base[s] = (long)s * T * msg;
    }
    for (int s = 0; s < n; s++)
    {
        if (recv_count[s] > 0)
        {
            shmem_long_wait_until(&sig[2 * n + s], SHMEM_CMP_GE, epoch);
        }
    }
}

static int sdispl[4096], rdispl[4096], scnt[4096], rcnt[4096], cnt_in[4096];

static void dispatch_alltoallv(void)
{
    MPI_Alltoall(send_count, 1, MPI_INT, cnt_in, 1, MPI_INT, MPI_COMM_WORLD);
    int so = 0, ro = 0;
    for (int p = 0; p < n; p++)
    {
        scnt[p] = send_count[p] * msg;
        sdispl[p] = p * T * msg;
        rcnt[p] = cnt_in[p] * msg;
        rdispl[p] = ro;
        recv_count[p] = cnt_in[p];
        recv_base[p] = ro;
        so += scnt[p];
        ro += rcnt[p];
    }
    MPI_Alltoallv(staging, scnt, sdispl, MPI_BYTE, recv_buf, rcnt, rdispl, MPI_BYTE, MPI_COMM_WORLD);
}

static int errors;
static FILE *csv_file;

static void compute(void)
{
    float *x = malloc(4L * H), *y = malloc(4L * H), *part = malloc(4L * H);
    for (int s = 0; s < n; s++)
    {
        for (int slot = 0; slot < recv_count[s]; slot++)
        {
            const char *m = recv_buf + recv_base[s] + (long)slot * msg;
            int32_t t, e[64];
            float w[64];
            memcpy(&t, m, 4);
            memcpy(e, m + 8, 4L * K);
            memcpy(w, m + 8 + 4L * K, 4L * K);
            const uint16_t *pl = (const uint16_t *)(m + hdr);
            for (int i = 0; i < H; i++)
            {
                x[i] = bf16_float(pl[i]);
            }
            int any = 0;
            for (int k = 0; k < K; k++)
            {
                if (e[k] / L != me)
                {
                    continue;
                }
                if (!any)
                {
                    memset(part, 0, 4L * H);
                    any = 1;
                }
                expert(e[k], x, y);
                for (int i = 0; i < H; i++)
                {
                    part[i] += w[k] * y[i];
                }
            }
            if (!any || t < 0 || t >= T)
            {
                errors++;
            }
            uint16_t *out = (uint16_t *)(comb_send + ((long)s * T + slot) * comb);
            for (int i = 0; i < H; i++)
            {
                out[i] = any ? bf16_bits(part[i]) : 0;
            }
        }
    }
    free(x);
    free(y);
    free(part);
}

static void combine_transfer(int alltoallv, long epoch)
{
    if (alltoallv)
    {
        int ro = 0;
        for (int p = 0; p < n; p++)
        {
            scnt[p] = recv_count[p] * comb;
            sdispl[p] = p * T * comb;
            rcnt[p] = send_count[p] * comb;
            rdispl[p] = ro;
            comb_base[p] = ro;
            ro += rcnt[p];
        }
        MPI_Alltoallv(comb_send, scnt, sdispl, MPI_BYTE, comb_recv, rcnt, rdispl, MPI_BYTE, MPI_COMM_WORLD);
        return;
    }
    for (int i = 0; i < n; i++)
    {
        const int p = (me + 1 + i) % n;
        if (recv_count[p] > 0)
        {
            shmem_putmem(comb_recv + (long)me * T * comb, comb_send + (long)p * T * comb, (size_t)recv_count[p] * comb, p);
            shmem_fence();
            shmem_long_atomic_set(&sig[3 * n + me], epoch, p);
        }
    }
    for (int p = 0; p < n; p++)
    {
        comb_base[p] = (long)p * T * comb;
        if (send_count[p] > 0)
        {
            shmem_long_wait_until(&sig[3 * n + p], SHMEM_CMP_GE, epoch);
        }
    }
}

static void combine_reduce(void)
{
    float *acc = malloc(4L * H);
    for (int t = 0; t < T; t++)
    {
        memset(acc, 0, 4L * H);
        for (int p = 0; p < n; p++)
        {
            const int slot = slot_of[t * n + p];
            if (slot >= 0)
            {
                const uint16_t *in = (const uint16_t *)(comb_recv + comb_base[p] + (long)slot * comb);
                for (int i = 0; i < H; i++)
                {
                    acc[i] += bf16_float(in[i]);
                }
            }
        }
        for (int i = 0; i < H; i++)
        {
            combined[(long)t * H + i] = bf16_bits(acc[i]);
        }
    }
    free(acc);
}

/* The combined tokens against the reference: per PE ascending, the weighted partial of its experts. */
static void verify(void)
{
    float *x = malloc(4L * H), *y = malloc(4L * H), *part = malloc(4L * H), *acc = malloc(4L * H);
    for (int t = 0; t < T; t++)
    {
        for (int i = 0; i < H; i++)
        {
            x[i] = bf16_float(src[(long)t * H + i]);
        }
        memset(acc, 0, 4L * H);
        for (int p = 0; p < n; p++)
        {
            int any = 0;
            for (int k = 0; k < K; k++)
            {
                const int e = idx[t * K + k];
                if (e / L != p)
                {
                    continue;
                }
                if (!any)
                {
                    memset(part, 0, 4L * H);
                    any = 1;
                }
                expert(e, x, y);
                for (int i = 0; i < H; i++)
                {
                    part[i] += wgt[t * K + k] * y[i];
                }
            }
            for (int i = 0; any && i < H; i++)
            {
                acc[i] += bf16_float(bf16_bits(part[i]));
            }
        }
        for (int i = 0; i < H; i++)
        {
            if (combined[(long)t * H + i] != bf16_bits(acc[i]))
            {
                errors++;
                break;
            }
        }
    }
    free(x);
    free(y);
    free(part);
    free(acc);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void row(FILE *out, const char *impl, const char *mode, const char *phase, double *us, double bytes)
{
    qsort(us, reps, sizeof(double), cmp_double);
    const double median = reps % 2 ? us[reps / 2] : (us[reps / 2 - 1] + us[reps / 2]) / 2;
    int i99 = (int)ceil(0.99 * reps) - 1;
    const double p99 = us[i99 < 0 ? 0 : i99];
    for (FILE *f = out; me == 0 && f; f = f == out ? csv_file : NULL)
    {
        fprintf(f, "%s,%s,%d,%d,%d,bf16,%s,%.1f,%.1f,%.0f,%.3f\n", impl, mode, n, T, H, phase, median, p99, bytes, bytes / median / 1e3);
    }
}

static void measure(FILE *out, int alltoallv)
{
    double *d = malloc(sizeof(double) * reps), *c = malloc(sizeof(double) * reps);
    double dbytes = 0, cbytes = 0;
    for (int step = 0; step < warmup + reps; step++)
    {
        const long epoch = step + 1;
        shmem_barrier_all();
        double t0 = now_us();
        pack();
        if (alltoallv)
        {
            dispatch_alltoallv();
        }
        else
        {
            dispatch_normal(epoch);
        }
        double t1 = now_us();
        compute();
        shmem_barrier_all();
        double t2 = now_us();
        combine_transfer(alltoallv, epoch);
        combine_reduce();
        double t3 = now_us();
        if (step == 0)
        {
            verify();
        }
        double local[4] = {t1 - t0, t3 - t2, 0, 0}, max[4];
        long sent = 0, back = 0;
        for (int p = 0; p < n; p++)
        {
            sent += send_count[p];
            back += recv_count[p];
        }
        local[2] = (double)sent * 2 * H;
        local[3] = (double)back * comb;
        MPI_Allreduce(local, max, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(local + 2, max + 2, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (step >= warmup)
        {
            d[step - warmup] = max[0];
            c[step - warmup] = max[1];
            dbytes = max[2] / n;
            cbytes = max[3] / n;
        }
    }
    row(out, alltoallv ? "mpi" : "oshmem", alltoallv ? "alltoallv" : "normal", "dispatch", d, dbytes);
    row(out, alltoallv ? "mpi" : "oshmem", alltoallv ? "alltoallv" : "normal", "combine", c, cbytes);
    free(d);
    free(c);
}

static void copy_row(FILE *out)
{
    const size_t bytes = (size_t)T * msg * (K < n ? K : n);
    char *a = malloc(bytes), *b = malloc(bytes);
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    double *us = malloc(sizeof(double) * reps);
    for (int r = 0; r < reps; r++)
    {
        double t0 = now_us();
        memcpy(b, a, bytes);
        us[r] = now_us() - t0;
        a[r % bytes] = b[(r * 7) % bytes];
    }
    row(out, "memcpy", "copy", "copy", us, (double)bytes);
    free(a);
    free(b);
    free(us);
}

int main(int argc, char **argv)
{
    int tokens[64], ntok = 0, modes = 3;
    const char *csv = NULL;
    for (int i = 1; i < argc; i++)
    {
        if (!strcmp(argv[i], "--tokens") && i + 1 < argc)
        {
            for (char *s = strtok(argv[++i], ","); s && ntok < 64; s = strtok(NULL, ","))
            {
                tokens[ntok++] = atoi(s);
            }
        }
        else if (!strcmp(argv[i], "--modes") && i + 1 < argc)
        {
            const char *m = argv[++i];
            modes = (strstr(m, "normal") ? 1 : 0) | (strstr(m, "alltoallv") ? 2 : 0);
        }
        else if (!strcmp(argv[i], "--hidden") && i + 1 < argc) H = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--topk") && i + 1 < argc) K = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hot") && i + 1 < argc) hot = atof(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
        else
        {
            fprintf(stderr, "shmem_moe: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (ntok == 0)
    {
        tokens[0] = 128, tokens[1] = 512, tokens[2] = 1024, tokens[3] = 4096, ntok = 4;
    }
    MPI_Init(&argc, &argv);
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    E = L * n;
    if (K > E || K > 64 || n > 4096)
    {
        fprintf(stderr, "[pe %d/%d] shmem_moe: --topk %d exceeds the %d experts (or 64)\n", me, n, K, E);
        shmem_global_exit(2);
    }
    FILE *out = stdout;
    if (me == 0)
    {
        printf("impl,mode,pes,tokens,hidden,payload,phase,median_us,p99_us,bytes_per_pe,gbps\n");
    }
    FILE *file = me == 0 && csv ? fopen(csv, "w") : NULL;
    csv_file = file;
    if (file)
    {
        fprintf(file, "impl,mode,pes,tokens,hidden,payload,phase,median_us,p99_us,bytes_per_pe,gbps\n");
    }
    for (int m = 0; m < 2; m++)
    {
        if (!(modes & (1 << m)))
        {
            continue;
        }
        for (int j = 0; j < ntok; j++)
        {
            T = tokens[j];
            hdr = 8 + 8 * K;
            msg = (hdr + 2 * H + 7) & ~7;
            comb = 2 * H;
            sig = shmem_calloc(4L * n, sizeof(long));
            recv_buf = shmem_malloc((size_t)n * T * msg);
            comb_recv = shmem_malloc((size_t)n * T * comb);
            idx = malloc(sizeof(int) * T * K);
            wgt = malloc(sizeof(float) * T * K);
            src = malloc(2L * T * H);
            staging = malloc((size_t)n * T * msg);
            comb_send = malloc((size_t)n * T * comb);
            send_count = calloc(n, sizeof(int));
            recv_count = calloc(n, sizeof(int));
            slot_of = malloc(sizeof(int) * T * n);
            recv_base = calloc(n, sizeof(long));
            comb_base = calloc(n, sizeof(long));
            combined = malloc(2L * T * H);
            if (!sig || !recv_buf || !comb_recv)
            {
                fprintf(stderr, "[pe %d/%d] shmem_moe: symmetric allocation of %zu bytes failed (SHMEM_SYMMETRIC_SIZE)\n", me, n,
                    (size_t)n * T * (msg + comb));
                shmem_global_exit(2);
            }
            route();
            direct = calloc(n, sizeof(char *));
            for (int p = 0; p < n && m == 0; p++)
            {
                char *peer = shmem_ptr(recv_buf, p);
                direct[p] = peer ? peer + (long)me * T * msg : NULL;
            }
            if (me == 0 && m == 0 && j == 0)
            {
                int reach = 0;
                for (int p = 0; p < n; p++)
                {
                    reach += direct[p] != NULL;
                }
                fprintf(stderr, "# shmem_moe: shmem_ptr reaches %d of %d PEs (packed in place there)\n", reach, n);
            }
            shmem_barrier_all();
            measure(out, m == 1);
            if (file)
            {
                fflush(stdout);
            }
            if (m == 0 && j == ntok - 1)
            {
                copy_row(out);
            }
            shmem_barrier_all();
            shmem_free(sig);
            shmem_free(recv_buf);
            shmem_free(comb_recv);
            free(idx), free(wgt), free(src), free(staging), free(comb_send), free(send_count), free(recv_count);
            free(slot_of), free(recv_base), free(comb_base), free(combined), free(direct);
        }
    }
    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total)
    {
        fprintf(stderr, "shmem_moe: %d mismatches\n", total);
    }
    if (file)
    {
        fclose(file);
    }
    shmem_finalize(); /* Open MPI's OSHMEM finalizes MPI too */
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
    {
        MPI_Finalize();
    }
    return total ? 1 : 0;
}
