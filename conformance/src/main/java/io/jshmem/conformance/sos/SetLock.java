package io.jshmem.conformance.sos;

/** {@link LockCase} with the blocking {@code set_lock}. */
public final class SetLock extends LockCase
{
    /** Creates the program. */
    public SetLock()
    {
        super(false);
    }

    @Override
    public String follows()
    {
        return "tests-sos test/unit/set_lock.c";
    }
}
