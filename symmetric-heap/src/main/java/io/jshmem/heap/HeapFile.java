package io.jshmem.heap;

import io.jshmem.ShmemException;
import io.jshmem.ShmemInitException;
import io.jshmem.config.ShmemOptions;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.locks.LockSupport;

/**
 * A symmetric heap file mapped into this JVM: either this PE's own heap ({@link #create}), or a peer's heap
 * on the same node ({@link #openPeer}). The file lives under a directory, {@code /dev/shm} by default, and is
 * named {@code jshmem-<jobId>-pe<N>.heap}; its layout is {@link HeapLayout}: a one-page header, then the data
 * region that {@link #dataSegment()} returns (symmetric offset 0 is its first byte).
 * <p>
 * Life cycle of an owner's file: created exclusively with mode 0600 (a file left by an earlier job with the
 * same job id is never reused), sized sparsely (tmpfs allocates pages on first touch only), mapped, header
 * written, state set READY. Once every local peer has mapped it the runtime calls {@link #unlink()}: the name
 * goes away while every mapping stays valid, so a crash from then on leaks nothing. {@link #close()} unmaps
 * and unlinks if that has not happened yet.
 * <p>
 * Threads: {@link #unlink()} and {@link #close()} may be called from any thread; close only once no thread
 * accesses the segments any more (after the final barrier and quiet), since the mapping goes away.
 */
public final class HeapFile implements AutoCloseable
{
    /** Where heap files go unless the runtime says otherwise: the node's shared-memory tmpfs. */
    public static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm");

    /** Every heap file name starts with this. */
    public static final String FILE_PREFIX = "jshmem-";

    /** Every heap file name ends with this. */
    public static final String FILE_SUFFIX = ".heap";

    /** How long {@link #openPeer(Path, String, int, int, long)} waits for a peer's file to become READY. */
    public static final Duration DEFAULT_PEER_TIMEOUT = Duration.ofSeconds(10);

    private static final long PAUSE_NS = 200_000;

    private final Path path;
    private final Arena arena;
    private final MemorySegment header;
    private final MemorySegment data;
    private final boolean owner;
    private final String jobId;
    private final int pe;
    private final int npes;
    private boolean unlinked;
    private boolean closed;

    private HeapFile(
        final Path path,
        final Arena arena,
        final MemorySegment file,
        final boolean owner,
        final String jobId,
        final int pe,
        final int npes)
    {
        this.path = path;
        this.arena = arena;
        this.header = file.asSlice(0, HeapLayout.HEADER_LENGTH);
        this.data = file.asSlice(HeapLayout.DATA_OFFSET);
        this.owner = owner;
        this.jobId = jobId;
        this.pe = pe;
        this.npes = npes;
    }

    /**
     * Creates, maps and publishes this PE's heap file.
     *
     * @param directory     where to create it, usually {@link #DEFAULT_DIRECTORY}.
     * @param jobId         the job's identifier, see {@link #checkJobId(String)}.
     * @param pe            this PE, in {@code [0, npes)}.
     * @param npes          the number of PEs in the job.
     * @param heapSizeBytes the data region's size ({@code SHMEM_SYMMETRIC_SIZE}), greater than 0.
     * @return the mapped heap, its header READY.
     * @throws ShmemInitException when the file exists already, the directory lacks the space, or creating or
     *                            mapping fails; the message names the file, the size and SHMEM_SYMMETRIC_SIZE.
     */
    public static HeapFile create(
        final Path directory, final String jobId, final int pe, final int npes, final long heapSizeBytes)
    {
        checkJobId(jobId);
        checkPe(pe, npes);
        if (heapSizeBytes <= 0)
        {
            throw new IllegalArgumentException("heapSizeBytes=" + heapSizeBytes + " must be > 0");
        }
        final Path file = path(directory, jobId, pe);
        final String prefix = ShmemException.pePrefix(pe, npes);
        if (heapSizeBytes > Long.MAX_VALUE - HeapLayout.DATA_OFFSET)
        {
            throw failure(prefix, file, heapSizeBytes, "the size is out of range", null);
        }
        final long fileBytes = HeapLayout.DATA_OFFSET + heapSizeBytes;
        if (!Files.isDirectory(directory))
        {
            throw failure(prefix, file, heapSizeBytes, "directory " + directory + " does not exist", null);
        }
        try
        {
            final long usable = Files.getFileStore(directory).getUsableSpace();
            if (fileBytes > usable)
            {
                // tmpfs would accept the sparse size and then kill the JVM with SIGBUS on first touch of a
                // page it cannot back; refuse up front instead.
                throw failure(prefix, file, heapSizeBytes, "only " + usable + " bytes are free in " + directory, null);
            }
        }
        catch (final IOException ignore)
        {
            // No file-store information: let the creation below succeed or fail on its own.
        }

        final FileChannel channel;
        try
        {
            channel = FileChannel.open(
                file,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(
                    EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
        }
        catch (final FileAlreadyExistsException e)
        {
            throw new ShmemInitException(prefix + "heap file " + file + " already exists: another running job " +
                "uses job id '" + jobId + "', or an earlier job with that id crashed (StaleHeapFiles.sweep removes " +
                "files whose creator died)", e);
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            throw failure(prefix, file, heapSizeBytes, String.valueOf(e), e);
        }

        final Arena arena = Arena.ofShared();
        try (channel)
        {
            // Mapping past the end extends the file sparsely (ftruncate): no page is touched here.
            final MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes, arena);
            HeapLayout.writeHeader(mapped, jobId, pe, npes, heapSizeBytes,
                ProcessHandle.current().pid(), System.currentTimeMillis());
            HeapLayout.signalReady(mapped);
            return new HeapFile(file, arena, mapped, true, jobId, pe, npes);
        }
        catch (final IOException | RuntimeException e)
        {
            arena.close();
            deleteQuietly(file);
            throw failure(prefix, file, heapSizeBytes, String.valueOf(e), e);
        }
    }

    /**
     * Maps a peer's heap file, waiting up to {@link #DEFAULT_PEER_TIMEOUT} for it to appear and be READY.
     *
     * @see #openPeer(Path, String, int, int, long, Duration)
     */
    public static HeapFile openPeer(
        final Path directory, final String jobId, final int pe, final int npes, final long expectedHeapSizeBytes)
    {
        return openPeer(directory, jobId, pe, npes, expectedHeapSizeBytes, DEFAULT_PEER_TIMEOUT);
    }

    /**
     * Maps a peer's heap file read-write and checks its header: magic, layout version, state READY, job id, PE,
     * number of PEs and heap size. Waits until {@code timeout} for the file to appear and become READY.
     *
     * @param directory             where the peer created it.
     * @param jobId                 this job's identifier.
     * @param pe                    the peer.
     * @param npes                  the number of PEs in the job.
     * @param expectedHeapSizeBytes the data region size every PE uses.
     * @param timeout               how long to wait for the file and its READY state.
     * @return the peer's mapped heap; {@link #unlink()} is not allowed on it.
     * @throws ShmemInitException naming the file and the expected and found value of the first field that
     *                            differs, or saying the file never appeared or never became READY.
     */
    public static HeapFile openPeer(
        final Path directory,
        final String jobId,
        final int pe,
        final int npes,
        final long expectedHeapSizeBytes,
        final Duration timeout)
    {
        checkJobId(jobId);
        checkPe(pe, npes);
        final Path file = path(directory, jobId, pe);
        final long startNs = System.nanoTime();
        final long timeoutNs = timeout.toNanos();

        final FileChannel channel = openWhenPresent(file, jobId, pe, startNs, timeout);
        final Arena arena = Arena.ofShared();
        try (channel)
        {
            long size;
            while ((size = channel.size()) < HeapLayout.HEADER_LENGTH)
            {
                if (System.nanoTime() - startNs > timeoutNs)
                {
                    throw new ShmemInitException("heap file " + file + ": size mismatch: expected " +
                        (HeapLayout.DATA_OFFSET + expectedHeapSizeBytes) + " bytes, found " + size + " after " +
                        timeout.toMillis() + " ms");
                }
                pause(file);
            }
            final MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            int state;
            while ((state = HeapLayout.stateAcquire(mapped)) != HeapLayout.STATE_READY && state != HeapLayout.STATE_CLOSED)
            {
                if (System.nanoTime() - startNs > timeoutNs)
                {
                    throw new ShmemInitException("heap file " + file + ": not READY after " + timeout.toMillis() +
                        " ms (state " + HeapLayout.stateName(state) + "): its PE has not finished creating it");
                }
                pause(file);
            }
            HeapLayout.checkHeader(mapped, jobId, pe, npes, expectedHeapSizeBytes, file);
            if (size != HeapLayout.DATA_OFFSET + expectedHeapSizeBytes)
            {
                throw new ShmemInitException("heap file " + file + ": file size mismatch: expected " +
                    (HeapLayout.DATA_OFFSET + expectedHeapSizeBytes) + " bytes, found " + size);
            }
            return new HeapFile(file, arena, mapped, false, jobId, pe, npes);
        }
        catch (final IOException e)
        {
            arena.close();
            throw new ShmemInitException("cannot map peer heap file " + file + ": " + e, e);
        }
        catch (final RuntimeException e)
        {
            arena.close();
            throw e;
        }
    }

    /**
     * @param jobId a job identifier.
     * @return {@code jobId}, when it is 1 to {@link HeapLayout#MAX_JOB_ID_LENGTH} characters from
     *         {@code [A-Za-z0-9._-]}, so it is safe inside a file name.
     * @throws IllegalArgumentException otherwise, naming the job id and the offending character.
     */
    public static String checkJobId(final String jobId)
    {
        if (jobId == null || jobId.isEmpty() || jobId.length() > HeapLayout.MAX_JOB_ID_LENGTH)
        {
            throw new IllegalArgumentException("jobId '" + jobId + "' must have 1 to " +
                HeapLayout.MAX_JOB_ID_LENGTH + " characters");
        }
        for (int i = 0; i < jobId.length(); i++)
        {
            final char c = jobId.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '_' || c == '-'))
            {
                throw new IllegalArgumentException("jobId '" + jobId + "' has character '" + c + "' at index " + i +
                    "; only [A-Za-z0-9._-] are allowed");
            }
        }
        return jobId;
    }

    /** @return the file name of a PE's heap: {@code jshmem-<jobId>-pe<N>.heap}. */
    public static String fileName(final String jobId, final int pe)
    {
        return FILE_PREFIX + checkJobId(jobId) + "-pe" + pe + FILE_SUFFIX;
    }

    /** @return the path of a PE's heap file in {@code directory}. */
    public static Path path(final Path directory, final String jobId, final int pe)
    {
        return directory.resolve(fileName(jobId, pe));
    }

    /** @return the data region: symmetric offset 0 is its first byte, {@link #dataSize()} its size. */
    public MemorySegment dataSegment()
    {
        return data;
    }

    /** @return the data region's size in bytes. */
    public long dataSize()
    {
        return data.byteSize();
    }

    /** @return the file's path (its name may already be unlinked). */
    public Path path()
    {
        return path;
    }

    /** @return true for this PE's own heap, false for a peer's mapping. */
    public boolean isOwner()
    {
        return owner;
    }

    public String jobId()
    {
        return jobId;
    }

    /** @return the PE whose heap this is. */
    public int pe()
    {
        return pe;
    }

    public int npes()
    {
        return npes;
    }

    /** @return whether {@link #unlink()} or {@link #close()} removed the name. */
    public synchronized boolean isUnlinked()
    {
        return unlinked;
    }

    /** @return whether {@link #close()} has run. */
    public synchronized boolean isClosed()
    {
        return closed;
    }

    /** The header page, for the layout's accessors and tests. */
    MemorySegment headerSegment()
    {
        return header;
    }

    /**
     * Removes the file's name; the mappings (this one and every peer's) stay valid. Call once every local peer
     * has mapped the file. Idempotent.
     *
     * @throws IllegalStateException on a peer's mapping: only the owner removes its file.
     * @throws ShmemException        when the file system refuses.
     */
    public synchronized void unlink()
    {
        if (!owner)
        {
            throw new IllegalStateException("pe " + pe + "'s heap file " + path + " is a peer mapping; only its " +
                "owner unlinks it");
        }
        if (!unlinked)
        {
            try
            {
                Files.deleteIfExists(path);
                unlinked = true;
            }
            catch (final IOException e)
            {
                throw new ShmemException("cannot unlink heap file " + path + ": " + e, e);
            }
        }
    }

    /**
     * Unmaps the file and, for the owner, marks the header CLOSED and unlinks the file if that has not
     * happened. Idempotent. Every segment from this object is invalid afterwards.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try
        {
            if (owner)
            {
                HeapLayout.signalClosed(header);
            }
            arena.close();
        }
        catch (final RuntimeException e)
        {
            failure = e;
        }
        if (owner && !unlinked)
        {
            try
            {
                unlink();
            }
            catch (final RuntimeException e)
            {
                if (failure == null)
                {
                    failure = e;
                }
                else
                {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    @Override
    public String toString()
    {
        return "HeapFile{" + path + " pe=" + pe + "/" + npes + " job=" + jobId + " dataSize=" + data.byteSize() +
            (owner ? " owner" : " peer") + (unlinked ? " unlinked" : "") + (closed ? " closed" : "") + '}';
    }

    private static FileChannel openWhenPresent(
        final Path file, final String jobId, final int pe, final long startNs, final Duration timeout)
    {
        while (true)
        {
            try
            {
                return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            catch (final NoSuchFileException e)
            {
                if (System.nanoTime() - startNs > timeout.toNanos())
                {
                    throw new ShmemInitException("no heap file " + file + " for pe " + pe + " of job '" + jobId +
                        "' after " + timeout.toMillis() + " ms: that PE has not created it, or it has exited");
                }
                pause(file);
            }
            catch (final IOException e)
            {
                throw new ShmemInitException("cannot open peer heap file " + file + ": " + e, e);
            }
        }
    }

    private static void checkPe(final int pe, final int npes)
    {
        if (npes <= 0 || pe < 0 || pe >= npes)
        {
            throw new IllegalArgumentException("pe=" + pe + " npes=" + npes + ": need 0 <= pe < npes");
        }
    }

    private static void pause(final Path file)
    {
        LockSupport.parkNanos(PAUSE_NS);
        if (Thread.interrupted())
        {
            Thread.currentThread().interrupt();
            throw new ShmemInitException("interrupted while waiting for heap file " + file);
        }
    }

    private static ShmemInitException failure(
        final String prefix, final Path file, final long heapSizeBytes, final String why, final Throwable cause)
    {
        final String option = ShmemOptions.SYMMETRIC_SIZE.envName();
        return new ShmemInitException(prefix + "cannot create symmetric heap file " + file + " of " +
            (HeapLayout.DATA_OFFSET + heapSizeBytes) + " bytes (" + option + "=" + heapSizeBytes + " plus a " +
            HeapLayout.HEADER_LENGTH + "-byte header): " + why + ". Lower " + option + ", or make room in " +
            file.getParent() + " (a tmpfs sized by the system; every PE on the node needs its own heap).", cause);
    }

    private static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignore)
        {
            // The creation failure is the error worth reporting.
        }
    }
}
