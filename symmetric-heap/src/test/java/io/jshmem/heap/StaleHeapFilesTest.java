package io.jshmem.heap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StaleHeapFilesTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws IOException
    {
        dir = HeapTestDirectory.create("StaleHeapFilesTest");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        HeapTestDirectory.delete(dir);
    }

    @Test
    void removesOnlyReadableHeapFilesOfDeadCreators() throws Exception
    {
        final long deadPid = deadPid();
        final long livePid = ProcessHandle.current().pid();

        final Path dead = writeHeapFile(HeapFile.path(dir, "crashed", 3), "crashed", 3, deadPid);
        final Path deadClosed = writeHeapFile(HeapFile.path(dir, "crashed", 4), "crashed", 4, deadPid);
        final Path live = writeHeapFile(HeapFile.path(dir, "running", 0), "running", 0, livePid);
        // A dead creator, but the header does not match the name: not provably ours, keep it.
        final Path renamed = writeHeapFile(HeapFile.path(dir, "other", 0), "crashed", 0, deadPid);
        final Path unrelated = Files.writeString(dir.resolve("notes.txt"), "keep me");
        final Path shortFile = Files.writeString(dir.resolve("jshmem-short-pe0.heap"), "tiny");
        final byte[] noise = new byte[2 * HeapLayout.HEADER_LENGTH];
        new Random(7).nextBytes(noise);
        final Path garbage = Files.write(dir.resolve("jshmem-garbage-pe0.heap"), noise);
        final Path subdir = Files.createDirectory(dir.resolve("jshmem-dir-pe0.heap"));
        final Path link = Files.createSymbolicLink(dir.resolve("jshmem-link-pe0.heap"), dead);

        try (MemorySegmentHolder h = MemorySegmentHolder.map(deadClosed))
        {
            HeapLayout.signalClosed(h.segment);
        }

        final List<Path> removed = StaleHeapFiles.sweep(dir);

        assertEquals(List.of(dead, deadClosed).stream().sorted().toList(), removed.stream().sorted().toList());
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(deadClosed));
        for (final Path kept : List.of(live, renamed, unrelated, shortFile, garbage, subdir))
        {
            assertTrue(Files.exists(kept), kept + " must be kept");
        }
        assertTrue(Files.isSymbolicLink(link), "a link is never followed or removed");
        assertEquals("keep me", Files.readString(unrelated));
        assertEquals(List.of(), StaleHeapFiles.sweep(dir), "a second sweep finds nothing more");
    }

    @Test
    void aLiveHeapFileCreatedByThisProcessSurvivesTheSweep() throws IOException
    {
        try (HeapFile own = HeapFile.create(dir, "job1", 0, 1, 8192))
        {
            assertEquals(List.of(), StaleHeapFiles.sweep(dir));
            assertTrue(Files.exists(own.path()));
        }
    }

    /** What a PE does for its own file name before it creates it: one file, under the sweep's rules. */
    @Test
    void removeIfStaleRemovesOneDeadCreatorsFileAndNothingElse() throws Exception
    {
        final Path dead = writeHeapFile(HeapFile.path(dir, "rerun", 2), "rerun", 2, deadPid());
        final Path other = writeHeapFile(HeapFile.path(dir, "rerun", 3), "rerun", 3, deadPid());
        final Path live = writeHeapFile(HeapFile.path(dir, "rerun", 4), "rerun", 4, ProcessHandle.current().pid());
        final Path garbage = Files.writeString(HeapFile.path(dir, "rerun", 5), "not a heap file");

        assertTrue(StaleHeapFiles.removeIfStale(dead));
        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(other), "only the file named is looked at");
        assertFalse(StaleHeapFiles.removeIfStale(live), "a live creator's file stays");
        assertFalse(StaleHeapFiles.removeIfStale(garbage), "a file without a heap header stays");
        assertFalse(StaleHeapFiles.removeIfStale(HeapFile.path(dir, "rerun", 6)), "no file: nothing to do");
        assertTrue(Files.exists(live) && Files.exists(garbage));
        try (HeapFile again = HeapFile.create(dir, "rerun", 2, 8, 8192))
        {
            assertTrue(Files.exists(again.path()), "the name is free again for the job that reuses the id");
        }
    }

    private static long deadPid() throws Exception
    {
        final Process p = new ProcessBuilder("true").start();
        final long pid = p.pid();
        p.waitFor();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        return pid;
    }

    private static Path writeHeapFile(final Path file, final String jobId, final int pe, final long pid)
        throws IOException
    {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
            Arena arena = Arena.ofConfined())
        {
            final MemorySegment seg = ch.map(FileChannel.MapMode.READ_WRITE, 0, HeapLayout.DATA_OFFSET + 4096, arena);
            HeapLayout.writeHeader(seg, jobId, pe, 8, 4096, pid, System.currentTimeMillis());
            HeapLayout.signalReady(seg);
        }
        return file;
    }

    private record MemorySegmentHolder(Arena arena, MemorySegment segment) implements AutoCloseable
    {
        static MemorySegmentHolder map(final Path file) throws IOException
        {
            final Arena arena = Arena.ofConfined();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                return new MemorySegmentHolder(arena, ch.map(FileChannel.MapMode.READ_WRITE, 0,
                    HeapLayout.HEADER_LENGTH, arena));
            }
        }

        @Override
        public void close()
        {
            arena.close();
        }
    }
}
