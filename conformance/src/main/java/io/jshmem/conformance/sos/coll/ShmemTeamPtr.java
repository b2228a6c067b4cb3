package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * team_ptr on WORLD and on the team of odd PEs: for every team PE, a non-null pointer must show that
 * PE's number stored in its copy (WORLD number for WORLD, team number for the team), and this PE's
 * own pointer must not be null. The original checks a static variable and a heap object; Java has
 * only symmetric allocations, so the port checks two objects, one allocated before the team and one
 * after it. On one node every pointer must be non-null (the port counts them).
 */
public final class ShmemTeamPtr extends CollProgram
{
    public ShmemTeamPtr()
    {
        super("tests-sos test/unit/shmem_team_ptr.c", "shmem_team_ptr", "shmem_team_split_strided", "shmem_team_my_pe", "shmem_sync",
            "shmem_sync_all", "shmem_team_destroy");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricInts worldData = shmem.allocateInts(1);
        worldData.setLocal(0, me);
        shmem.barrierAll();
        peers(check, shmem.teamShared(), shmem.teamWorld(), worldData, "WORLD, first object");
        shmem.barrierAll();
        final SymmetricInts worldHeap = shmem.allocateInts(1);
        worldHeap.setLocal(0, me);
        shmem.syncAll();
        peers(check, shmem.teamShared(), shmem.teamWorld(), worldHeap, "WORLD, second object");
        shmem.barrierAll();
        final Team odd = shmem.teamWorld().splitStrided(1, 2, n / 2);
        final SymmetricInts teamData = shmem.allocateInts(1);
        if (odd.isValid())
        {
            teamData.setLocal(0, odd.myPe());
            odd.sync();
            peers(check, shmem.teamShared(), odd, teamData, "odd team, object allocated before the team");
        }
        final SymmetricInts teamHeap = shmem.allocateInts(1);
        if (odd.isValid())
        {
            teamHeap.setLocal(0, odd.myPe());
            odd.sync();
            peers(check, shmem.teamShared(), odd, teamHeap, "odd team, object allocated after the team");
            odd.sync();
        }
        odd.close();
        shmem.barrierAll();
        shmem.free(teamHeap);
        shmem.free(teamData);
        shmem.free(worldHeap);
        shmem.free(worldData);
    }

    private static void peers(final Check check, final Team sharedTeam, final Team team, final SymmetricInts obj, final String what)
    {
        int mapped = 0;
        int shared = 0;
        for (int i = 0; i < team.nPes(); i++)
        {
            if (team.translatePe(i, sharedTeam) >= 0)
            {
                shared++; // load/store reaches exactly the PEs of TEAM_SHARED
            }
            final MemorySegment p = team.ptr(obj, i);
            if (p != null)
            {
                mapped++;
                check.eq("team_ptr", what, i, i, p.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            }
            else
            {
                check.isTrue(i != team.myPe(), "team_ptr", what + ": null for this PE itself");
            }
        }
        check.eq("team_ptr", what + ": peers mapped = members in TEAM_SHARED", shared, mapped);
    }
}
