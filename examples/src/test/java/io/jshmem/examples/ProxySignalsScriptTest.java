package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/plot/proxy_signals.py} on the {@code SIGNAL} lines of a two-PE job in ProxyTrace's format: each
 * signal paired with its target's apply, the stages' statistics, who framed and applied them, and the barrier rounds
 * between the two PEs with the excess of the last poster's signal.
 */
class ProxySignalsScriptTest
{
    /** Round k: PE 0 posts at 0 and 1 at 10 us (1 is the last poster); its signal's stages differ per round. */
    private static String round(final long base, final long framedAfterUs, final long appliedAfterUs)
    {
        final long us = 1000;
        return String.join("\n",
            "SIGNAL pe 0 posted 1 " + base + " caller",
            "SIGNAL pe 0 framed 1 " + (base + 5 * us) + " caller",
            "SIGNAL pe 1 applied 0 " + (base + 20 * us) + " caller",
            "SIGNAL pe 1 posted 0 " + (base + 10 * us) + " caller",
            "SIGNAL pe 1 framed 0 " + (base + (10 + framedAfterUs) * us) + " agent",
            "SIGNAL pe 0 applied 1 " + (base + (10 + framedAfterUs + appliedAfterUs) * us) + " agent", "");
    }

    @Test
    void pairsPostsWithAppliesAndFindsWhereARoundWaited(@TempDir final Path dir) throws Exception
    {
        final long ms = 1_000_000;
        final Path err = Files.writeString(dir.resolve("err.txt"), "[pe 0/2] proxy trace (median...):\n" +
            round(10 * ms, 10, 10) + "[1] a line of other output\n" + round(20 * ms, 3000, 10) + round(30 * ms, 10, 2000));
        final String out = PlotScript.run("proxy_signals.py", "--worst", "3", err.toString());
        assertTrue(out.contains("6 signals without data between 2 pairs of PEs"), out);
        // post -> framed: PE 1's three signals 10, 3000, 10 us, PE 0's 5, 5, 5 (nearest-rank median of the six: 10)
        assertTrue(out.contains("| post -> framed (sender) | 10.0 | 3000.0 | 3000.0 | 3000.0 | 1 |"), out);
        assertTrue(out.contains("Framed by the proxy thread 3, by a waiting caller 3; applied by the proxy thread 3, by a waiting caller 3."), out);
        // rounds: excess = PE 1's post -> applied (PE 0's signal was applied before): 20, 3010, 2010 us
        assertTrue(out.contains("PEs 0 and 1, 3 rounds (the k-th signal each way): excess over the later post, median 2010.0 µs, p90 3010.0, "
            + "max 3010.0; over 1 ms: 2, of them 1 held up at the last poster (post -> framed), 1 after it (framed -> applied)."), out);
        assertTrue(out.contains("| 1 | 3010.0 | 1 | 3000.0 | agent | 10.0 | agent |"), out);
        assertTrue(out.contains("| 2 | 2010.0 | 1 | 10.0 | agent | 2000.0 | agent |"), out);
    }
}
