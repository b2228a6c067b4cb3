package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on ints (C int32). */
public final class Iput32 extends IputCase
{
    /** Creates the program. */
    public Iput32()
    {
        super(Kind.INTS, "iput32.c");
    }
}
