package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTimeoutException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** The PE side of the store on the control channel (the Proxy of {@link RootStoreHandler}). Safe from any thread. */
final class ControlStore implements KeyValueStore
{
    private record Response(byte status, byte[] body)
    {
    }

    private final UidBootstrap owner;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();

    ControlStore(final UidBootstrap owner)
    {
        this.owner = owner;
    }

    void complete(final Wire.Reader r) throws IOException
    {
        final long id = r.i64();
        final byte status = (byte)r.i8();
        final byte[] body = r.bytes();
        final CompletableFuture<Response> f = pending.remove(id);
        if (f != null)
        {
            f.complete(new Response(status, body));
        }
    }

    private Response call(final String what, final long timeoutNs, final Consumer<Wire.Writer> args)
    {
        final long id = ids.incrementAndGet();
        final CompletableFuture<Response> f = new CompletableFuture<>();
        pending.put(id, f);
        final Wire.Writer w = new Wire.Writer().i64(id);
        args.accept(w);
        try
        {
            owner.sendToRoot(Wire.KV_REQUEST, w.toBytes(), "store " + what);
            final long deadline = System.nanoTime() + timeoutNs;
            while (true)
            {
                owner.checkFailure("store " + what);
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return null;
                }
                try
                {
                    return f.get(Math.min(left, 50_000_000L), TimeUnit.NANOSECONDS);
                }
                catch (final TimeoutException ex)
                {
                    // re-check the failure and the deadline
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new ShmemException(owner.prefix() + "interrupted in store " + what);
                }
                catch (final ExecutionException ex)
                {
                    throw new ShmemException(owner.prefix() + "store " + what + " failed", ex.getCause());
                }
            }
        }
        finally
        {
            pending.remove(id);
        }
    }

    private Response callOrTimeout(final String what, final Consumer<Wire.Writer> args)
    {
        final Response r = call(what, owner.settings().timeoutNs(), args);
        if (r == null)
        {
            throw new ShmemTimeoutException(owner.prefix() + "store " + what + ": no answer from the root within "
                + owner.settings().timeoutNs() / 1_000_000 + " ms (SHMEM_BOOTSTRAP_TIMEOUT)", new int[0]);
        }
        if (r.status() == RootStoreHandler.ERROR)
        {
            throw new IllegalStateException(owner.prefix() + "store " + what + ": " + new String(r.body(), StandardCharsets.UTF_8));
        }
        return r;
    }

    @Override
    public void set(final String key, final byte[] value)
    {
        callOrTimeout("set '" + key + "'", w -> w.i8(RootStoreHandler.SET).str(key).bytes(value));
    }

    @Override
    public byte[] get(final String key)
    {
        while (true)
        {
            waitFor(List.of(key));
            final byte[] v = tryGet(key);
            if (v != null)
            {
                return v;
            }
        }
    }

    @Override
    public byte[] tryGet(final String key)
    {
        final Response r = callOrTimeout("get '" + key + "'", w -> w.i8(RootStoreHandler.GET).str(key));
        return r.status() == RootStoreHandler.OK ? r.body() : null;
    }

    @Override
    public long add(final String key, final long delta)
    {
        final Response r = callOrTimeout("add '" + key + "' " + delta, w -> w.i8(RootStoreHandler.ADD).str(key).i64(delta));
        try
        {
            return new Wire.Reader(r.body()).i64();
        }
        catch (final IOException ex)
        {
            throw new ShmemException(owner.prefix() + "store add '" + key + "': bad answer", ex);
        }
    }

    @Override
    public void waitFor(final List<String> keys)
    {
        waitFor(keys, owner.settings().timeoutNs());
    }

    @Override
    public void waitFor(final List<String> keys, final long timeoutNs)
    {
        if (call("wait " + keys, timeoutNs, w -> w.i8(RootStoreHandler.WAIT).strings(keys)) != null)
        {
            return;
        }
        List<String> missing = keys;
        final Response m = call("missing " + keys, 2_000_000_000L, w -> w.i8(RootStoreHandler.MISSING).strings(keys));
        if (m != null)
        {
            try
            {
                missing = new Wire.Reader(m.body()).strings();
            }
            catch (final IOException ignore)
            {
                // report every key
            }
        }
        throw new ShmemTimeoutException(owner.prefix() + "store wait timed out after " + timeoutNs / 1_000_000
            + " ms; keys never set: " + missing, new int[0]);
    }

    @Override
    public boolean contains(final String key)
    {
        return callOrTimeout("contains '" + key + "'", w -> w.i8(RootStoreHandler.CONTAINS).str(key)).body()[0] != 0;
    }

    @Override
    public boolean delete(final String key)
    {
        return callOrTimeout("delete '" + key + "'", w -> w.i8(RootStoreHandler.DELETE).str(key)).body()[0] != 0;
    }

    @Override
    public KeyValueStore prefixed(final String prefix)
    {
        return new PrefixStore(this, prefix);
    }

    /** Fails every pending request (the job failed or closed). */
    void failAll(final JobFailedException ex)
    {
        pending.values().forEach(f -> f.completeExceptionally(ex));
    }
}
