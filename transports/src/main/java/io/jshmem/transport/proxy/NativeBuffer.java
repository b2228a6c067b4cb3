package io.jshmem.transport.proxy;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A connection buffer of the proxy: 64-byte aligned native memory seen as a little-endian {@link ByteBuffer}. A
 * connection's buffers are replaced each time they grow or shrink, hundreds of times a second on a PE that talks to
 * hundreds of peers, so freeing one must be cheap.
 * <p>
 * Where this module may call restricted methods ({@code --enable-native-access}, which shmemrun passes), the memory
 * comes from libc through {@link Linker} downcalls: {@code aligned_alloc} and {@code free} (about 0.4 µs for both),
 * and from {@link #MAP_MIN} a mapping of its own ({@code mmap}, {@code munmap}), so that a large buffer's pages go
 * back to the system when it shrinks instead of staying in the allocator's free lists. Otherwise (another launcher's
 * {@code java} without the flag, which would print the JDK's warning for a restricted call) each buffer is an
 * {@link Arena#ofShared() shared arena} of its own. Closing one of those is
 * a handshake with every thread of the JVM: 60 µs in a JVM alone on the 2-core machine, and with 32 PEs per core
 * (64 PEs of ISx on 8 test hosts) 1,750 of them per PE took a third of the machine's time (docs/transports.md,
 * "Connection buffers").
 * <p>
 * Not thread-safe: the owner (the agent's duty cycle) frees a buffer only once nothing reads it.
 */
final class NativeBuffer
{
    private static final long ALIGNMENT = 64;
    /** From this size a buffer is a mapping of its own, whose unmapping returns its pages to the system at once. */
    static final int MAP_MIN = 64 << 10;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final MethodHandle ALIGNED_ALLOC;
    private static final MethodHandle FREE;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;

    static
    {
        MethodHandle alloc = null;
        MethodHandle free = null;
        MethodHandle map = null;
        MethodHandle unmap = null;
        if (NativeBuffer.class.getModule().isNativeAccessEnabled())
        {
            final Linker linker = Linker.nativeLinker();
            final var a = linker.defaultLookup().find("aligned_alloc");
            final var f = linker.defaultLookup().find("free");
            final var m = linker.defaultLookup().find("mmap");
            final var u = linker.defaultLookup().find("munmap");
            if (a.isPresent() && f.isPresent() && m.isPresent() && u.isPresent())
            {
                alloc = linker.downcallHandle(a.get(), FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG), Linker.Option.critical(false));
                free = linker.downcallHandle(f.get(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS),
                    Linker.Option.critical(false));
                map = linker.downcallHandle(m.get(), FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG));
                unmap = linker.downcallHandle(u.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG));
            }
        }
        ALIGNED_ALLOC = alloc;
        FREE = free;
        MMAP = map;
        MUNMAP = unmap;
    }

    final MemorySegment segment;
    final ByteBuffer bytes;
    /** The buffer's own shared arena, or null where it came from libc. */
    private final Arena arena;
    private boolean freed;

    private NativeBuffer(final MemorySegment segment, final Arena arena)
    {
        this.segment = segment;
        this.bytes = segment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        this.arena = arena;
    }

    /** @return whether buffers come from libc (native access granted), not from shared arenas. */
    static boolean fromLibc()
    {
        return ALIGNED_ALLOC != null;
    }

    /**
     * @param capacity bytes, a power of two of at least 64
     * @return a buffer of {@code capacity} bytes, position 0 (its bytes are not cleared)
     * @throws IllegalArgumentException for a capacity under 64 bytes
     * @throws OutOfMemoryError where the machine has no memory for it
     */
    static NativeBuffer allocate(final int capacity)
    {
        if (capacity < ALIGNMENT)
        {
            throw new IllegalArgumentException("a proxy buffer of " + capacity + " bytes: at least " + ALIGNMENT);
        }
        if (ALIGNED_ALLOC == null)
        {
            final Arena arena = Arena.ofShared();
            return new NativeBuffer(arena.allocate(capacity, ALIGNMENT), arena);
        }
        final boolean mapped = capacity >= MAP_MIN;
        final MemorySegment at;
        try
        {
            at = mapped
                ? (MemorySegment)MMAP.invokeExact(MemorySegment.NULL, (long)capacity, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L)
                : (MemorySegment)ALIGNED_ALLOC.invokeExact(ALIGNMENT, (long)capacity);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException((mapped ? "mmap" : "aligned_alloc") + " of a " + capacity
                + "-byte proxy buffer failed", t);
        }
        if (at.address() == 0 || at.address() == -1L)
        {
            throw new OutOfMemoryError("no native memory for a " + capacity + "-byte proxy buffer");
        }
        return new NativeBuffer(at.reinterpret(capacity), null);
    }

    /**
     * @return a buffer of {@code capacity} bytes holding this one's first {@code position()} bytes, at that position;
     *         this one is freed
     */
    NativeBuffer resize(final int capacity)
    {
        final NativeBuffer next = allocate(capacity);
        final int used = bytes.position();
        MemorySegment.copy(segment, 0, next.segment, 0, used);
        next.bytes.position(used);
        free();
        return next;
    }

    /** Frees the memory (once; later calls do nothing). Nothing may read the buffer afterwards. */
    void free()
    {
        if (freed)
        {
            return;
        }
        freed = true;
        if (arena != null)
        {
            arena.close();
            return;
        }
        final int result;
        try
        {
            if (segment.byteSize() >= MAP_MIN)
            {
                result = (int)MUNMAP.invokeExact(segment, segment.byteSize());
            }
            else
            {
                FREE.invokeExact(segment);
                result = 0;
            }
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("freeing a " + segment.byteSize() + "-byte proxy buffer failed", t);
        }
        if (result != 0)
        {
            throw new IllegalStateException("munmap of a " + segment.byteSize() + "-byte proxy buffer failed");
        }
    }
}
