package io.jshmem.heap;

import io.jshmem.ShmemInitException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapFileTest
{
    private static final long HEAP = 1 << 20;
    private static final Duration SHORT = Duration.ofMillis(50);

    private Path dir;

    @BeforeEach
    void setUp(final TestInfo info) throws IOException
    {
        dir = HeapTestDirectory.create("HeapFileTest-" + info.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        HeapTestDirectory.delete(dir);
    }

    @Test
    void storesOnOneMappingAreVisibleThroughThePeerMapping() throws IOException
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 2, HEAP);
            HeapFile peer = HeapFile.openPeer(dir, "job1", 0, 2, HEAP))
        {
            assertEquals(List.of("jshmem-job1-pe0.heap"), HeapTestDirectory.list(dir));
            assertEquals(HeapLayout.DATA_OFFSET + HEAP, Files.size(own.path()));
            assertEquals(HEAP, own.dataSize());
            assertEquals(HEAP, peer.dataSize());
            assertTrue(own.isOwner());
            assertFalse(peer.isOwner());

            own.dataSegment().set(ValueLayout.JAVA_LONG, 0, 0x1234_5678_9ABC_DEF0L);
            assertEquals(0x1234_5678_9ABC_DEF0L, peer.dataSegment().get(ValueLayout.JAVA_LONG, 0));
            peer.dataSegment().set(ValueLayout.JAVA_INT, HEAP - 4, 77);
            assertEquals(77, own.dataSegment().get(ValueLayout.JAVA_INT, HEAP - 4));
            assertEquals(0, own.dataSegment().get(ValueLayout.JAVA_LONG, 4096), "fresh heap reads zero");

            final MemorySegment h = own.headerSegment();
            assertEquals(HeapLayout.MAGIC, HeapLayout.magic(h));
            assertEquals(HeapLayout.STATE_READY, HeapLayout.stateAcquire(h));
            assertEquals("job1", HeapLayout.jobId(h));
            assertEquals(0, HeapLayout.pe(h));
            assertEquals(2, HeapLayout.npes(h));
            assertEquals(HEAP, HeapLayout.heapSize(h));
            assertEquals(ProcessHandle.current().pid(), HeapLayout.creatorPid(h));
            assertEquals(HeapLayout.DATA_OFFSET, HeapLayout.dataOffset(h));

            assertThrows(IllegalStateException.class, peer::unlink, "only the owner unlinks");
        }
        assertEquals(List.of(), HeapTestDirectory.list(dir), "close leaves no file");
    }

    @Test
    void heapIsSparseUntilTouched() throws Exception
    {
        final long big = 256L << 20;
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 1, big))
        {
            own.dataSegment().set(ValueLayout.JAVA_LONG, big - 8, 1L);
            final Process stat = new ProcessBuilder("stat", "-c", "%b %B", own.path().toString()).start();
            final String[] out = new String(stat.getInputStream().readAllBytes()).trim().split(" ");
            assertEquals(0, stat.waitFor());
            final long allocated = Long.parseLong(out[0]) * Long.parseLong(out[1]);
            assertEquals(HeapLayout.DATA_OFFSET + big, Files.size(own.path()));
            assertTrue(allocated < (1 << 20), "creation must not touch the heap: " + allocated + " bytes allocated");
        }
    }

    @Test
    void fileModeIs0600() throws IOException
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 3, 4, HEAP))
        {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(own.path())));
        }
    }

    @Test
    void exclusiveCreateFailsWhenTheFileExists() throws IOException
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 1, HEAP))
        {
            final ShmemInitException e =
                assertThrows(ShmemInitException.class, () -> HeapFile.create(dir, "job1", 0, 1, HEAP));
            assertTrue(e.getMessage().contains("already exists") && e.getMessage().contains(own.path().toString()),
                e.getMessage());
            own.dataSegment().set(ValueLayout.JAVA_BYTE, 0, (byte)1);
            assertTrue(Files.exists(own.path()), "the failed create must not remove the live file");
        }
        Files.writeString(HeapFile.path(dir, "job2", 0), "stale");
        assertThrows(ShmemInitException.class, () -> HeapFile.create(dir, "job2", 0, 1, HEAP));
        assertEquals("stale", Files.readString(HeapFile.path(dir, "job2", 0)));
    }

    @Test
    void unlinkRemovesTheNameButTheMappingsStayValid() throws IOException
    {
        final HeapFile own = HeapFile.create(dir, "job1", 0, 2, HEAP);
        final HeapFile peer = HeapFile.openPeer(dir, "job1", 0, 2, HEAP);
        own.unlink();
        own.unlink();
        assertTrue(own.isUnlinked());
        assertFalse(Files.exists(own.path()));
        assertEquals(List.of(), HeapTestDirectory.list(dir));

        own.dataSegment().set(ValueLayout.JAVA_LONG, 128, 99L);
        assertEquals(99L, peer.dataSegment().get(ValueLayout.JAVA_LONG, 128));
        peer.close();
        own.close();
        own.close();
        assertTrue(own.isClosed());
        assertThrows(IllegalStateException.class, () -> own.dataSegment().get(ValueLayout.JAVA_LONG, 0),
            "the mapping is gone after close");
    }

    @Test
    void closeLeavesNoFileAndIsIdempotent() throws IOException
    {
        final HeapFile own = HeapFile.create(dir, "job-x.1_2", 0, 1, 4096);
        assertTrue(Files.exists(own.path()));
        own.close();
        own.close();
        assertEquals(List.of(), HeapTestDirectory.list(dir));
    }

    @Test
    void peerWithWrongSizeOrNpesIsRejected()
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 2, HEAP))
        {
            assertMessage(() -> HeapFile.openPeer(dir, "job1", 0, 2, 2 * HEAP, SHORT),
                "heap size mismatch: expected " + 2 * HEAP + ", found " + HEAP, own.path());
            assertMessage(() -> HeapFile.openPeer(dir, "job1", 0, 3, HEAP, SHORT),
                "npes mismatch: expected 3, found 2", own.path());
        }
    }

    @Test
    void peerWithWrongJobOrPeIsRejected() throws IOException
    {
        try (HeapFile own = HeapFile.create(dir, "jobA", 0, 2, HEAP))
        {
            // The name says jobB, the header says jobA: e.g. a file copied or renamed by hand.
            final Path asJobB = Files.move(own.path(), HeapFile.path(dir, "jobB", 0));
            assertMessage(() -> HeapFile.openPeer(dir, "jobB", 0, 2, HEAP, SHORT),
                "job id mismatch: expected 'jobB', found 'jobA'", asJobB);
            final Path asPe1 = Files.move(asJobB, HeapFile.path(dir, "jobA", 1));
            assertMessage(() -> HeapFile.openPeer(dir, "jobA", 1, 2, HEAP, SHORT),
                "pe mismatch: expected 1, found 0", asPe1);
        }
    }

    @Test
    void peerWithWrongMagicOrVersionIsRejected()
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 1, HEAP))
        {
            final MemorySegment h = own.headerSegment();
            h.set(ValueLayout.JAVA_INT, HeapLayout.LAYOUT_VERSION_OFFSET, 99);
            assertMessage(() -> HeapFile.openPeer(dir, "job1", 0, 1, HEAP, SHORT),
                "layout version mismatch: expected 1, found 99", own.path());
            h.set(ValueLayout.JAVA_INT, HeapLayout.LAYOUT_VERSION_OFFSET, HeapLayout.LAYOUT_VERSION);
            h.set(ValueLayout.JAVA_BYTE, 0, (byte)'X');
            assertMessage(() -> HeapFile.openPeer(dir, "job1", 0, 1, HEAP, SHORT),
                "magic mismatch: expected JSHMEMHP, found XSHMEMHP", own.path());
        }
    }

    @Test
    void peerThatIsNotReadyIsRejectedAfterTheDeadline()
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 1, HEAP))
        {
            final MemorySegment h = own.headerSegment();
            h.set(ValueLayout.JAVA_INT, HeapLayout.STATE_OFFSET, HeapLayout.STATE_INITIALIZING);
            final long start = System.nanoTime();
            assertMessage(() -> HeapFile.openPeer(dir, "job1", 0, 1, HEAP, SHORT),
                "not READY after 50 ms (state INITIALIZING)", own.path());
            assertTrue(System.nanoTime() - start >= SHORT.toNanos(), "waited for the deadline");

            HeapLayout.signalClosed(h);
            assertMessage(() -> HeapFile.openPeer(dir, "job1", 0, 1, HEAP, SHORT),
                "state mismatch: expected READY, found CLOSED", own.path());
        }
    }

    @Test
    void peerThatTurnsReadyWithinTheDeadlineIsAccepted() throws Exception
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 1, HEAP))
        {
            final MemorySegment h = own.headerSegment();
            h.set(ValueLayout.JAVA_INT, HeapLayout.STATE_OFFSET, HeapLayout.STATE_INITIALIZING);
            final Thread creator = Thread.ofPlatform().start(() ->
            {
                try
                {
                    Thread.sleep(30);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
                HeapLayout.signalReady(h);
            });
            try (HeapFile peer = HeapFile.openPeer(dir, "job1", 0, 1, HEAP, Duration.ofSeconds(5)))
            {
                assertEquals(HEAP, peer.dataSize());
            }
            creator.join();
        }
    }

    @Test
    void missingPeerFileIsReportedAfterTheDeadline()
    {
        assertMessage(() -> HeapFile.openPeer(dir, "job1", 5, 8, HEAP, SHORT), "no heap file",
            HeapFile.path(dir, "job1", 5));
    }

    @Test
    void heapTooLargeForTheDirectoryFailsClearlyAndLeavesNoFile() throws IOException
    {
        final long huge = 1L << 50;
        final ShmemInitException e =
            assertThrows(ShmemInitException.class, () -> HeapFile.create(dir, "job1", 0, 1, huge));
        final String m = e.getMessage();
        assertTrue(m.contains(HeapFile.path(dir, "job1", 0).toString()), m);
        assertTrue(m.contains("SHMEM_SYMMETRIC_SIZE=" + huge), m);
        assertTrue(m.startsWith("[pe 0/1] "), m);
        assertEquals(List.of(), HeapTestDirectory.list(dir));
    }

    @Test
    void rejectsUnsafeJobIdsAndBadPes()
    {
        assertThrows(IllegalArgumentException.class, () -> HeapFile.create(dir, "../etc", 0, 1, HEAP));
        assertThrows(IllegalArgumentException.class, () -> HeapFile.create(dir, "a/b", 0, 1, HEAP));
        assertThrows(IllegalArgumentException.class, () -> HeapFile.create(dir, "", 0, 1, HEAP));
        assertThrows(IllegalArgumentException.class, () -> HeapFile.create(dir, "x".repeat(65), 0, 1, HEAP));
        assertThrows(IllegalArgumentException.class, () -> HeapFile.create(dir, "job", 1, 1, HEAP));
        assertThrows(IllegalArgumentException.class, () -> HeapFile.create(dir, "job", 0, 1, 0));
        assertEquals("jshmem-" + "x".repeat(64) + "-pe7.heap", HeapFile.fileName("x".repeat(64), 7));
    }

    private static void assertMessage(final Runnable call, final String expected, final Path file)
    {
        final ShmemInitException e = assertThrows(ShmemInitException.class, call::run);
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), "expected the file in: " + e.getMessage());
    }
}
