package io.jshmem.conformance.sos.coll;

import io.jshmem.conformance.Program;
import io.jshmem.conformance.Spmd;

/**
 * Runs one port of this package as its own job (every PE: {@code CollDriver SimpleName}), for trying a
 * port by hand; the suite runner is the real way to run them.
 */
public final class CollDriver
{
    private CollDriver()
    {
    }

    /** @param args the port's simple class name. */
    public static void main(final String[] args) throws ReflectiveOperationException
    {
        final Program p = (Program)Class.forName(CollDriver.class.getPackageName() + "." + args[0]).getConstructor().newInstance();
        Spmd.run(args[0], p.minPes(), p.threadLevel(), p::run);
    }
}
