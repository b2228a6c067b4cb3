package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/** Every PE's target starts at n; each PE swaps its number into its right neighbour's; each then holds its left neighbour's number and every fetched value is n. */
abstract class SwapCase extends AtomicCase
{
    SwapCase(final String original)
    {
        super(original);
    }

    @Override
    final List<AtomicOp> ops()
    {
        return List.of(AtomicOp.SWAP);
    }

    @Override
    final void variant(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = "shmem_" + f;
        final SymmetricArray<?> remote = w.allocate(shmem, 1);
        w.setLocal(remote, 0, n);
        shmem.barrierAll();
        final long old = op(w, f, remote, me, 0, (me + 1) % n);
        shmem.barrierAll();
        check.eq(r, w.name() + " target", 0, (me + n - 1) % n, w.local(remote, 0));
        check.eq(r, w.name() + " fetched", 0, n, old);
        shmem.barrierAll();
        shmem.free(remote);
    }
}
