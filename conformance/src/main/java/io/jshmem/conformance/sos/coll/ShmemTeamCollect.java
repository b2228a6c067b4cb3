package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLock;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The spec's collect example: PE me contributes me + 1 ints continuing the sequence, so dest holds
 * 0, 1, ..., nPes(nPes+1)/2 - 1; each PE prints it under a lock.
 */
public final class ShmemTeamCollect extends CollProgram
{
    public ShmemTeamCollect()
    {
        super("tests-sos test/spec-example/shmem_team_collect.c", List.of("shmem_sync", "shmem_collect", "shmem_set_lock",
            "shmem_clear_lock"), forced("COLLECT", COLLECT));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int myNelem = me + 1;
        final int total = n * (n + 1) / 2;
        final SymmetricLock lock = shmem.allocateLock();
        final SymmetricInts source = shmem.allocateInts(n);
        final SymmetricInts dest = shmem.allocateInts(total);
        for (int i = 0; i < myNelem; i++)
        {
            source.setLocal(i, me * (me + 1) / 2 + i);
        }
        for (int i = 0; i < total; i++)
        {
            dest.setLocal(i, -9999);
        }
        shmem.teamWorld().sync();
        shmem.teamWorld().collect(dest, source, myNelem);
        final StringBuilder line = new StringBuilder("  " + me + ":");
        for (int i = 0; i < total; i++)
        {
            line.append(i == 0 ? " " : ", ").append(dest.getLocal(i));
            check.eq("collect", "ints", i, i, dest.getLocal(i));
        }
        lock.set();
        System.out.println(line);
        System.out.flush();
        lock.clear();
        shmem.barrierAll();
        shmem.free(dest);
        shmem.free(source);
        shmem.free(lock);
    }
}
