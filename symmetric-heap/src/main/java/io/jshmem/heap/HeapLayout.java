package io.jshmem.heap;

import io.jshmem.ShmemInitException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * Layout of a symmetric heap file: a one-page header at file offset 0, then the data region, whose first
 * byte is symmetric offset 0. Fields are in the node's native byte order (the file never leaves the node).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 Magic "JSHMEMHP" (8 ASCII bytes)              |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        Layout Version                         |  8
 *  +---------------------------------------------------------------+
 *  |                     Header Length (4096)                      | 12
 *  +---------------------------------------------------------------+
 *  |                   Data Offset (page aligned)                  | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   Heap (data) Size in bytes                   | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                              PE                               | 32
 *  +---------------------------------------------------------------+
 *  |                             nPEs                              | 36
 *  +---------------------------------------------------------------+
 *  |                          Creator PID                          | 40
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Creation Time (ms since epoch)                | 48
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |    State (INITIALIZING, READY, CLOSED; READY is a release)    | 56
 *  +---------------------------------------------------------------+
 *  |                     Job Id Length (bytes)                     | 60
 *  +---------------------------------------------------------------+
 *  |                 Job Id (up to 64 ASCII bytes)                ...  64
 *  +---------------------------------------------------------------+
 *  |                 Reserved (zero) up to 4096                   ... 128
 *  +---------------------------------------------------------------+
 *  |                 Data region: symmetric offset 0              ... 4096
 *  +---------------------------------------------------------------+
 * </pre>
 * The creator writes every field, then stores {@link #STATE_READY} with release semantics
 * ({@link #signalReady(MemorySegment)}); a reader loads the state with acquire semantics
 * ({@link #stateAcquire(MemorySegment)}) before it trusts any other field.
 */
public final class HeapLayout
{
    /** Bumped whenever a field moves or changes meaning; peers with another version are rejected. */
    public static final int LAYOUT_VERSION = 1;

    /** The magic bytes that open every heap file. */
    public static final String MAGIC = "JSHMEMHP";

    public static final int MAGIC_OFFSET = 0;
    public static final int MAGIC_LENGTH = 8;
    public static final int LAYOUT_VERSION_OFFSET = 8;
    public static final int HEADER_LENGTH_OFFSET = 12;
    public static final int DATA_OFFSET_OFFSET = 16;
    public static final int HEAP_SIZE_OFFSET = 24;
    public static final int PE_OFFSET = 32;
    public static final int NPES_OFFSET = 36;
    public static final int CREATOR_PID_OFFSET = 40;
    public static final int CREATION_TIME_OFFSET = 48;
    public static final int STATE_OFFSET = 56;
    public static final int JOB_ID_LENGTH_OFFSET = 60;
    public static final int JOB_ID_OFFSET = 64;
    public static final int MAX_JOB_ID_LENGTH = 64;

    /** The header occupies one page. */
    public static final int HEADER_LENGTH = 4096;

    /** The data region starts right after the header, page aligned. */
    public static final long DATA_OFFSET = HEADER_LENGTH;

    /** Zero: the file exists but nobody has written a header yet. */
    public static final int STATE_NONE = 0;
    public static final int STATE_INITIALIZING = 1;
    public static final int STATE_READY = 2;
    /** Written by the owner as it closes; a peer must not start using the heap. */
    public static final int STATE_CLOSED = 3;

    private static final byte[] MAGIC_BYTES = MAGIC.getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle STATE = ValueLayout.JAVA_INT.varHandle();

    private HeapLayout()
    {
    }

    /**
     * Writes every header field and leaves the state at {@link #STATE_INITIALIZING}; call
     * {@link #signalReady(MemorySegment)} afterwards.
     *
     * @param header         at least {@link #HEADER_LENGTH} bytes, 8-byte aligned (a file mapping is).
     * @param jobId          ASCII, at most {@link #MAX_JOB_ID_LENGTH} bytes.
     * @param pe             this PE.
     * @param npes           the number of PEs in the job.
     * @param heapSizeBytes  the data region's size.
     * @param creatorPid     the creating process.
     * @param creationTimeMs when it was created, ms since the epoch (informational).
     */
    public static void writeHeader(
        final MemorySegment header,
        final String jobId,
        final int pe,
        final int npes,
        final long heapSizeBytes,
        final long creatorPid,
        final long creationTimeMs)
    {
        final byte[] job = jobId.getBytes(StandardCharsets.US_ASCII);
        if (job.length > MAX_JOB_ID_LENGTH)
        {
            throw new IllegalArgumentException(
                "jobId has " + job.length + " bytes, at most " + MAX_JOB_ID_LENGTH + " fit the heap header");
        }
        header.set(ValueLayout.JAVA_INT, STATE_OFFSET, STATE_INITIALIZING);
        MemorySegment.copy(MAGIC_BYTES, 0, header, ValueLayout.JAVA_BYTE, MAGIC_OFFSET, MAGIC_LENGTH);
        header.set(ValueLayout.JAVA_INT, LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        header.set(ValueLayout.JAVA_INT, HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        header.set(ValueLayout.JAVA_LONG, DATA_OFFSET_OFFSET, DATA_OFFSET);
        header.set(ValueLayout.JAVA_LONG, HEAP_SIZE_OFFSET, heapSizeBytes);
        header.set(ValueLayout.JAVA_INT, PE_OFFSET, pe);
        header.set(ValueLayout.JAVA_INT, NPES_OFFSET, npes);
        header.set(ValueLayout.JAVA_LONG, CREATOR_PID_OFFSET, creatorPid);
        header.set(ValueLayout.JAVA_LONG, CREATION_TIME_OFFSET, creationTimeMs);
        header.set(ValueLayout.JAVA_INT, JOB_ID_LENGTH_OFFSET, job.length);
        header.asSlice(JOB_ID_OFFSET, MAX_JOB_ID_LENGTH).fill((byte)0);
        MemorySegment.copy(job, 0, header, ValueLayout.JAVA_BYTE, JOB_ID_OFFSET, job.length);
    }

    /** Publishes a complete header: a release store that pairs with the acquire load in {@link #stateAcquire}. */
    public static void signalReady(final MemorySegment header)
    {
        STATE.setRelease(header, (long)STATE_OFFSET, STATE_READY);
    }

    /** Marks the heap as closing (release store); late peers then refuse it. */
    public static void signalClosed(final MemorySegment header)
    {
        STATE.setRelease(header, (long)STATE_OFFSET, STATE_CLOSED);
    }

    /** @return the state word, loaded with acquire semantics (pairs with {@link #signalReady}). */
    public static int stateAcquire(final MemorySegment header)
    {
        return (int)STATE.getAcquire(header, (long)STATE_OFFSET);
    }

    /** @return a name for a state word value. */
    public static String stateName(final int state)
    {
        return switch (state)
        {
            case STATE_NONE -> "NONE";
            case STATE_INITIALIZING -> "INITIALIZING";
            case STATE_READY -> "READY";
            case STATE_CLOSED -> "CLOSED";
            default -> "UNKNOWN(" + state + ")";
        };
    }

    /** @return whether the header starts with {@link #MAGIC}. */
    public static boolean hasMagic(final MemorySegment header)
    {
        return MAGIC.equals(magic(header));
    }

    /** @return the first 8 bytes as text, non-printable bytes as {@code \xNN}. */
    public static String magic(final MemorySegment header)
    {
        final StringBuilder sb = new StringBuilder(MAGIC_LENGTH);
        for (int i = 0; i < MAGIC_LENGTH; i++)
        {
            final int b = header.get(ValueLayout.JAVA_BYTE, MAGIC_OFFSET + i) & 0xFF;
            if (b >= 0x20 && b < 0x7F)
            {
                sb.append((char)b);
            }
            else
            {
                sb.append(String.format("\\x%02x", b));
            }
        }
        return sb.toString();
    }

    public static int layoutVersion(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_INT, LAYOUT_VERSION_OFFSET);
    }

    public static int headerLength(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_INT, HEADER_LENGTH_OFFSET);
    }

    public static long dataOffset(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_LONG, DATA_OFFSET_OFFSET);
    }

    public static long heapSize(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_LONG, HEAP_SIZE_OFFSET);
    }

    public static int pe(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_INT, PE_OFFSET);
    }

    public static int npes(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_INT, NPES_OFFSET);
    }

    public static long creatorPid(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_LONG, CREATOR_PID_OFFSET);
    }

    public static long creationTimeMs(final MemorySegment header)
    {
        return header.get(ValueLayout.JAVA_LONG, CREATION_TIME_OFFSET);
    }

    /** @return the job id, or {@code null} when its stored length is out of range (not a valid header). */
    public static String jobId(final MemorySegment header)
    {
        final int length = header.get(ValueLayout.JAVA_INT, JOB_ID_LENGTH_OFFSET);
        if (length < 0 || length > MAX_JOB_ID_LENGTH)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        MemorySegment.copy(header, ValueLayout.JAVA_BYTE, JOB_ID_OFFSET, bytes, 0, length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * Rejects a layout version other than {@link #LAYOUT_VERSION}.
     *
     * @param foundVersion the version a header holds.
     * @param where        the file, for the message.
     * @throws ShmemInitException naming both versions and the file.
     */
    public static void checkVersion(final int foundVersion, final Object where)
    {
        if (foundVersion != LAYOUT_VERSION)
        {
            throw new ShmemInitException("heap file " + where + ": layout version mismatch: expected " +
                LAYOUT_VERSION + ", found " + foundVersion + " (a jshmem of another version created it)");
        }
    }

    /**
     * Checks a peer's header against what this PE expects: magic, state READY, version, header length, data
     * offset, job id, PE, number of PEs and heap size, in that order.
     *
     * @param header        the mapped header.
     * @param jobId         the expected job id.
     * @param pe            the expected PE.
     * @param npes          the expected number of PEs.
     * @param heapSizeBytes the expected data region size.
     * @param where         the file, for the message.
     * @throws ShmemInitException naming the field, the expected and the found value, and the file.
     */
    public static void checkHeader(
        final MemorySegment header,
        final String jobId,
        final int pe,
        final int npes,
        final long heapSizeBytes,
        final Object where)
    {
        final int state = stateAcquire(header);
        final boolean magicWritten = header.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET) != 0;
        if (!hasMagic(header) && (magicWritten || state == STATE_READY))
        {
            throw mismatch(where, "magic", MAGIC, magic(header));
        }
        if (state != STATE_READY)
        {
            throw mismatch(where, "state", stateName(STATE_READY), stateName(state));
        }
        checkVersion(layoutVersion(header), where);
        expect(where, "header length", HEADER_LENGTH, headerLength(header));
        expect(where, "data offset", DATA_OFFSET, dataOffset(header));
        final String foundJob = jobId(header);
        if (!jobId.equals(foundJob))
        {
            throw mismatch(where, "job id", "'" + jobId + "'", foundJob == null ? "(unreadable)" : "'" + foundJob + "'");
        }
        expect(where, "pe", pe, pe(header));
        expect(where, "npes", npes, npes(header));
        expect(where, "heap size", heapSizeBytes, heapSize(header));
    }

    private static void expect(final Object where, final String field, final long expected, final long found)
    {
        if (expected != found)
        {
            throw mismatch(where, field, Long.toString(expected), Long.toString(found));
        }
    }

    private static ShmemInitException mismatch(
        final Object where, final String field, final String expected, final String found)
    {
        return new ShmemInitException(
            "heap file " + where + ": " + field + " mismatch: expected " + expected + ", found " + found);
    }
}
