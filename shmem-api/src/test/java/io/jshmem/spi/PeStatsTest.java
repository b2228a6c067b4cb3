package io.jshmem.spi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PeStatsTest
{
    private static String name(final int id)
    {
        return switch (id)
        {
            case 1 -> "p2p";
            case 2 -> "proxy";
            default -> "t" + id;
        };
    }

    @Test
    void emptyCountersSayNothingHappened()
    {
        assertEquals("no one-sided operations; waits: none blocked; collectives: 0", new PeStats().format(PeStatsTest::name));
    }

    @Test
    void countsPerTransportClassKindWaitsAndCollectives()
    {
        final PeStats s = new PeStats();
        s.op(1, PeStats.PUT, 8);
        s.op(1, PeStats.PUT, 16);
        s.op(2, PeStats.AMO, 8);
        s.op(2, PeStats.GET, 4096);
        s.waited("wait_until", 1_500_000);
        s.waited("wait_until", 500_000);
        s.waited("quiet", 250_000);
        s.collective("sync");
        s.collective("sync");
        s.collective("reduce");
        assertEquals("p2p: put 2 ops 24 B; proxy: get 1 ops 4096 B, amo 1 ops 8 B; "
                + "waits: quiet 1 (0.250 ms) wait_until 2 (2.000 ms); collectives: 3 (reduce 1, sync 2)",
            s.format(PeStatsTest::name));
    }
}
