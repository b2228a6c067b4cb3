package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Every PE stores its number in two symmetric ints (the original's static variable becomes a typed
 * allocation, its heap object a malloc); for every PE, {@code ptr} must give a usable address for
 * this PE's own object, and where it gives one for a peer the peer's number is read through it. All
 * PEs of a job here share a node, so every pointer must be non-null.
 */
public final class ShmemPtr implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmem_ptr.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_ptr", "shmem_malloc");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricInts data = shmem.allocateInts(1);
        final var heap = shmem.malloc(4);
        data.setLocal(0, me);
        heap.asInts().setLocal(0, me);
        shmem.barrierAll();
        for (final var obj : List.of(data, heap))
        {
            for (int pe = 0; pe < n; pe++)
            {
                final MemorySegment p = shmem.ptr(obj, pe);
                // load/store reaches exactly TEAM_SHARED (the node's PEs by p2p; not PEs on other hosts)
                if (shmem.teamShared().teamPeOf(pe) < 0)
                {
                    check.isTrue(p == null, "shmem_ptr", obj + " on pe " + pe + " (not in TEAM_SHARED) gave a pointer");
                    continue;
                }
                if (check.isTrue(p != null, "shmem_ptr", obj + " on pe " + pe + " (TEAM_SHARED) gave null"))
                {
                    check.eq("shmem_ptr", "int via pointer", pe, pe, p.get(ValueLayout.JAVA_INT, 0));
                }
            }
        }
        shmem.barrierAll();
        shmem.free(heap);
        shmem.free(data);
    }
}
