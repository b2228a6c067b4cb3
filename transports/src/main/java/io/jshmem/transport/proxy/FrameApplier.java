package io.jshmem.transport.proxy;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;
import io.jshmem.transport.HeapAtomics;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The receiving side of a PE's proxy ({@link ProxyAgent}'s reads hand it their bytes): cuts a connection's stream into
 * frames, checks each against the heap and the connection's direction, and applies it. On a connection a peer dialed
 * (its requests): puts with a release fence between requests, put-with-signal as data, full fence, signal, atomics
 * through {@link HeapAtomics} (the atomicity domain of the p2p path), and the replies of gets and fetching atomics
 * written into the connection's send buffer. On a connection this PE dialed (replies and ACKs): completes the waiting
 * get or atomic, and this PE's requests as their ACKs arrive. A malformed frame loses the peer
 * ({@link ProxyAgent#corrupt}). Runs under the agent's lock, by whichever thread holds the duty cycle.
 */
final class FrameApplier
{
    private static final AtomicOp[] ATOMIC_OPS = AtomicOp.values();
    private static final SignalOp[] SIGNAL_OPS = SignalOp.values();
    /** A put with at least this much of its payload still to come is read from the socket into the heap. */
    static final int DIRECT_MIN = 8 << 10;

    private final ProxyAgent agent;
    private final ProxyTransport transport;
    private final Completions completions;
    private final MemorySegment heap;
    private final long heapSize;
    /** A peer's signal or atomic was applied since {@link #takeSignalled()} last looked. */
    private boolean signalled;

    FrameApplier(final ProxyAgent agent, final ProxyTransport transport, final Completions completions, final MemorySegment heap)
    {
        this.agent = agent;
        this.transport = transport;
        this.completions = completions;
        this.heap = heap;
        this.heapSize = heap.byteSize();
    }

    /** @return whether a peer's signal or atomic was applied since the last call (the agent then wakes a backed-off wait). */
    boolean takeSignalled()
    {
        final boolean was = signalled;
        signalled = false;
        return was;
    }

    /**
     * Applies the complete frames at the front of {@code c}'s receive buffer and keeps the bytes of an incomplete one
     * (growing the buffer so it fits, or so a busy stream reads more per call); stops at a corrupt frame, which loses
     * the peer.
     *
     * @param filled the read that brought these bytes filled the buffer.
     */
    void parse(final PeerConnection c, final boolean filled)
    {
        final MemorySegment s = c.rxSegment;
        final int end = c.rx.position();
        int pos = 0;
        while (end - pos >= Frames.HEADER)
        {
            final int type = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, pos);
            final int fixed = Frames.fixed(type);
            final int payload = s.get(Frames.I32, pos + 4);
            if (fixed < 0 || payload < 0 || payload > Frames.MAX_CHUNK || payload > 0 && !Frames.hasPayload(type))
            {
                agent.corrupt(c, "frame " + Frames.name(type) + " with payload " + payload);
                return;
            }
            if (type != Frames.HEARTBEAT && Frames.isRequest(type) != c.inbound)
            {
                agent.corrupt(c, "frame " + Frames.name(type) + (c.inbound ? " on the connection the peer dialed, which carries its requests only" :
                    " on the connection this PE dialed, which carries replies and ACKs only"));
                return;
            }
            if (end - pos < fixed + payload)
            {
                break;
            }
            if (!apply(c, s, pos, type, payload))
            {
                return;
            }
            pos += fixed + payload;
        }
        if (end - pos >= Frames.HEADER && startDirect(c, s, pos, end))
        {
            c.rx.clear(); // the rest of the put's payload goes from the socket to the heap; the buffer is empty
            return;
        }
        c.rx.limit(end);
        c.rx.position(pos);
        c.rx.compact(); // the bytes of an incomplete frame move to the front; reading continues after them
        final int left = end - pos;
        final int frame = left >= Frames.HEADER ? Frames.fixed(s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)) +
            s.get(Frames.I32, 4) : 0;
        if (frame > c.rx.capacity() || filled)
        {
            c.growRx(frame, filled); // the incomplete frame fits; a busy stream reads more per call
        }
    }

    /**
     * Where the incomplete frame at {@code pos} is a put or put-with-signal whose header is in and at least
     * {@link #DIRECT_MIN} bytes of whose payload are still to come: checks it as {@link #apply} would, stores the part
     * received, and leaves the rest to {@link ProxyAgent}'s reads, which take it from the socket into the heap
     * ({@link #directTarget}, then {@link #directRead}): one copy fewer, and no receive buffer that grows to hold the
     * frame.
     *
     * @return whether the frame is now read into the heap (or was corrupt: the peer is lost), so nothing of it stays in
     *         the receive buffer.
     */
    private boolean startDirect(final PeerConnection c, final MemorySegment s, final int pos, final int end)
    {
        final int type = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, pos);
        if (type != Frames.PUT && type != Frames.PUT_SIGNAL)
        {
            return false;
        }
        final int fixed = Frames.fixed(type);
        final int payload = s.get(Frames.I32, pos + 4);
        final int have = end - pos - fixed;
        if (have < 0 || payload - have < DIRECT_MIN)
        {
            return false;
        }
        final long offset = s.get(Frames.I64, pos + 8);
        if (type == Frames.PUT)
        {
            if (!checkPut(c, offset, payload))
            {
                return true;
            }
        }
        else
        {
            final long sigOffset = s.get(Frames.I64, pos + 16);
            final int op = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, pos + 1);
            if (!checkPutSignal(c, offset, payload, sigOffset, op))
            {
                return true;
            }
            c.directSignalOffset = sigOffset;
            c.directSignal = s.get(Frames.I64, pos + 24);
            c.directSignalOp = op;
        }
        VarHandle.releaseFence(); // earlier requests' stores before this one's
        if (have > 0)
        {
            MemorySegment.copy(s, pos + fixed, heap, offset, have);
        }
        c.directType = type;
        c.directOffset = offset + have;
        c.directLeft = payload - have;
        return true;
    }

    /** @return the heap bytes the put being read straight into the heap still needs ({@link #startDirect}). */
    java.nio.ByteBuffer directTarget(final PeerConnection c)
    {
        return heap.asSlice(c.directOffset, c.directLeft).asByteBuffer();
    }

    /** Counts {@code n} bytes read into {@link #directTarget}; the last of them completes the put (and its signal). */
    void directRead(final PeerConnection c, final int n)
    {
        c.directOffset += n;
        c.directLeft -= n;
        if (c.directLeft > 0)
        {
            return;
        }
        if (c.directType == Frames.PUT_SIGNAL)
        {
            signalAfterData(c, c.directSignalOffset, c.directSignal, c.directSignalOp, true);
            return;
        }
        c.applied++;
    }

    /** @return whether a put of {@code payload} bytes at {@code offset} fits the heap; else the peer is lost. */
    private boolean checkPut(final PeerConnection c, final long offset, final int payload)
    {
        return inHeap(offset, payload)
            || agent.corrupt(c, "PUT offset=" + offset + " bytes=" + payload + " outside the heap of " + heapSize);
    }

    /** @return whether a put-with-signal's data and signal word fit the heap and its op exists; else the peer is lost. */
    private boolean checkPutSignal(final PeerConnection c, final long offset, final int payload, final long sigOffset, final int op)
    {
        return inHeap(offset, payload) && inHeap(sigOffset, 8) && (sigOffset & 7) == 0 && op >= 0 && op < SIGNAL_OPS.length
            || agent.corrupt(c, "PUT_SIGNAL offset=" + offset + " bytes=" + payload + " signal offset=" + sigOffset + " op=" + op);
    }

    /** Applies a put-with-signal's signal once its data is in (a full fence first where there was data); counts the request. */
    private void signalAfterData(final PeerConnection c, final long sigOffset, final long signal, final int op, final boolean data)
    {
        if (data)
        {
            VarHandle.fullFence(); // data, then the signal that announces it
        }
        HeapAtomics.signal(heap, sigOffset, signal, SIGNAL_OPS[op]);
        signalled = true;
        c.applied++;
    }

    private boolean inHeap(final long offset, final long bytes)
    {
        return offset >= 0 && bytes >= 0 && offset <= heapSize - bytes;
    }

    private boolean apply(final PeerConnection c, final MemorySegment s, final int pos, final int type, final int payload)
    {
        final long offset = s.get(Frames.I64, pos + 8);
        switch (type)
        {
            case Frames.PUT ->
            {
                if (!checkPut(c, offset, payload))
                {
                    return false;
                }
                VarHandle.releaseFence(); // earlier requests' stores before this one's
                MemorySegment.copy(s, pos + Frames.HEADER, heap, offset, payload);
                c.applied++;
            }
            case Frames.PUT_SIGNAL ->
            {
                final long sigOffset = s.get(Frames.I64, pos + 16);
                final int op = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, pos + 1);
                if (!checkPutSignal(c, offset, payload, sigOffset, op))
                {
                    return false;
                }
                VarHandle.releaseFence();
                if (payload > 0)
                {
                    MemorySegment.copy(s, pos + Frames.fixed(Frames.PUT_SIGNAL), heap, offset, payload);
                }
                else if (ProxyTrace.ON)
                {
                    agent.trace.signal(ProxyTrace.SIGNAL_APPLIED, c.pe, agent.onAgentThread());
                }
                signalAfterData(c, sigOffset, s.get(Frames.I64, pos + 24), op, payload > 0);
            }
            case Frames.GET ->
            {
                final int length = s.get(Frames.I32, pos + 16);
                final int slot = s.get(Frames.I32, pos + 20);
                if (length < 0 || length > Frames.MAX_CHUNK || !inHeap(offset, length))
                {
                    return agent.corrupt(c, "GET offset=" + offset + " bytes=" + length + " outside the heap of " + heapSize);
                }
                final int fixed = Frames.fixed(Frames.GET_REPLY);
                if (ProxyTrace.ON && c.traceServeNs == 0)
                {
                    c.traceServeNs = c.traceReadNs;
                }
                c.ensureTx(fixed + length);
                final int at = header(c, Frames.GET_REPLY, 0, 0, length, 0);
                c.txSegment.set(Frames.I32, at + 16, slot);
                c.txSegment.set(Frames.I32, at + 20, 0);
                VarHandle.acquireFence();
                MemorySegment.copy(heap, offset, c.txSegment, at + fixed, length);
                c.tx.position(at + fixed + length);
                c.applied++;
            }
            case Frames.AMO ->
            {
                final int op = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, pos + 1);
                final int size = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, pos + 2);
                final long value = s.get(Frames.I64, pos + 16);
                final long cond = s.get(Frames.I64, pos + 24);
                final int slot = s.get(Frames.I32, pos + 32);
                if (op < 0 || op >= ATOMIC_OPS.length || size != 4 && size != 8 || !inHeap(offset, size) || (offset & (size - 1)) != 0)
                {
                    return agent.corrupt(c, "AMO op=" + op + " size=" + size + " offset=" + offset);
                }
                VarHandle.releaseFence();
                final long old = HeapAtomics.apply(heap, ATOMIC_OPS[op], size, offset, value, cond);
                signalled = true;
                if (slot >= 0)
                {
                    if (ProxyTrace.ON && c.traceServeNs == 0)
                    {
                        c.traceServeNs = c.traceReadNs;
                    }
                    c.ensureTx(Frames.fixed(Frames.AMO_REPLY));
                    final int at = header(c, Frames.AMO_REPLY, 0, 0, 0, 0);
                    c.txSegment.set(Frames.I64, at + 16, old);
                    c.txSegment.set(Frames.I32, at + 24, slot);
                    c.txSegment.set(Frames.I32, at + 28, 0);
                    c.tx.position(at + Frames.fixed(Frames.AMO_REPLY));
                }
                c.applied++;
            }
            case Frames.GET_REPLY ->
            {
                final int slot = s.get(Frames.I32, pos + 16);
                if (!completions.isBusy(slot) || completions.slot(slot).dest == null || completions.slot(slot).dest.byteSize() != payload)
                {
                    return agent.corrupt(c, "GET_REPLY for slot " + slot + " with " + payload + " bytes that no get of this PE awaits");
                }
                final Completions.Slot sl = completions.slot(slot);
                if (ProxyTrace.ON)
                {
                    traceReply(c);
                }
                MemorySegment.copy(s, pos + Frames.fixed(Frames.GET_REPLY), sl.dest, 0, payload);
                completions.complete(sl);
            }
            case Frames.AMO_REPLY ->
            {
                final long old = s.get(Frames.I64, pos + 16);
                final int slot = s.get(Frames.I32, pos + 24);
                if (!completions.isBusy(slot))
                {
                    return agent.corrupt(c, "AMO_REPLY for slot " + slot + " that no atomic of this PE awaits");
                }
                final Completions.Slot sl = completions.slot(slot);
                if (ProxyTrace.ON)
                {
                    traceReply(c);
                }
                sl.value = old;
                if (sl.dest != null)
                {
                    HeapAtomics.store(sl.dest, old);
                }
                completions.complete(sl);
            }
            case Frames.ACK ->
            {
                if (offset < c.acked || offset > c.sent)
                {
                    return agent.corrupt(c, "ACK of " + offset + " requests; " + c.sent + " sent, " + c.acked + " acknowledged before");
                }
                while (c.acked < offset)
                {
                    transport.completed(c.popRequest(), c.pe);
                }
            }
            case Frames.HEARTBEAT ->
            {
                // its arrival updated lastReceived
            }
            default -> throw new IllegalStateException("unreachable: " + type);
        }
        return true;
    }

    private void traceReply(final PeerConnection c)
    {
        agent.trace.sample(ProxyTrace.WRITTEN_TO_REPLY, c.traceReadNs - c.traceWrittenNs);
        agent.trace.count(agent.onAgentThread() ? ProxyTrace.REPLY_BY_AGENT : ProxyTrace.REPLY_BY_CALLER);
        agent.trace.replyNs = c.traceReadNs;
    }


    /** Appends a frame header at the send buffer's position; @return where it starts. */
    static int header(final PeerConnection c, final byte type, final int op, final int size, final int payload, final long offset)
    {
        final int at = c.tx.position();
        final MemorySegment t = c.txSegment;
        t.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at, type);
        t.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 1, (byte)op);
        t.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 2, (byte)size);
        t.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 3, (byte)0);
        t.set(Frames.I32, at + 4, payload);
        t.set(Frames.I64, at + 8, offset);
        c.tx.position(at + Frames.HEADER);
        return at;
    }
}
