package io.jshmem.examples;

import io.jshmem.examples.isx.Isx;
import io.jshmem.launch.ShmemRun;
import io.jshmem.launch.TestHosts;
import io.jshmem.launch.TorchrunJob;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The isx example (ParRes ISx's integer sort) through the launcher users run, with a small key count so each job
 * takes seconds: 4 PEs on this host (p2p) with ISx's log file, 2+2 PEs on two test hosts (root only; the
 * inter-node transport SHMEM_TRANSPORT selects), and a corrupted key on one PE of 4, which must fail
 * verification and make every PE exit non-zero. Every PE must print its verdict and PE 0 the job's.
 */
class IsxIT
{
    @RegisterExtension
    static final TestHosts HOSTS = TestHosts.ownOr("jix", "10.114.0").upForClass(2);
    private static final int KEYS = 16384;


    @Test
    void verifiesOnFourPesWithIsxsLog(@TempDir final Path dir) throws Exception
    {
        final Path log = dir.resolve("isx.log");
        final Set<String> before = heapFiles();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final int status = ShmemRun.run(new String[] {"-np", "4", "--tag-output", "-cp", System.getProperty("java.class.path"),
            "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "isx", Integer.toString(KEYS), "2", log.toString()}, ps, ps);
        final String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        assertPassed(out, 4);
        assertEquals(List.of(), leftoverHeapFiles(before), "heap files left in /dev/shm");
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(List.of(), ProcessHandle.current().descendants().map(ProcessHandle::info).toList(), "PE processes left");
        for (final String row : List.of("TOTAL", "ATA_KEYS", "MAKE_INPUT", "COUNT_BUCKET_SIZES", "BUCKETIZE", "COMPUTE_OFFSETS", "LOCAL_SORT"))
        {
            assertTrue(out.lines().anyMatch(l -> l.matches("\\[pe 0\\]   " + row + " +[0-9.]+ +[0-9.]+")), row + " row:\n" + out);
        }
        assertTrue(out.contains("[pe 0]   Number of Keys per PE: " + KEYS) && out.contains("[pe 0]   WEAK Scaling!"), out);
        assertTrue(out.contains("[pe 0] Average total time (per PE): ") && out.contains("[pe 0] Average all2all time (per PE): "), out);
        final List<String> lines = Files.readAllLines(log);
        assertTrue(lines.get(0).startsWith("SHMEM\tNUM_PES 4\tMax_Key 268435456\tNum_Iters 2\tWeak Scaling: " + KEYS + " keys per PE"), lines.get(0));
        assertTrue(lines.get(1).startsWith("TOTAL (sec)\tATA_KEYS (sec)\tATA_KEYS_COUNTS\tMAKE_INPUT (sec)"), lines.get(1));
        assertEquals(2 + 4 * 2, lines.size(), "a header, the column names and a row per PE and timed iteration:\n" + lines);
        for (final String row : lines.subList(2, lines.size()))
        {
            assertEquals(8, row.split("\t").length, row);
        }
    }

    @Test
    void verifiesOnTwoPlusTwoTestHosts() throws Exception
    {
        final HostJobs jobs = new HostJobs(HOSTS);
        final HostJobs.Job job = jobs.run("--hosts", HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", "isx", "--trace-exchange",
            Integer.toString(KEYS), "2", "-");
        assertEquals(0, job.status(), job.output());
        assertPassed(job.output(), 4);
        jobs.noHeapFiles(2);
        // --trace-exchange: every PE, every round (the burn-in and 2 timed), its 3 fetch-adds in ISx's order (lines tagged by the launcher),
        // and the main thread's wait for a core read at the barriers (not -1: Linux has /proc/thread-self/schedstat)
        for (int pe = 0; pe < 4; pe++)
        {
            for (int it = 0; it < 3; it++)
            {
                final String head = "EXCHANGE pe " + pe + " it " + it + " start ";
                assertTrue(job.output().lines().anyMatch(l -> l.contains(head) && l.matches(".* exchange [0-9.]+ quiet [0-9.]+ barrier [0-9.]+ began [0-9]+ zero [0-9.]+ sort [0-9.]+ last [0-9.]+ " +
                    "ended [0-9]+ rq_began [0-9]+ rq_quieted [0-9]+ rq_done [0-9]+ rq_sorted [0-9]+ rq_ended [0-9]+")),
                    head + ":\n" + job.output());
                for (int step = 1; step < 4; step++)
                {
                    final String fadd = "FADD pe " + pe + " it " + it + " step " + step + " target " + (pe + step) % 4 + " us ";
                    assertTrue(job.output().lines().anyMatch(l -> l.contains(fadd)), fadd + ":\n" + job.output());
                }
            }
        }
    }

    /** A key corrupted on PE 2 after the sort: PE 2 reports it, PE 0 reports the job failed, and every PE exits 1. */
    @Test
    void aBadKeyFailsVerificationAndEveryPeExitsNonZero() throws Exception
    {
        final int n = 4;
        final String runId = "isx-it-" + ProcessHandle.current().pid();
        try (TorchrunJob job = new TorchrunJob(n, Isx.class, Map.of("TORCHELASTIC_RUN_ID", runId), "--inject-fault", "2",
            Integer.toString(KEYS)))
        {
            assertTrue(job.awaitAll(60, TimeUnit.SECONDS), () -> "a PE still runs 60 s after start:\n" + job.all());
            for (int rank = 0; rank < n; rank++)
            {
                assertNotEquals(0, job.exitValue(rank), "PE " + rank + " exited 0:\n" + job.all());
                final String verdict = "pe " + rank + "/" + n + ": ISx verification " + (rank == 2 ? "FAIL: 1 keys outside" : "PASS: ");
                assertTrue(job.output(rank).contains(verdict), "PE " + rank + " prints '" + verdict + "':\n" + job.all());
            }
            assertTrue(job.output(0).contains("ISx verification: FAIL on 4 PEs: " + n * KEYS + " of " + n * KEYS
                + " keys after the exchange, 1 PEs failed their checks"), job.all());
        }
        assertEquals(List.of(), heapFiles().stream().filter(f -> f.contains(runId)).toList(), "heap files left in /dev/shm");
    }

    private static void assertPassed(final String out, final int n)
    {
        for (int r = 0; r < n; r++)
        {
            final String want = "[pe " + r + "] pe " + r + "/" + n + ": ISx verification PASS: ";
            assertTrue(out.lines().anyMatch(l -> l.startsWith(want)), "PE " + r + ":\n" + out);
        }
        final long total = (long)n * KEYS;
        assertTrue(out.contains("[pe 0] ISx verification: PASS on " + n + " PEs: " + total + " of " + total
            + " keys after the exchange, 0 PEs failed their checks"), out);
        assertTrue(!out.contains("FAIL"), out);
    }

    /** Heap files in this host's /dev/shm. */
    private static Set<String> heapFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(Path.of("/dev/shm")))
        {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("jshmem-") && f.endsWith(".heap"))
                .collect(Collectors.toSet());
        }
    }

    /**
     * Heap files that appeared since {@code before} and that no live process maps: this job's leftovers (another
     * engineer's job running on this host at the same time maps its files).
     */
    private static List<String> leftoverHeapFiles(final Set<String> before) throws Exception
    {
        List<String> left = List.of();
        for (int i = 0; i < 50; i++)
        {
            final Set<String> fresh = new HashSet<>(heapFiles());
            fresh.removeAll(before);
            final Set<String> mapped = new HashSet<>();
            try (Stream<Path> procs = Files.list(Path.of("/proc")))
            {
                for (final Path proc : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList())
                {
                    try
                    {
                        Files.readAllLines(proc.resolve("maps")).forEach(l -> fresh.stream().filter(l::endsWith).forEach(mapped::add));
                    }
                    catch (final IOException gone)
                    {
                        // the process ended while we looked
                    }
                }
            }
            fresh.removeAll(mapped);
            left = fresh.stream().sorted().toList();
            if (left.isEmpty())
            {
                return left;
            }
            Thread.sleep(100);
        }
        return left;
    }
}
