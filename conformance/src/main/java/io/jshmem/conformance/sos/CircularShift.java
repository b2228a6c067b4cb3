package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** Every PE gets its right neighbour's number with a one-element get. */
public final class CircularShift implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/circular_shift.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_get");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int right = (me + 1) % shmem.nPes();
        final SymmetricInts bbb = shmem.allocateInts(1);
        bbb.setLocal(0, me);
        shmem.barrierAll();
        final int[] aaa = {-1};
        shmem.get(aaa, 0, bbb, 0, 1, right);
        shmem.barrierAll();
        check.eq("shmem_get", "ints", 0, right, aaa[0]);
        shmem.free(bbb);
    }
}
