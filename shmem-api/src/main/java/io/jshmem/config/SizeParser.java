package io.jshmem.config;

/**
 * Parses sizes the way the OpenSHMEM specification defines {@code SHMEM_SYMMETRIC_SIZE}: a
 * non-negative integer or floating-point number (digits with an optional fraction, {@code .5} allowed),
 * optionally followed by one multiplier {@code k/K, m/M, g/G, t/T} (powers of two). Only the first
 * multiplier counts and anything after it is ignored ({@code 20kk} is {@code 20k}); the result is
 * rounded up ({@code 3.1M} is 3250586). Anything else (empty, a sign, no digits, a stray character
 * where a multiplier should be, an exponent, a result past {@link Long#MAX_VALUE}) is rejected.
 */
public final class SizeParser
{
    private SizeParser()
    {
    }

    /**
     * Parses one size (see the class comment for the grammar). Exact long arithmetic, no {@code BigDecimal}: the first
     * use of {@code BigDecimal} in a JVM costs 15-20 ms of class initialisation, and every PE parses its heap size
     * in {@code Shmem.init} (docs/perf/startup-options-20261127.md).
     *
     * @param text the value.
     * @return the size in bytes.
     * @throws IllegalArgumentException with the reason if the text is not a size.
     */
    public static long parse(final String text)
    {
        if (text == null)
        {
            throw new IllegalArgumentException("no value");
        }
        final String s = text.strip();
        final int n = s.length();
        final int wholeStart = 0;
        int i = wholeStart;
        while (i < n && isAsciiDigit(s.charAt(i)))
        {
            i++;
        }
        final int wholeEnd = i;
        int fractionStart = i;
        int fractionEnd = i;
        if (i < n && s.charAt(i) == '.')
        {
            fractionStart = ++i;
            while (i < n && isAsciiDigit(s.charAt(i)))
            {
                i++;
            }
            fractionEnd = i;
        }
        if (wholeEnd == wholeStart && fractionEnd == fractionStart)
        {
            throw new IllegalArgumentException("'" + text + "' is not a non-negative number of bytes");
        }
        int shift = 0;
        if (i < n)
        {
            switch (s.charAt(i))
            {
                case 'k', 'K' -> shift = 10;
                case 'm', 'M' -> shift = 20;
                case 'g', 'G' -> shift = 30;
                case 't', 'T' -> shift = 40;
                default -> throw new IllegalArgumentException(
                    "'" + text + "' has '" + s.charAt(i) + "' where a multiplier (k, m, g, t) or the end was expected");
            }
        }
        try
        {
            long whole = 0;
            for (int d = wholeStart; d < wholeEnd; d++)
            {
                whole = Math.addExact(Math.multiplyExact(whole, 10), s.charAt(d) - '0');
            }
            return Math.addExact(Math.multiplyExact(whole, 1L << shift), fractionTimesPowerOfTwoRoundedUp(s, fractionStart, fractionEnd, shift));
        }
        catch (final ArithmeticException overflow)
        {
            throw new IllegalArgumentException("'" + text + "' is larger than " + Long.MAX_VALUE + " bytes");
        }
    }

    private static boolean isAsciiDigit(final char c)
    {
        return c >= '0' && c <= '9';
    }

    /**
     * {@return ceil(0.DIGITS * 2^shift)}, exactly: the decimal fraction doubled {@code shift} times, each doubling's
     * carry out of the first digit going to the integer part, then 1 more if any fraction is left}
     */
    private static long fractionTimesPowerOfTwoRoundedUp(final String s, final int from, final int to, final int shift)
    {
        final int[] digits = new int[to - from];
        for (int d = 0; d < digits.length; d++)
        {
            digits[d] = s.charAt(from + d) - '0';
        }
        long whole = 0;
        for (int k = 0; k < shift; k++)
        {
            int carry = 0;
            for (int d = digits.length - 1; d >= 0; d--)
            {
                final int v = digits[d] * 2 + carry;
                digits[d] = v % 10;
                carry = v / 10;
            }
            whole = whole * 2 + carry;
        }
        for (final int d : digits)
        {
            if (d != 0)
            {
                return whole + 1;
            }
        }
        return whole;
    }

    /**
     * As {@link #parse}, for sizes that must hold something (a heap): 0 is rejected too.
     *
     * @param text the value.
     * @return the size in bytes, at least 1.
     * @throws IllegalArgumentException with the reason if the text is not a size or is 0.
     */
    public static long parsePositive(final String text)
    {
        final long v = parse(text);
        if (v == 0)
        {
            throw new IllegalArgumentException("'" + text + "' is 0 bytes; the size must be more than 0 (e.g. 128M)");
        }
        return v;
    }
}
