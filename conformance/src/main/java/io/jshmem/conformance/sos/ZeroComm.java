package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Zero-length transfers are no-ops that need no valid source or destination buffer: putmem, getmem,
 * their nbi forms, iget and iput with count 0 to PE 0. The original passes NULL for every address; in
 * Java the symmetric side must still be a live object (a zero-length one does not exist: size 0
 * allocates nothing), and the local side is null or {@link MemorySegment#NULL}. The object is checked
 * unchanged.
 */
public final class ZeroComm implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/zero_comm.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_putmem", "shmem_getmem", "shmem_putmem_nbi", "shmem_getmem_nbi", "shmem_iget", "shmem_iput");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricInts obj = shmem.allocateInts(1);
        obj.setLocal(0, 77);
        shmem.barrierAll();
        shmem.putmem(obj, 0, MemorySegment.NULL, 0);
        shmem.getmem(MemorySegment.NULL, obj, 0, 0);
        shmem.putmemNbi(obj, 0, MemorySegment.NULL, 0);
        shmem.getmemNbi(MemorySegment.NULL, obj, 0, 0);
        shmem.iget((int[])null, 0, 1, obj, 0, 1, 0, 0);
        shmem.iput(obj, 0, 1, (int[])null, 0, 1, 0, 0);
        shmem.quiet();
        shmem.barrierAll();
        check.eq("zero-length transfers", "ints", 0, 77, obj.getLocal(0));
        shmem.barrierAll();
        shmem.free(obj);
    }
}
