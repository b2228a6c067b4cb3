package io.jshmem.bootstrap;

import io.jshmem.ConfigurationException;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * The job's unique id, as NVSHMEM's {@code nvshmemx_uniqueid_t}: a fixed 128-byte opaque value that
 * names the bootstrap root and carries the job secret. Whoever creates it hosts the root
 * ({@link #createRoot}); it is shipped to every PE out of band as text ({@link #toText()}, e.g. in
 * {@code SHMEM_BOOTSTRAP_UID}) and read back with {@link #parse(String)}.
 * <pre>
 *   offset  size  field
 *        0     4  magic "JSUI"
 *        4     2  protocol version
 *        6     1  address family (4 or 6)
 *        7     1  reserved (0)
 *        8    32  secret (256 random bits)
 *       40     2  root port
 *       42    16  root address (IPv4 in the first 4 bytes)
 *       58    70  reserved (0)
 * </pre>
 * The text form is {@code jsuid1-} followed by the 128 bytes in unpadded base64url. It holds the
 * secret: treat it like a password ({@link #toString()} does not print it).
 */
public final class UniqueId
{
    /** Size of the binary form, as NVSHMEM's. */
    public static final int BYTES = 128;
    /** Prefix of the text form. */
    public static final String TEXT_PREFIX = "jsuid1-";
    /** Bytes of the secret. */
    public static final int SECRET_BYTES = 32;
    private static final int MAGIC = 0x4A535549;

    private final byte[] secret;
    private final InetSocketAddress root;

    private UniqueId(final byte[] secret, final InetSocketAddress root)
    {
        this.secret = secret;
        this.root = root;
    }

    /**
     * @param secret the job secret, {@link #SECRET_BYTES} bytes.
     * @param root   the root's address (resolved).
     * @return an id naming that root; the root itself must be started with the same secret.
     */
    public static UniqueId of(final byte[] secret, final InetSocketAddress root)
    {
        if (secret.length != SECRET_BYTES)
        {
            throw new IllegalArgumentException("secret length " + secret.length + " != " + SECRET_BYTES);
        }
        if (root.isUnresolved() || root.getPort() <= 0 || root.getPort() > 65535)
        {
            throw new IllegalArgumentException("root address " + root + " must be resolved with a port in 1..65535");
        }
        return new UniqueId(secret.clone(), root);
    }

    /** @return a fresh random 256-bit secret. */
    public static byte[] randomSecret()
    {
        return Entropy.bytes(SECRET_BYTES);
    }

    /**
     * Creates a new id and starts its root in this process (a listener thread), as
     * {@code nvshmemx_get_uniqueid}. The root binds an ephemeral port (or the one of
     * {@code SHMEM_BOOTSTRAP_UID_SESSION_ID}) on the interface and family the options choose.
     *
     * @param config options: timeouts, interface, family, session id.
     * @return the running root; {@link BootstrapRoot#uniqueId()} is the id to ship. Close it after the job.
     */
    public static BootstrapRoot createRoot(final ShmemConfig config)
    {
        return BootstrapRoot.start(BootstrapSettings.from(config), 0);
    }

    /** @return the 128-byte binary form. */
    public byte[] toBytes()
    {
        final ByteBuffer b = ByteBuffer.allocate(BYTES);
        final byte[] addr = root.getAddress().getAddress();
        b.putInt(MAGIC).putShort(Wire.PROTOCOL_VERSION).put((byte)(addr.length == 4 ? 4 : 6)).put((byte)0);
        b.put(secret).putShort((short)root.getPort()).put(addr);
        return b.array();
    }

    /** @return the text form, for an environment variable or a file. */
    public String toText()
    {
        return TEXT_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(toBytes());
    }

    /**
     * Reads the binary form.
     *
     * @throws ConfigurationException naming {@code SHMEM_BOOTSTRAP_UID} and what is wrong.
     */
    public static UniqueId fromBytes(final byte[] bytes)
    {
        if (bytes.length != BYTES)
        {
            throw bad("holds " + bytes.length + " bytes, expected " + BYTES);
        }
        final ByteBuffer b = ByteBuffer.wrap(bytes);
        final int magic = b.getInt();
        if (magic != MAGIC)
        {
            throw bad(String.format("has magic 0x%08x, expected 0x%08x (not a jshmem unique id)", magic, MAGIC));
        }
        final int version = b.getShort();
        if (version != Wire.PROTOCOL_VERSION)
        {
            throw bad("has protocol version " + version + " but this jshmem speaks " + Wire.PROTOCOL_VERSION
                + " (PEs and launcher must run the same jshmem)");
        }
        final int family = b.get();
        if (family != 4 && family != 6)
        {
            throw bad("has address family " + family + ", expected 4 or 6");
        }
        b.get();
        final byte[] secret = new byte[SECRET_BYTES];
        b.get(secret);
        final int port = Short.toUnsignedInt(b.getShort());
        if (port == 0)
        {
            throw bad("has root port 0");
        }
        final byte[] addr = new byte[family == 4 ? 4 : 16];
        b.get(addr);
        try
        {
            return new UniqueId(secret, new InetSocketAddress(InetAddress.getByAddress(addr), port));
        }
        catch (final UnknownHostException ex)
        {
            throw bad("has a bad root address: " + ex.getMessage());
        }
    }

    /**
     * Reads the text form.
     *
     * @param text what {@link #toText()} produced (surrounding white space is ignored).
     * @return the id.
     * @throws ConfigurationException naming {@code SHMEM_BOOTSTRAP_UID} and what is wrong.
     */
    public static UniqueId parse(final String text)
    {
        if (text == null || text.isBlank())
        {
            throw bad("is empty");
        }
        final String s = text.strip();
        if (!s.startsWith(TEXT_PREFIX))
        {
            throw bad("must start with '" + TEXT_PREFIX + "' (got " + s.length() + " characters, not shown: an id holds the job secret)");
        }
        final byte[] bytes;
        try
        {
            bytes = Base64.getUrlDecoder().decode(s.substring(TEXT_PREFIX.length()));
        }
        catch (final IllegalArgumentException ex)
        {
            throw bad("is not valid base64url after '" + TEXT_PREFIX + "' (" + s.length() + " characters)");
        }
        return fromBytes(bytes);
    }

    private static ConfigurationException bad(final String what)
    {
        return new ConfigurationException(ShmemOptions.BOOTSTRAP_UID.envName(),
            "invalid unique id (" + ShmemOptions.BOOTSTRAP_UID.envName() + "): the id " + what);
    }

    /** @return the root's address. */
    public InetSocketAddress rootAddress()
    {
        return root;
    }

    byte[] secret()
    {
        return secret.clone();
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof UniqueId u && Arrays.equals(secret, u.secret) && root.equals(u.root);
    }

    @Override
    public int hashCode()
    {
        return root.hashCode() * 31 + Arrays.hashCode(secret);
    }

    /** @return the version and root address; never the secret. */
    @Override
    public String toString()
    {
        return "UniqueId[v" + Wire.PROTOCOL_VERSION + " root=" + root.getAddress().getHostAddress() + ":" + root.getPort() + "]";
    }
}
