package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** Initialized asking for FUNNELED, the PE reports a thread level at least FUNNELED (the suite inits at the highest level its programs ask for). */
public final class QueryThread implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/query_thread.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_query_thread");
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return ThreadLevel.FUNNELED;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final ThreadLevel provided = shmem.threadLevel();
        check.isTrue(provided.compareTo(ThreadLevel.FUNNELED) >= 0, "shmem_query_thread", "provided " + provided + " < FUNNELED");
    }
}
