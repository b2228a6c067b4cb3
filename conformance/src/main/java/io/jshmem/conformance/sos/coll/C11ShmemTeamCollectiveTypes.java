package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The generic (C11 {@code _Generic}) broadcast, collect, fcollect, alltoall and alltoalls over WORLD,
 * for every Java element type and raw memory (C's 24 types fold onto them: signed and unsigned of
 * one width are the same bits; long double has no Java type and is covered by doubles). The source
 * holds 32 copies of the PE's number: broadcast from the last PE gives nPes-1 on every other PE,
 * collect and fcollect give element i = i / 32, alltoall(s) of one element gives element i = i.
 */
public final class C11ShmemTeamCollectiveTypes extends CollProgram
{
    private static final int MAX_NPES = 32;

    public C11ShmemTeamCollectiveTypes()
    {
        super("tests-sos test/unit/c11_shmem_team_collective_types.c",
            List.of("shmem_broadcast", "shmem_collect", "shmem_fcollect", "shmem_alltoall", "shmem_alltoalls"),
            forced("BROADCAST", BROADCAST, "COLLECT", COLLECT, "FCOLLECT", COLLECT, "ALLTOALL", ALLTOALL));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        for (final String op : new String[] {"broadcast", "collect", "fcollect", "alltoall", "alltoalls"})
        {
            for (final Num<?> t : List.of(Num.FLOATS, Num.DOUBLES, Num.BYTES, Num.SHORTS, Num.INTS, Num.LONGS, Num.CHARS, Num.MEMORY))
            {
                one(shmem, check, op, t);
            }
        }
    }

    private static <A> void one(final Shmem shmem, final Check check, final String op, final Num<A> t)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final Team world = shmem.teamWorld();
        final SymmetricArray<A> src = t.alloc(shmem, MAX_NPES);
        final SymmetricArray<A> dest = t.alloc(shmem, (long)MAX_NPES * n);
        t.fill(src, MAX_NPES, me);
        shmem.barrierAll();
        switch (op)
        {
            case "broadcast" -> world.broadcast(dest, src, MAX_NPES, n - 1);
            case "collect" -> world.collect(dest, src, MAX_NPES);
            case "fcollect" -> world.fcollect(dest, src, MAX_NPES);
            case "alltoall" -> world.alltoall(dest, src, 1);
            default -> world.alltoalls(dest, src, 1, 1, 1);
        }
        shmem.barrierAll();
        switch (op)
        {
            case "broadcast" ->
            {
                for (int i = 0; i < MAX_NPES; i++)
                {
                    check.eq(op, t.name(), i, n - 1, t.get(dest, i));
                }
            }
            case "collect", "fcollect" ->
            {
                for (int i = 0; i < MAX_NPES * n; i++)
                {
                    check.eq(op, t.name(), i, i / MAX_NPES, t.get(dest, i));
                }
            }
            default ->
            {
                for (int i = 0; i < n; i++)
                {
                    check.eq(op, t.name(), i, i, t.get(dest, i));
                }
            }
        }
        shmem.free(dest);
        shmem.free(src);
    }
}
