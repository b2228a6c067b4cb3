package io.jshmem.examples.stress;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 24's synchronization stress at the size CI affords (under a minute on two cores): short {@link SyncStorm}
 * jobs, 1+1 and 2+2 on two test hosts over {@code SHMEM_TRANSPORT=p2p,ucx} (UCX over tcp), each a few hundred
 * barrier_all / sync_all / team syncs with puts, gets, atomics, signals and put floods between them, every result
 * checked; a collective timeout of 30 s turns a hang into a named failure. Every job must end well. The full size
 * (hundreds of jobs) is {@code SyncStress} from the command line (docs/transports.md).
 */
class SyncStressIT
{
    @RegisterExtension
    static final TestHosts HOSTS = TestHosts.ownOr("jsst", "10.98.0").upForClass(2);



    @Test
    void everyShortUcxJobOfBarrierStormsEndsWell() throws Exception
    {
        final Path out = Files.createTempDirectory("sync-stress-it");
        final SyncStress.Options o = SyncStress.parse(new String[] {"--jobs", "4", "--layouts", "1+1,2+2", "--rounds", "80",
            "--collective-timeout-ms", "30000", "--job-timeout", "120", "--hosts-prefix", HOSTS.prefix, "--hosts-net", HOSTS.net,
            "--out", out.toString(), "--seed", Long.toString(System.currentTimeMillis() % 1000)});
        final ByteArrayOutputStream lines = new ByteArrayOutputStream();
        final SyncStress.Summary s;
        try (PrintStream ps = new PrintStream(lines, true, StandardCharsets.UTF_8))
        {
            s = SyncStress.run(o, ps);
        }
        final StringBuilder why = new StringBuilder(lines.toString(StandardCharsets.UTF_8));
        try (var logs = Files.list(out))
        {
            for (final Path log : logs.sorted().toList())
            {
                final String text = Files.readString(log);
                why.append("\n==== ").append(log.getFileName()).append('\n')
                    .append(text.length() > 20_000 ? text.substring(0, 20_000) + "\n..." : text);
            }
        }
        assertEquals(s.jobs(), s.ok(), why.toString());
        assertEquals(4, s.jobs(), why.toString());
    }
}
