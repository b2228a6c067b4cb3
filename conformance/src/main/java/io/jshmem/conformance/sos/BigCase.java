package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

/**
 * The procedure of tests-sos {@code bigput.c}/{@code bigget.c}: every PE moves a large int array
 * (values 1..n) to or from its right neighbour, many times, then checks every element. The original's
 * 4 Mi elements × 100/1000 loops (a bandwidth run) become 1 Mi elements (4 MiB) × 8 loops: the same
 * transfers, in a time the shared suite can afford.
 */
abstract class BigCase implements Program
{
    static final int ELEMENTS = 1 << 20;
    static final int LOOPS = 8;
    private final boolean put;

    BigCase(final boolean put)
    {
        this.put = put;
    }

    @Override
    public final void run(final Shmem shmem, final Check check)
    {
        final int right = (shmem.myPe() + 1) % shmem.nPes();
        final SymmetricInts source = shmem.allocateInts(ELEMENTS);
        final SymmetricInts target = shmem.allocateInts(ELEMENTS);
        final int[] local = new int[ELEMENTS];
        for (int i = 0; i < ELEMENTS; i++)
        {
            source.setLocal(i, i + 1);
            target.setLocal(i, -90);
            local[i] = i + 1;
            if (!put)
            {
                local[i] = -90;
            }
        }
        shmem.barrierAll();
        for (int l = 0; l < LOOPS; l++)
        {
            if (put)
            {
                shmem.put(target, 0, local, 0, ELEMENTS, right);
            }
            else
            {
                shmem.get(local, 0, source, 0, ELEMENTS, right);
            }
        }
        shmem.barrierAll();
        int bad = 0;
        for (int i = 0; i < ELEMENTS && bad < 10; i++)
        {
            final int got = put ? target.getLocal(i) : local[i];
            if (!check.eq(put ? "shmem_put" : "shmem_get", "ints", i, i + 1, got))
            {
                bad++;
            }
        }
        shmem.barrierAll();
        shmem.free(target);
        shmem.free(source);
    }
}
