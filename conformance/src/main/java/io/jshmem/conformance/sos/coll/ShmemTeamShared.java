package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLock;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * SHARED's size equals the number of WORLD PEs that translate into it; under a lock each PE prints
 * its SHARED peers. The port also checks that this PE is among them, that every peer is reachable by
 * load/store ({@code ptr} non-null), and, that SHARED lies inside NODE.
 */
public final class ShmemTeamShared extends CollProgram
{
    public ShmemTeamShared()
    {
        super("tests-sos test/unit/shmem_team_shared.c",
            "shmem_team_n_pes", "shmem_team_translate_pe", "shmem_set_lock", "shmem_clear_lock", "shmem_ptr");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final Team shared = shmem.teamShared();
        final Team world = shmem.teamWorld();
        final SymmetricLock lock = shmem.allocateLock();
        final StringBuilder peers = new StringBuilder();
        int numPeers = 0;
        final io.jshmem.SymmetricLongs probe = shmem.allocateLongs(1);
        for (int i = 0; i < shmem.nPes(); i++)
        {
            if (world.translatePe(i, shared) != -1)
            {
                numPeers++;
                peers.append(i).append(' ');
                check.isTrue(shmem.ptr(probe, i) != null, "ptr", "SHARED peer " + i + " reachable by load/store");
            }
        }
        lock.set();
        System.out.println("  [pe " + shmem.myPe() + "] SHMEM_TEAM_SHARED peers: { " + peers + "} (num_peers: " + numPeers + ")");
        System.out.flush();
        lock.clear();
        check.eq("team_n_pes", "SHARED size vs members found", shared.nPes(), numPeers);
        check.isTrue(world.translatePe(shmem.myPe(), shared) == shared.myPe(), "team_translate_pe", "this PE in SHARED");
        // every PE of a node maps the others unless SHMEM_TRANSPORT leaves p2p out: SHARED lies inside NODE
        check.isTrue(shared.nPes() <= shmem.teamNode().nPes(), "team_n_pes", "SHARED (" + shared.nPes() + ") larger than NODE (" +
            shmem.teamNode().nPes() + ")");
        shmem.barrierAll();
        shmem.free(probe);
        shmem.free(lock);
    }
}
