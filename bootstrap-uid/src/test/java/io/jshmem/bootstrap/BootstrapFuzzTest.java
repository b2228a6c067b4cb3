package io.jshmem.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random, truncated, oversized and corrupt input for every bootstrap frame decoder: the frame reader,
 * the payload reader, the authentication handshake, the HELLO and its admission, the store protocol
 * (requests and responses), and a live root and PE listener of a formed job that keeps working while
 * four fuzzers hit them. Bounded in count and time; each test prints its seed, and
 * {@code -Djshmem.fuzz.seed=N} replays one.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BootstrapFuzzTest
{
    private static final long BUDGET_NS = 700_000_000L;
    private static final int MAX_CASES = 20_000;

    @AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 150 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    private static long seed(final String test)
    {
        final long seed = Long.getLong("jshmem.fuzz.seed", System.nanoTime() ^ test.hashCode());
        System.out.println("BootstrapFuzzTest." + test + " seed=" + seed + " (replay: -Djshmem.fuzz.seed=" + seed + ")");
        return seed;
    }

    // ---------------------------------------------------------------- inputs

    static byte[] frame(final byte type, final byte[] payload)
    {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        try
        {
            Wire.write(new DataOutputStream(b), type, payload);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        return b.toByteArray();
    }

    static byte[] randomBytes(final SplittableRandom r, final int max)
    {
        final byte[] b = new byte[r.nextInt(max + 1)];
        r.nextBytes(b);
        return b;
    }

    static String randomString(final SplittableRandom r)
    {
        final StringBuilder sb = new StringBuilder();
        final int n = r.nextInt(12);
        for (int i = 0; i < n; i++)
        {
            sb.append((char)(r.nextBoolean() ? 'a' + r.nextInt(26) : r.nextInt(0x3000)));
        }
        return sb.toString();
    }

    static int edgeInt(final SplittableRandom r)
    {
        return switch (r.nextInt(6))
        {
            case 0 -> -1;
            case 1 -> 0;
            case 2 -> Integer.MAX_VALUE;
            case 3 -> Integer.MIN_VALUE;
            case 4 -> r.nextInt(8);
            default -> r.nextInt();
        };
    }

    /** A well-formed payload of some bootstrap frame, to be corrupted. */
    static byte[] validPayload(final SplittableRandom r, final byte type)
    {
        final Wire.Writer w = new Wire.Writer();
        switch (type)
        {
            case Wire.AUTH_HELLO -> w.i32(Wire.CONNECTION_MAGIC).i16(Wire.PROTOCOL_VERSION).raw(Auth.nonce());
            case Wire.AUTH_CHALLENGE -> w.raw(Auth.nonce()).raw(Auth.nonce());
            case Wire.AUTH_RESPONSE -> w.raw(Auth.nonce());
            case Wire.HELLO -> w.i16(r.nextInt(4) == 0 ? r.nextInt() : Wire.PROTOCOL_VERSION).i32(edgeInt(r)).i32(edgeInt(r))
                .str(randomString(r)).i32(edgeInt(r)).i32(r.nextBoolean() ? 1 + r.nextInt(3) : edgeInt(r));
            case Wire.KV_REQUEST -> storeRequest(r, w);
            case Wire.KV_RESPONSE -> w.i64(r.nextLong()).i8(r.nextInt(4)).bytes(randomBytes(r, 16));
            case Wire.PEER_IDENT -> w.i32(edgeInt(r));
            case Wire.DATA -> w.i64(r.nextLong()).i32(edgeInt(r)).bytes(randomBytes(r, 16));
            default -> w.raw(randomBytes(r, 32));
        }
        return w.toBytes();
    }

    static void storeRequest(final SplittableRandom r, final Wire.Writer w)
    {
        final int op = r.nextInt(10) - 1;
        w.i64(r.nextLong()).i8(op);
        final String key = "k" + r.nextInt(4);
        switch (op)
        {
            case RootStoreHandler.SET -> w.str(key).bytes(r.nextBoolean() ? randomBytes(r, 8) : "12".getBytes(StandardCharsets.US_ASCII));
            case RootStoreHandler.ADD -> w.str(key).i64(r.nextLong());
            case RootStoreHandler.WAIT, RootStoreHandler.MISSING -> w.strings(List.of(key, "k" + r.nextInt(4)));
            default -> w.str(key);
        }
    }

    /** Truncated, bit-flipped, re-lengthed, extended or replaced. */
    static byte[] corrupt(final SplittableRandom r, final byte[] valid)
    {
        final byte[] b;
        switch (r.nextInt(6))
        {
            case 0 -> b = java.util.Arrays.copyOf(valid, r.nextInt(valid.length + 1));
            case 1 ->
            {
                b = valid.clone();
                for (int i = 0, n = 1 + r.nextInt(4); i < n && b.length > 0; i++)
                {
                    b[r.nextInt(b.length)] ^= (byte)(1 << r.nextInt(8));
                }
            }
            case 2 ->
            {
                b = valid.clone();
                if (b.length >= 4)
                {
                    final int len = switch (r.nextInt(4))
                    {
                        case 0 -> Integer.MAX_VALUE;
                        case 1 -> -r.nextInt(1000);
                        case 2 -> Wire.MAX_FRAME + 1 + r.nextInt(100);
                        default -> r.nextInt(Wire.MAX_HANDSHAKE_FRAME * 2);
                    };
                    b[0] = (byte)(len >>> 24);
                    b[1] = (byte)(len >>> 16);
                    b[2] = (byte)(len >>> 8);
                    b[3] = (byte)len;
                }
            }
            case 3 ->
            {
                final byte[] extra = randomBytes(r, 64);
                b = java.util.Arrays.copyOf(valid, valid.length + extra.length);
                System.arraycopy(extra, 0, b, valid.length, extra.length);
            }
            case 4 -> b = randomBytes(r, 600);
            default -> b = valid.clone();
        }
        return b;
    }

    static final byte[] TYPES = {Wire.AUTH_HELLO, Wire.AUTH_CHALLENGE, Wire.AUTH_RESPONSE, Wire.AUTH_OK, Wire.HELLO, Wire.WELCOME,
        Wire.REJECT, Wire.QUERY_MISSING, Wire.MISSING, Wire.HEARTBEAT, Wire.LOST, Wire.EXIT, Wire.LEAVE, Wire.KV_REQUEST,
        Wire.KV_RESPONSE, Wire.PEER_IDENT, Wire.DATA, 0, -1, 99};

    static byte[] corruptFrame(final SplittableRandom r)
    {
        final byte type = TYPES[r.nextInt(TYPES.length)];
        final byte[] valid = frame(type, validPayload(r, type));
        return corrupt(r, valid);
    }

    /** Runs cases until the count or the time budget is spent; returns how many ran. */
    static int cases(final long seed, final CaseBody body)
    {
        final SplittableRandom r = new SplittableRandom(seed);
        final long deadline = System.nanoTime() + BUDGET_NS;
        int n = 0;
        while (n < MAX_CASES && System.nanoTime() < deadline)
        {
            final long caseSeed = r.nextLong();
            try
            {
                body.run(new SplittableRandom(caseSeed));
            }
            catch (final Throwable t)
            {
                throw new AssertionError("seed " + seed + ", case " + n + " (case seed " + caseSeed + "): " + t, t);
            }
            n++;
        }
        return n;
    }

    interface CaseBody
    {
        void run(SplittableRandom r) throws Exception;
    }

    // ---------------------------------------------------------------- decoders alone

    @Test
    void frameReaderReturnsBoundedFramesOrIoExceptionsOnly()
    {
        final long seed = seed("frameReader");
        final int n = cases(seed, r ->
        {
            final ByteArrayOutputStream stream = new ByteArrayOutputStream();
            for (int i = 0, k = 1 + r.nextInt(4); i < k; i++)
            {
                stream.writeBytes(corruptFrame(r));
            }
            final int max = r.nextBoolean() ? Wire.MAX_HANDSHAKE_FRAME : Wire.MAX_FRAME;
            final DataInputStream in = new DataInputStream(new ByteArrayInputStream(stream.toByteArray()));
            for (int i = 0; i < 10; i++)
            {
                try
                {
                    final Wire.Frame f = Wire.read(in, max);
                    assertTrue(f.payload().length <= max - 1, "payload " + f.payload().length + " > " + max);
                }
                catch (final IOException expected)
                {
                    return; // EOF (truncated) or ProtocolException (length): the connection would be dropped
                }
            }
        });
        assertTrue(n > 100, n + " cases");
    }

    @Test
    void payloadReaderFailsOnlyWithIoExceptions()
    {
        final long seed = seed("payloadReader");
        final int n = cases(seed, r ->
        {
            final byte[] payload = r.nextBoolean() ? randomBytes(r, 80) : corrupt(r, validPayload(r, TYPES[r.nextInt(TYPES.length)]));
            final Wire.Reader reader = new Wire.Reader(payload);
            try
            {
                for (int i = 0; i < 8; i++)
                {
                    switch (r.nextInt(7))
                    {
                        case 0 -> reader.i8();
                        case 1 -> reader.i16();
                        case 2 -> reader.i32();
                        case 3 -> reader.i64();
                        case 4 -> reader.str();
                        case 5 -> assertTrue(reader.bytes().length <= payload.length);
                        default -> assertTrue(reader.strings().size() <= payload.length);
                    }
                }
            }
            catch (final IOException expected)
            {
                // ends early, bad UTF-8, a count past the payload
            }
        });
        assertTrue(n > 100, n + " cases");
    }

    @Test
    void helloDecodingAndAdmissionNeverThrowAndAdmitOnlyInRange()
    {
        final long seed = seed("admission");
        final int n = cases(seed, r ->
        {
            final byte[] payload = corrupt(r, validPayload(r, Wire.HELLO));
            final Wire.Reader h = new Wire.Reader(payload);
            final int version;
            final int rank;
            final int size;
            try
            {
                version = h.i16();
                rank = h.i32();
                size = h.i32();
                h.str();
                h.i32();
            }
            catch (final IOException expected)
            {
                return; // dropped before admission
            }
            final int known = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(8);
            final String[] taken = known == 0 ? null : new String[known];
            if (taken != null)
            {
                for (int i = 0; i < known; i++)
                {
                    taken[i] = r.nextBoolean() ? "/127.0.0.1:" + i : null;
                }
            }
            final boolean formed = r.nextInt(4) == 0;
            final String verdict = Admission.check(version, rank, size, known, r.nextBoolean() ? known : 0, formed, taken);
            if (verdict == null)
            {
                assertTrue(!formed && version == Wire.PROTOCOL_VERSION && size > 0 && rank >= 0 && rank < size
                    && (known == 0 || size == known) && (taken == null || taken[rank] == null), "admitted " + rank + "/" + size);
            }
            else
            {
                assertTrue(verdict.contains("PE") || verdict.contains("rank"), verdict);
            }
        });
        assertTrue(n > 100, n + " cases");
    }

    /** A loopback connection whose far end is drained, so handlers can answer on the near end. */
    private static final class Pair implements AutoCloseable
    {
        final Channel near;
        final Socket far;
        final AtomicLong drained = new AtomicLong();

        Pair() throws IOException
        {
            try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
            {
                final Socket s = new Socket(ss.getInetAddress(), ss.getLocalPort());
                far = ss.accept();
                near = new Channel(s);
                near.authenticated();
            }
            final InputStream in = far.getInputStream();
            Thread.ofPlatform().daemon().name("test-drain").start(() ->
            {
                final byte[] buf = new byte[8192];
                try
                {
                    for (int k = in.read(buf); k >= 0; k = in.read(buf))
                    {
                        drained.addAndGet(k);
                    }
                }
                catch (final IOException ignore)
                {
                    // closed
                }
            });
        }

        @Override
        public void close() throws IOException
        {
            near.close();
            far.close();
        }
    }

    @Test
    void storeProtocolFailsOnlyWithProtocolErrorsAndKeepsTheStoreUsable() throws Exception
    {
        final long seed = seed("storeProtocol");
        final StoreCore store = new StoreCore();
        try (Pair pair = new Pair())
        {
            final ControlStore client = new ControlStore(null);
            final int n = cases(seed, r ->
            {
                final Wire.Writer w = new Wire.Writer();
                storeRequest(r, w);
                final byte[] request = r.nextInt(3) == 0 ? w.toBytes() : corrupt(r, w.toBytes());
                try
                {
                    RootStoreHandler.handle(store, pair.near, new Wire.Reader(request));
                }
                catch (final IOException expected)
                {
                    // a member sending this is dropped; the store is untouched
                }
                try
                {
                    client.complete(new Wire.Reader(corrupt(r, validPayload(r, Wire.KV_RESPONSE))));
                }
                catch (final IOException expected)
                {
                    // the root is trusted, but a bad answer is still only a protocol error
                }
            });
            assertTrue(n > 100, n + " cases");
            store.set("after", new byte[] {1});
            assertArrayEquals(new byte[] {1}, store.get("after"));
            assertEquals(5, store.add("counter-after", 5));
        }
    }

    @Test
    void authenticationServerSurvivesCorruptHandshakes() throws Exception
    {
        final long seed = seed("authServer");
        final byte[] secret = UniqueId.randomSecret();
        final int n = cases(seed, r ->
        {
            try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                 Socket client = new Socket(ss.getInetAddress(), ss.getLocalPort());
                 Socket server = ss.accept();
                 Channel ch = new Channel(server))
            {
                ch.handshakeDeadline(200_000_000L);
                final var out = client.getOutputStream();
                if (r.nextBoolean())
                {
                    out.write(corruptFrame(r));
                }
                else
                {
                    out.write(frame(Wire.AUTH_HELLO, validPayload(r, Wire.AUTH_HELLO)));
                    out.write(corrupt(r, frame(Wire.AUTH_RESPONSE, validPayload(r, Wire.AUTH_RESPONSE))));
                }
                out.flush();
                client.shutdownOutput();
                try
                {
                    Auth.server(ch, secret);
                    fail("authenticated without the secret");
                }
                catch (final IOException expected)
                {
                    // wrong proof, bad magic, truncated, too long, or past the deadline
                }
            }
        });
        assertTrue(n > 20, n + " cases");
    }

    // ---------------------------------------------------------------- a live job

    /** One fuzzer connection: garbage, a corrupt handshake, or a corrupt frame after authenticating. */
    private static void hit(final SplittableRandom r, final InetSocketAddress target, final byte[] secret, final boolean root)
    {
        try (Socket s = new Socket())
        {
            s.connect(target, 1000);
            s.setSoTimeout(100);
            final var out = s.getOutputStream();
            switch (r.nextInt(4))
            {
                case 0 -> out.write(randomBytes(r, 700));
                case 1 -> out.write(corruptFrame(r));
                case 2 ->
                {
                    out.write(frame(Wire.AUTH_HELLO, validPayload(r, Wire.AUTH_HELLO)));
                    out.write(corrupt(r, frame(Wire.AUTH_RESPONSE, validPayload(r, Wire.AUTH_RESPONSE))));
                }
                default ->
                {
                    // a holder of the secret: authenticate, then say something wrong
                    final Channel ch = new Channel(s);
                    ch.handshakeDeadline(1_000_000_000L);
                    Auth.client(ch, secret);
                    final byte type = root ? (r.nextInt(3) == 0 ? TYPES[r.nextInt(TYPES.length)] : Wire.HELLO) : Wire.PEER_IDENT;
                    final byte[] f = frame(type, validPayload(r, type));
                    out.write(root || r.nextBoolean() ? corrupt(r, f) : f);
                }
            }
            out.flush();
            final InputStream in = s.getInputStream();
            while (in.read() >= 0)
            {
                // until the other side drops us (or the read times out)
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // dropped, reset or timed out: that is the point
        }
    }

    @Test
    void aFormedJobKeepsWorkingWhileFuzzersHitItsRootAndAPeListener() throws Exception
    {
        final long seed = seed("liveJob");
        try (TestJob job = new TestJob(3, 10_000_000_000L, 1_000_000_000L, s -> s.withHandshakeTimeoutNs(1_000_000_000L)))
        {
            final List<UidBootstrap> pes = job.form();
            final byte[] secret = job.root.uniqueId().secret();
            final InetSocketAddress rootAddress = job.root.uniqueId().rootAddress();
            final InetSocketAddress peAddress = new InetSocketAddress("127.0.0.1", pes.get(1).listenerPort());
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicLong hits = new AtomicLong();
            final List<Throwable> fuzzerErrors = new CopyOnWriteArrayList<>();
            final List<Thread> fuzzers = new ArrayList<>();
            final SplittableRandom master = new SplittableRandom(seed);
            for (int i = 0; i < 4; i++)
            {
                final SplittableRandom r = master.split();
                fuzzers.add(Thread.ofPlatform().daemon().name("test-fuzzer-" + i).start(() ->
                {
                    try
                    {
                        while (!stop.get())
                        {
                            final boolean atRoot = r.nextInt(3) != 0;
                            hit(r, atRoot ? rootAddress : peAddress, secret, atRoot);
                            hits.incrementAndGet();
                        }
                    }
                    catch (final Throwable t)
                    {
                        fuzzerErrors.add(t);
                    }
                }));
            }
            final long end = System.nanoTime() + 3_000_000_000L;
            int rounds = 0;
            try
            {
                while (System.nanoTime() < end)
                {
                    final int round = rounds++;
                    job.each(pes, b ->
                    {
                        b.barrier();
                        final byte[][] all = b.allgather(new byte[] {(byte)b.rank(), (byte)round});
                        for (int p = 0; p < all.length; p++)
                        {
                            assertArrayEquals(new byte[] {(byte)p, (byte)round}, all[p]);
                        }
                        b.store().add("rounds", 1);
                        return null;
                    });
                }
            }
            finally
            {
                stop.set(true);
                for (final Thread t : fuzzers)
                {
                    t.join(5000);
                }
            }
            assertEquals(List.of(), fuzzerErrors);
            assertTrue(hits.get() > 50, "only " + hits.get() + " fuzzer connections (seed " + seed + ")");
            assertTrue(rounds > 3, "only " + rounds + " job rounds while fuzzed (seed " + seed + ")");
            for (final UidBootstrap b : pes)
            {
                assertNull(b.failure(), () -> "seed " + seed + ": " + b.failure());
            }
            assertEquals(Long.toString(3L * rounds), new String(pes.get(0).store().get("rounds"), StandardCharsets.US_ASCII));
            // the log stays short: a few lines per listener and interval, then counts
            final long lines = job.log.size();
            assertTrue(lines <= 4 * 2 * (DropLog.BURST + 1), lines + " log lines for " + hits.get() + " connections:\n"
                + String.join("\n", job.log));
            assertTrue(job.root.droppedConnections() > 0, "the root dropped nothing");
            for (int i = 0; i < 100 && job.root.pendingHandshakes() > 0; i++)
            {
                Thread.sleep(20);
            }
            assertEquals(0, job.root.pendingHandshakes(), "connections still waiting for authentication at the root");
            System.out.println("BootstrapFuzzTest.liveJob: " + hits.get() + " fuzzer connections, " + rounds + " job rounds, "
                + job.root.droppedConnections() + " dropped at the root, " + lines + " log lines");
        }
    }
}
