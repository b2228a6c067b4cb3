package io.jshmem.examples.isx;

/** ISx's timed phases, in its order, with its names (the log's column names and the summary's rows). */
enum Phase
{
    /** One whole iteration, barrier to barrier. */
    TOTAL,
    /** The exchange: fetch-adds, puts and the barrier that completes them. */
    ATA_KEYS,
    /** Drawing the keys. */
    MAKE_INPUT,
    /** Counting the keys of each bucket. */
    COUNT_BUCKET_SIZES,
    /** Copying the keys into bucket order. */
    BUCKETIZE,
    /** The prefix sum of the bucket sizes. */
    COMPUTE_OFFSETS,
    /** The counting sort of the received keys. */
    LOCAL_SORT;

    /** Values a PE reports per phase set: one mean per phase, and the mean keys sent to other PEs. */
    static final int COLUMNS = values().length + 1;
}
