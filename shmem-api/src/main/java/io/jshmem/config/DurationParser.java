package io.jshmem.config;

/**
 * Parses durations: a non-negative number with an optional unit {@code ns, us, ms, s, m} (default
 * seconds), e.g. {@code 30}, {@code 2.5s}, {@code 500ms}, {@code 2m}.
 */
public final class DurationParser
{
    private DurationParser()
    {
    }

    /**

     * Parses one duration (see the class comment for the grammar).

     *
     * @param text the value.
     * @return the duration in nanoseconds.
     * @throws IllegalArgumentException with the reason if the text is not a duration.
     */
    public static long parseNs(final String text)
    {
        if (text == null)
        {
            throw new IllegalArgumentException("no value");
        }
        final String s = text.strip().toLowerCase(java.util.Locale.ROOT);
        int end = 0;
        while (end < s.length() && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.'))
        {
            end++;
        }
        final String number = s.substring(0, end);
        final String unit = s.substring(end).strip();
        final double scaleNs = switch (unit)
        {
            case "", "s" -> 1e9;
            case "ms" -> 1e6;
            case "us" -> 1e3;
            case "ns" -> 1;
            case "m", "min" -> 60e9;
            default -> throw new IllegalArgumentException("'" + text + "' has unknown unit '" + unit + "' (ns, us, ms, s, m)");
        };
        final double value;
        try
        {
            value = Double.parseDouble(number);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a non-negative duration");
        }
        final double ns = Math.ceil(value * scaleNs);
        if (!(ns >= 0) || ns > Long.MAX_VALUE)
        {
            throw new IllegalArgumentException("'" + text + "' is out of range");
        }
        return (long)ns;
    }
}
