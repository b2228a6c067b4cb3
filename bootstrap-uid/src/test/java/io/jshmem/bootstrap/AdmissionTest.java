package io.jshmem.bootstrap;

import io.jshmem.ShmemInitException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The root turns away wrong or late arrivals, naming why, and the job (forming or formed) goes on. */
class AdmissionTest
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

    /** Authenticates with the job's secret, sends a HELLO, returns the root's answer: "REJECT reason" or the frame type. */
    static String rawHello(final BootstrapRoot root, final int version, final int rank, final int size) throws IOException
    {
        return rawHello(root, version, rank, size, 1);
    }

    /** As above, as a PE at init {@code generation} of its process: "REJECT reason", "RETRY reason" or the frame type. */
    static String rawHello(final BootstrapRoot root, final int version, final int rank, final int size, final int generation) throws IOException
    {
        try (Channel ch = Channel.connect(root.uniqueId().rootAddress(), 2_000_000_000L))
        {
            ch.handshakeDeadline(5_000_000_000L);
            Auth.client(ch, root.uniqueId().secret());
            ch.authenticated();
            ch.send(Wire.HELLO, new Wire.Writer().i16(version).i32(rank).i32(size).str("127.0.0.1").i32(1).i32(generation).toBytes());
            final Wire.Frame f = ch.read();
            return f.type() == Wire.REJECT || f.type() == Wire.RETRY ? Wire.typeName(f.type()) + " " + f.reader().str() : Wire.typeName(f.type());
        }
    }

    private static void assertWorks(final TestJob job, final List<UidBootstrap> pes)
    {
        for (final UidBootstrap b : pes)
        {
            assertNull(b.failure(), () -> "the job was harmed: " + b.failure());
        }
        job.each(pes, b ->
        {
            b.barrier();
            assertEquals(pes.size(), b.allgather(new byte[] {(byte)b.rank()}).length);
            return null;
        });
    }

    @Test
    void wrongArrivalsAfterFormationAreRejectedAndTheJobGoesOn() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            final List<UidBootstrap> pes = job.form();
            // a holder of the secret announcing a wrong size, a rank past the end, a taken rank
            final ShmemInitException wrongSize = assertThrows(ShmemInitException.class,
                () -> UidBootstrap.connect(job.root.uniqueId(), 1, 3, job.settings));
            assertTrue(wrongSize.getMessage().contains("rejected this PE: PE 1 (size 3) arrived after the job formed"),
                wrongSize.getMessage());
            assertTrue(wrongSize.getMessage().startsWith("[pe 1/3] bootstrap: the root at "), wrongSize.getMessage());
            final ShmemInitException pastEnd = assertThrows(ShmemInitException.class,
                () -> UidBootstrap.connect(job.root.uniqueId(), 5, 8, job.settings));
            assertTrue(pastEnd.getMessage().contains("arrived after the job formed"), pastEnd.getMessage());
            final ShmemInitException taken = assertThrows(ShmemInitException.class,
                () -> UidBootstrap.connect(job.root.uniqueId(), 0, 2, job.settings));
            assertTrue(taken.getMessage().contains("PE 0 (size 2) arrived after the job formed"), taken.getMessage());
            assertTrue(rawHello(job.root, Wire.PROTOCOL_VERSION, -1, 2).startsWith("REJECT PE -1 (size 2) arrived after"));
            assertTrue(rawHello(job.root, Wire.PROTOCOL_VERSION, Integer.MAX_VALUE, -4).startsWith("REJECT PE 2147483647"));
            assertWorks(job, pes);
            assertTrue(job.log.stream().filter(l -> l.startsWith("bootstrap: root: rejected ")).count() == 5, String.join("\n", job.log));
        }
    }

    @Test
    void wrongArrivalsWhileFormingAreRejectedAndTheJobStillForms() throws Exception
    {
        try (TestJob job = new TestJob(3))
        {
            final List<Future<UidBootstrap>> fs = new ArrayList<>();
            fs.add(job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), 0, 3, job.settings)));
            for (int i = 0; i < 200 && job.root.joinedForTesting() == 0; i++)
            {
                Thread.sleep(10);
            }
            // the first PE set the size to 3: everything else is measured against it
            assertEquals("REJECT PE 1 says the job has 4 PEs but the job has 3 (set by the first PE to connect)",
                rawHello(job.root, Wire.PROTOCOL_VERSION, 1, 4));
            assertEquals("REJECT PE 7 says the job has 4 PEs but the job has 3 (set by the first PE to connect)",
                rawHello(job.root, Wire.PROTOCOL_VERSION, 7, 4)); // once an index error in the root
            assertEquals("REJECT PE rank 3 is outside 0..2 (job size 3)", rawHello(job.root, Wire.PROTOCOL_VERSION, 3, 3));
            assertEquals("REJECT PE rank -1 is outside 0..2 (job size 3)", rawHello(job.root, Wire.PROTOCOL_VERSION, -1, 3));
            assertEquals("REJECT PE 0 says the job has 0 PEs", rawHello(job.root, Wire.PROTOCOL_VERSION, 0, 0));
            assertEquals("REJECT PE 1 speaks bootstrap protocol version 9 but the root speaks " + Wire.PROTOCOL_VERSION, rawHello(job.root, 9, 1, 3));
            final ShmemInitException dup = assertThrows(ShmemInitException.class,
                () -> UidBootstrap.connect(job.root.uniqueId(), 0, 3, job.settings));
            assertTrue(dup.getMessage().contains("rejected this PE: duplicate rank 0: already taken by the PE connected from /127.0.0.1:"),
                dup.getMessage());
            final ShmemInitException size = assertThrows(ShmemInitException.class,
                () -> UidBootstrap.connect(job.root.uniqueId(), 1, 2, job.settings));
            assertTrue(size.getMessage().contains("PE 1 says the job has 2 PEs but the job has 3"), size.getMessage());
            // the real PEs arrive: the job forms and works
            fs.add(job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), 1, 3, job.settings)));
            fs.add(job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), 2, 3, job.settings)));
            final List<UidBootstrap> pes = new ArrayList<>();
            for (final Future<UidBootstrap> f : fs)
            {
                pes.add(TestJob.get(f));
            }
            job.pes.addAll(pes);
            assertWorks(job, pes);
        }
    }

    @Test
    void admissionIsPureAndNeverIndexesOutOfBounds()
    {
        final String[] taken = {"a", null};
        assertNull(Admission.check(Wire.PROTOCOL_VERSION, 1, 2, 2, 0, false, taken));
        assertTrue(Admission.check(Wire.PROTOCOL_VERSION, 0, 2, 2, 0, false, taken).startsWith("duplicate rank 0"));
        for (final int rank : new int[] {-1, 2, 3, Integer.MAX_VALUE, Integer.MIN_VALUE})
        {
            for (final int size : new int[] {-1, 0, 1, 2, 5, Integer.MAX_VALUE})
            {
                for (final boolean formed : new boolean[] {false, true})
                {
                    final String v = Admission.check(Wire.PROTOCOL_VERSION, rank, size, 2, 2, formed, taken);
                    assertTrue(v != null, rank + "/" + size + " admitted");
                }
            }
        }
        assertTrue(Admission.check(Wire.PROTOCOL_VERSION, 1, 2, 2, 2, false, taken) == null);
        assertTrue(Admission.check(Wire.PROTOCOL_VERSION, 1, 3, 2, 2, false, taken).endsWith("(set by the launcher)"));
    }
}
