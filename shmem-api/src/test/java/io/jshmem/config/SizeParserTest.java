package io.jshmem.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SizeParserTest
{
    @ParameterizedTest
    @CsvSource({
        "0,0", "1,1", "4096,4096", "1k,1024", "1K,1024", "2m,2097152", "2M,2097152", "1g,1073741824",
        "1G,1073741824", "1t,1099511627776", "1T,1099511627776",
        "20kk,20480", "20kM,20480", ".5m,524288", "3.1M,3250586", "0.5,1", "1.5,2", "1.,1", "10k junk,10240",
        "' 64M ',67108864", "9223372036854775807,9223372036854775807", "8388607.99999999999T,9223372036854775798",
        "0.0000000000000000000001,1", "0.0000000000000000000001T,1", "00000000000000000000000000012k,12288",
        "5.000000000000000000000000,5", "0.333333333333333333333333333m,349526"
    })
    void parsesTheSpecGrammar(final String text, final long expected)
    {
        assertEquals(expected, SizeParser.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-1", "+1", "abc", "k", "12x", "1e3", ".", "0x10", "1,5M", "9999999999999999999", "8388608T",
        "9223372036854775807.1", "8388607.999999999999999999999T", "99999999999999999999999k"})
    void rejectsEverythingElse(final String text)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> SizeParser.parse(text));
        assertTrue(ex.getMessage().length() > 5, ex.getMessage());
    }

    @Test
    void propertyResultIsCeilingOfPrefixTimesScale()
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final String[] suffixes = {"", "k", "m", "g"};
        final long[] scales = {1, 1 << 10, 1 << 20, 1 << 30};
        for (int i = 0; i < 2000; i++)
        {
            final int whole = random.nextInt(100_000);
            final int frac = random.nextInt(1000);
            final int s = random.nextInt(suffixes.length);
            final String text = whole + "." + String.format("%03d", frac) + suffixes[s];
            final java.math.BigDecimal exact = new java.math.BigDecimal(whole + "." + String.format("%03d", frac))
                .multiply(java.math.BigDecimal.valueOf(scales[s]));
            final long expected = exact.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
            assertEquals(expected, SizeParser.parse(text), "seed=" + seed + " text=" + text);
        }
    }

    /** Long fractions and every multiplier against BigDecimal's exact ceiling (the parser uses long arithmetic only). */
    @Test
    void propertyLongFractionsAndEveryMultiplierMatchTheExactCeiling()
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final String[] suffixes = {"", "k", "M", "g", "T"};
        for (int i = 0; i < 5000; i++)
        {
            final StringBuilder number = new StringBuilder().append(random.nextInt(1 << random.nextInt(24)));
            if (random.nextBoolean())
            {
                number.append('.');
                for (int d = random.nextInt(30); d > 0; d--)
                {
                    number.append((char)('0' + random.nextInt(10)));
                }
            }
            final int s = random.nextInt(suffixes.length);
            final java.math.BigDecimal exact = new java.math.BigDecimal(number.toString()).multiply(java.math.BigDecimal.valueOf(1L << (10 * s)))
                .setScale(0, java.math.RoundingMode.CEILING);
            final String text = number + suffixes[s];
            if (exact.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0)
            {
                assertThrows(IllegalArgumentException.class, () -> SizeParser.parse(text), "seed=" + seed + " text=" + text);
            }
            else
            {
                assertEquals(exact.longValueExact(), SizeParser.parse(text), "seed=" + seed + " text=" + text);
            }
        }
    }
}
