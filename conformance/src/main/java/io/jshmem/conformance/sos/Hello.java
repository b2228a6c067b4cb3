package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** Every PE learns its number and the job's size, and they agree (each PE writes its view to PE 0's slot table). */
public final class Hello implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/hello.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init", "shmem_my_pe", "shmem_n_pes", "shmem_finalize");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        check.isTrue(n >= 1, "shmem_n_pes", "n_pes=" + n);
        check.isTrue(me >= 0 && me < n, "shmem_my_pe", "my_pe=" + me + " n_pes=" + n);
        final SymmetricInts seen = shmem.allocateInts(2L * n);
        shmem.p(seen, 2L * me, me, 0);
        shmem.p(seen, 2L * me + 1, n, 0);
        shmem.barrierAll();
        if (me == 0)
        {
            for (int pe = 0; pe < n; pe++)
            {
                check.eq("shmem_my_pe", "int", pe, pe, seen.getLocal(2L * pe));
                check.eq("shmem_n_pes", "int", pe, n, seen.getLocal(2L * pe + 1));
            }
        }
        shmem.free(seen);
    }
}
