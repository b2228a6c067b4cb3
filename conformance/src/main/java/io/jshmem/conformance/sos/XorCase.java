package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/** Every PE flips its own bit (bit me) of every PE's all-ones target; each then holds ~(2^n − 1), and every fetched value still had the PE's bit set. */
abstract class XorCase extends AtomicCase
{
    XorCase(final String original)
    {
        super(original);
    }

    @Override
    final List<AtomicOp> ops()
    {
        return List.of(AtomicOp.XOR, AtomicOp.FETCH_XOR);
    }

    @Override
    final void variant(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = "shmem_" + f;
        final SymmetricArray<?> remote = w.allocate(shmem, 1);
        w.setLocal(remote, 0, -1);
        shmem.barrierAll();
        final long bit = 1L << me;
        for (int pe = 0; pe < n; pe++)
        {
            final long old = op(w, f, remote, bit, 0, pe);
            if (f.op().fetches())
            {
                check.isTrue((old & bit) != 0, r, "fetched " + Long.toHexString(old) + " from pe " + pe + " lacks bit " + me);
            }
        }
        shmem.barrierAll();
        check.eq(r, w.name(), 0, w.norm(~((1L << n) - 1)), w.local(remote, 0));
        shmem.barrierAll();
        shmem.free(remote);
    }
}
