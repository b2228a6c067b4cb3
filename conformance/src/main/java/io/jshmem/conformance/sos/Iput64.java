package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on longs (C int64). */
public final class Iput64 extends IputCase
{
    /** Creates the program. */
    public Iput64()
    {
        super(Kind.LONGS, "iput64.c");
    }
}
