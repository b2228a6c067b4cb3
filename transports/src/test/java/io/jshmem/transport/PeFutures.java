package io.jshmem.transport;

import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The in-JVM PE tests' verdict: every PE's future is awaited, and the first failure is thrown with the others suppressed. */
public final class PeFutures
{
    private PeFutures()
    {
    }

    /**
     * @param futures one per PE.
     * @param seconds how long each may take.
     * @throws Exception the first PE's failure (a timeout included), every later one suppressed in it.
     */
    public static void awaitAll(final List<? extends Future<?>> futures, final long seconds) throws Exception
    {
        Exception first = null;
        for (final Future<?> f : futures)
        {
            try
            {
                f.get(seconds, TimeUnit.SECONDS);
            }
            catch (final Exception ex)
            {
                if (first == null)
                {
                    first = ex;
                }
                else
                {
                    first.addSuppressed(ex);
                }
            }
        }
        if (first != null)
        {
            throw first;
        }
    }
}
