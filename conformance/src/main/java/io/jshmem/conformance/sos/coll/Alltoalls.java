package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Strided alltoall over the same strided teams as {@link Alltoall}, each with five stride cases:
 * (dst, sst, count) = (1, 1, 1) like alltoall, (1, 1, 0) no-op, (2, 2, 8) alternate elements,
 * (2, 1, 8) and (1, 2, 7) with different strides. Every element of dest is checked: the elements
 * the strides address hold the sender's WORLD number, the rest (and non-members' dest) stay -1.
 */
public final class Alltoalls extends CollProgram
{
    private static final int NELEM = 16;

    public Alltoalls()
    {
        super("tests-sos test/unit/alltoalls.c", List.of("shmem_alltoalls", "shmem_team_split_strided", "shmem_team_destroy"),
            forced("ALLTOALL", ALLTOALL));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricInts in = shmem.allocateInts((long)NELEM * n);
        final SymmetricInts out = shmem.allocateInts((long)NELEM * n);
        final int[][] teams = n > 1
            ? new int[][] {{0, 1, n}, {0, 13, 1}, {0, 2, (n + 1) / 2}, {0, 1, n - 1}, {1, 1, n - 1}, {1, 2, n / 2}}
            : new int[][] {{0, 1, n}, {0, 13, 1}, {0, 2, (n + 1) / 2}};
        final int[][] shapes = {{1, 1, 1}, {1, 1, 0}, {2, 2, NELEM / 2}, {2, 1, NELEM / 2}, {1, 2, NELEM / 2 - 1}};
        for (final int[] t : teams)
        {
            for (final int[] s : shapes)
            {
                one(shmem, check, in, out, s[0], s[1], s[2], t[0], t[1], t[2]);
            }
        }
        shmem.free(out);
        shmem.free(in);
    }

    private static void one(final Shmem shmem, final Check check, final SymmetricInts in, final SymmetricInts out,
        final int dst, final int sst, final int nelem, final int start, final int stride, final int size)
    {
        final int n = shmem.nPes();
        final int me = shmem.myPe();
        check.section("dst=" + dst + " sst=" + sst + " nelem=" + nelem + " team (" + start + ", " + stride + ", " + size + ")");
        for (int i = 0; i < NELEM * n; i++)
        {
            in.setLocal(i, me);
            out.setLocal(i, -1);
        }
        shmem.barrierAll();
        final Team team = shmem.teamWorld().splitStrided(start, stride, size);
        if (team.isValid())
        {
            team.alltoalls(out, in, dst, sst, nelem);
        }
        final boolean[] written = new boolean[NELEM * n];
        final int[] from = new int[NELEM * n];
        if (team.isValid())
        {
            for (int i = 0; i < size; i++)
            {
                for (int k = 0; k < nelem; k++)
                {
                    final int idx = dst * (i * nelem + k);
                    written[idx] = true;
                    from[idx] = start + i * stride;
                }
            }
        }
        for (int idx = 0; idx < NELEM * n; idx++)
        {
            check.eq("alltoalls", "ints", idx, written[idx] ? from[idx] : -1, out.getLocal(idx));
        }
        team.close();
    }
}
