package io.jshmem.bootstrap;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;

/**
 * Random bytes for the job's secret and the handshakes' nonces, read from the kernel's random source
 * ({@code /dev/urandom}), as the JDK's default {@code SecureRandom} on Linux (NativePRNG) reads them. Where that file
 * cannot be read, a {@link SecureRandom} gives them.
 * <p>
 * Why not {@code new SecureRandom()} everywhere: its first use in a JVM initialises the security providers (the
 * {@code java.security} file, the SUN provider's services, {@code KnownOIDs}): 22–24 ms in a fresh JDK 25 JVM on the
 * 2-core machine, against 0.05 ms for the first read of the file
 * (docs/bootstrap.md, "Wire protocol"). The file stays open once read, as NativePRNG keeps it; reads are serialised.
 */
public final class Entropy
{
    private static final String SOURCE = "/dev/urandom";
    private static InputStream source;
    private static boolean unreadable;

    private Entropy()
    {
    }

    /** {@return {@code n} random bytes} */
    public static byte[] bytes(final int n)
    {
        final byte[] b = new byte[n];
        if (!fromSource(b))
        {
            Fallback.RANDOM.nextBytes(b);
        }
        return b;
    }

    private static synchronized boolean fromSource(final byte[] b)
    {
        if (unreadable)
        {
            return false;
        }
        try
        {
            if (source == null)
            {
                source = new FileInputStream(SOURCE);
            }
            if (source.readNBytes(b, 0, b.length) == b.length)
            {
                return true;
            }
        }
        catch (final IOException ex)
        {
            // no such file (not Linux or a BSD), or it failed: the providers' SecureRandom from here on
        }
        unreadable = true;
        return false;
    }

    /** Made on first use only. */
    private static final class Fallback
    {
        static final SecureRandom RANDOM = new SecureRandom();
    }
}
