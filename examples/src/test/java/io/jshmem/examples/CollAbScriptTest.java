package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/plot/coll_ab.py}, the row-by-row A/B of {@code benchmarks/scale --collectives} reports, on two
 * small reports per side in their format: medians per side, rows where B is faster, the median ratio, the spread within
 * each side, and the cell chosen with {@code --cell} (an OSHMEM column).
 */
class CollAbScriptTest
{
    private static Path report(final Path dir, final String name, final String eightBytes, final String oneKib) throws Exception
    {
        return Files.writeString(dir.resolve(name), String.join("\n",
            "# benchmarks/scale --collectives", "", "### broadcast", "", "| size | N = 16 |", "|---|---:|",
            "| 8 B | " + eightBytes + " |", "| 1 KiB | " + oneKib + " |", "", "### Jobs", "",
            "| PEs | hosts | side | status |", "|---:|---:|---|---|", "| 16 | 2 | jshmem proxy | ok |", ""));
    }

    @Test
    void comparesTheSidesMediansRowByRow(@TempDir final Path dir) throws Exception
    {
        final String a1 = report(dir, "a1.md", "10.0 / 20 · **0.50x**", "20.0 / 30 · **0.67x**").toString();
        final String a2 = report(dir, "a2.md", "12.0 / 22 · **0.55x**", "24.0 / 32 · **0.75x**").toString();
        final String b1 = report(dir, "b1.md", "5.0 / 20 · **0.25x**", "40.0 / 30 · 1.33x").toString();
        final String b2 = report(dir, "b2.md", "6.0 / 26 · **0.23x**", "48.0 / 34 · 1.41x").toString();
        final String out = PlotScript.run("coll_ab.py", "--a", a1, a2, "--b", b1, b2, "--rows");
        // medians: A 11 and 22, B 5.5 and 44 -> 0.5 and 2.0; median 1.25, one row faster
        assertTrue(out.contains("| broadcast | 2 | 1 | 1.250 |"), out);
        assertTrue(out.contains("| all rows | 2 | 1 | 1.250 |"), out);
        assertTrue(out.contains("spread within A (slowest run / fastest, median over rows): 1.20"), out);
        assertTrue(out.contains("| broadcast | 8 B | N = 16 | 11 | 5.5 | 0.50 |"), out);
        final String oshmem = PlotScript.run("coll_ab.py", "--a", a1, a2, "--b", b1, b2, "--cell", "1");
        // OSHMEM's column: A 21 and 31, B 23 and 32 -> 1.095 and 1.032
        assertTrue(oshmem.contains("| all rows | 2 | 0 | 1.064 |"), oshmem);
    }

    @Test
    void readsJobsCollCsvInTheOlderTwoFileForm(@TempDir final Path dir) throws Exception
    {
        final Path old = Files.writeString(dir.resolve("old.csv"), "benchmark,size,unit,median,p10\nbroadcast,8,us,10,9\nbroadcast,1024,us,20,18\n");
        final Path changed = Files.writeString(dir.resolve("new.csv"), "benchmark,size,unit,median,p10\nbroadcast,8,us,5,4\nbroadcast,1024,us,40,38\n");
        final String out = PlotScript.run("coll_ab.py", changed.toString(), old.toString()); // the first file's time over the second's
        assertTrue(out.contains("A: " + old + "; B: " + changed), out);
        assertTrue(out.contains("| all rows | 2 | 1 | 1.250 |"), out);
    }
}
