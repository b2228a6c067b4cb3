package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

/**
 * The spec's test_some example: every PE put_nbi's its 100 ints to every PE, fences and sets its flag;
 * test_some is polled, each returned index's block summed and excluded through status, until every
 * flag was seen; the sum of all blocks is M(M+1)/2 with M = 100 nPes - 1; with no status, test_some
 * reports all nPes flags.
 */
public final class ShmemTestSome extends CollProgram
{
    public ShmemTestSome()
    {
        super("tests-sos test/spec-example/shmem_test_some.c", "shmem_put_nbi", "shmem_fence", "shmem_atomic_set", "shmem_test_some");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final FlagExchange x = new FlagExchange(shmem, true);
        final int[] status = new int[n];
        final int[] indices = new int[n];
        final long[] total = {0};
        final int[] completed = {0};
        check.await("test_some", "every flag", () ->
        {
            final int k = x.flags.testSome(indices, status, Cmp.NE, 0);
            for (int i = 0; i < k; i++)
            {
                total[0] += x.block(indices[i]);
                status[indices[i]] = 1;
            }
            completed[0] += k;
            return completed[0] >= n;
        });
        check.eq("test_some", "flags completed", n, completed[0]);
        x.checkFlagsAndSum(check, "test_some", n, total[0]);
        check.eq("test_some", "count with no status", n, x.flags.testSome(indices, null, Cmp.EQ, 1));
        x.free(shmem);
    }
}
