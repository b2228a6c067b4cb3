package io.jshmem;

/**
 * A distributed lock ({@code shmem_set_lock}, {@code shmem_test_lock}, {@code shmem_clear_lock}) over
 * {@link #WORDS} symmetric longs, zero on every PE before first use. Acquisition is first-come,
 * first-served: waiting PEs form a queue (an MCS lock over the symmetric heap), each spinning on its
 * own word, so a release wakes exactly one waiter and no waiter starves.
 * <p>
 * The lock is owned by a PE. Under {@link ThreadLevel#MULTIPLE} threads of one PE queue for it in
 * arrival order too; the thread that set the lock clears it. Setting a lock this thread already holds,
 * or clearing one it does not hold, is an {@link IllegalStateException} (the spec leaves both undefined).
 * {@link #clear()} completes this PE's default-context operations first (quiet), so the next holder
 * sees them.
 */
public abstract class SymmetricLock
{
    /** Symmetric longs one lock occupies. */
    public static final int WORDS = 3;

    /** Subclassed by the runtime only. */
    protected SymmetricLock()
    {
    }

    /** {@code shmem_set_lock}: blocks until this PE holds the lock. */
    public abstract void set();

    /**
     * {@code shmem_test_lock}: takes the lock if it is free, never blocks.
     *
     * @return true if this call acquired the lock (the C routine's 0), false if another PE holds it or
     *         waits for it.
     */
    public abstract boolean test();

    /** {@code shmem_clear_lock}: quiet on the default context, then hands the lock to the next waiter. */
    public abstract void clear();

    /** {@return the symmetric words of the lock (pass to {@link Shmem#free} when no PE uses it any more)} */
    public abstract SymmetricLongs words();
}
