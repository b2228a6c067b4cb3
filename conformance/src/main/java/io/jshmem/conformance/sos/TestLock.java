package io.jshmem.conformance.sos;

/** {@link LockCase} taking the lock by polling {@code test_lock}. */
public final class TestLock extends LockCase
{
    /** Creates the program. */
    public TestLock()
    {
        super(true);
    }

    @Override
    public String follows()
    {
        return "tests-sos test/unit/test_lock.c";
    }
}
