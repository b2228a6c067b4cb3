/*
 * bench_results.h: what the native benchmark programs share, included once by each (they are single
 * translation units): Results.java in C (rows of repeated measurements, medians, the text table and the
 * CSV that benchmarks/compare-native joins with the Java side), the CLOCK_MONOTONIC timer, the command line
 * (--reps N, --quick, --csv FILE) and the report PE 0 prints.
 *
 * Before including, define BENCH_PROGRAM (the program name for messages), MAX_ROWS and NAME_LEN.
 */
#ifndef JSHMEM_BENCH_RESULTS_H
#define JSHMEM_BENCH_RESULTS_H

#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* This PE, the number of PEs, and --quick: every program's globals. */
static int me;
static int n;
static int quick;

/* ------------------------------------------------------------------------------------------------
 * Results: Results.java in C. Rows keep first-insertion order, like its LinkedHashMap.
 * --------------------------------------------------------------------------------------------- */

typedef struct
{
    char benchmark[NAME_LEN];
    long size;
    const char *unit;
    double *values;
    int count;
    int capacity;
} row_t;

static row_t rows[MAX_ROWS];
static int row_count;

/* Forgets every recorded value (after the warm-up passes, as Results.run). */
static void results_clear(void)
{
    for (int i = 0; i < row_count; i++)
    {
        free(rows[i].values);
        memset(&rows[i], 0, sizeof rows[i]);
    }
    row_count = 0;
}

static void results_add(const char *benchmark, long size, const char *unit, double value)
{
    row_t *r = NULL;
    for (int i = 0; i < row_count; i++)
    {
        if (rows[i].size == size && strcmp(rows[i].benchmark, benchmark) == 0)
        {
            r = &rows[i];
            break;
        }
    }
    if (r == NULL)
    {
        if (row_count == MAX_ROWS)
        {
            fprintf(stderr, BENCH_PROGRAM ": more than %d rows (benchmark=%s size=%ld)\n", MAX_ROWS, benchmark, size);
            shmem_global_exit(1);
        }
        r = &rows[row_count++];
        snprintf(r->benchmark, sizeof r->benchmark, "%s", benchmark);
        r->size = size;
        r->unit = unit;
    }
    if (r->count == r->capacity)
    {
        r->capacity = r->capacity == 0 ? 8 : 2 * r->capacity;
        r->values = realloc(r->values, (size_t)r->capacity * sizeof *r->values);
        if (r->values == NULL)
        {
            fprintf(stderr, BENCH_PROGRAM ": out of memory (row=%s values=%d)\n", benchmark, r->capacity);
            shmem_global_exit(1);
        }
    }
    r->values[r->count++] = value;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the repetitions: the middle value, or the mean of the two middle ones (as Results.java). */
static double row_median(const row_t *r)
{
    double v[r->count];
    memcpy(v, r->values, (size_t)r->count * sizeof v[0]);
    qsort(v, (size_t)r->count, sizeof v[0], cmp_double);
    return r->count % 2 == 1 ? v[r->count / 2] : (v[r->count / 2 - 1] + v[r->count / 2]) / 2;
}

static double row_min(const row_t *r)
{
    double m = r->values[0];
    for (int i = 1; i < r->count; i++)
    {
        m = r->values[i] < m ? r->values[i] : m;
    }
    return m;
}

static double row_max(const row_t *r)
{
    double m = r->values[0];
    for (int i = 1; i < r->count; i++)
    {
        m = r->values[i] > m ? r->values[i] : m;
    }
    return m;
}

static void results_print(FILE *out, const char *title, const char *note)
{
    fprintf(out, "# %s\n", title);
    if (note != NULL)
    {
        fprintf(out, "# note: %s\n", note);
    }
    /* one block per benchmark, in order of first appearance (Results.format groups the same way) */
    for (int first = 0; first < row_count; first++)
    {
        int seen = 0;
        for (int j = 0; j < first && !seen; j++)
        {
            seen = strcmp(rows[j].benchmark, rows[first].benchmark) == 0;
        }
        if (seen)
        {
            continue;
        }
        char median[NAME_LEN];
        snprintf(median, sizeof median, "median %s", rows[first].unit);
        fprintf(out, "\n# %s\n# %-10s %14s %14s %14s\n", rows[first].benchmark, "Size", median, "min", "max");
        for (int i = first; i < row_count; i++)
        {
            const row_t *r = &rows[i];
            if (strcmp(r->benchmark, rows[first].benchmark) == 0)
            {
                fprintf(out, "%-12ld %14.3f %14.3f %14.3f\n", r->size, row_median(r), row_min(r), row_max(r));
            }
        }
    }
    fflush(out);
}

static int results_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
    {
        perror(path);
        return -1;
    }
    fprintf(f, "benchmark,size,unit,median,min,max,values\n");
    for (int i = 0; i < row_count; i++)
    {
        const row_t *r = &rows[i];
        fprintf(f, "%s,%ld,%s,%.4f,%.4f,%.4f,", r->benchmark, r->size, r->unit, row_median(r), row_min(r), row_max(r));
        for (int v = 0; v < r->count; v++)
        {
            fprintf(f, v == 0 ? "%.4f" : ";%.4f", r->values[v]);
        }
        fputc('\n', f);
    }
    return fclose(f);
}

static inline long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * P2pBench.latency and RemoteBench.latency: PE 0 runs OP (against the peer OP names; warm-up
 * max(10, iters / 10), then iters timed), the others wait at the barrier; µs per operation, or ns when
 * the name says "ns/op". Needs `me` (this PE) in scope. A macro rather than a function pointer so the
 * operation is inlined into the loop, as the JIT does with the lambda.
 */
#define LATENCY(NAME, SIZE, ITERS, OP)                                                                \
    do                                                                                                \
    {                                                                                                 \
        const int iters_ = (ITERS);                                                                   \
        shmem_barrier_all();                                                                          \
        if (me == 0)                                                                                  \
        {                                                                                             \
            const int warm_ = iters_ / 10 > 10 ? iters_ / 10 : 10;                                    \
            for (int i_ = 0; i_ < warm_; i_++)                                                        \
            {                                                                                         \
                OP;                                                                                   \
            }                                                                                         \
            const long t0_ = now_ns();                                                                \
            for (int i_ = 0; i_ < iters_; i_++)                                                       \
            {                                                                                         \
                OP;                                                                                   \
            }                                                                                         \
            const long t1_ = now_ns();                                                                \
            const int ns_ = strstr((NAME), "ns/op") != NULL;                                          \
            results_add((NAME), (SIZE), ns_ ? "ns" : "us", (double)(t1_ - t0_) / (ns_ ? 1.0 : 1e3) / iters_); \
        }                                                                                             \
        shmem_barrier_all();                                                                          \
    } while (0)

/* shmem_init, then me and n; a point-to-point program (min_pes 2) ends the job with status 2 below it. */
static void bench_init(int min_pes)
{
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    if (n < min_pes)
    {
        fprintf(stderr, BENCH_PROGRAM " needs at least %d PEs (oshrun -np %d ...)\n", min_pes, min_pes);
        shmem_global_exit(2);
    }
}

/* Parses --reps N, --quick and --csv FILE (the Java programs' options); anything else exits with 2. */
static void bench_parse_args(int argc, char **argv, int *reps, int *warmup, const char **csv)
{
    for (int i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
        {
            *reps = atoi(argv[++i]);
        }
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
        {
            *warmup = atoi(argv[++i]);
        }
        else if (strcmp(argv[i], "--quick") == 0)
        {
            quick = 1;
        }
        else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
        {
            *csv = argv[++i];
        }
        else
        {
            fprintf(stderr, BENCH_PROGRAM ": unknown or incomplete option %s (--reps N, --warmup N, --quick, --csv FILE)\n", argv[i]);
            exit(2);
        }
    }
}

/*
 * On PE 0: prints the table titled "native OpenSHMEM <what>, N PEs, R repetitions, <stat> (implementation)"
 * with the note, and writes the CSV if asked. Returns non-zero if the CSV could not be written.
 */
static int bench_report(const char *what, const char *stat, int reps, const char *note, const char *csv)
{
    if (me != 0)
    {
        return 0;
    }
    char name[SHMEM_MAX_NAME_LEN + 1] = {0};
    char title[2 * SHMEM_MAX_NAME_LEN + 256];
    int major = 0, minor = 0;
    shmem_info_get_name(name);
    shmem_info_get_version(&major, &minor);
#if defined(OSHMEM_MAJOR_VERSION)
    char implementation[64];
    snprintf(implementation, sizeof implementation, "Open MPI OSHMEM %d.%d.%d, ", OSHMEM_MAJOR_VERSION,
        OSHMEM_MINOR_VERSION, OSHMEM_RELEASE_VERSION);
#else
    const char *implementation = "";
#endif
    snprintf(title, sizeof title, "native OpenSHMEM %s, %d PEs, %d repetitions, %s (%s%s, OpenSHMEM %d.%d)",
        what, n, reps, stat, implementation, name, major, minor);
    results_print(stdout, title, note);
    return csv != NULL && results_csv(csv) != 0 ? 1 : 0;
}

#endif
