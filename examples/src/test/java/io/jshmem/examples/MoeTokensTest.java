package io.jshmem.examples;

import io.jshmem.examples.moe.MoeOptions;
import io.jshmem.examples.moe.Tokens;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The moe example's workload: number formats, routing and the option checks (no PEs). */
class MoeTokensTest
{
    @Test
    void bf16RoundsToNearestEven()
    {
        assertEquals(1f, Tokens.bf16Round(1f));
        assertEquals(1f, Tokens.bf16Round(1f + 0x1p-8f));            // half an ulp (2^-7 at 1): tie to even, down
        assertEquals(1f + 0x1p-6f, Tokens.bf16Round(1f + 3 * 0x1p-8f)); // 1.5 ulp: tie to even, up
        assertEquals(1f + 0x1p-7f, Tokens.bf16Round(1f + 0x1p-7f + 0x1p-10f)); // below half: down
        assertEquals(-2.5f, Tokens.bf16ToFloat(Tokens.bf16Bits(-2.5f)));
    }

    @Test
    void fp8E4m3Decodes()
    {
        assertEquals(1f, Tokens.fp8ToFloat((byte)0x38));
        assertEquals(448f, Tokens.fp8ToFloat((byte)0x7E));
        assertEquals(-0x1p-9f, Tokens.fp8ToFloat((byte)0x81));
        assertTrue(Float.isNaN(Tokens.fp8ToFloat((byte)0x7F)));
    }

    @Test
    void routingHasDistinctExpertsAndHonoursTheHotExpert()
    {
        final MoeOptions o = MoeOptions.parse("--tokens", "1000", "--topk", "4", "--hot", "0.5");
        final Tokens tokens = new Tokens(o, 4, o.expertsFor(4, 0));
        final Tokens.Routing r = tokens.route(2);
        int hot = 0;
        for (int t = 0; t < 1000; t++)
        {
            for (int k = 0; k < 4; k++)
            {
                for (int j = 0; j < k; j++)
                {
                    assertNotEquals(r.idx()[t * 4 + j], r.idx()[t * 4 + k], "token " + t);
                }
            }
            hot += r.idx()[t * 4] == 0 ? 1 : 0;
        }
        assertTrue(hot > 400 && hot < 600, "hot first choices: " + hot);
        assertEquals(r.idx()[17], tokens.route(2).idx()[17], "routing is deterministic");
    }

    @Test
    void payloadsAreDeterministicPerPeAndToken()
    {
        final Tokens tokens = new Tokens(MoeOptions.parse("--payload", "fp8", "--hidden", "256"), 2, 8);
        final MemorySegment a = MemorySegment.ofArray(new byte[tokens.payloadBytes()]);
        final MemorySegment b = MemorySegment.ofArray(new byte[tokens.payloadBytes()]);
        tokens.fillPayload(1, 5, a, 0);
        tokens.fillPayload(1, 5, b, 0);
        assertEquals(-1, a.mismatch(b));
        tokens.fillPayload(0, 5, b, 0);
        assertNotEquals(-1, a.mismatch(b));
        assertEquals(256 + 2 * 4, tokens.payloadBytes());
    }

    @Test
    void badOptionsNameTheOperands()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MoeOptions.parse("--payload", "fp8", "--hidden", "100"))
            .getMessage().contains("hidden=100"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MoeOptions.parse("--experts", "10").expertsFor(4, 3))
            .getMessage().contains("[pe 3/4] moe: --experts 10 must be a multiple of the PE count 4"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MoeOptions.parse("--mode", "fast")).getMessage()
            .contains("--mode fast"));
    }
}
