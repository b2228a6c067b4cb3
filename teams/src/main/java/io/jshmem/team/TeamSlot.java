package io.jshmem.team;

import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

/**
 * One team slot in the pool the registry reserves at init, as handles on this PE's copy:
 * <pre>
 *   +---------------------------+  offset 0
 *   | sig: n longs, one per      |  signal words, indexed by the sender's team rank
 *   | sender (padded to 64 B)    |
 *   +---------------------------+
 *   | arrived: 1 long (64 B)     |  the first phase of the collective this PE is in (timeouts)
 *   +---------------------------+
 *   | small: 2 x n x 2 longs     |  two halves (scratch parity) of two longs per member
 *   +---------------------------+
 *   | scratch: SHMEM_TEAM_       |  two halves (scratch parity) for reductions and scans
 *   | SCRATCH_SIZE bytes         |
 *   +---------------------------+
 * </pre>
 * n is WORLD's size, the largest a team can be.
 *
 * @param index   the slot number.
 * @param region  the whole slot.
 * @param sig     the signal words.
 * @param arrived the word where this PE publishes the collective it is in, read by a member whose wait timed out.
 * @param small   the small exchange area.
 * @param scratch the scratch area.
 */
record TeamSlot(int index, SymmetricMemory region, SymmetricLongs sig, SymmetricLongs arrived, SymmetricLongs small, SymmetricMemory scratch)
{
    /** The arrived word has a cache line of its own. */
    static final long ARRIVED_BYTES = 64;

    static long sigBytes(final int n)
    {
        return align(8L * n);
    }

    static long smallBytes(final int n)
    {
        return align(32L * n);
    }

    static long slotBytes(final int n, final long scratchBytes)
    {
        return sigBytes(n) + ARRIVED_BYTES + smallBytes(n) + align(scratchBytes);
    }

    static long align(final long bytes)
    {
        return (bytes + 63) & ~63L;
    }

    static TeamSlot of(final SymmetricMemory pool, final int index, final int n, final long scratchBytes)
    {
        final long slotBytes = slotBytes(n, scratchBytes);
        final SymmetricMemory region = pool.slice(index * slotBytes, slotBytes);
        final SymmetricLongs sig = region.slice(0, 8L * n).asLongs();
        final SymmetricLongs arrived = region.slice(sigBytes(n), 8).asLongs();
        final SymmetricLongs small = region.slice(sigBytes(n) + ARRIVED_BYTES, 32L * n).asLongs();
        final SymmetricMemory scratch = region.slice(sigBytes(n) + ARRIVED_BYTES + smallBytes(n), align(scratchBytes));
        return new TeamSlot(index, region, sig, arrived, small, scratch);
    }

    /** Zeroes this PE's copy (destroy, after the team's last sync). */
    void clear()
    {
        region.segment().fill((byte)0);
    }
}
