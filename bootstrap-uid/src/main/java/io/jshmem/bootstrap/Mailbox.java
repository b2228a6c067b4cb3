package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Messages that peers sent this PE, keyed by (source rank, collective sequence, round), waiting for
 * the collective that takes them. Filled by the PE's links thread ({@link PeerLinks}), drained by the collective's thread.
 */
final class Mailbox
{
    private record Key(int src, long seq, int round)
    {
    }

    /** A take passed its deadline. */
    static final class Timeout extends Exception
    {
        private static final long serialVersionUID = 1L;

        Timeout()
        {
            super(null, null, false, false);
        }
    }

    private final Map<Key, byte[]> messages = new HashMap<>();

    synchronized void put(final int src, final long seq, final int round, final byte[] data)
    {
        messages.put(new Key(src, seq, round), data);
        notifyAll();
    }

    /** Wakes every waiting take so it re-checks the job's failure. */
    synchronized void wakeAll()
    {
        notifyAll();
    }

    /**
     * @param failure the job's failure (checked while waiting; a non-null one is thrown).
     * @return the message.
     * @throws Timeout if the deadline passes first.
     */
    synchronized byte[] take(final int src, final long seq, final int round, final long deadlineNs,
        final Supplier<JobFailedException> failure) throws Timeout
    {
        final Key key = new Key(src, seq, round);
        while (true)
        {
            final byte[] m = messages.remove(key);
            if (m != null)
            {
                return m;
            }
            final JobFailedException f = failure.get();
            if (f != null)
            {
                throw f;
            }
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                throw new Timeout();
            }
            try
            {
                wait(Math.max(1, Math.min(100, leftNs / 1_000_000)));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new Timeout();
            }
        }
    }
}
