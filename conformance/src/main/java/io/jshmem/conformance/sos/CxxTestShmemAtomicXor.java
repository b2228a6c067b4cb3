package io.jshmem.conformance.sos;

/** {@link XorCase}, as {@code cxx_test_shmem_atomic_xor.cpp} runs it. */
public final class CxxTestShmemAtomicXor extends XorCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicXor()
    {
        super("cxx_test_shmem_atomic_xor.cpp");
    }
}
