package io.jshmem;

/**
 * Comparison operators of point-to-point synchronization ({@code SHMEM_CMP_*}). {@code ivar cmp value}
 * is tested with the variable on the left.
 */
public enum Cmp
{
    /** {@code SHMEM_CMP_EQ}: equal. */
    EQ,
    /** {@code SHMEM_CMP_NE}: not equal. */
    NE,
    /** {@code SHMEM_CMP_GT}: the variable is greater. */
    GT,
    /** {@code SHMEM_CMP_GE}: the variable is greater or equal. */
    GE,
    /** {@code SHMEM_CMP_LT}: the variable is less. */
    LT,
    /** {@code SHMEM_CMP_LE}: the variable is less or equal. */
    LE;

    /**
     * Compares two values as signed 64-bit numbers.
     *
     * @param ivar  the variable's value.
     * @param value the comparison value.
     * @return {@code ivar <cmp> value}, signed.
     */
    public boolean test(final long ivar, final long value)
    {
        return switch (this)
        {
            case EQ -> ivar == value;
            case NE -> ivar != value;
            case GT -> ivar > value;
            case GE -> ivar >= value;
            case LT -> ivar < value;
            case LE -> ivar <= value;
        };
    }

    /**
     * Compares two values as unsigned 64-bit numbers (signal waits).
     *
     * @param ivar  the variable's value, as unsigned 64 bits (signals are {@code uint64_t}).
     * @param value the comparison value, as unsigned 64 bits.
     * @return {@code ivar <cmp> value}, unsigned.
     */
    public boolean testUnsigned(final long ivar, final long value)
    {
        return test(ivar + Long.MIN_VALUE, value + Long.MIN_VALUE);
    }
}
