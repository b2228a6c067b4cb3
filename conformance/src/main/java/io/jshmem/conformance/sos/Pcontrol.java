package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Two profiling regions, each opened with {@code pcontrol(1)} and closed by a barrier. The original only
 * requires that the calls return (jshmem has no profiling layer, so every level is accepted and changes
 * nothing). The port also calls the other levels the specification names (0: off, 2: flush, 3:
 * library-defined, and a negative one) and checks that the library is still initialized and still
 * communicating after each region: every PE writes its number into its right neighbour's slot
 * before each region's barrier and reads the left neighbour's number after it.
 */
public final class Pcontrol implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/pcontrol.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_pcontrol", "shmem_query_initialized", "shmem_barrier_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final SymmetricInts slot = shmem.allocateInts(2);
        check.isTrue(Shmem.isInitialized(), "shmem_query_initialized", "false while the PE is initialized, before any pcontrol");
        for (int region = 1; region <= 2; region++)
        {
            Shmem.pcontrol(1);
            shmem.p(slot, region - 1, 100 * region + me, right);
            shmem.barrierAll();
            check.eq("shmem_pcontrol", "int (region " + region + ", from the left neighbour)", region - 1, 100 * region + left,
                slot.getLocal(region - 1));
            check.isTrue(Shmem.isInitialized(), "shmem_query_initialized", "false after profiling region " + region);
        }
        for (final int level : new int[] {0, 2, 3, -1, 1})
        {
            Shmem.pcontrol(level);
            check.isTrue(Shmem.isInitialized(), "shmem_pcontrol", "isInitialized false after pcontrol(" + level + ")");
        }
        shmem.barrierAll();
        shmem.free(slot);
    }
}
