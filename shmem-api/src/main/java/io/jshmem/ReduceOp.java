package io.jshmem;

/**
 * The reduction operators of OpenSHMEM's team reductions ({@code shmem_TYPENAME_OP_reduce}). The bitwise
 * operators apply to the integer element types (bytes, shorts, chars, ints, longs; {@link SymmetricMemory}
 * counts as bytes); MAX, MIN, SUM and PROD to every numeric type. Integer SUM and PROD wrap as Java
 * arithmetic does; float and double results follow IEEE arithmetic in the element's own precision and
 * may differ in the last bit between algorithms (the spec allows it).
 */
public enum ReduceOp
{
    /** {@code shmem_and_reduce}: bitwise AND (integer types). */
    AND,
    /** {@code shmem_or_reduce}: bitwise OR (integer types). */
    OR,
    /** {@code shmem_xor_reduce}: bitwise XOR (integer types). */
    XOR,
    /** {@code shmem_max_reduce}: the largest value. */
    MAX,
    /** {@code shmem_min_reduce}: the smallest value. */
    MIN,
    /** {@code shmem_sum_reduce}: the sum. */
    SUM,
    /** {@code shmem_prod_reduce}: the product. */
    PROD;

    /** {@return true for AND, OR and XOR (integer types only)} */
    public boolean isBitwise()
    {
        return this == AND || this == OR || this == XOR;
    }
}
