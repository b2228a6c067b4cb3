package io.jshmem;

/**
 * Comparison operators of point-to-point synchronization ({@code SHMEM_CMP_*}). {@code ivar cmp value}
 * is tested with the variable on the left.
 */
public enum Cmp
{
    EQ, NE, GT, GE, LT, LE;

    /**
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
     * @param ivar  the variable's value, as unsigned 64 bits (signals are {@code uint64_t}).
     * @param value the comparison value, as unsigned 64 bits.
     * @return {@code ivar <cmp> value}, unsigned.
     */
    public boolean testUnsigned(final long ivar, final long value)
    {
        return test(ivar + Long.MIN_VALUE, value + Long.MIN_VALUE);
    }
}
