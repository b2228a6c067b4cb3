package io.jshmem;

import io.jshmem.jfr.Jfr;
import io.jshmem.jfr.WaitEvent;
import io.jshmem.spi.Allocation;
import io.jshmem.spi.PeStats;
import io.jshmem.spi.SymmetricSpace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Symmetric integer words that point-to-point synchronization can wait on and test: the
 * {@code wait_until}/{@code test} family of OpenSHMEM 1.5, on this PE's own copy. The handle (or a
 * slice of it) is the set of variables; {@code status} (null, or one entry per element) excludes
 * element i when {@code status[i] != 0}. Comparisons are signed.
 * <p>
 * Empty sets follow the spec (1.6 errata): waitUntilAll returns at once, waitUntilAny returns -1,
 * waitUntilSome returns 0, testAll is true, testAny is -1, testSome is 0. Any/some start scanning at a
 * random element, so every satisfied element is eventually reported. Waits read with acquire
 * semantics, so data written before the update that satisfies them (with a fence or as a signal's
 * own put) is visible on return. A wait fails with {@link JobFailedException} if the job fails.
 *
 * @param <A> the Java array type.
 */
public abstract sealed class SymmetricWords<A> extends SymmetricArray<A> permits SymmetricInts, SymmetricLongs
{
    SymmetricWords(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    /** Acquire load of element i (no checks), sign-extended. */
    abstract long laWord(long index);

    /** Synchronization variables are read atomically, so they must be aligned to their size. */
    final void checkAligned()
    {
        if ((offset & (elementBytes() - 1)) != 0)
        {
            throw new IllegalArgumentException(allocation.space().prefix() + "misaligned synchronization variable: heap offset=" +
                offset + " is not a multiple of " + elementBytes() + " (" + this + ")");
        }
    }

    private void checkSet(final int[] status, final long[] values)
    {
        checkLive();
        checkAligned();
        if (status != null && status.length != length)
        {
            throw new IllegalArgumentException(allocation.space().prefix() + "status.length=" + status.length +
                " != nelems=" + length + " of " + this);
        }
        if (values != null && values.length != length)
        {
            throw new IllegalArgumentException(allocation.space().prefix() + "values.length=" + values.length +
                " != nelems=" + length + " of " + this);
        }
    }

    private static boolean included(final int[] status, final int i)
    {
        return status == null || status[i] == 0;
    }

    private boolean satisfied(final int i, final Cmp cmp, final long value, final long[] values)
    {
        return cmp.test(laWord(i), values == null ? value : values[i]);
    }

    /**
     * Blocks until {@code this[index] cmp value} ({@code shmem_wait_until}).
     *
     * @param index element.
     * @param cmp   comparison.
     * @param value comparison value.
     */
    public final void waitUntil(final long index, final Cmp cmp, final long value)
    {
        checkRange(index, 1);
        checkAligned();
        if (cmp.test(laWord(index), value))
        {
            return;
        }
        final SymmetricSpace space = allocation.space();
        final WaitEvent event = Jfr.waitBegun(); // only a wait that blocks gets here
        final long startNs = System.nanoTime();
        int idle = 0;
        do
        {
            idle = space.idle(idle);
        }
        while (!cmp.test(laWord(index), value));
        waited(event, startNs, "wait_until", index);
    }

    /**
     * The end of a wait that blocked: counts it for {@code SHMEM_STATS} and records it for JFR.
     *
     * @param event   the wait's event, begun when it started blocking.
     * @param startNs {@link System#nanoTime()} when it started blocking.
     * @param kind    what waited ({@code wait_until}, ...).
     * @param index   the element waited on, -1 for a set.
     */
    final void waited(final WaitEvent event, final long startNs, final String kind, final long index)
    {
        final SymmetricSpace space = allocation.space();
        final PeStats stats = space.stats();
        if (stats != null)
        {
            stats.waited(kind, System.nanoTime() - startNs);
        }
        if (event == null)
        {
            return;
        }
        event.end();
        if (event.shouldCommit())
        {
            event.pe = space.myPe();
            event.kind = kind;
            event.object = toString();
            event.index = index;
            event.commit();
        }
    }

    /**
     * Tests one element of this PE's copy without blocking.
     *
     * @param index element index in the object.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     * @return {@code this[index] cmp value} now ({@code shmem_test}).
     */
    public final boolean test(final long index, final Cmp cmp, final long value)
    {
        checkRange(index, 1);
        checkAligned();
        return cmp.test(laWord(index), value);
    }

    /**
     * Blocks until every included element satisfies the comparison.
     * OpenSHMEM: {@code shmem_wait_until_all}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     */
    public final void waitUntilAll(final int[] status, final Cmp cmp, final long value)
    {
        waitAll(status, cmp, value, null);
    }

    /**
     * Blocks until every included element i satisfies {@code this[i] cmp values[i]}.
     * OpenSHMEM: {@code shmem_wait_until_all_vector}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param values one comparison value per element.
     */
    public final void waitUntilAllVector(final int[] status, final Cmp cmp, final long[] values)
    {
        waitAll(status, cmp, 0, java.util.Objects.requireNonNull(values, "values"));
    }

    /**
     * {@return the index of an included element that satisfies the comparison, or -1 if none is included}
     * OpenSHMEM: {@code shmem_wait_until_any}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     */
    public final long waitUntilAny(final int[] status, final Cmp cmp, final long value)
    {
        return waitAny(status, cmp, value, null);
    }

    /**
     * {@return as {@link #waitUntilAny}, comparing element i with values[i]}
     * OpenSHMEM: {@code shmem_wait_until_any_vector}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param values one comparison value per element.
     */
    public final long waitUntilAnyVector(final int[] status, final Cmp cmp, final long[] values)
    {
        return waitAny(status, cmp, 0, java.util.Objects.requireNonNull(values, "values"));
    }

    /**
     * Blocks until at least one included element satisfies the comparison.
     * OpenSHMEM: {@code shmem_wait_until_some}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     * @param indices receives the satisfied indices (length at least the number of elements).
     * @return how many indices were written; 0 if no element is included.
     */
    public final int waitUntilSome(final int[] indices, final int[] status, final Cmp cmp, final long value)
    {
        return waitSome(indices, status, cmp, value, null);
    }

    /**
     * {@return as {@link #waitUntilSome}, comparing element i with values[i]}
     * OpenSHMEM: {@code shmem_wait_until_some_vector}.
     *
     * @param indices receives the indices of the satisfied elements (length at least the number of elements).
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param values one comparison value per element.
     */
    public final int waitUntilSomeVector(final int[] indices, final int[] status, final Cmp cmp, final long[] values)
    {
        return waitSome(indices, status, cmp, 0, java.util.Objects.requireNonNull(values, "values"));
    }

    /**
     * {@return true if every included element satisfies the comparison (true for an empty set)}
     * OpenSHMEM: {@code shmem_test_all}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     */
    public final boolean testAll(final int[] status, final Cmp cmp, final long value)
    {
        checkSet(status, null);
        return allSatisfied(status, cmp, value, null);
    }

    /**
     * {@return as {@link #testAll}, comparing element i with values[i]}
     * OpenSHMEM: {@code shmem_test_all_vector}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param values one comparison value per element.
     */
    public final boolean testAllVector(final int[] status, final Cmp cmp, final long[] values)
    {
        checkSet(status, java.util.Objects.requireNonNull(values, "values"));
        return allSatisfied(status, cmp, 0, values);
    }

    /**
     * {@return the index of a satisfied included element, or -1}
     * OpenSHMEM: {@code shmem_test_any}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     */
    public final long testAny(final int[] status, final Cmp cmp, final long value)
    {
        checkSet(status, null);
        return anySatisfied(status, cmp, value, null);
    }

    /**
     * {@return as {@link #testAny}, comparing element i with values[i]}
     * OpenSHMEM: {@code shmem_test_any_vector}.
     *
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param values one comparison value per element.
     */
    public final long testAnyVector(final int[] status, final Cmp cmp, final long[] values)
    {
        checkSet(status, java.util.Objects.requireNonNull(values, "values"));
        return anySatisfied(status, cmp, 0, values);
    }

    /**
     * {@return the number of satisfied included elements, their indices written to {@code indices}}
     * OpenSHMEM: {@code shmem_test_some}.
     *
     * @param indices receives the indices of the satisfied elements (length at least the number of elements).
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param value the value each element is compared with.
     */
    public final int testSome(final int[] indices, final int[] status, final Cmp cmp, final long value)
    {
        checkSet(status, null);
        checkIndices(indices);
        return someSatisfied(indices, status, cmp, value, null);
    }

    /**
     * {@return as {@link #testSome}, comparing element i with values[i]}
     * OpenSHMEM: {@code shmem_test_some_vector}.
     *
     * @param indices receives the indices of the satisfied elements (length at least the number of elements).
     * @param status which elements take part: null or all zero includes every element, a nonzero entry excludes that element.
     * @param cmp the comparison.
     * @param values one comparison value per element.
     */
    public final int testSomeVector(final int[] indices, final int[] status, final Cmp cmp, final long[] values)
    {
        checkSet(status, java.util.Objects.requireNonNull(values, "values"));
        checkIndices(indices);
        return someSatisfied(indices, status, cmp, 0, values);
    }

    private void checkIndices(final int[] indices)
    {
        if (indices == null || indices.length < length)
        {
            throw new IllegalArgumentException(allocation.space().prefix() + "indices.length=" +
                (indices == null ? "null" : indices.length) + " < nelems=" + length + " of " + this);
        }
    }

    private boolean allSatisfied(final int[] status, final Cmp cmp, final long value, final long[] values)
    {
        for (int i = 0; i < length; i++)
        {
            if (included(status, i) && !satisfied(i, cmp, value, values))
            {
                return false;
            }
        }
        return true;
    }

    private long anySatisfied(final int[] status, final Cmp cmp, final long value, final long[] values)
    {
        final int n = (int)length;
        final int start = n <= 1 ? 0 : ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < n; k++)
        {
            final int i = (start + k) % n;
            if (included(status, i) && satisfied(i, cmp, value, values))
            {
                return i;
            }
        }
        return -1;
    }

    private int someSatisfied(final int[] indices, final int[] status, final Cmp cmp, final long value, final long[] values)
    {
        int count = 0;
        for (int i = 0; i < length; i++)
        {
            if (included(status, i) && satisfied(i, cmp, value, values))
            {
                indices[count++] = i;
            }
        }
        return count;
    }

    private boolean anyIncluded(final int[] status)
    {
        for (int i = 0; i < length; i++)
        {
            if (included(status, i))
            {
                return true;
            }
        }
        return false;
    }

    private void waitAll(final int[] status, final Cmp cmp, final long value, final long[] values)
    {
        checkSet(status, values);
        if (allSatisfied(status, cmp, value, values))
        {
            return;
        }
        final SymmetricSpace space = allocation.space();
        final WaitEvent event = Jfr.waitBegun();
        final long startNs = System.nanoTime();
        int idle = 0;
        do
        {
            idle = space.idle(idle);
        }
        while (!allSatisfied(status, cmp, value, values));
        waited(event, startNs, "wait_until_all", -1);
    }

    private long waitAny(final int[] status, final Cmp cmp, final long value, final long[] values)
    {
        checkSet(status, values);
        if (!anyIncluded(status))
        {
            return -1;
        }
        long found = anySatisfied(status, cmp, value, values);
        if (found >= 0)
        {
            return found;
        }
        final SymmetricSpace space = allocation.space();
        final WaitEvent event = Jfr.waitBegun();
        final long startNs = System.nanoTime();
        int idle = 0;
        do
        {
            idle = space.idle(idle);
        }
        while ((found = anySatisfied(status, cmp, value, values)) < 0);
        waited(event, startNs, "wait_until_any", -1);
        return found;
    }

    private int waitSome(final int[] indices, final int[] status, final Cmp cmp, final long value, final long[] values)
    {
        checkSet(status, values);
        checkIndices(indices);
        if (!anyIncluded(status))
        {
            return 0;
        }
        int found = someSatisfied(indices, status, cmp, value, values);
        if (found > 0)
        {
            return found;
        }
        final SymmetricSpace space = allocation.space();
        final WaitEvent event = Jfr.waitBegun();
        final long startNs = System.nanoTime();
        int idle = 0;
        do
        {
            idle = space.idle(idle);
        }
        while ((found = someSatisfied(indices, status, cmp, value, values)) == 0);
        waited(event, startNs, "wait_until_some", -1);
        return found;
    }
}
