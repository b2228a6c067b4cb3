package io.jshmem.bootstrap;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * The few PMIx client calls jshmem needs under a PMIx server (Open MPI's {@code mpirun}, PRRTE,
 * SLURM's {@code --mpi=pmix}), through FFM on {@code libpmix.so.2}: init, put one string, commit,
 * fence (collecting data), get one string of another rank, finalize. PMIx 4 layouts (the ABI of
 * libpmix2 4.x):
 *
 * <pre>
 *   pmix_proc_t   char nspace[256]; uint32 rank                                   260 bytes
 *   pmix_value_t  uint16 type; (pad 6); union data (char *string, bool flag, int integer ...)   32 bytes
 *   pmix_info_t   char key[512]; uint32 flags; (pad 4); pmix_value_t value          552 bytes
 * </pre>
 *
 * Every PE of the namespace must call {@link #exchange} (the fence is collective). The client is
 * finalized before {@link #exchange} returns, so the server sees a clean PMIx_Finalize whatever the PE
 * does later.
 */
final class Pmix
{
    static final String LIBRARY = "libpmix.so.2";
    static final int PROC_SIZE = 260;
    static final int NSPACE_OFFSET = 0;
    static final int RANK_OFFSET = 256;
    static final int VALUE_SIZE = 32;
    static final int VALUE_DATA_OFFSET = 8;
    static final int INFO_SIZE = 552;
    static final int INFO_VALUE_OFFSET = 520;
    static final short PMIX_BOOL = 1;
    static final short PMIX_STRING = 3;
    static final short PMIX_INT = 6;
    static final byte PMIX_GLOBAL = 3;

    private Pmix()
    {
    }

    /** @return whether this process was started by a PMIx server (its rendezvous variables are set). */
    static boolean underServer(final java.util.function.Function<String, String> env)
    {
        if (env.apply("PMIX_NAMESPACE") == null || env.apply("PMIX_RANK") == null)
        {
            return false;
        }
        for (final String v : new String[] {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI21", "PMIX_SERVER_URI2"})
        {
            if (env.apply(v) != null)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Rank {@code root} puts {@code value} under {@code key}; everyone fences; the others get it.
     *
     * @param key       the key (jshmem's own prefix).
     * @param value     what the root publishes; ignored elsewhere (may be null).
     * @param rootRank  the publishing rank.
     * @param timeoutS  the fence's timeout (PMIX_TIMEOUT), seconds.
     * @param prefix    {@code [pe r/n] } for messages.
     * @return the root's value.
     * @throws IllegalStateException naming the call and PMIx's error string if a call fails.
     */
    static String exchange(final String key, final String value, final int rootRank, final int timeoutS, final String prefix)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Linker linker = Linker.nativeLinker();
            final SymbolLookup lib;
            try
            {
                lib = SymbolLookup.libraryLookup(LIBRARY, arena);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalStateException(prefix + "bootstrap: pmix: cannot load " + LIBRARY + " (" + ex.getMessage()
                    + "): install libpmix2, or give the root with SHMEM_BOOTSTRAP_UID_SESSION_ID=host:port", ex);
            }
            final MethodHandle init = fn(linker, lib, "PMIx_Init", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            final MethodHandle finalizeFn = fn(linker, lib, "PMIx_Finalize", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            final MethodHandle put = fn(linker, lib, "PMIx_Put", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_BYTE, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            final MethodHandle commit = fn(linker, lib, "PMIx_Commit", FunctionDescriptor.of(ValueLayout.JAVA_INT));
            final MethodHandle fence = fn(linker, lib, "PMIx_Fence", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            final MethodHandle get = fn(linker, lib, "PMIx_Get", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
            final MethodHandle errorString = fn(linker, lib, "PMIx_Error_string", FunctionDescriptor.of(ValueLayout.ADDRESS,
                ValueLayout.JAVA_INT));

            final MemorySegment me = arena.allocate(PROC_SIZE, 8);
            check(errorString, prefix, "PMIx_Init", (int)init.invokeExact(me, MemorySegment.NULL, 0L));
            try
            {
                final int myRank = me.get(ValueLayout.JAVA_INT, RANK_OFFSET);
                final MemorySegment k = arena.allocateFrom(key);
                if (myRank == rootRank)
                {
                    final MemorySegment v = arena.allocate(VALUE_SIZE, 8);
                    v.set(ValueLayout.JAVA_SHORT, 0, PMIX_STRING);
                    v.set(ValueLayout.ADDRESS, VALUE_DATA_OFFSET, arena.allocateFrom(value));
                    check(errorString, prefix, "PMIx_Put " + key, (int)put.invokeExact(PMIX_GLOBAL, k, v));
                    check(errorString, prefix, "PMIx_Commit", (int)commit.invokeExact());
                }
                final MemorySegment infos = arena.allocate(2L * INFO_SIZE, 8);
                info(infos, 0, "pmix.collect", PMIX_BOOL, 1);
                info(infos, 1, "pmix.timeout", PMIX_INT, Math.max(1, timeoutS));
                check(errorString, prefix, "PMIx_Fence", (int)fence.invokeExact(MemorySegment.NULL, 0L, infos, 2L));
                if (myRank == rootRank)
                {
                    return value;
                }
                final MemorySegment root = arena.allocate(PROC_SIZE, 8);
                root.copyFrom(me);
                root.set(ValueLayout.JAVA_INT, RANK_OFFSET, rootRank);
                final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
                check(errorString, prefix, "PMIx_Get " + key + " of rank " + rootRank,
                    (int)get.invokeExact(root, k, MemorySegment.NULL, 0L, out));
                final MemorySegment v = out.get(ValueLayout.ADDRESS, 0).reinterpret(VALUE_SIZE);
                final short type = v.get(ValueLayout.JAVA_SHORT, 0);
                if (type != PMIX_STRING)
                {
                    throw new IllegalStateException(prefix + "bootstrap: pmix: " + key + " of rank " + rootRank + " has type " + type
                        + ", expected PMIX_STRING " + PMIX_STRING);
                }
                return v.get(ValueLayout.ADDRESS, VALUE_DATA_OFFSET).reinterpret(Integer.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
            }
            finally
            {
                final int rc = (int)finalizeFn.invokeExact(MemorySegment.NULL, 0L);
                if (rc != 0)
                {
                    System.err.println(prefix + "bootstrap: pmix: PMIx_Finalize returned " + rc);
                }
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(prefix + "bootstrap: pmix: " + t, t);
        }
    }

    private static void info(final MemorySegment infos, final int i, final String key, final short type, final int value)
    {
        final MemorySegment e = infos.asSlice((long)i * INFO_SIZE, INFO_SIZE);
        final byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(k, 0, e, ValueLayout.JAVA_BYTE, 0, k.length);
        e.set(ValueLayout.JAVA_SHORT, INFO_VALUE_OFFSET, type);
        if (type == PMIX_BOOL)
        {
            e.set(ValueLayout.JAVA_BYTE, INFO_VALUE_OFFSET + VALUE_DATA_OFFSET, (byte)value);
        }
        else
        {
            e.set(ValueLayout.JAVA_INT, INFO_VALUE_OFFSET + VALUE_DATA_OFFSET, value);
        }
    }

    private static MethodHandle fn(final Linker linker, final SymbolLookup lib, final String name, final FunctionDescriptor d)
    {
        return linker.downcallHandle(lib.find(name).orElseThrow(() -> new IllegalStateException(LIBRARY + " has no " + name)), d);
    }

    private static void check(final MethodHandle errorString, final String prefix, final String call, final int rc) throws Throwable
    {
        if (rc != 0)
        {
            final MemorySegment s = (MemorySegment)errorString.invokeExact(rc);
            final String text = s.equals(MemorySegment.NULL) ? "?" : s.reinterpret(256).getString(0, StandardCharsets.UTF_8);
            throw new IllegalStateException(prefix + "bootstrap: pmix: " + call + " failed: " + text + " (" + rc + ")");
        }
    }
}
