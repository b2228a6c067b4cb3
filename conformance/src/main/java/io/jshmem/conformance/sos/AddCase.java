package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/** Every PE adds me + 1 to every PE's zeroed target; each then holds n(n + 1)/2, and no fetched value exceeds it. */
abstract class AddCase extends AtomicCase
{
    AddCase(final String original)
    {
        super(original);
    }

    @Override
    final List<AtomicOp> ops()
    {
        return List.of(AtomicOp.ADD, AtomicOp.FETCH_ADD);
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
        final long total = w.norm((long)n * (n + 1) / 2);
        for (int pe = 0; pe < n; pe++)
        {
            final long old = op(w, f, remote, me + 1, 0, pe);
            if (f.op().fetches())
            {
                check.isTrue(old >= 0 && old <= total - (me + 1), r, "fetched " + old + " from pe " + pe + ", total " + total);
            }
        }
        shmem.barrierAll();
        check.eq(r, w.name(), 0, total, w.local(remote, 0));
        shmem.barrierAll();
        shmem.free(remote);
    }
}
