package io.jshmem.examples.isx;

/**
 * The 32-bit PCG generator (O'Neill's pcg32: a 64-bit LCG with an xorshift-then-random-rotate output), the
 * generator ISx draws its keys from, so a PE's keys here are the keys the same PE draws in the C programs.
 * Not thread-safe; cheap to make one per PE and iteration.
 */
final class Pcg32
{
    private static final long MULTIPLIER = 6364136223846793005L;

    private long state;
    private final long increment;

    /**
     * Seeds a generator as {@code pcg32_srandom_r(initState, initSequence)} does.
     *
     * @param initState    the starting state.
     * @param initSequence the stream (any value; its low 63 bits pick the stream).
     */
    Pcg32(final long initState, final long initSequence)
    {
        increment = (initSequence << 1) | 1L;
        state = 0;
        next();
        state += initState;
        next();
    }

    /** {@return ISx's generator for a PE: seeded with the PE number as both state and stream} */
    static Pcg32 forPe(final int pe)
    {
        return new Pcg32(pe, pe);
    }

    /** {@return the next 32 random bits} */
    int next()
    {
        final long old = state;
        state = old * MULTIPLIER + increment;
        final int xorShifted = (int)(((old >>> 18) ^ old) >>> 27);
        return Integer.rotateRight(xorShifted, (int)(old >>> 59));
    }

    /**
     * Fills {@code out} with draws from {@code [0, bound)}, the same values as {@link #nextBounded} one by one; the
     * loop keeps the generator's state in locals, as the C twin's inlined loop does.
     *
     * @param out   where the draws go, all of it.
     * @param bound the exclusive upper bound, 1 to 2^31 - 1.
     */
    void fillBounded(final int[] out, final int bound)
    {
        final int threshold = Integer.remainderUnsigned(-bound, bound);
        final long inc = increment;
        long s = state;
        for (int i = 0; i < out.length; i++)
        {
            int r;
            do
            {
                final long old = s;
                s = old * MULTIPLIER + inc;
                r = Integer.rotateRight((int)(((old >>> 18) ^ old) >>> 27), (int)(old >>> 59));
            }
            while (Integer.compareUnsigned(r, threshold) < 0);
            out[i] = Integer.remainderUnsigned(r, bound);
        }
        state = s;
    }

    /**
     * Draws uniformly from {@code [0, bound)} without modulo bias, as {@code pcg32_boundedrand_r} does: draws
     * below {@code 2^32 mod bound} are rejected.
     *
     * @param bound the exclusive upper bound, 1 to 2^31 - 1.
     * @return a value in {@code [0, bound)}.
     */
    int nextBounded(final int bound)
    {
        final int threshold = Integer.remainderUnsigned(-bound, bound);
        while (true)
        {
            final int r = next();
            if (Integer.compareUnsigned(r, threshold) >= 0)
            {
                return Integer.remainderUnsigned(r, bound);
            }
        }
    }
}
