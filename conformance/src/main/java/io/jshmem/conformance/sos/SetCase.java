package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/** Every PE sets its right neighbour's target to its own number; each then holds its left neighbour's number. */
abstract class SetCase extends AtomicCase
{
    SetCase(final String original)
    {
        super(original);
    }

    @Override
    final List<AtomicOp> ops()
    {
        return List.of(AtomicOp.SET);
    }

    @Override
    final void variant(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = "shmem_" + f;
        final SymmetricArray<?> remote = w.allocate(shmem, 1);
        w.setLocal(remote, 0, -7);
        shmem.barrierAll();
        op(w, f, remote, me, 0, (me + 1) % n);
        shmem.barrierAll();
        check.eq(r, w.name(), 0, (me + n - 1) % n, w.local(remote, 0));
        shmem.barrierAll();
        shmem.free(remote);
    }
}
