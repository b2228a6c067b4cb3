package io.jshmem.bootstrap;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The loop of a selector thread that serves a listener and its connections (the bootstrap root's members, a PE's
 * inbound peer links): it accepts on the listener's key (the one without an attachment), hands every other ready key to
 * its connection, and fails each connection still in its handshake once its deadline passes, waking for the nearest
 * deadline. One thread serves any number of connections.
 */
final class SelectLoop
{
    /** A connection of the loop, attached to its selection key. */
    interface Connection
    {
        /** @return the {@link System#nanoTime()} by which its handshake must be done (read only while in the handshake). */
        long handshakeDeadlineNs();

        /** Serves its key, ready for what it registered; it handles (and ends itself on) its own failures. */
        void ready(SelectionKey key);

        /** Its handshake deadline passed: it ends itself, with this reason. */
        void expire(SocketTimeoutException reason);
    }

    private SelectLoop()
    {
    }

    /**
     * Runs until {@code closed} says so or the selector fails.
     *
     * @param handshaking the connections still in their handshake (read and changed by this thread only)
     * @param accept      accepts what the listener has ready
     * @throws IOException from the selector (a closed selector throws {@link java.nio.channels.ClosedSelectorException})
     */
    static void run(final Selector selector, final BooleanSupplier closed, final Collection<? extends Connection> handshaking,
        final Runnable accept) throws IOException
    {
        while (!closed.getAsBoolean())
        {
            long nextDeadline = Long.MAX_VALUE;
            for (final Connection c : handshaking)
            {
                nextDeadline = Math.min(nextDeadline, c.handshakeDeadlineNs());
            }
            final long waitMs = nextDeadline == Long.MAX_VALUE ? 0 : Math.max(1, (nextDeadline - System.nanoTime() + 999_999) / 1_000_000);
            selector.select(waitMs);
            if (closed.getAsBoolean())
            {
                return;
            }
            for (final SelectionKey k : selector.selectedKeys())
            {
                if (!k.isValid())
                {
                    continue;
                }
                if (k.attachment() == null)
                {
                    accept.run();
                }
                else
                {
                    ((Connection)k.attachment()).ready(k);
                }
            }
            selector.selectedKeys().clear();
            final long now = System.nanoTime();
            for (final Connection c : List.copyOf(handshaking))
            {
                if (now - c.handshakeDeadlineNs() >= 0)
                {
                    c.expire(new SocketTimeoutException("handshake deadline passed"));
                }
            }
        }
    }
}
