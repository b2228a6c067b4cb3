package io.jshmem;

/**
 * The atomic memory operations, as the runtime receives them (one internal operation behind every
 * typed {@code atomic*} method). {@code FETCH_*} variants return the old value.
 */
public enum AtomicOp
{
    /** {@code shmem_atomic_fetch}: reads the element. */
    FETCH,
    /** {@code shmem_atomic_set}: writes the element. */
    SET,
    /** {@code shmem_atomic_swap}: writes the element, returns the old value. */
    SWAP,
    /** {@code shmem_atomic_compare_swap}: writes the element if it equals the condition, returns the old value. */
    COMPARE_SWAP,
    /** {@code shmem_atomic_fetch_inc}: adds 1, returns the old value. */
    FETCH_INC,
    /** {@code shmem_atomic_inc}: adds 1. */
    INC,
    /** {@code shmem_atomic_fetch_add}: adds the operand, returns the old value. */
    FETCH_ADD,
    /** {@code shmem_atomic_add}: adds the operand. */
    ADD,
    /** {@code shmem_atomic_fetch_and}: bitwise AND with the operand, returns the old value. */
    FETCH_AND,
    /** {@code shmem_atomic_and}: bitwise AND with the operand. */
    AND,
    /** {@code shmem_atomic_fetch_or}: bitwise OR with the operand, returns the old value. */
    FETCH_OR,
    /** {@code shmem_atomic_or}: bitwise OR with the operand. */
    OR,
    /** {@code shmem_atomic_fetch_xor}: bitwise XOR with the operand, returns the old value. */
    FETCH_XOR,
    /** {@code shmem_atomic_xor}: bitwise XOR with the operand. */
    XOR;

    /** {@return true if the operation's result is returned to the caller} */
    public boolean fetches()
    {
        return switch (this)
        {
            case SET, INC, ADD, AND, OR, XOR -> false;
            default -> true;
        };
    }
}
