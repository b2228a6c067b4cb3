package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on floats. */
public final class IputFloat extends IputCase
{
    /** Creates the program. */
    public IputFloat()
    {
        super(Kind.FLOATS, "iput_float.c");
    }
}
