package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Ping-pong between PE pairs (p, p xor 1; a PE without a partner idles): each round one side puts 128
 * words (1000 + (i mod 256)) into the partner's buffer and the partner, waiting for the last word,
 * clears it and answers; 200 round trips (the original's 1000 is a latency run). The port checks every
 * word of each received message.
 */
public final class Sping implements Program
{
    private static final int WORDS = 128;
    private static final int REPS = 200;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/sping.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_wait_until", "shmem_malloc");
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
        final int peer = me ^ 1;
        final SymmetricLongs rbuf = shmem.allocateLongs(WORDS);
        final long[] tbuf = new long[WORDS];
        for (int i = 0; i < WORDS; i++)
        {
            tbuf[i] = 1000 + (i & 255);
        }
        shmem.barrierAll();
        if (peer < shmem.nPes())
        {
            int r = REPS;
            if ((me & 1) != 0)
            {
                r--;
                receive(check, rbuf, tbuf);
            }
            while (r-- > 0)
            {
                shmem.put(rbuf, 0, tbuf, 0, WORDS, peer);
                receive(check, rbuf, tbuf);
            }
            if ((me & 1) != 0)
            {
                shmem.put(rbuf, 0, tbuf, 0, WORDS, peer);
            }
        }
        shmem.barrierAll();
        shmem.free(rbuf);
    }

    private static void receive(final Check check, final SymmetricLongs rbuf, final long[] expect)
    {
        rbuf.waitUntil(WORDS - 1, Cmp.NE, 0);
        for (int i = 0; i < WORDS; i++)
        {
            if (!check.eq("shmem_put", "longs", i, expect[i], rbuf.getLocal(i)))
            {
                break;
            }
        }
        rbuf.setLocal(WORDS - 1, 0);
    }
}
