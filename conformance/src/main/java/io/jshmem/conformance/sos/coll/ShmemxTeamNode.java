package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLock;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

/**
 * SOS's SHMEMX_TEAM_NODE ({@code Shmem.teamNode()}): its size equals the number of WORLD PEs that
 * translate into it (counted under a lock, as the original). The port also checks this PE is in it,
 * that every node peer in SHARED maps by {@code ptr}, and that NODE holds SHARED.
 */
public final class ShmemxTeamNode extends CollProgram
{
    public ShmemxTeamNode()
    {
        super("tests-sos test/shmemx/shmemx_team_node.c", "shmem_team_n_pes", "shmem_team_translate_pe", "shmem_set_lock",
            "shmem_clear_lock", "shmem_ptr");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final Team node = shmem.teamNode();
        final Team world = shmem.teamWorld();
        final SymmetricLock lock = shmem.allocateLock();
        final io.jshmem.SymmetricLongs probe = shmem.allocateLongs(1);
        int numPeers = 0;
        lock.set();
        for (int i = 0; i < shmem.nPes(); i++)
        {
            if (world.translatePe(i, node) != -1)
            {
                numPeers++;
                if (shmem.teamShared().teamPeOf(i) >= 0)
                {
                    check.isTrue(shmem.ptr(probe, i) != null, "ptr", "NODE peer " + i + " in SHARED reachable by load/store");
                }
            }
        }
        lock.clear();
        check.eq("team_n_pes", "NODE size vs members found", node.nPes(), numPeers);
        check.eq("team_translate_pe", "this PE in NODE", node.myPe(), world.translatePe(shmem.myPe(), node));
        check.isTrue(node.nPes() >= shmem.teamShared().nPes(), "team_n_pes", "NODE (" + node.nPes() + ") smaller than SHARED (" +
            shmem.teamShared().nPes() + ")");
        shmem.barrierAll();
        shmem.free(probe);
        shmem.free(lock);
    }
}
