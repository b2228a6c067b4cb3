package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/** Every PE increments every PE's zeroed target; each then holds n, and every fetched value is below n. */
abstract class IncCase extends AtomicCase
{
    IncCase(final String original)
    {
        super(original);
    }

    @Override
    final List<AtomicOp> ops()
    {
        return List.of(AtomicOp.INC, AtomicOp.FETCH_INC);
    }

    @Override
    final void variant(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = "shmem_" + f;
        final SymmetricArray<?> remote = w.allocate(shmem, 1);
        w.setLocal(remote, 0, 0);
        shmem.barrierAll();
        for (int pe = 0; pe < n; pe++)
        {
            final long old = op(w, f, remote, 0, 0, pe);
            if (f.op().fetches())
            {
                check.isTrue(old >= 0 && old < n, r, "fetched " + old + " from pe " + pe);
            }
        }
        shmem.barrierAll();
        check.eq(r, w.name(), 0, n, w.local(remote, 0));
        shmem.barrierAll();
        shmem.free(remote);
    }
}
