package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;

/**
 * The set-up shared by the spec's wait/test examples: every PE sends its 100 ints ({@code pe * 100 + j})
 * into its block of every PE's {@code allData} with put_nbi, fences, then sets its flag on every PE
 * with an atomic set. {@link #checkSum} checks the sum of the blocks read as flags arrived.
 */
final class FlagExchange
{
    static final int N = 100;

    final SymmetricInts allData;
    final SymmetricInts flags;

    FlagExchange(final Shmem shmem, final boolean withData)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        allData = shmem.allocateInts((long)N * n);
        flags = shmem.allocateInts(n);
        if (withData)
        {
            final int[] mine = new int[N];
            for (int i = 0; i < N; i++)
            {
                mine[i] = me * N + i;
            }
            for (int pe = 0; pe < n; pe++)
            {
                shmem.putNbi(allData, (long)me * N, mine, 0, N, pe);
            }
            shmem.fence();
        }
        for (int pe = 0; pe < n; pe++)
        {
            shmem.atomicSet(flags, me, 1, pe);
        }
    }

    /** @return the sum of block {@code pe} of this PE's allData. */
    int block(final int pe)
    {
        int s = 0;
        for (int j = 0; j < N; j++)
        {
            s += allData.getLocal((long)pe * N + j);
        }
        return s;
    }

    void checkFlagsAndSum(final Check check, final String routine, final int n, final long total)
    {
        for (int i = 0; i < n; i++)
        {
            check.eq(routine, "flags", i, 1, flags.getLocal(i));
        }
        final long m = (long)N * n - 1;
        check.eq(routine, "ints", -1, m * (m + 1) / 2, total);
    }

    void free(final Shmem shmem)
    {
        shmem.barrierAll();
        shmem.free(flags);
        shmem.free(allData);
    }
}
