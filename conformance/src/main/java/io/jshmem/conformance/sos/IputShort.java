package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on shorts. */
public final class IputShort extends IputCase
{
    /** Creates the program. */
    public IputShort()
    {
        super(Kind.SHORTS, "iput_short.c");
    }
}
