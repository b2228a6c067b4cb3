package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on doubles. */
public final class IputDouble extends IputCase
{
    /** Creates the program. */
    public IputDouble()
    {
        super(Kind.DOUBLES, "iput_double.c");
    }
}
