package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Collect of ints: every PE contributes its number (one element) over WORLD; the even PEs do the same
 * over their strided team; then every PE p contributes p elements of value p + 1 (PE 0 none).
 */
public final class Collect extends CollProgram
{
    public Collect()
    {
        super("tests-sos test/unit/collect.c", List.of("shmem_collect", "shmem_team_split_strided"), forced("COLLECT", COLLECT));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final int me = shmem.myPe();
        final SymmetricInts src = shmem.allocateInts(Math.max(n, 1));
        final SymmetricInts dst = shmem.allocateInts((long)n * n);
        for (int i = 0; i < n; i++)
        {
            src.setLocal(i, -1);
        }
        for (int i = 0; i < n * n; i++)
        {
            dst.setLocal(i, -1);
        }
        shmem.barrierAll();
        check.section("every PE its number");
        src.setLocal(0, me);
        shmem.teamWorld().collect(dst, src, 1);
        for (int i = 0; i < n; i++)
        {
            check.eq("collect", "ints", i, i, dst.getLocal(i));
        }
        shmem.barrierAll();
        check.section("even PEs");
        final Team even = shmem.teamWorld().splitStrided(0, 2, n / 2 + n % 2);
        if (even.isValid())
        {
            even.collect(dst, src, 1);
            for (int i = 0; i < even.nPes(); i++)
            {
                check.eq("collect", "ints", i, 2 * i, dst.getLocal(i));
            }
        }
        even.close();
        shmem.barrierAll();
        check.section("PE p contributes p elements");
        for (int i = 0; i < me; i++)
        {
            src.setLocal(i, me + 1);
        }
        shmem.teamWorld().collect(dst, src, me);
        int idx = 0;
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < i; j++)
            {
                check.eq("collect", "ints", idx, i + 1, dst.getLocal(idx));
                idx++;
            }
        }
        shmem.barrierAll();
        shmem.free(dst);
        shmem.free(src);
    }
}
