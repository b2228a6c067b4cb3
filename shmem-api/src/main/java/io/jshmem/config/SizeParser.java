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

     * Parses one size (see the class comment for the grammar).

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
        int i = 0;
        final int n = s.length();
        final StringBuilder digits = new StringBuilder();
        boolean sawDigit = false;
        while (i < n && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128)
        {
            digits.append(s.charAt(i++));
            sawDigit = true;
        }
        if (i < n && s.charAt(i) == '.')
        {
            digits.append('.');
            i++;
            while (i < n && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128)
            {
                digits.append(s.charAt(i++));
                sawDigit = true;
            }
        }
        if (!sawDigit)
        {
            throw new IllegalArgumentException("'" + text + "' is not a non-negative number of bytes");
        }
        long scale = 1;
        if (i < n)
        {
            switch (s.charAt(i))
            {
                case 'k', 'K' -> scale = 1L << 10;
                case 'm', 'M' -> scale = 1L << 20;
                case 'g', 'G' -> scale = 1L << 30;
                case 't', 'T' -> scale = 1L << 40;
                default -> throw new IllegalArgumentException(
                    "'" + text + "' has '" + s.charAt(i) + "' where a multiplier (k, m, g, t) or the end was expected");
            }
        }
        final java.math.BigDecimal value = new java.math.BigDecimal(digits.toString())
            .multiply(java.math.BigDecimal.valueOf(scale))
            .setScale(0, java.math.RoundingMode.CEILING);
        if (value.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0)
        {
            throw new IllegalArgumentException("'" + text + "' is larger than " + Long.MAX_VALUE + " bytes");
        }
        return value.longValueExact();
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
