package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * PE 0 zeroes every other PE's target (last word 0xFF until then), fences, puts 1..10 and waits for
 * its pong word to exceed 666; the others wait for their last target word to leave 0xFF and then to
 * equal 10; PE 1 reads PE 0's pong (666) and sets it to 999; PE 0 then writes 0xDD into every other
 * PE's t2[9], which they wait for; their targets hold 1..10.
 */
public final class Waituntil implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/waituntil.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_wait_until", "shmem_put", "shmem_fence", "shmem_p", "shmem_g");
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
        final long[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        final SymmetricLongs target = shmem.allocateLongs(10);
        final SymmetricLongs pong = shmem.allocateLongs(1);
        final SymmetricLongs t2 = shmem.allocateLongs(10);
        pong.setLocal(0, 666);
        t2.setLocal(9, 0xFF);
        target.setLocal(9, 0xFF);
        shmem.barrierAll();
        if (me == 0)
        {
            final long[] zeros = new long[10];
            for (int pe = 1; pe < n; pe++)
            {
                shmem.put(target, 0, zeros, 0, 10, pe);
            }
            shmem.fence();
            for (int pe = 1; pe < n; pe++)
            {
                shmem.put(target, 0, source, 0, 10, pe);
            }
            pong.waitUntil(0, Cmp.GT, 666);
            check.eq("shmem_p", "pong", 0, 999, pong.getLocal(0));
            for (int pe = 1; pe < n; pe++)
            {
                shmem.p(t2, 9, 0xDD, pe);
            }
        }
        else
        {
            target.waitUntil(9, Cmp.NE, 0xFF);
            target.waitUntil(9, Cmp.EQ, 10);
            if (me == 1)
            {
                check.eq("shmem_g", "pong", 0, 666, shmem.g(pong, 0, 0));
                shmem.p(pong, 0, 999, 0);
            }
            t2.waitUntil(9, Cmp.NE, 0xFF);
            check.eq("shmem_p", "t2", 9, 0xDD, t2.getLocal(9));
            for (int i = 0; i < 10; i++)
            {
                check.eq("shmem_put", "longs", i, source[i], target.getLocal(i));
            }
        }
        shmem.barrierAll();
        shmem.free(t2);
        shmem.free(pong);
        shmem.free(target);
    }
}
