package io.jshmem;

/**
 * The atomic memory operations, as the runtime receives them (one internal operation behind every
 * typed {@code atomic*} method). {@code FETCH_*} variants return the old value.
 */
public enum AtomicOp
{
    FETCH, SET, SWAP, COMPARE_SWAP, FETCH_INC, INC, FETCH_ADD, ADD,
    FETCH_AND, AND, FETCH_OR, OR, FETCH_XOR, XOR;

    /** @return true if the operation's result is returned to the caller. */
    public boolean fetches()
    {
        return switch (this)
        {
            case SET, INC, ADD, AND, OR, XOR -> false;
            default -> true;
        };
    }
}
