package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/plot/isx_exchange.py} on {@code isx --trace-exchange} lines of 4 PEs on 2 hosts: the table of the
 * hosts' release spread at each iteration's first barrier and the PEs' waits for a core at the barriers (the rq_ fields),
 * and none for a trace without them.
 */
class IsxExchangeScriptTest
{
    /** An EXCHANGE line; rq: run-queue wait so far at began, quieted, done, sorted, ended (ns), or null for an older trace. */
    private static String line(final int pe, final int it, final long began, final long[] rq)
    {
        final String head = "EXCHANGE pe " + pe + " it " + it + " start " + (began + 1000) + " exchange 10.0 quiet 1.0 barrier 2.0 began " +
            began + " zero 3.0 sort 4.0 last 5.0";
        return rq == null ? head : head + " ended " + (began + 9000) + " rq_began " + rq[0] + " rq_quieted " + rq[1] + " rq_done " + rq[2] +
            " rq_sorted " + rq[3] + " rq_ended " + rq[4];
    }

    @Test
    void namesTheLateHostAndWhoWaitedForACore(@TempDir final Path dir) throws Exception
    {
        final long ms = 1_000_000;
        final StringBuilder b = new StringBuilder();
        for (int pe = 0; pe < 4; pe++)
        {
            // iteration 0, then 1: host 2 (PEs 2 and 3) leaves the first barrier 3 ms after host 1; PE 2, host 2's first PE,
            // waited 2.5 ms for a core between iteration 0's sort and iteration 1's release, PE 1 4 ms in its barrier after the exchange
            b.append(line(pe, 0, 10 * ms, new long[] {0, 0, 0, 0, 0})).append('\n');
            final long late = pe >= 2 ? 3 * ms : 0;
            final long waited = pe == 2 ? 2_500_000 : 100_000;
            final long after = pe == 1 ? 4 * ms : 0;
            b.append(line(pe, 1, 100 * ms + late, new long[] {waited, waited, waited + after, waited + after, waited + after})).append('\n');
        }
        final Path err = Files.writeString(dir.resolve("err.txt"), b.toString());
        final String out = PlotScript.run("isx_exchange.py", "--per-host", "2", err.toString());
        assertTrue(out.contains("| 1 | 3.00 | 2 | 2.50 | 0.10 | 2.50 (2) | 4.00 (1) |"), out);
        final Path older = Files.writeString(dir.resolve("older.txt"), b.toString().lines().map(l -> l.substring(0, l.indexOf(" ended ")))
            .reduce("", (x, y) -> x + y + "\n"));
        assertFalse(PlotScript.run("isx_exchange.py", "--per-host", "2", older.toString()).contains("Waiting for a core"));
    }
}
