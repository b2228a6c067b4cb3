package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on longs (C long). */
public final class IputLong extends IputCase
{
    /** Creates the program. */
    public IputLong()
    {
        super(Kind.LONGS, "iput_long.c");
    }
}
