package io.jshmem.bootstrap;

import io.jshmem.ShmemInitException;
import org.junit.jupiter.api.Test;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecurityTest
{
    @org.junit.jupiter.api.AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 100 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    @Test
    void wrongSecretIsRejectedAndTheJobStillForms() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            final UniqueId forged = UniqueId.of(UniqueId.randomSecret(), job.root.uniqueId().rootAddress());
            final ShmemInitException ex = assertThrows(ShmemInitException.class,
                () -> UidBootstrap.connect(forged, 1, 2, job.settings));
            assertTrue(ex.getMessage().contains("failed to prove it knows the job secret"), ex.getMessage());
            assertTrue(ex.getMessage().startsWith("[pe 1/2] bootstrap:"), ex.getMessage());
            waitForLog(job, 1);
            assertEquals(1, job.log.size(), job.log.toString());
            assertTrue(job.log.get(0).startsWith("bootstrap: root: dropped connection from"), job.log.get(0));
            final List<UidBootstrap> pes = job.form();
            job.each(pes, b ->
            {
                b.barrier();
                return null;
            });
        }
    }

    @Test
    void strangersAreDroppedWithOneLineEachWhileTheJobGoesOn() throws Exception
    {
        try (TestJob job = new TestJob(3, 10_000_000_000L, 1_000_000_000L, s -> s.withHandshakeTimeoutNs(1_000_000_000L)))
        {
            final List<UidBootstrap> pes = job.form();
            final List<InetSocketAddress> targets = List.of(job.root.uniqueId().rootAddress(),
                new InetSocketAddress("127.0.0.1", pes.get(1).listenerPort()));
            final List<Socket> silent = new ArrayList<>();
            for (final InetSocketAddress t : targets)
            {
                send(t, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)); // garbage
                send(t, new byte[] {0, 0, 0, 100, 1, 2, 3});                                  // truncated frame
                send(t, new byte[] {0x7f, (byte)0xff, (byte)0xff, (byte)0xff, 1});            // huge length prefix
                final Socket s = new Socket();
                s.connect(t);                                                                  // nothing at all
                silent.add(s);
            }
            // the job runs while the strangers are around, even while the silent ones hang on
            for (int i = 0; i < 20; i++)
            {
                final int iter = i;
                job.each(pes, b ->
                {
                    b.barrier();
                    assertEquals(3, b.allgather(new byte[] {(byte)iter}).length);
                    return null;
                });
            }
            waitForLog(job, 8);
            Thread.sleep(200);
            assertEquals(8, job.log.size(), String.join("\n", job.log));
            long rootLines = job.log.stream().filter(l -> l.startsWith("bootstrap: root: dropped connection from")).count();
            long peLines = job.log.stream().filter(l -> l.startsWith("[pe 1/3] bootstrap: dropped connection from")).count();
            assertEquals(4, rootLines, String.join("\n", job.log));
            assertEquals(4, peLines, String.join("\n", job.log));
            assertTrue(job.log.stream().anyMatch(l -> l.contains("silent past the handshake deadline")), String.join("\n", job.log));
            assertTrue(job.log.stream().anyMatch(l -> l.contains("outside 1..512")), String.join("\n", job.log));
            assertTrue(job.log.stream().anyMatch(l -> l.contains("truncated")), String.join("\n", job.log));
            for (final Socket s : silent)
            {
                s.close();
            }
            for (final UidBootstrap b : pes)
            {
                assertNull(b.failure());
            }
            job.each(pes, b ->
            {
                b.barrier();
                return null;
            });
        }
    }

    private static void send(final InetSocketAddress target, final byte[] bytes) throws IOException
    {
        try (Socket s = new Socket())
        {
            s.connect(target);
            final OutputStream out = new DataOutputStream(s.getOutputStream());
            out.write(bytes);
            out.flush();
        }
    }

    static void waitForLog(final TestJob job, final int lines) throws InterruptedException
    {
        for (int i = 0; i < 200 && job.log.size() < lines; i++)
        {
            Thread.sleep(25);
        }
    }

    @Test
    void authHandshakeUnitRejectsBadProofs()
    {
        final byte[] k = UniqueId.randomSecret();
        final byte[] a = Auth.nonce();
        final byte[] b = Auth.nonce();
        assertEquals(32, Auth.mac(k, "jshmem-server", a, b).length);
        assertTrue(!java.util.Arrays.equals(Auth.mac(k, "jshmem-server", a, b), Auth.mac(k, "jshmem-client", a, b)),
            "server and client proofs differ (no reflection)");
    }
}
