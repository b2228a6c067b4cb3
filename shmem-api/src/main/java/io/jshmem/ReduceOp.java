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
    AND, OR, XOR, MAX, MIN, SUM, PROD;

    /** @return true for AND, OR and XOR (integer types only). */
    public boolean isBitwise()
    {
        return this == AND || this == OR || this == XOR;
    }
}
