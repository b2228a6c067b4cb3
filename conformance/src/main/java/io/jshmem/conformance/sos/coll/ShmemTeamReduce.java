package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The typed team reductions ({@code shmem_TYPENAME_OP_reduce}) over WORLD on nPes elements of value 1,
 * every operator on every type it applies to; the typed names fold onto the Java element types as in
 * {@link C11ShmemTeamReduce} (the same checks, reached through the typed instead of the generic names
 * in C; one generic method in Java).
 */
public final class ShmemTeamReduce extends CollProgram
{
    public ShmemTeamReduce()
    {
        super("tests-sos test/unit/shmem_team_reduce.c",
            List.of("shmem_and_reduce", "shmem_or_reduce", "shmem_xor_reduce", "shmem_max_reduce", "shmem_min_reduce",
                "shmem_sum_reduce", "shmem_prod_reduce"),
            forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        C11ShmemTeamReduce.allOnes(shmem, check, ReduceOp.values());
    }
}
