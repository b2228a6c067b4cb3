package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;


/** A job of one PE, when no launcher is detected: no sockets, no threads; collectives are copies. */
public final class SingletonBootstrap extends AbstractBootstrap
{
    private final KeyValueStore store;
    private final String jobId;
    private final byte[] localKey = randomKey();

    /**
     * @param settings exit action, timeouts, host identity override.
     */
    public SingletonBootstrap(final BootstrapSettings settings)
    {
        super(0, 1, settings);
        this.store = new LocalStore(settings.timeoutNs(), this::prefix);
        this.jobId = settings.jobId() != null ? settings.jobId() : BootstrapRoot.randomJobId();
        nodes(new String[] {settings.hostIdentity() != null ? settings.hostIdentity() : Net.hostIdentity()});
    }

    private static byte[] randomKey()
    {
        return Entropy.bytes(32);
    }

    private void check(final String op)
    {
        if (closed())
        {
            throw new IllegalStateException(prefix() + op + " after close()");
        }
        checkFailure(op);
    }

    @Override
    public java.net.InetAddress address()
    {
        return java.net.InetAddress.getLoopbackAddress();
    }

    @Override
    public byte[] deriveKey(final String label)
    {
        // A job of one PE has no peer to agree with: a key only this PE knows.
        return Auth.mac(localKey, "jshmem-derive:" + label, new byte[0], new byte[0]);
    }

    @Override
    public String jobId()
    {
        return jobId;
    }

    @Override
    public byte[][] allgather(final byte[] mine)
    {
        check("allgather");
        return new byte[][] {mine.clone()};
    }

    @Override
    public byte[][] alltoall(final byte[][] toEach)
    {
        check("alltoall");
        if (toEach.length != 1)
        {
            throw new IllegalArgumentException(prefix() + "alltoall: " + toEach.length + " arrays for 1 PE");
        }
        return new byte[][] {toEach[0].clone()};
    }

    @Override
    public byte[] broadcast(final byte[] data, final int root)
    {
        check("broadcast");
        if (root != 0 || data == null)
        {
            throw new IllegalArgumentException(prefix() + "broadcast: root " + root + " (must be 0) data " + (data == null ? "null" : "ok"));
        }
        return data.clone();
    }

    @Override
    public void barrier()
    {
        check("barrier");
    }

    @Override
    public KeyValueStore store()
    {
        return store;
    }

    @Override
    protected void announceExit(final int status)
    {
        // nobody else to tell
    }

    @Override
    protected void onFailed(final JobFailedException ex)
    {
        // nothing waits on peers
    }



    @Override
    public void close()
    {
        markClosed();
    }
}
