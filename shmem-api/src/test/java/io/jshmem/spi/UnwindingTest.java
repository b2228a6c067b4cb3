package io.jshmem.spi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unwinding tells a close() on an exception path (try-with-resources, finally, catch) from a normal one. */
class UnwindingTest
{
    private final List<Optional<String>> seen = new ArrayList<>();

    /** Records, on close, whether its caller is in exception handling: what Shmem.close() asks. */
    private final class Resource implements AutoCloseable
    {
        @Override
        public void close()
        {
            seen.add(Unwinding.callerInHandler(Resource.class));
        }
    }

    private static void maybeThrow(final boolean fail)
    {
        if (fail)
        {
            throw new IllegalStateException("body failed");
        }
    }

    private void tryWithResources(final boolean fail)
    {
        try (Resource r = new Resource())
        {
            maybeThrow(fail);
        }
    }

    private void tryFinally(final boolean fail)
    {
        final Resource r = new Resource();
        try
        {
            maybeThrow(fail);
        }
        finally
        {
            r.close();
        }
    }

    private void closeInCatch(final boolean fail)
    {
        final Resource r = new Resource();
        try
        {
            maybeThrow(fail);
        }
        catch (final IllegalStateException ex)
        {
            r.close();
            return;
        }
        r.close();
    }

    private void closeAfterRecoveredException()
    {
        final Resource r = new Resource();
        for (int i = 0; i < 3; i++)
        {
            try
            {
                maybeThrow(i == 1);
            }
            catch (final IllegalStateException ex)
            {
                // recovered: carry on
            }
        }
        r.close();
    }

    @Test
    void normalPathsAreNotUnwinding()
    {
        tryWithResources(false);
        tryFinally(false);
        closeInCatch(false);
        closeAfterRecoveredException();
        assertEquals(List.of(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), seen);
    }

    @Test
    void exceptionPathsAreUnwinding()
    {
        assertThrows(IllegalStateException.class, () -> tryWithResources(true));
        assertThrows(IllegalStateException.class, () -> tryFinally(true));
        closeInCatch(true);
        assertEquals(3, seen.size());
        assertTrue(seen.get(0).orElseThrow().startsWith(UnwindingTest.class.getName() + ".tryWithResources (bytecode "), seen.toString());
        assertTrue(seen.get(1).orElseThrow().startsWith(UnwindingTest.class.getName() + ".tryFinally"), seen.toString());
        assertTrue(seen.get(2).orElseThrow().startsWith(UnwindingTest.class.getName() + ".closeInCatch"), seen.toString());
    }

    @Test
    void lambdaBodiesAreAnalysedToo()
    {
        final Runnable failing = () ->
        {
            try (Resource r = new Resource())
            {
                maybeThrow(true);
            }
        };
        final Runnable fine = () ->
        {
            try (Resource r = new Resource())
            {
                maybeThrow(false);
            }
        };
        fine.run();
        assertThrows(IllegalStateException.class, failing::run);
        assertEquals(Optional.empty(), seen.get(0));
        assertTrue(seen.get(1).orElseThrow().contains("lambda$"), seen.toString());
    }
}
