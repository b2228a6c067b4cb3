package io.jshmem.conformance.sos;

import io.jshmem.conformance.Kind;

/** {@link IputCase} on longs (C long long). */
public final class IputLonglong extends IputCase
{
    /** Creates the program. */
    public IputLonglong()
    {
        super(Kind.LONGS, "iput_longlong.c");
    }
}
