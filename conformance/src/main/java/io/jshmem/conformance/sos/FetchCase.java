package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/** Every PE's target holds its number; each PE fetches its right neighbour's and gets that neighbour's number. */
abstract class FetchCase extends AtomicCase
{
    FetchCase(final String original)
    {
        super(original);
    }

    @Override
    final List<AtomicOp> ops()
    {
        return List.of(AtomicOp.FETCH);
    }

    @Override
    final void variant(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = "shmem_" + f;
        final SymmetricArray<?> remote = w.allocate(shmem, 1);
        w.setLocal(remote, 0, me);
        shmem.barrierAll();
        final long got = op(w, f, remote, 0, 0, (me + 1) % n);
        check.eq(r, w.name(), 0, (me + 1) % n, got);
        shmem.barrierAll();
        shmem.free(remote);
    }
}
