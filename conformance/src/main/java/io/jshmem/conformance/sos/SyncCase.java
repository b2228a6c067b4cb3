package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricWords;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of tests-sos's C11 point-to-point synchronization tests, for ints and longs (the Java types
 * with wait/test; C's short types have no Java counterpart, its unsigned and fixed-width 32/64-bit types
 * map onto these by bit pattern).
 * <ul>
 *   <li>Scalar forms ({@code c11_test_shmem_wait_until.c}, {@code c11_test_shmem_test.c},
 *       {@code c11_shmem_{wait_until,test}_all_any_some.c}): every PE writes me + 1 with {@code p} into
 *       its right neighbour's zeroed word and waits (or polls the test form) for its own word to become
 *       non-zero; it must then hold left + 1. The set forms use a one-element set.</li>
 *   <li>Vector forms ({@code c11_test_shmem_wait_until_vector.c}, {@code c11_shmem_test_vector.c}): every
 *       PE atomically sets word me of every PE's zeroed n-word array to me; each waits until word i
 *       equals i for all i (all), or collects satisfied words one (any) or several (some) at a time,
 *       masking them in the status array, until every word is in; the collected values sum to
 *       n(n − 1)/2.</li>
 * </ul>
 */
abstract class SyncCase implements Program
{
    /** A routine form. */
    enum Form
    {
        WAIT_UNTIL, TEST, WAIT_UNTIL_ALL, WAIT_UNTIL_ANY, WAIT_UNTIL_SOME, TEST_ALL, TEST_ANY, TEST_SOME,
        WAIT_UNTIL_ALL_VECTOR, WAIT_UNTIL_ANY_VECTOR, WAIT_UNTIL_SOME_VECTOR, TEST_ALL_VECTOR, TEST_ANY_VECTOR, TEST_SOME_VECTOR;

        String routine()
        {
            return "shmem_" + name().toLowerCase(java.util.Locale.ROOT);
        }

        boolean vector()
        {
            return name().endsWith("VECTOR");
        }
    }

    private final String original;
    private final List<Form> forms;

    SyncCase(final String original, final Form... forms)
    {
        this.original = original;
        this.forms = List.of(forms);
    }

    @Override
    public final String follows()
    {
        return "tests-sos test/unit/" + original;
    }

    @Override
    public final List<String> routines()
    {
        final List<String> r = new ArrayList<>();
        for (final Form f : forms)
        {
            r.add(f.routine());
            r.add(f.vector() ? "shmem_atomic_set" : "shmem_p");
        }
        r.add("shmem_calloc");
        return r;
    }

    @Override
    public final void run(final Shmem shmem, final Check check)
    {
        for (final Form f : forms)
        {
            for (final Word w : Word.ALL)
            {
                check.section(f.routine() + " " + w);
                if (f.vector())
                {
                    vector(shmem, check, w, f);
                }
                else
                {
                    scalar(shmem, check, w, f);
                }
            }
        }
    }

    private static void deadline(final Check check, final long deadline, final Form f)
    {
        if (System.nanoTime() - deadline > 0)
        {
            check.fatal(f.routine() + " never became true");
        }
    }

    private static void scalar(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricArray<?> remote = w.allocate(shmem, 1);
        final SymmetricWords words = (SymmetricWords)remote;
        final int[] status = {0};
        final int[] indices = new int[1];
        if (w == Word.INTS)
        {
            shmem.p((io.jshmem.SymmetricInts)remote, 0, me + 1, (me + 1) % n);
        }
        else
        {
            shmem.p((io.jshmem.SymmetricLongs)remote, 0, me + 1, (me + 1) % n);
        }
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        switch (f)
        {
            case WAIT_UNTIL -> w.waitUntil(remote, 0, Cmp.NE, 0);
            case WAIT_UNTIL_ALL -> words.waitUntilAll(status, Cmp.NE, 0);
            case WAIT_UNTIL_ANY -> check.eq(f.routine(), w.name() + " index", 0, 0, words.waitUntilAny(status, Cmp.NE, 0));
            case WAIT_UNTIL_SOME ->
            {
                check.eq(f.routine(), w.name() + " count", 0, 1, words.waitUntilSome(indices, status, Cmp.NE, 0));
                check.eq(f.routine(), w.name() + " indices", 0, 0, indices[0]);
            }
            case TEST ->
            {
                while (!w.test(remote, 0, Cmp.NE, 0))
                {
                    deadline(check, deadline, f);
                }
            }
            case TEST_ALL ->
            {
                while (!words.testAll(status, Cmp.NE, 0))
                {
                    deadline(check, deadline, f);
                }
            }
            case TEST_ANY ->
            {
                long i;
                while ((i = words.testAny(status, Cmp.NE, 0)) == -1)
                {
                    deadline(check, deadline, f);
                }
                check.eq(f.routine(), w.name() + " index", 0, 0, i);
            }
            case TEST_SOME ->
            {
                int c;
                while ((c = words.testSome(indices, status, Cmp.NE, 0)) == 0)
                {
                    deadline(check, deadline, f);
                }
                check.eq(f.routine(), w.name() + " count", 0, 1, c);
            }
            default -> throw new IllegalStateException(f.name());
        }
        check.eq(f.routine(), w.name(), 0, (me + n - 1) % n + 1, w.local(remote, 0));
        shmem.barrierAll();
        shmem.free(remote);
    }

    private static void vector(final Shmem shmem, final Check check, final Word w, final Form f)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final var mem = w == Word.INTS ? shmem.calloc(n, 4) : shmem.calloc(n, 8);
        final SymmetricArray<?> ivars = w == Word.INTS ? mem.asInts() : mem.asLongs();
        final SymmetricWords words = (SymmetricWords)ivars;
        final int[] status = new int[n];
        final int[] indices = new int[n];
        final long[] cmp = new long[n];
        for (int pe = 0; pe < n; pe++)
        {
            w.atomic(shmem, AtomicOp.SET, ivars, me, me, 0, pe);
            cmp[pe] = pe;
        }
        long sum = 0;
        int completed = 0;
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        switch (f)
        {
            case WAIT_UNTIL_ALL_VECTOR ->
            {
                words.waitUntilAllVector(status, Cmp.EQ, cmp);
                for (int i = 0; i < n; i++)
                {
                    sum += w.local(ivars, i);
                }
            }
            case TEST_ALL_VECTOR ->
            {
                while (!words.testAllVector(status, Cmp.EQ, cmp))
                {
                    deadline(check, deadline, f);
                }
                for (int i = 0; i < n; i++)
                {
                    sum += w.local(ivars, i);
                }
            }
            case WAIT_UNTIL_ANY_VECTOR, TEST_ANY_VECTOR ->
            {
                while (completed < n)
                {
                    final long i = f == Form.WAIT_UNTIL_ANY_VECTOR ? words.waitUntilAnyVector(status, Cmp.EQ, cmp) :
                        words.testAnyVector(status, Cmp.EQ, cmp);
                    if (i >= 0)
                    {
                        check.isTrue(status[(int)i] == 0, f.routine(), "returned masked index " + i);
                        status[(int)i] = 1;
                        sum += w.local(ivars, i);
                        completed++;
                    }
                    else
                    {
                        check.isTrue(f == Form.TEST_ANY_VECTOR, f.routine(), "returned -1 with unmasked elements");
                        deadline(check, deadline, f);
                    }
                }
            }
            default ->
            {
                while (completed < n)
                {
                    final int c = f == Form.WAIT_UNTIL_SOME_VECTOR ? words.waitUntilSomeVector(indices, status, Cmp.EQ, cmp) :
                        words.testSomeVector(indices, status, Cmp.EQ, cmp);
                    for (int j = 0; j < c; j++)
                    {
                        check.isTrue(status[indices[j]] == 0, f.routine(), "returned masked index " + indices[j]);
                        status[indices[j]] = 1;
                        sum += w.local(ivars, indices[j]);
                    }
                    completed += c;
                    if (c == 0)
                    {
                        check.isTrue(f == Form.TEST_SOME_VECTOR, f.routine(), "returned 0 with unmasked elements");
                        deadline(check, deadline, f);
                    }
                }
            }
        }
        check.eq(f.routine(), w.name() + " sum", 0, (long)n * (n - 1) / 2, sum);
        shmem.barrierAll();
        shmem.free(mem);
    }
}
