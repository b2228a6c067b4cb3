package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * A token ring of atomic set and fetch, for ints, longs, floats and doubles: every variable starts at
 * −1; PE 0 sets its own to n − 1; every PE spins on atomic fetch of its own variable until it is no
 * longer negative, then sets its right neighbour's to its number; each PE's variable ends holding its
 * left neighbour's number. (C's long long is a Java long; the original's symmetric statics are
 * allocations.)
 */
public final class SetFetch implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/set_fetch.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_set", "shmem_atomic_fetch");
    }

    private static void spin(final Check check, final String type, final java.util.function.DoubleSupplier fetch)
    {
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        while (fetch.getAsDouble() < 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                check.fatal("atomic_fetch (" + type + ") never saw the token");
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final SymmetricInts vi = shmem.allocateInts(1);
        final SymmetricLongs vl = shmem.allocateLongs(1);
        final SymmetricFloats vf = shmem.allocateFloats(1);
        final SymmetricDoubles vd = shmem.allocateDoubles(1);
        vi.setLocal(0, -1);
        vl.setLocal(0, -1);
        shmem.atomicSet(vf, 0, -1f, me);
        shmem.atomicSet(vd, 0, -1.0, me);
        shmem.barrierAll();

        if (me == 0)
        {
            shmem.atomicSet(vi, 0, n - 1, me);
        }
        spin(check, "ints", () -> shmem.atomicFetch(vi, 0, me));
        shmem.atomicSet(vi, 0, me, right);

        if (me == 0)
        {
            shmem.atomicSet(vl, 0, n - 1, me);
        }
        spin(check, "longs", () -> shmem.atomicFetch(vl, 0, me));
        shmem.atomicSet(vl, 0, me, right);

        if (me == 0)
        {
            shmem.atomicSet(vf, 0, n - 1, me);
        }
        spin(check, "floats", () -> shmem.atomicFetch(vf, 0, me));
        shmem.atomicSet(vf, 0, me, right);

        if (me == 0)
        {
            shmem.atomicSet(vd, 0, n - 1, me);
        }
        spin(check, "doubles", () -> shmem.atomicFetch(vd, 0, me));
        shmem.atomicSet(vd, 0, me, right);

        shmem.barrierAll();
        check.eq("shmem_atomic_set", "ints", 0, left, vi.getLocal(0));
        check.eq("shmem_atomic_set", "longs", 0, left, vl.getLocal(0));
        check.isTrue(shmem.atomicFetch(vf, 0, me) == left, "shmem_atomic_set", "floats: " + shmem.atomicFetch(vf, 0, me) + " != " + left);
        check.isTrue(shmem.atomicFetch(vd, 0, me) == left, "shmem_atomic_set", "doubles: " + shmem.atomicFetch(vd, 0, me) + " != " + left);
        shmem.barrierAll();
        shmem.free(vi);
        shmem.free(vl);
        shmem.free(vf);
        shmem.free(vd);
    }
}
