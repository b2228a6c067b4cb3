package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Timed loops of 2 KB (512 ints) transfers in every pattern of the original: put and get to the next
 * neighbour, put and get to and from every PE, PE 0 putting to and getting from every other PE,
 * broadcast from PE 0, collect and fcollect over all PEs. Each phase starts and ends with a
 * {@code barrier_all}; PE 0 prints each phase's time.
 * <p>
 * The original only times the loops and checks nothing. The port checks every phase's data: the
 * source holds 1, 2, 3, ...; before each put or collective phase the targets are reset to −90, and
 * after it every target (every get's local buffer, every broadcast target, every block of a collect
 * or fcollect result) must hold the source. In the one-to-many phase PE 0 also calls {@code pe_quiet}
 * on the PEs it put to and then raises a flag on each; a PE that sees its flag must already see the
 * data, before any barrier.
 * <p>
 * Scaled down: the original runs 20000 loops of each pattern; at that count the port took 2.5 s at 4
 * PEs on 2 cores (collect alone 1.5 s) and 10 s at 2 PEs over the proxy transport (each blocking get a
 * round trip), so it runs {@value #LOOPS} loops, a tenth.
 */
public final class Spam implements Program
{
    /** The original's default is 20000; see the class comment. */
    static final int LOOPS = 2000;
    private static final int ELEMENTS = 512;
    private static final int RESET = -90;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/spam.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_get", "shmem_pe_quiet", "shmem_p", "shmem_wait_until", "shmem_broadcast",
            "shmem_collect", "shmem_fcollect", "shmem_barrier_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final Team world = shmem.teamWorld();
        final SymmetricInts source = shmem.allocateInts(ELEMENTS);
        final SymmetricInts target = shmem.allocateInts(ELEMENTS);
        final SymmetricInts flag = shmem.allocateInts(1);
        final int[] src = new int[ELEMENTS];
        for (int i = 0; i < ELEMENTS; i++)
        {
            src[i] = i + 1;
            source.setLocal(i, i + 1);
        }
        final int[] got = new int[ELEMENTS];
        final int neighbor = (me + 1) % n;

        // neighbor put, neighbor get
        reset(target);
        long t = begin(shmem);
        for (int i = 0; i < LOOPS; i++)
        {
            shmem.put(target, 0, src, 0, ELEMENTS, neighbor);
        }
        end(shmem, "neighbor_put", t);
        same(check, "shmem_put", "neighbor put: target", target, 0);

        t = begin(shmem);
        java.util.Arrays.fill(got, RESET);
        for (int i = 0; i < LOOPS; i++)
        {
            shmem.get(got, 0, source, 0, ELEMENTS, neighbor);
        }
        end(shmem, "neighbor_get", t);
        same(check, "shmem_get", "neighbor get from PE " + neighbor, got);

        // all-to-all put, all-to-all get
        reset(target);
        t = begin(shmem);
        for (int i = 0; i < LOOPS; i++)
        {
            for (int pe = 0; pe < n; pe++)
            {
                shmem.put(target, 0, src, 0, ELEMENTS, pe);
            }
        }
        end(shmem, "all2all_put", t);
        same(check, "shmem_put", "all-to-all put: target", target, 0);

        t = begin(shmem);
        java.util.Arrays.fill(got, RESET);
        for (int i = 0; i < LOOPS; i++)
        {
            for (int pe = 0; pe < n; pe++)
            {
                shmem.get(got, 0, source, 0, ELEMENTS, pe);
            }
        }
        end(shmem, "all2all_get", t);
        same(check, "shmem_get", "all-to-all get", got);

        // one-to-many put (then pe_quiet and a flag), many-to-one get
        reset(target);
        flag.setLocal(0, 0);
        t = begin(shmem);
        if (me == 0)
        {
            for (int i = 0; i < LOOPS; i++)
            {
                for (int pe = 1; pe < n; pe++)
                {
                    shmem.put(target, 0, src, 0, ELEMENTS, pe);
                }
            }
            final int[] workers = new int[n - 1];
            for (int pe = 1; pe < n; pe++)
            {
                workers[pe - 1] = pe;
            }
            shmem.peQuiet(workers);
            for (int pe = 1; pe < n; pe++)
            {
                shmem.p(flag, 0, 1, pe);
            }
        }
        else
        {
            flag.waitUntil(0, Cmp.EQ, 1);
            same(check, "shmem_pe_quiet", "one-to-many put: target when PE 0's flag (after pe_quiet) arrived", target, 0);
        }
        end(shmem, "one2many_put", t);
        if (me != 0)
        {
            same(check, "shmem_put", "one-to-many put: target", target, 0);
        }

        t = begin(shmem);
        if (me == 0)
        {
            for (int pe = 1; pe < n; pe++)
            {
                java.util.Arrays.fill(got, RESET);
                for (int i = 0; i < LOOPS; i++)
                {
                    shmem.get(got, 0, source, 0, ELEMENTS, pe);
                }
                same(check, "shmem_get", "many-to-one get from PE " + pe, got);
            }
        }
        end(shmem, "many2one_get", t);

        // broadcast
        reset(target);
        t = begin(shmem);
        for (int i = 0; i < LOOPS; i++)
        {
            world.broadcast(target, source, ELEMENTS, 0);
        }
        end(shmem, "bcast", t);
        same(check, "shmem_broadcast", "broadcast from PE 0: target", target, 0);

        // collect, fcollect
        for (final boolean fixed : new boolean[] {false, true})
        {
            final String routine = fixed ? "shmem_fcollect" : "shmem_collect";
            final SymmetricInts dest = shmem.allocateInts((long)ELEMENTS * n);
            reset(dest);
            t = begin(shmem);
            for (int i = 0; i < LOOPS; i++)
            {
                if (fixed)
                {
                    world.fcollect(dest, source, ELEMENTS);
                }
                else
                {
                    world.collect(dest, source, ELEMENTS);
                }
            }
            end(shmem, fixed ? "fcollect" : "collect", t);
            for (int pe = 0; pe < n; pe++)
            {
                same(check, routine, "block of PE " + pe, dest, (long)pe * ELEMENTS);
            }
            shmem.free(dest);
            shmem.barrierAll();
        }

        shmem.barrierAll();
        shmem.free(flag);
        shmem.free(target);
        shmem.free(source);
    }

    private static void reset(final SymmetricInts a)
    {
        for (long i = 0; i < a.length(); i++)
        {
            a.setLocal(i, RESET);
        }
    }

    private static long begin(final Shmem shmem)
    {
        shmem.barrierAll();
        return System.nanoTime();
    }

    private static void end(final Shmem shmem, final String phase, final long start)
    {
        final long us = (System.nanoTime() - start) / 1000;
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            System.out.println("  Spam: " + phase + ": " + LOOPS + " loops of " + ELEMENTS * Integer.BYTES + " bytes, " + us / 1000 + " ms");
        }
    }

    /** One check: elements {@code from .. from + 511} of {@code a} hold 1, 2, 3, .... */
    private static void same(final Check check, final String routine, final String what, final SymmetricInts a, final long from)
    {
        for (int i = 0; i < ELEMENTS; i++)
        {
            final int v = a.getLocal(from + i);
            if (v != i + 1)
            {
                check.fail(routine, what + ": element " + i + " expected=" + (i + 1) + " actual=" + v);
                return;
            }
        }
        check.isTrue(true, routine, what);
    }

    private static void same(final Check check, final String routine, final String what, final int[] a)
    {
        for (int i = 0; i < ELEMENTS; i++)
        {
            if (a[i] != i + 1)
            {
                check.fail(routine, what + ": element " + i + " expected=" + (i + 1) + " actual=" + a[i]);
                return;
            }
        }
        check.isTrue(true, routine, what);
    }
}
