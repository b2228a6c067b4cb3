package io.jshmem.bootstrap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** N PEs as threads over real loopback sockets, with a root, a log capture and recorded exits. */
final class TestJob implements AutoCloseable
{
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final List<Integer> exits = Collections.synchronizedList(new ArrayList<>());
    final BootstrapSettings settings;
    final BootstrapRoot root;
    final int size;
    final List<UidBootstrap> pes = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService pool;

    TestJob(final int size)
    {
        this(size, 10_000_000_000L, 2_000_000_000L);
    }

    TestJob(final int size, final long timeoutNs, final long peerTimeoutNs)
    {
        this(size, timeoutNs, peerTimeoutNs, s -> s);
    }

    TestJob(final int size, final long timeoutNs, final long peerTimeoutNs, final java.util.function.UnaryOperator<BootstrapSettings> more)
    {
        this.size = size;
        this.settings = more.apply(BootstrapSettings.defaults().withIfname("lo").withTimeoutNs(timeoutNs).withPeerTimeoutNs(peerTimeoutNs)
            .withExitOnFailure(false).withLog(log::add).withExitAction(exits::add));
        this.root = BootstrapRoot.start(settings, 0);
        this.pool = Executors.newFixedThreadPool(size, r -> Thread.ofPlatform().daemon().name("test-pe").unstarted(r));
    }

    /** Connects ranks 0..n-1 in parallel. */
    List<UidBootstrap> form()
    {
        final List<Future<UidBootstrap>> fs = new ArrayList<>();
        for (int r = 0; r < size; r++)
        {
            final int rank = r;
            fs.add(pool.submit(() -> UidBootstrap.connect(root.uniqueId(), rank, size, settings)));
        }
        final List<UidBootstrap> out = new ArrayList<>();
        for (final Future<UidBootstrap> f : fs)
        {
            out.add(get(f));
        }
        pes.addAll(out);
        return out;
    }

    /** Runs body on every PE in parallel; returns the results by rank. */
    <T> List<T> each(final List<UidBootstrap> bs, final Function<UidBootstrap, T> body)
    {
        final List<Future<T>> fs = new ArrayList<>();
        for (final UidBootstrap b : bs)
        {
            fs.add(pool.submit(() -> body.apply(b)));
        }
        final List<T> out = new ArrayList<>();
        for (final Future<T> f : fs)
        {
            out.add(get(f));
        }
        return out;
    }

    <T> Future<T> submit(final java.util.concurrent.Callable<T> c)
    {
        return pool.submit(c);
    }

    static <T> T get(final Future<T> f)
    {
        try
        {
            return f.get(30, TimeUnit.SECONDS);
        }
        catch (final java.util.concurrent.ExecutionException ex)
        {
            if (ex.getCause() instanceof RuntimeException re)
            {
                throw re;
            }
            throw new AssertionError(ex.getCause());
        }
        catch (final Exception ex)
        {
            throw new AssertionError(ex);
        }
    }

    @Override
    public void close()
    {
        for (final UidBootstrap b : pes)
        {
            b.crashForTesting(); // no farewell needed: the root goes too
        }
        root.close();
        pool.shutdownNow();
        try
        {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the variables shmemrun gives each of {@code n} PEs of a job whose root is {@code root}. */
    static List<java.util.Map<String, String>> shmemrunEnvs(final BootstrapRoot root, final int n, final String jobId)
    {
        final List<java.util.Map<String, String>> envs = new ArrayList<>();
        for (int r = 0; r < n; r++)
        {
            envs.add(java.util.Map.of("JSHMEM_RANK", "" + r, "JSHMEM_SIZE", "" + n, "JSHMEM_JOB_ID", jobId,
                "SHMEM_BOOTSTRAP_UID", root.uniqueId().toText()));
        }
        return envs;
    }

    /** @return a port free a moment ago (for roots that must listen on a known address). */
    static int freePort() throws java.io.IOException
    {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }

    /**
     * Runs {@code pe} for each environment on a thread of its own (a PE each) and returns the results in
     * order; fails naming every PE that threw, not only the first.
     */
    static <E> List<String> runEach(final List<E> envs, final java.util.function.Function<E, String> pe)
    {
        final ExecutorService pool = Executors.newFixedThreadPool(envs.size());
        try
        {
            final List<Future<String>> fs = new ArrayList<>();
            for (final E env : envs)
            {
                fs.add(pool.submit(() -> pe.apply(env)));
            }
            final List<String> out = new ArrayList<>();
            final List<String> failures = new ArrayList<>();
            for (int rank = 0; rank < fs.size(); rank++)
            {
                try
                {
                    out.add(get(fs.get(rank)));
                }
                catch (final RuntimeException | AssertionError ex)
                {
                    failures.add("PE " + rank + ": " + ex);
                }
            }
            if (!failures.isEmpty())
            {
                throw new AssertionError(String.join("\n", failures));
            }
            return out;
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    /** @return live threads named jshmem-bootstrap-*. */
    static List<String> bootstrapThreads()
    {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(n -> n.startsWith("jshmem-bootstrap")).toList();
    }
}
