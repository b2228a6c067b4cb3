package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * 30 consecutive barrier_all calls. The original only checks that they return; the port also checks
 * what a barrier promises: before each barrier every PE puts the loop number to its right neighbour,
 * and after it every PE must see its left neighbour's number for that loop.
 */
public final class Barrier extends CollProgram
{
    private static final int LOOPS = 30;

    public Barrier()
    {
        super("tests-sos test/unit/barrier.c", List.of("shmem_barrier_all"), forced("BARRIER", BARRIER));
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs box = shmem.allocateLongs(2);
        for (int j = 0; j < LOOPS; j++)
        {
            shmem.p(box, j % 2, 1000L * check.me() + j, check.right());
            shmem.barrierAll();
            check.eq("barrier_all", "longs", j, 1000L * check.left() + j, box.getLocal(j % 2));
        }
        shmem.free(box);
    }
}
