package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;

import java.util.List;
import java.util.Random;

/**
 * The spec's reduction example: 32 random values in [0, nPes) per PE (seeded by the PE number); an or
 * reduction of the per-index "value is nPes-1" bytes and a sum reduction of the per-PE counts. The
 * example only prints; the port recomputes every PE's values (same seeds) and checks both results.
 */
public final class ShmemReduceExample extends CollProgram
{
    private static final int NELEMS = 32;

    public ShmemReduceExample()
    {
        super("tests-sos test/spec-example/shmem_reduce_example.c", List.of("shmem_sync", "shmem_or_reduce", "shmem_sum_reduce"),
            forced("REDUCE", REDUCE));
    }

    private static int[] values(final int pe, final int n)
    {
        final Random r = new Random(pe);
        final int[] v = new int[NELEMS];
        for (int i = 0; i < NELEMS; i++)
        {
            v[i] = r.nextInt(n);
        }
        return v;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricBytes isMax = shmem.allocateBytes(NELEMS);
        final SymmetricBytes isMaxAll = shmem.allocateBytes(NELEMS);
        final SymmetricInts count = shmem.allocateInts(1);
        final SymmetricInts total = shmem.allocateInts(1);
        final int[] mine = values(me, n);
        int c = 0;
        for (int i = 0; i < NELEMS; i++)
        {
            isMax.setLocal(i, (byte)(mine[i] == n - 1 ? 1 : 0));
            c += mine[i] == n - 1 ? 1 : 0;
        }
        count.setLocal(0, c);
        shmem.teamWorld().sync();
        shmem.teamWorld().reduce(ReduceOp.OR, isMaxAll, isMax, NELEMS);
        shmem.teamWorld().reduce(ReduceOp.SUM, total, count, 1);
        int expectTotal = 0;
        final boolean[] expectAny = new boolean[NELEMS];
        for (int pe = 0; pe < n; pe++)
        {
            final int[] v = values(pe, n);
            for (int i = 0; i < NELEMS; i++)
            {
                if (v[i] == n - 1)
                {
                    expectTotal++;
                    expectAny[i] = true;
                }
            }
        }
        for (int i = 0; i < NELEMS; i++)
        {
            check.eq("or_reduce", "bytes", i, expectAny[i] ? 1 : 0, isMaxAll.getLocal(i));
        }
        check.eq("sum_reduce", "ints", 0, expectTotal, total.getLocal(0));
        if (me == 0)
        {
            System.out.println("  ShmemReduceExample: found " + total.getLocal(0) + " maximal random numbers across all PEs");
        }
        shmem.barrierAll();
        shmem.free(total);
        shmem.free(count);
        shmem.free(isMaxAll);
        shmem.free(isMax);
    }
}
