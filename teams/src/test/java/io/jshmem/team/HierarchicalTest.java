package io.jshmem.team;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The two-level broadcast's pieces ({@link Hierarchical#broadcastPiece}). */
class HierarchicalTest
{
    @Test
    void aBroadcastMovesInPiecesOfHalfTheScratchAtMostSixtyFourOfThem()
    {
        final long half = 128 << 10;
        assertEquals(half, Hierarchical.broadcastPiece(8, half), "a small message is one piece (of at most half the scratch)");
        assertEquals(half, Hierarchical.broadcastPiece(1 << 20, half), "1 MiB: 8 pieces of 128 KiB");
        assertEquals(half, Hierarchical.broadcastPiece(64L * half, half), "64 pieces of half the scratch");
        final long big = 64L * half + 1;
        final long piece = Hierarchical.broadcastPiece(big, half);
        assertEquals(0, piece % 64, "a multiple of 64 bytes, so of any element's size");
        assertEquals(Hierarchical.MAX_BROADCAST_PIECES, (big + piece - 1) / piece, "past 64 pieces the pieces grow instead");
        assertEquals(576, Hierarchical.broadcastPiece(1000, 520), "half a scratch that is no multiple of 64 rounds up");
        assertEquals(64, Hierarchical.broadcastPiece(100, 0), "no scratch: 64-byte pieces");
    }
}
