package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * 600 back-to-back broadcasts of 100 KB of ints from PE 0 with no barrier between them (the
 * original's default; it times them and checks nothing). The port checks the target after the
 * flood and, every 50 broadcasts, after a barrier; the source changes value each time so that a
 * broadcast that landed late or not at all is seen.
 */
public final class BcastFlood extends CollProgram
{
    private static final int ELEMENTS = 25_600;
    private static final int LOOPS = 600;

    public BcastFlood()
    {
        super("tests-sos test/unit/bcast_flood.c", List.of("shmem_broadcast"), forced("BROADCAST", BROADCAST));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricInts source = shmem.allocateInts(ELEMENTS);
        final SymmetricInts target = shmem.allocateInts(ELEMENTS);
        for (int i = 0; i < ELEMENTS; i++)
        {
            source.setLocal(i, i + 1);
            target.setLocal(i, -90);
        }
        shmem.barrierAll();
        for (int loop = 0; loop < LOOPS; loop++)
        {
            shmem.teamWorld().broadcast(target, source, ELEMENTS, 0);
            if (loop % 50 == 49)
            {
                shmem.barrierAll();
                for (int i = 0; i < ELEMENTS; i += 97)
                {
                    check.eq("broadcast", "ints", i, i + 1 + loop, target.getLocal(i));
                }
                shmem.barrierAll();
            }
            if (shmem.myPe() == 0)
            {
                // the root may rewrite its source once its broadcast returned
                for (int i = 0; i < ELEMENTS; i++)
                {
                    source.setLocal(i, i + 2 + loop);
                }
            }
        }
        shmem.barrierAll();
        for (int i = 0; i < ELEMENTS; i++)
        {
            if (!check.eq("broadcast", "ints", i, i + LOOPS, target.getLocal(i)))
            {
                break;
            }
        }
        shmem.barrierAll();
        shmem.free(target);
        shmem.free(source);
    }
}
