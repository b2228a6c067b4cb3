package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.HeapExhaustedException;
import io.jshmem.MallocHint;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory management (spec 1.2): malloc, calloc (zeroed even over freed dirty memory), align (offset
 * and address alignment), realloc (keeps the prefix when it grows past a neighbour and when it
 * shrinks; size 0 frees; null allocates; failure leaves the object intact on every PE),
 * malloc_with_hints (usable for atomics and signals), the typed allocateX shortcuts (zeroed, right
 * length), free (null is a no-op, the handle is dead after), size 0 giving null, the same offset on
 * every PE (checked by exchanging {@code offset()} with puts), heap accounting, and heap exhaustion:
 * {@link HeapExhaustedException} on every PE, its message naming SHMEM_SYMMETRIC_SIZE, at the same
 * allocation on every PE, and the heap still usable afterwards. Runs at any PE count.
 */
public final class MemoryMgmt
{
    private MemoryMgmt()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("MemoryMgmt", 1, (s, c) ->
        {
            final SymmetricLongs offs = s.allocateLongs(Math.max(2, s.nPes()));
            symmetric(s, c, offs, offs, "allocateLongs");
            zeroSizes(s, c);
            malloc(s, c, offs);
            calloc(s, c, offs);
            align(s, c, offs);
            realloc(s, c, offs);
            hints(s, c, offs);
            typed(s, c, offs);
            implicitBarriers(s, c);
            exhaustion(s, c, offs);
            s.barrierAll();
            s.free(offs);
            s.free((SymmetricArray<?>)null);
            c.isTrue(!offs.isLive(), "free", "isLive() true after free");
        });
    }

    /** Every PE sends its offset of obj to every PE; each checks all agree with its own. */
    static void symmetric(final Shmem s, final Check c, final SymmetricLongs offs, final SymmetricArray<?> obj, final String routine)
    {
        for (int pe = 0; pe < c.nPes(); pe++)
        {
            s.p(offs, c.me(), obj.offset(), pe);
        }
        s.barrierAll();
        for (int pe = 0; pe < c.nPes(); pe++)
        {
            c.eq(routine + ": offset() the same on every PE", "offset of PE " + pe, pe, obj.offset(), offs.getLocal(pe));
        }
        s.barrierAll();
    }

    private static void zeroSizes(final Shmem s, final Check c)
    {
        c.section("size 0 gives null");
        c.isTrue(s.malloc(0) == null, "malloc(0)", "not null");
        c.isTrue(s.calloc(0, 8) == null, "calloc(0, 8)", "not null");
        c.isTrue(s.calloc(8, 0) == null, "calloc(8, 0)", "not null");
        c.isTrue(s.align(64, 0) == null, "align(64, 0)", "not null");
        c.isTrue(s.mallocWithHints(0, MallocHint.ATOMICS_REMOTE) == null, "mallocWithHints(0)", "not null");
        c.isTrue(s.allocateBytes(0) == null, "allocateBytes(0)", "not null");
        c.isTrue(s.allocateShorts(0) == null, "allocateShorts(0)", "not null");
        c.isTrue(s.allocateChars(0) == null, "allocateChars(0)", "not null");
        c.isTrue(s.allocateInts(0) == null, "allocateInts(0)", "not null");
        c.isTrue(s.allocateLongs(0) == null, "allocateLongs(0)", "not null");
        c.isTrue(s.allocateFloats(0) == null, "allocateFloats(0)", "not null");
        c.isTrue(s.allocateDoubles(0) == null, "allocateDoubles(0)", "not null");
        c.isTrue(s.realloc(null, 0) == null, "realloc(null, 0)", "not null");
    }

    private static void malloc(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("malloc/free");
        final long used0 = s.heapUsedBytes();
        final long free0 = s.heapFreeBytes();
        c.isTrue(free0 > 0, "heapFreeBytes", "no free heap at start: " + free0);
        final SymmetricMemory m = s.malloc(100);
        c.eq("malloc(100)", "length()", 100L, m.length());
        c.eq("malloc(100)", "byteSize()", 100L, m.byteSize());
        c.isTrue(s.heapUsedBytes() >= used0 + 100, "heapUsedBytes", "after malloc(100): " + s.heapUsedBytes() + " < " + used0 + " + 100");
        c.isTrue(s.heapFreeBytes() <= free0 - 100, "heapFreeBytes", "after malloc(100): " + s.heapFreeBytes() + " > " + free0 + " - 100");
        symmetric(s, c, offs, m, "malloc(100)");
        final byte[] src = new byte[100];
        for (int i = 0; i < 100; i++)
        {
            src[i] = (byte)(c.me() * 7 + i);
        }
        s.put(m, 0, src, 0, 100, c.right());
        s.barrierAll();
        for (int i = 0; i < 100; i++)
        {
            c.eq("malloc(100) then put", "memory", i, (byte)(c.left() * 7 + i), m.asBytes().getLocal(i));
        }
        // several live objects do not overlap
        final List<SymmetricMemory> live = new ArrayList<>();
        for (int k = 1; k <= 6; k++)
        {
            final SymmetricMemory o = s.malloc(k * 40 + 1);
            symmetric(s, c, offs, o, "malloc(" + (k * 40 + 1) + ")");
            for (final SymmetricMemory other : live)
            {
                c.isTrue(o.offset() + o.byteSize() <= other.offset() || other.offset() + other.byteSize() <= o.offset(),
                    "malloc", o + " overlaps live " + other);
            }
            live.add(o);
        }
        s.barrierAll();
        for (final SymmetricMemory o : live)
        {
            s.free(o);
            c.isTrue(!o.isLive(), "free", "isLive() true after free of " + o);
        }
        s.free(m);
        c.eq("heapUsedBytes", "after freeing everything malloc'd", used0, s.heapUsedBytes());
    }

    private static void calloc(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("calloc zeroed");
        final SymmetricMemory dirty = s.malloc(4096);
        dirty.segment().fill((byte)0xA5);
        s.free(dirty);
        final SymmetricMemory z = s.calloc(512, 8);
        c.eq("calloc(512, 8)", "byteSize()", 4096L, z.byteSize());
        symmetric(s, c, offs, z, "calloc(512, 8)");
        final byte[] bytes = z.segment().toArray(ValueLayout.JAVA_BYTE);
        int bad = 0;
        for (int i = 0; i < bytes.length && bad < 5; i++)
        {
            if (!c.eq("calloc(512, 8) over freed dirty memory", "memory", i, 0, bytes[i]))
            {
                bad++;
            }
        }
        z.segment().fill((byte)0x5A);
        s.free(z);
        final SymmetricLongs l = s.allocateLongs(512);
        for (int i = 0; i < 512; i++)
        {
            if (l.getLocal(i) != 0)
            {
                c.fail("allocateLongs(512) over freed dirty memory", "type=longs index=" + i + " expected=0 actual=" + l.getLocal(i));
                break;
            }
        }
        s.free(l);
    }

    private static void align(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("align");
        final List<SymmetricMemory> objs = new ArrayList<>();
        final SymmetricMemory pad = s.malloc(8);
        for (final long a : new long[] {8, 16, 64, 256, 4096, 65536})
        {
            final SymmetricMemory o = s.align(a, 24);
            c.eq("align(" + a + ", 24)", "byteSize()", 24L, o.byteSize());
            c.eq("align(" + a + ", 24)", "offset() % alignment", 0L, o.offset() % a);
            c.eq("align(" + a + ", 24)", "segment().address() % alignment", 0L, o.segment().address() % a);
            symmetric(s, c, offs, o, "align(" + a + ", 24)");
            objs.add(o);
            objs.add(s.malloc(8 + 8 * objs.size())); // a small neighbour, so the next align has to skip ahead
        }
        s.barrierAll();
        for (final SymmetricMemory o : objs)
        {
            s.free(o);
        }
        s.free(pad);
    }

    private static void realloc(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("realloc");
        final int me = c.me();
        final SymmetricMemory r = s.malloc(64);
        final SymmetricMemory blocker = s.malloc(64); // realloc must move r to grow it
        for (int i = 0; i < 64; i++)
        {
            r.asBytes().setLocal(i, (byte)(me * 3 + i));
        }
        s.barrierAll();
        final SymmetricMemory grown = s.realloc(r, 8192);
        c.eq("realloc(64 -> 8192)", "byteSize()", 8192L, grown.byteSize());
        symmetric(s, c, offs, grown, "realloc(64 -> 8192)");
        for (int i = 0; i < 64; i++)
        {
            c.eq("realloc(64 -> 8192) keeps the prefix", "memory", i, (byte)(me * 3 + i), grown.asBytes().getLocal(i));
        }
        s.put(grown, 8000, new byte[] {1, 2, 3}, 0, 3, c.right());
        s.barrierAll();
        c.eq("put into the grown part", "memory", 8002, (byte)3, grown.asBytes().getLocal(8002));

        // failure: every PE gets the exception, the object is unchanged and usable
        final long huge = s.heapUsedBytes() + s.heapFreeBytes() + 4096;
        try
        {
            s.realloc(grown, huge);
            c.fail("realloc(" + huge + ")", "no HeapExhaustedException for more than the whole heap");
        }
        catch (final HeapExhaustedException ex)
        {
            c.isTrue(String.valueOf(ex.getMessage()).contains("SHMEM_SYMMETRIC_SIZE"), "realloc", "exhaustion message lacks SHMEM_SYMMETRIC_SIZE: " + ex);
        }
        c.isTrue(grown.isLive(), "realloc", "failed realloc killed the object");
        for (int i = 0; i < 64; i++)
        {
            c.eq("failed realloc leaves the object unchanged", "memory", i, (byte)(me * 3 + i), grown.asBytes().getLocal(i));
        }

        final SymmetricMemory shrunk = s.realloc(grown, 16);
        c.eq("realloc(8192 -> 16)", "byteSize()", 16L, shrunk.byteSize());
        symmetric(s, c, offs, shrunk, "realloc(8192 -> 16)");
        for (int i = 0; i < 16; i++)
        {
            c.eq("realloc(8192 -> 16) keeps the prefix", "memory", i, (byte)(me * 3 + i), shrunk.asBytes().getLocal(i));
        }
        c.isTrue(s.realloc(shrunk, 0) == null, "realloc(obj, 0)", "did not return null");
        c.isTrue(!shrunk.isLive(), "realloc(obj, 0)", "object still live: it must be freed");
        final SymmetricMemory fresh = s.realloc(null, 128);
        if (c.isTrue(fresh != null, "realloc(null, 128)", "returned null: it must allocate"))
        {
            c.eq("realloc(null, 128)", "byteSize()", 128L, fresh.byteSize());
            symmetric(s, c, offs, fresh, "realloc(null, 128)");
            s.free(fresh);
        }
        s.free(blocker);
    }

    private static void hints(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("mallocWithHints");
        final SymmetricMemory atomics = s.mallocWithHints(64, MallocHint.ATOMICS_REMOTE);
        final SymmetricMemory signals = s.mallocWithHints(64, MallocHint.SIGNAL_REMOTE, MallocHint.ATOMICS_REMOTE);
        final SymmetricMemory none = s.mallocWithHints(64);
        symmetric(s, c, offs, atomics, "mallocWithHints(ATOMICS_REMOTE)");
        symmetric(s, c, offs, signals, "mallocWithHints(SIGNAL_REMOTE, ATOMICS_REMOTE)");
        symmetric(s, c, offs, none, "mallocWithHints()");
        for (final SymmetricMemory m : new SymmetricMemory[] {atomics, signals, none})
        {
            c.eq("mallocWithHints", "byteSize()", 64L, m.byteSize());
        }
        final SymmetricLongs counter = atomics.asLongs();
        final SymmetricLongs sig = signals.asLongs();
        // a fresh malloc is not zeroed: start from 0
        counter.setLocal(0, 0);
        sig.setLocal(0, 0);
        s.barrierAll();
        for (int pe = 0; pe < c.nPes(); pe++)
        {
            s.atomicAdd(counter, 0, c.me() + 1, pe);
            s.signalAdd(sig, 0, 1, pe);
        }
        c.await("signalAdd", "hinted signal word == nPes", () -> Cmp.EQ.testUnsigned(sig.signalFetch(0), c.nPes()));
        c.eq("signalAdd into mallocWithHints(SIGNAL_REMOTE)", "signal", 0, c.nPes(), sig.signalWaitUntil(0, Cmp.EQ, c.nPes()));
        s.barrierAll();
        c.eq("atomicAdd into mallocWithHints(ATOMICS_REMOTE)", "longs", 0, (long)c.nPes() * (c.nPes() + 1) / 2, counter.getLocal(0));
        s.barrierAll();
        s.free(none);
        s.free(signals);
        s.free(atomics);
    }

    private static void typed(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("typed allocateX");
        for (final Kind<?> k : Kind.ALL)
        {
            if (k == Kind.MEMORY)
            {
                continue;
            }
            final SymmetricArray<?> a = k.allocate(s, 37);
            c.eq("allocate " + k, "length()", 37L, a.length());
            c.eq("allocate " + k, "byteSize()", 37L * a.elementBytes(), a.byteSize());
            c.eq("allocate " + k, "segment().byteSize()", a.byteSize(), a.segment().byteSize());
            c.eq("allocate " + k, "offset() % elementBytes", 0L, a.offset() % a.elementBytes());
            symmetric(s, c, offs, a, "allocate " + k);
            final byte[] bytes = a.segment().toArray(ValueLayout.JAVA_BYTE);
            for (int i = 0; i < bytes.length; i++)
            {
                if (bytes[i] != 0)
                {
                    c.fail("allocate " + k, "byte " + i + " is " + bytes[i] + ", expected zeroed memory");
                    break;
                }
            }
            a.segment().fill((byte)-1);
            s.barrierAll();
            s.free(a);
        }
    }

    /**
     * malloc ends with a barrier, free starts with one: a put issued right after the allocation
     * returns must not be wiped by a slower PE's zeroing, and a put issued right before free must not
     * land in the next object allocated there.
     */
    private static void implicitBarriers(final Shmem s, final Check c)
    {
        c.section("implicit barriers of allocateX and free");
        final int me = c.me();
        for (int round = 0; round < 10; round++)
        {
            final SymmetricLongs x = s.allocateLongs(256);
            final long[] src = new long[256];
            java.util.Arrays.fill(src, (long)round << 32 | me + 1);
            s.put(x, 0, src, 0, 256, c.right());
            s.barrierAll();
            final long want = (long)round << 32 | c.left() + 1;
            for (int i = 0; i < 256; i++)
            {
                if (x.getLocal(i) != want)
                {
                    c.fail("allocateLongs then put at once (malloc barrier on exit)", "round=" + round + " type=longs index=" + i +
                        " expected=" + want + " actual=" + x.getLocal(i));
                    break;
                }
            }
            s.put(x, 0, src, 0, 256, c.right());
            s.free(x);
            final SymmetricLongs y = s.allocateLongs(256);
            s.barrierAll();
            for (int i = 0; i < 256; i++)
            {
                if (y.getLocal(i) != 0)
                {
                    c.fail("put then free at once, allocate again (free barrier on entry)", "round=" + round + " type=longs index=" + i +
                        " expected=0 actual=" + y.getLocal(i));
                    break;
                }
            }
            c.isTrue(true, "allocateLongs/free", "round " + round);
            s.free(y);
        }
    }

    private static void exhaustion(final Shmem s, final Check c, final SymmetricLongs offs)
    {
        c.section("heap exhaustion");
        final long used0 = s.heapUsedBytes();
        final long total = used0 + s.heapFreeBytes();
        final long tooBig = total + 4096;
        expectExhausted(c, "malloc(" + tooBig + ")", tooBig, () -> s.malloc(tooBig));
        expectExhausted(c, "calloc(" + (tooBig / 8 + 1) + ", 8)", tooBig, () -> s.calloc(tooBig / 8 + 1, 8));
        expectExhausted(c, "align(4096, " + tooBig + ")", tooBig, () -> s.align(4096, tooBig));
        expectExhausted(c, "mallocWithHints(" + tooBig + ")", tooBig, () -> s.mallocWithHints(tooBig, MallocHint.ATOMICS_REMOTE));
        expectExhausted(c, "allocateLongs(" + (tooBig / 8 + 1) + ")", tooBig, () -> s.allocateLongs(tooBig / 8 + 1));
        c.eq("heapUsedBytes", "after failed allocations", used0, s.heapUsedBytes());

        // fill the heap in quarters: every PE must fail at the same allocation
        final List<SymmetricMemory> chunks = new ArrayList<>();
        final long chunk = Math.max(4096, total / 4);
        HeapExhaustedException last = null;
        for (int k = 0; k < 16 && last == null; k++)
        {
            try
            {
                chunks.add(s.malloc(chunk));
            }
            catch (final HeapExhaustedException ex)
            {
                last = ex;
            }
        }
        c.isTrue(last != null, "malloc", "16 allocations of a quarter of the heap (" + chunk + " bytes) all succeeded");
        if (last != null)
        {
            c.isTrue(String.valueOf(last.getMessage()).contains("SHMEM_SYMMETRIC_SIZE"), "malloc",
                "exhaustion message lacks SHMEM_SYMMETRIC_SIZE: " + last);
        }
        symmetricCount(s, c, offs, chunks.size());
        for (int k = chunks.size() - 1; k >= 0; k--)
        {
            s.free(chunks.get(k));
        }
        c.eq("heapUsedBytes", "after freeing the quarters", used0, s.heapUsedBytes());

        // still usable
        final SymmetricLongs after = s.allocateLongs(1 << 17);
        final long[] src = new long[1 << 17];
        for (int i = 0; i < src.length; i++)
        {
            src[i] = (long)c.me() << 40 | i;
        }
        s.put(after, 0, src, 0, src.length, c.right());
        s.barrierAll();
        for (int i = 0; i < src.length; i += 997)
        {
            c.eq("put after heap exhaustion", "longs", i, (long)c.left() << 40 | i, after.getLocal(i));
        }
        symmetric(s, c, offs, after, "allocateLongs after heap exhaustion");
        s.free(after);
    }

    private static void symmetricCount(final Shmem s, final Check c, final SymmetricLongs offs, final int count)
    {
        for (int pe = 0; pe < c.nPes(); pe++)
        {
            s.p(offs, c.me(), count, pe);
        }
        s.barrierAll();
        for (int pe = 0; pe < c.nPes(); pe++)
        {
            c.eq("malloc until HeapExhaustedException", "allocations that succeeded on PE " + pe, (long)count, offs.getLocal(pe));
        }
        s.barrierAll();
    }

    private static void expectExhausted(final Check c, final String routine, final long requested, final Runnable call)
    {
        try
        {
            call.run();
            c.fail(routine, "no HeapExhaustedException for more than the whole heap");
        }
        catch (final HeapExhaustedException ex)
        {
            final String msg = String.valueOf(ex.getMessage());
            c.isTrue(msg.contains("SHMEM_SYMMETRIC_SIZE"), routine, "message lacks SHMEM_SYMMETRIC_SIZE: " + msg);
            c.isTrue(msg.contains("[pe "), routine, "message does not name the PE: " + msg);
            c.isTrue(ex.requestedBytes() >= requested, routine, "requestedBytes()=" + ex.requestedBytes() + " < " + requested);
        }
    }
}
