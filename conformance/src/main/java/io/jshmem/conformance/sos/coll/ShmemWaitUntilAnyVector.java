package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

/**
 * The spec's wait_until_any_vector example: odd PEs set their word on every PE to 2, even PEs to 1;
 * nPes calls of wait_until_any_vector with per-index comparison values (i mod 2 + 1), each returned
 * index excluded; the sum of the words found is nPes + nPes/2.
 */
public final class ShmemWaitUntilAnyVector extends CollProgram
{
    public ShmemWaitUntilAnyVector()
    {
        super("tests-sos test/spec-example/shmem_wait_until_any_vector.c", "shmem_calloc", "shmem_atomic_set",
            "shmem_wait_until_any_vector");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final io.jshmem.SymmetricInts ivars = shmem.allocateInts(n);
        final int[] status = new int[n];
        final long[] cmpValues = new long[n];
        for (int i = 0; i < n; i++)
        {
            shmem.atomicSet(ivars, me, me % 2 + 1, i);
            cmpValues[i] = i % 2 + 1;
        }
        long total = 0;
        for (int i = 0; i < n; i++)
        {
            final long idx = ivars.waitUntilAnyVector(status, Cmp.EQ, cmpValues);
            if (!check.isTrue(idx >= 0 && idx < n && status[(int)idx] == 0, "wait_until_any_vector", "returned a new index: " + idx))
            {
                break;
            }
            status[(int)idx] = 1;
            total += ivars.getLocal(idx);
        }
        check.eq("wait_until_any_vector", "ints", -1, n + n / 2, total);
        shmem.barrierAll();
        shmem.free(ivars);
    }
}
