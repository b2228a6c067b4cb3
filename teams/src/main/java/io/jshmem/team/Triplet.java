package io.jshmem.team;

/**
 * A strided range of PE numbers: member i is {@code start + i * stride}, for i in [0, size). Teams are
 * triplets of WORLD; a split's arguments are a triplet of the parent team, which {@link #in} turns into
 * WORLD numbers. Pure arithmetic, the same on every PE.
 *
 * @param start  the first member.
 * @param stride the step between members (negative lists PEs in decreasing order; 0 only with size 1).
 * @param size   the number of members.
 */
record Triplet(int start, int stride, int size)
{
    /** @return member i's number (no range check). */
    int pe(final int i)
    {
        return start + i * stride;
    }

    /** @return the member number of PE p, or -1 when p is not a member. */
    int indexOf(final int p)
    {
        final int d = p - start;
        if (stride == 0)
        {
            return d == 0 && size > 0 ? 0 : -1;
        }
        if (d % stride != 0)
        {
            return -1;
        }
        final int i = d / stride;
        return i >= 0 && i < size ? i : -1;
    }

    /** @return this triplet, whose numbers are members of {@code parent}, in the numbering parent's members are in. */
    Triplet in(final Triplet parent)
    {
        return new Triplet(parent.pe(start), parent.stride * stride, size);
    }
}
