package io.jshmem.heap;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Removes heap files that crashed jobs left behind. Conservative by design: a file is removed only when
 * <ul>
 *   <li>it is a regular file (not a link) named {@code jshmem-*.heap},</li>
 *   <li>its header is readable: the magic, this layout version, a known state word, a valid job id, and a name
 *       equal to {@code HeapFile.fileName(jobId, pe)} from that header, and</li>
 *   <li>the creator process recorded in the header is no longer alive.</li>
 * </ul>
 * Anything else (other files, unreadable headers, other layout versions, live creators, files another user
 * owns) is left alone. Limitation: a creator in another PID namespace sharing the directory (another
 * container with the same {@code /dev/shm}) looks dead from here; do not sweep a directory shared that way.
 * <p>
 * Threads: stateless; any thread.
 */
public final class StaleHeapFiles
{
    private StaleHeapFiles()
    {
    }

    /**
     * @param directory the directory to sweep, usually {@link HeapFile#DEFAULT_DIRECTORY}.
     * @return the files removed.
     * @throws IOException when the directory cannot be listed.
     */
    public static List<Path> sweep(final Path directory) throws IOException
    {
        final List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(directory, HeapFile.FILE_PREFIX + "*" + HeapFile.FILE_SUFFIX))
        {
            for (final Path file : files)
            {
                if (removeIfStale(file))
                {
                    removed.add(file);
                }
            }
        }
        return removed;
    }

    /**
     * Removes one file under the rules above: a PE about to create its heap file clears its own name this way (a
     * crashed earlier job with the same job id), in constant time, while one PE per node sweeps the whole directory.
     *
     * @param file a path that may name a stale heap file.
     * @return whether it was a heap file of a dead creator and is now removed.
     */
    public static boolean removeIfStale(final Path file)
    {
        final OptionalLong pid = creatorPid(file);
        if (pid.isPresent() && !isAlive(pid.getAsLong()))
        {
            try
            {
                return Files.deleteIfExists(file);
            }
            catch (final IOException ignore)
            {
                // Not ours to remove (another user's file in a sticky directory): leave it.
            }
        }
        return false;
    }

    /**
     * @param file a candidate heap file.
     * @return the creator PID from a readable, self-consistent heap header, or empty when the file is not one.
     */
    static OptionalLong creatorPid(final Path file)
    {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
        {
            return OptionalLong.empty();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            Arena arena = Arena.ofConfined())
        {
            if (channel.size() < HeapLayout.HEADER_LENGTH)
            {
                return OptionalLong.empty();
            }
            final MemorySegment header =
                channel.map(FileChannel.MapMode.READ_ONLY, 0, HeapLayout.HEADER_LENGTH, arena);
            final int state = HeapLayout.stateAcquire(header);
            if (!HeapLayout.hasMagic(header) ||
                HeapLayout.layoutVersion(header) != HeapLayout.LAYOUT_VERSION ||
                (state != HeapLayout.STATE_INITIALIZING && state != HeapLayout.STATE_READY &&
                state != HeapLayout.STATE_CLOSED))
            {
                return OptionalLong.empty();
            }
            final String jobId = HeapLayout.jobId(header);
            final int pe = HeapLayout.pe(header);
            final long pid = HeapLayout.creatorPid(header);
            if (jobId == null || pe < 0 || pid <= 0 || !isValidJobId(jobId) ||
                !HeapFile.fileName(jobId, pe).equals(file.getFileName().toString()))
            {
                return OptionalLong.empty();
            }
            return OptionalLong.of(pid);
        }
        catch (final IOException | RuntimeException e)
        {
            return OptionalLong.empty();
        }
    }

    private static boolean isValidJobId(final String jobId)
    {
        try
        {
            HeapFile.checkJobId(jobId);
            return true;
        }
        catch (final IllegalArgumentException e)
        {
            return false;
        }
    }

    private static boolean isAlive(final long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
