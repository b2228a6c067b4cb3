package io.jshmem.team;

import io.jshmem.Cmp;
import io.jshmem.CollectiveMismatchException;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTimeoutException;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A team's messaging over its slot: the one-sided primitives every collective algorithm is made of.
 * <p>
 * Signals: each member has one signal word per sender (team rank) in every member's slot. A sender
 * stores {@code (seq << 20) | step} there after its data (put, fence, signal), where {@code seq} counts
 * the team's collective phases (the same on every member, since collectives are matched by program
 * order) and {@code step} numbers the messages a sender sends a receiver within a phase. Values from
 * one sender only grow, so a receiver waits for {@code >=} its expected value and no word is ever reset
 * while the team lives.
 * <p>
 * Scratch: reductions, scans and small exchanges use the slot's scratch in two halves chosen by the
 * parity of a separate counter of scratch phases. Every scratch phase depends on every member (each
 * member waits for all the others' contributions), so a member writes the same half again only after
 * every member finished reading it. Every message into a slot is awaited by its receiver within the
 * phase, so after a team sync no write into the slot is in flight and destroy can zero it.
 * <p>
 * Deadlines: every wait spins with the runtime's idle strategy (which notices a failed job); after
 * {@link #CLOCK_POLLS} unsatisfied polls it starts reading the clock, and a wait that lasts
 * {@code SHMEM_COLLECTIVE_TIMEOUT} throws {@link ShmemTimeoutException}. To name who is missing, each
 * member publishes in its slot's arrived word the first phase of the collective it enters
 * ({@link #begin}); the member that timed out reads every member's word and names those behind. Those reads
 * have a deadline of their own (the collective timeout, 2 s at most): a member that does not answer is named as
 * such, and the diagnosis never waits on a hung PE ({@link #readArrived}).
 * <p>
 * Threads: one collective at a time per team (the caller's guard).
 */
final class Channel
{
    private static final int STEP_BITS = 20;
    private static final int WORK_BYTES = 16 << 10;
    /** A wait reads the clock once per this many unsatisfied polls (a power of two). */
    static final int CLOCK_POLLS = 1024;
    /** The longest the timeout diagnosis waits for the members' arrived words. */
    static final long MAX_DIAGNOSIS_NS = 2_000_000_000L;
    private static final VarHandle ARRIVED = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle SIGNAL = ValueLayout.JAVA_LONG.varHandle();

    final ShmemContext ctx;
    final SymmetricLongs sig;
    final SymmetricLongs small;
    final SymmetricMemory scratch;
    final int start;
    final int stride;
    final int size;
    final int me;
    final String prefix;
    private final SymmetricLongs arrived;
    private final MemorySegment arrivedWord;
    private final long timeoutNs;
    private final Object team;
    private String collective = "collective";
    private long entrySeq;
    private long seq;
    private long scratchPhase;
    private MemorySegment work;
    /** Where the timeout diagnosis's gets land (made at the first timeout, never freed). */
    private MemorySegment diagnosis;
    /** Maps members' copies of objects ({@link #mapPeers}); null until then. */
    private TeamHost host;
    /** Each member's signal words and scratch as this PE maps them (null: not mapped, messages go through ctx). */
    private MemorySegment[] peerSig;
    private MemorySegment[] peerScratch;
    /** The place (heap offset, bytes) of the last object put to through a mapping, and its mapped copies (filled as used). */
    private long destOffset = -1;
    private long destBytes = -1;
    private MemorySegment[] destMapped;
    /** {@link #acc}'s buffer. */
    private MemorySegment acc;
    /** Whether this PE maps every other member ({@link #mapPeers}): then no message goes through ctx and {@link #fence} is free. */
    private boolean allPeersMapped;
    /** {@link #copies}'s last two answers (a reduction's dest and source) and the entry to replace next. */
    private final Copies[] copies = new Copies[2];
    private int nextCopies;

    /**
     * @param timeoutNs the deadline of every wait, 0 for none.
     * @param team      names the team in messages (its {@code toString}).
     */
    Channel(final ShmemContext ctx, final TeamSlot slot, final int start, final int stride, final int size, final int me,
        final String prefix, final long timeoutNs, final Object team)
    {
        this.arrived = slot.arrived();
        this.arrivedWord = slot.arrived().segment();
        this.timeoutNs = timeoutNs;
        this.team = team;
        this.ctx = ctx;
        this.sig = slot.sig();
        this.small = slot.small();
        this.scratch = slot.scratch();
        this.start = start;
        this.stride = stride;
        this.size = size;
        this.me = me;
        this.prefix = prefix;
    }

    int world(final int rank)
    {
        return start + rank * stride;
    }

    /**
     * Starts a collective call (or split, or destroy) on this member: publishes the first phase it will
     * run, so that a member whose wait times out can tell who has not arrived.
     *
     * @param what the collective's name for messages (a constant: no allocation).
     */
    void begin(final String what)
    {
        collective = what;
        entrySeq = seq + 1;
        arrivedWord.set(ValueLayout.JAVA_LONG, 0, entrySeq);
    }

    /** Starts a collective phase. */
    void next()
    {
        seq++;
    }

    private long value(final int step)
    {
        return (seq << STEP_BITS) | step;
    }

    /**
     * Maps the members this PE reaches by p2p ({@code p2p}, WORLD numbers): their signal words and scratch are then
     * written with stores into their heaps instead of through {@link #ctx}, and a signal is a release store (see
     * {@link #signal}). Called once, before the team's first collective.
     */
    void mapPeers(final TeamHost host, final java.util.function.IntPredicate p2p)
    {
        this.host = host;
        peerSig = new MemorySegment[size];
        peerScratch = new MemorySegment[size];
        destMapped = new MemorySegment[size];
        allPeersMapped = true;
        for (int r = 0; r < size; r++)
        {
            if (r != me && p2p.test(world(r)))
            {
                peerSig[r] = host.ptr(sig, world(r));
                peerScratch[r] = host.ptr(scratch, world(r));
            }
            allPeersMapped &= r == me || peerSig[r] != null;
        }
    }

    /**
     * Tells team member {@code rank} that this PE's message {@code step} of this phase is delivered. To a member this
     * PE maps it is a release store into the member's heap: every store before it (the message's data, stored
     * through the same mapping) is visible to a reader that sees the signal, with no fence; to any other member it
     * travels through {@link #ctx}.
     */
    void signal(final int rank, final int step)
    {
        final MemorySegment s = peerSig == null ? null : peerSig[rank];
        if (s != null)
        {
            SIGNAL.setRelease(s, 8L * me, value(step));
        }
        else
        {
            ctx.signalSet(sig, me, value(step), world(rank));
        }
    }

    /** Puts a local segment into a member's copy of {@code dest} at element {@code destIndex} (stores where mapped). */
    void put(final SymmetricArray<?> dest, final long destIndex, final MemorySegment data, final int rank)
    {
        put(dest, destIndex, data, 0, data.byteSize(), rank);
    }

    /**
     * {@link #put(SymmetricArray, long, MemorySegment, int)} of {@code bytes} bytes of {@code data} from {@code dataOff}: no
     * slice to a mapped member.
     *
     * @return whether it went through the context (a signal after it needs the context's fence first)
     */
    boolean put(final SymmetricArray<?> dest, final long destIndex, final MemorySegment data, final long dataOff, final long bytes,
        final int rank)
    {
        if (bytes <= 0)
        {
            return false;
        }
        final MemorySegment target = mapped(dest, rank);
        if (target != null)
        {
            MemorySegment.copy(data, dataOff, target, destIndex * dest.elementBytes(), bytes);
            return false;
        }
        ctx.put(dest, destIndex, part(data, dataOff, bytes), world(rank));
        return true;
    }

    /** @return {@code bytes} bytes of {@code data} from {@code off}: data itself when that is all of it. */
    private static MemorySegment part(final MemorySegment data, final long off, final long bytes)
    {
        return off == 0 && bytes == data.byteSize() ? data : data.asSlice(off, bytes);
    }

    /** Put, fence (the data is delivered before the signal), signal; to a mapped member: stores, then the release store of the signal. */
    void putSignal(final SymmetricArray<?> dest, final long destIndex, final MemorySegment data, final int rank, final int step)
    {
        putSignal(dest, destIndex, data, 0, data.byteSize(), rank, step);
    }

    /** {@link #putSignal(SymmetricArray, long, MemorySegment, int, int)} of {@code bytes} bytes of {@code data} from {@code dataOff}: no slice to a mapped member. */
    void putSignal(final SymmetricArray<?> dest, final long destIndex, final MemorySegment data, final long dataOff, final long bytes,
        final int rank, final int step)
    {
        if (put(dest, destIndex, data, dataOff, bytes, rank))
        {
            ctx.fence();
        }
        signal(rank, step);
    }

    /**
     * @return a Java-heap accumulator of at least {@code bytes} (reused by every collective of this team, one at a time;
     *         grown when too small), so that the combine loops see heap segments on the accumulator side as
     *         {@link #work()} and the hot paths allocate nothing
     */
    MemorySegment acc(final long bytes)
    {
        if (acc == null || acc.byteSize() < bytes)
        {
            acc = MemorySegment.ofArray(new long[(int)Math.max(8, (bytes + 7) >>> 3)]);
        }
        return acc;
    }

    /**
     * Orders the puts before it ahead of the signals after it: {@link ShmemContext#fence} on a team with a member this
     * PE reaches through {@link #ctx}, else nothing (stores into mapped heaps are ordered by the signals' release).
     */
    void fence()
    {
        if (!allPeersMapped)
        {
            ctx.fence();
        }
    }

    /**
     * The members' copies of {@code object}, as this PE maps them, for the loads of the one-node algorithms (direct
     * reduction, split's and aggregate's node phases). The last two answers are kept, keyed by place (heap offset and
     * size), so a new handle on the same bytes ({@code asLongs()}, {@code slice()}) hits and back-to-back calls
     * allocate nothing; the mappings live as long as the job.
     *
     * @param ranks team PEs, or null for every member in team rank order
     * @throws IllegalStateException naming the member when this PE does not map one of them (a wrong algorithm choice)
     */
    MemorySegment[] copies(final SymmetricArray<?> object, final int[] ranks)
    {
        for (final Copies c : copies)
        {
            if (c != null && c.offset == object.offset() && c.bytes == object.byteSize() && c.ranks == ranks)
            {
                return c.segments;
            }
        }
        final int n = ranks == null ? size : ranks.length;
        final MemorySegment[] all = new MemorySegment[n];
        for (int i = 0; i < n; i++)
        {
            final int r = ranks == null ? i : ranks[i];
            if (r != me && (peerSig == null || peerSig[r] == null))
            {
                throw new IllegalStateException(prefix + collective + " on " + team + " chose to load from a member it does not map: team pe " +
                    r + " (WORLD pe " + world(r) + ")");
            }
            all[i] = host.ptr(object, world(r));
        }
        copies[nextCopies] = new Copies(object.offset(), object.byteSize(), ranks, all);
        nextCopies ^= 1;
        return all;
    }

    private record Copies(long offset, long bytes, int[] ranks, MemorySegment[] segments)
    {
    }

    /** @return member {@code rank}'s copy of {@code dest} as this PE maps it, or null when it does not. */
    private MemorySegment mapped(final SymmetricArray<?> dest, final int rank)
    {
        if (peerSig == null || peerSig[rank] == null)
        {
            return null;
        }
        if (dest == scratch)
        {
            return peerScratch[rank];
        }
        if (dest.offset() != destOffset || dest.byteSize() != destBytes)
        {
            // keyed by place, not identity: a new handle on the same bytes (asLongs(), slice()) maps to the same segments
            destOffset = dest.offset();
            destBytes = dest.byteSize();
            Arrays.fill(destMapped, null);
        }
        MemorySegment m = destMapped[rank];
        if (m == null)
        {
            m = host.ptr(dest, world(rank));
            destMapped[rank] = m;
        }
        return m;
    }

    /**
     * Waits (with the runtime's idle strategy, which notices a failed job) for member rank's message step.
     *
     * @throws ShmemTimeoutException when the wait lasts SHMEM_COLLECTIVE_TIMEOUT, naming the members that
     *                               have not arrived at this collective.
     */
    void await(final int rank, final int step)
    {
        final long v = value(step);
        if (!sig.test(rank, Cmp.GE, v))
        {
            awaitIdle(rank, v);
        }
    }

    private void awaitIdle(final int rank, final long v)
    {
        final SymmetricSpace space = sig.allocation().space();
        int idle = 0;
        int polls = 0;
        boolean clock = false;
        long deadline = 0;
        while (!sig.test(rank, Cmp.GE, v))
        {
            idle = space.idle(idle);
            if ((++polls & (CLOCK_POLLS - 1)) == 0 && timeoutNs > 0)
            {
                final long now = System.nanoTime();
                if (!clock)
                {
                    clock = true;
                    deadline = now + timeoutNs;
                }
                else if (now - deadline >= 0)
                {
                    throw timedOut(rank, v);
                }
            }
        }
    }

    /**
     * The failure of a wait past its deadline: reads every member's arrived word to name those behind. The reads
     * have a deadline of their own ({@link #diagnosisNs}): a member whose word does not come back by then (its PE hung,
     * stopped or unreachable, or its transport stuck) is named as not answering instead of making the diagnosis wait.
     */
    private ShmemTimeoutException timedOut(final int rank, final long v)
    {
        final long[] words = readArrived();
        final int[] behind = new int[size];
        final int[] silent = new int[size];
        int count = 0;
        int silentCount = 0;
        for (int r = 0; r < size; r++)
        {
            if (r == me)
            {
                continue;
            }
            if (words[r] == NO_ANSWER)
            {
                silent[silentCount++] = r;
                behind[count++] = r;
            }
            else if (words[r] < entrySeq)
            {
                behind[count++] = r;
            }
        }
        final boolean named = count > 0;
        final int[] ranks = named ? Arrays.copyOf(behind, count) : new int[] {rank};
        final int[] worldPes = Arrays.stream(ranks).map(this::world).toArray();
        final String who;
        if (!named)
        {
            who = "every member arrived, but team pe " + rank + " (WORLD pe " + world(rank) + ") has not sent message " +
                (v & ((1L << STEP_BITS) - 1)) + " of phase " + (v >>> STEP_BITS) + " (it waits for another member, or the members " +
                "called different collectives; SHMEM_DEBUG checks that)";
        }
        else
        {
            final int[] silentRanks = Arrays.copyOf(silent, silentCount);
            who = "team PEs " + Arrays.toString(ranks) + " (WORLD PEs " + Arrays.toString(worldPes) + ") have not arrived at it" +
                (silentCount == 0 ? "" : "; team PEs " + Arrays.toString(silentRanks) + " (WORLD PEs " +
                    Arrays.toString(Arrays.stream(silentRanks).map(this::world).toArray()) + ") did not answer the read of their " +
                    "arrival within " + diagnosisNs() / 1_000_000 + " ms (hung, stopped or unreachable)");
        }
        return new ShmemTimeoutException(prefix + collective + " on " + team + " timed out after " + timeoutNs / 1_000_000 +
            " ms (SHMEM_COLLECTIVE_TIMEOUT): " + who, worldPes);
    }

    /** A member's arrived word that did not come back within the diagnosis deadline. */
    static final long NO_ANSWER = Long.MIN_VALUE;

    /** @return how long the timeout diagnosis waits for the members' arrived words: the collective timeout, 2 s at most. */
    long diagnosisNs()
    {
        return Math.min(timeoutNs, MAX_DIAGNOSIS_NS);
    }

    /**
     * Reads every other member's arrived word with non-blocking gets into a buffer of this channel's, then polls the
     * buffer (with the runtime's idle strategy, which progresses the transports) until every word landed or
     * {@link #diagnosisNs()} passed. Nothing here waits on another PE without that deadline: no blocking get, no
     * quiet. The buffer is never freed (a get to a hung PE may land after the deadline; only timed-out channels
     * make one, 8 bytes a member).
     *
     * @return the words by team rank; {@link #NO_ANSWER} for a member whose word did not land in time.
     */
    long[] readArrived()
    {
        final long[] words = new long[size];
        if (diagnosis == null)
        {
            diagnosis = Arena.global().allocate(8L * size, 8);
        }
        for (int r = 0; r < size; r++)
        {
            diagnosis.setAtIndex(ValueLayout.JAVA_LONG, r, NO_ANSWER);
        }
        VarHandle.fullFence();
        int pending = 0;
        for (int r = 0; r < size; r++)
        {
            if (r != me)
            {
                ctx.getmemNbi(diagnosis.asSlice(8L * r, 8), arrived, 0, world(r));
                pending++;
            }
        }
        final SymmetricSpace space = sig.allocation().space();
        final long deadline = System.nanoTime() + diagnosisNs();
        int idle = 0;
        while (pending > 0 && System.nanoTime() - deadline < 0)
        {
            pending = 0;
            for (int r = 0; r < size; r++)
            {
                if (r != me && (long)ARRIVED.getVolatile(diagnosis, 8L * r) == NO_ANSWER)
                {
                    pending++;
                }
            }
            if (pending > 0)
            {
                try
                {
                    idle = space.idle(idle);
                }
                catch (final RuntimeException ex)
                {
                    break; // the job failed meanwhile: name what came back
                }
            }
        }
        for (int r = 0; r < size; r++)
        {
            // read again at the end: a word read while it landed is whole now
            words[r] = r == me ? entrySeq : (long)ARRIVED.getVolatile(diagnosis, 8L * r);
        }
        return words;
    }

    /**
     * @return this member's private accumulator for reductions that combine in place of the scratch
     *         (16 KiB, made on first use; on the Java heap like the scratch-based algorithms' accumulators,
     *         so the combine loop sees one kind of segment on each side)
     */
    MemorySegment work()
    {
        if (work == null)
        {
            work = MemorySegment.ofArray(new long[WORK_BYTES / 8]);
        }
        return work;
    }

    // ------------------------------------------------------------------ scratch

    /** Starts a scratch phase; @return the base byte offset of this phase's half of the scratch. */
    long nextScratch()
    {
        scratchPhase++;
        return (scratchPhase & 1) * halfBytes();
    }

    long halfBytes()
    {
        return (scratch.length() / 2) & ~63L;
    }

    /** @return bytes per buffer when a phase needs {@code buffers} buffers (a multiple of 8; may be 0). */
    long bufferBytes(final int buffers)
    {
        return (halfBytes() / buffers) & ~7L;
    }

    /**
     * A scratch phase that gives every member every member's two longs (linear exchange through the
     * slot's small area). Used for collect's counts, split agreement and the debug call check.
     *
     * @return {@code [rank][0..1]}.
     */
    long[][] exchange(final long a, final long b)
    {
        next();
        final long half = nextScratch() == 0 ? 0 : 2L * size; // parity selects the half of the small area
        final long mine = half + 2L * me;
        final long[] pair = {a, b};
        for (int d = 1; d < size; d++)
        {
            final int r = (me + d) % size;
            ctx.put(small, mine, pair, 0, 2, world(r));
            ctx.fence();
            signal(r, 0);
        }
        final long[][] all = new long[size][2];
        for (int r = 0; r < size; r++)
        {
            if (r == me)
            {
                all[r][0] = a;
                all[r][1] = b;
            }
            else
            {
                await(r, 0);
                all[r][0] = small.getLocal(half + 2L * r);
                all[r][1] = small.getLocal(half + 2L * r + 1);
            }
        }
        return all;
    }

    /**
     * The SHMEM_DEBUG check that every member makes the same call: throws on every member, naming the
     * members that differ, when they do not.
     */
    void check(final String what, final long fingerprint, final long count)
    {
        final long[][] all = exchange(fingerprint, count);
        final StringBuilder diff = new StringBuilder();
        for (int r = 0; r < size; r++)
        {
            if (all[r][0] != all[0][0] || all[r][1] != all[0][1])
            {
                diff.append(" team pe ").append(r).append(String.format(" (call %016x count=%d)", all[r][0], all[r][1]));
            }
        }
        if (diff.length() > 0)
        {
            throw new CollectiveMismatchException(prefix + "team members disagree on a collective: this PE calls " + what +
                String.format(" (call %016x count=%d)", fingerprint, count) + "; team pe 0 has " +
                String.format("(call %016x count=%d)", all[0][0], all[0][1]) + " and differing:" + diff +
                " (every member must call the same collective with the same count and root, in the same order)");
        }
    }
}
