package io.jshmem.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One deadline per handshake, a bound on connections waiting for it, a rate-limited drop log. */
class HandshakeLimitsTest
{
    @AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 100 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    /** @return a future completed (with the seconds since now) when the other side closes the socket. */
    private static CompletableFuture<Double> closedBy(final Socket s) throws IOException
    {
        final InputStream in = s.getInputStream();
        final long t0 = System.nanoTime();
        final CompletableFuture<Double> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("test-eof-watch").start(() ->
        {
            try
            {
                while (in.read() >= 0)
                {
                    // an AUTH_CHALLENGE never comes for a dripping hello; read until the end
                }
            }
            catch (final IOException ignore)
            {
                // reset counts as closed
            }
            f.complete((System.nanoTime() - t0) / 1e9);
        });
        return f;
    }

    /** A valid AUTH_HELLO frame, to be sent a byte at a time. */
    private static byte[] authHello()
    {
        final byte[] payload = new Wire.Writer().i32(Wire.CONNECTION_MAGIC).i16(Wire.PROTOCOL_VERSION).raw(Auth.nonce()).toBytes();
        final java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        try
        {
            final java.io.DataOutputStream out = new java.io.DataOutputStream(b);
            Wire.write(out, Wire.AUTH_HELLO, payload);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        return b.toByteArray();
    }

    /** Drips a hello one byte every 250 ms: each read is quick, the whole handshake is not. */
    private static double drip(final InetSocketAddress target) throws Exception
    {
        try (Socket s = new Socket())
        {
            s.connect(target);
            final CompletableFuture<Double> closed = closedBy(s);
            final OutputStream out = s.getOutputStream();
            final byte[] hello = authHello();
            for (int i = 0; i < hello.length && !closed.isDone(); i++)
            {
                try
                {
                    out.write(hello[i]);
                    out.flush();
                }
                catch (final IOException ex)
                {
                    break; // the other side closed
                }
                Thread.sleep(250);
            }
            return closed.get(1, TimeUnit.SECONDS);
        }
    }

    @Test
    void aDrippingClientGetsOneDeadlineForItsWholeHandshake() throws Exception
    {
        try (TestJob job = new TestJob(2, 10_000_000_000L, 5_000_000_000L, s -> s.withHandshakeTimeoutNs(1_000_000_000L)))
        {
            final List<UidBootstrap> pes = job.form();
            final double atRoot = drip(job.root.uniqueId().rootAddress());
            final double atPe = drip(new InetSocketAddress("127.0.0.1", pes.get(1).listenerPort()));
            // the hello takes 43 bytes * 250 ms = 10.75 s to drip; the handshake deadline is 1 s
            System.out.printf("dripping client dropped after %.2f s by the root, %.2f s by a PE listener (deadline 1 s)%n", atRoot, atPe);
            assertTrue(atRoot >= 0.9 && atRoot < 2.5, "root dropped the dripping client after " + atRoot + " s");
            assertTrue(atPe >= 0.9 && atPe < 2.5, "PE dropped the dripping client after " + atPe + " s");
            SecurityTest.waitForLog(job, 2);
            assertTrue(job.log.stream().anyMatch(l -> l.startsWith("bootstrap: root: dropped connection from")
                && l.contains("silent past the handshake deadline")), String.join("\n", job.log));
            job.each(pes, b ->
            {
                b.barrier();
                return null;
            });
        }
    }

    private static long rootThreads()
    {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
            .filter(t -> t.getName().startsWith("jshmem-bootstrap-root")).count();
    }

    @Test
    void aFloodOfSilentConnectionsIsBoundedAndTheJobFormsAndRuns() throws Exception
    {
        try (TestJob job = new TestJob(2, 20_000_000_000L, 2_000_000_000L, s -> s.withHandshakeTimeoutNs(2_000_000_000L)))
        {
            final int before = (int)rootThreads();
            final List<Socket> flood = new ArrayList<>();
            final List<CompletableFuture<Double>> closed = new ArrayList<>();
            try
            {
                for (int i = 0; i < 300; i++)
                {
                    final Socket s = new Socket();
                    s.connect(job.root.uniqueId().rootAddress());
                    flood.add(s);
                    closed.add(closedBy(s));
                }
                Thread.sleep(300);
                final long threads = rootThreads();
                final long closedAtOnce = closed.stream().filter(CompletableFuture::isDone).count();
                System.out.println("300 silent connections: root threads " + before + " -> " + threads + ", " + closedAtOnce
                    + " closed at once");
                assertTrue(threads <= before + 64, "root threads " + before + " -> " + threads + " with 300 silent connections");
                assertTrue(closedAtOnce >= 300 - 64, closedAtOnce + " of 300 closed at once");
                assertTrue(job.root.pendingHandshakes() <= 64, "pending " + job.root.pendingHandshakes());
                // PEs arriving now find the root full: they retry and join once the silent ones time out
                final long t0 = System.nanoTime();
                final List<UidBootstrap> pes = job.form();
                final double formedS = (System.nanoTime() - t0) / 1e9;
                System.out.printf("the job formed %.2f s into the flood%n", formedS);
                assertTrue(formedS < 8, "formed after " + formedS + " s");
                job.each(pes, b ->
                {
                    b.barrier();
                    return null;
                });
                for (final UidBootstrap b : pes)
                {
                    assertNull(b.failure());
                }
            }
            finally
            {
                for (final Socket s : flood)
                {
                    s.close();
                }
            }
            // 300 drops, five lines in this interval (the summary comes when it ends)
            final long lines = job.log.stream().filter(l -> l.startsWith("bootstrap: root: dropped connection from")).count();
            assertEquals(DropLog.BURST, lines, String.join("\n", job.log));
            // 300 silent ones, and the PEs' attempts the root closed while it was full (they retried)
            assertTrue(job.root.droppedConnections() > 300, "dropped " + job.root.droppedConnections());
        }
    }

    @Test
    void theDropLogPrintsAFewLinesThenOneSummaryPerInterval() throws Exception
    {
        final List<String> out = new ArrayList<>();
        final DropLog log = new DropLog(out::add, "bootstrap root", 200_000_000L);
        for (int i = 0; i < 1000; i++)
        {
            log.drop("dropped " + i);
        }
        assertEquals(DropLog.BURST, out.size(), out.toString());
        Thread.sleep(250);
        log.tick();
        assertEquals(DropLog.BURST + 1, out.size(), out.toString());
        assertTrue(out.get(DropLog.BURST).startsWith("995 more connections dropped on the bootstrap root in the last "), out.toString());
        log.tick();
        log.drop("dropped again");
        assertEquals("dropped again", out.get(out.size() - 1));
        assertEquals(1001, log.total());
    }
}
