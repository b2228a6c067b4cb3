package io.jshmem.launch;

import io.jshmem.JobFailedException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.config.ShmemConfig;

import java.nio.charset.StandardCharsets;

/** A PE program for the multi-JVM tests; {@code args[0]} picks the scenario. */
public final class TestPe
{
    private TestPe()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String mode = args[0];
        if ("sleep".equals(mode))
        {
            Thread.sleep(600_000);
            return;
        }
        final Bootstrap b = Bootstraps.fromConfig(ShmemConfig.fromProcess());
        try
        {
            switch (mode)
            {
                case "hello" ->
                {
                    final byte[][] all = b.allgather(("rank" + b.rank()).getBytes(StandardCharsets.UTF_8));
                    final StringBuilder sb = new StringBuilder();
                    for (final byte[] a : all)
                    {
                        sb.append(new String(a, StandardCharsets.UTF_8)).append(' ');
                    }
                    // a long line, written in pieces, must still come out whole
                    System.out.print("hello " + b.rank() + "/" + b.size() + " node " + b.nodeRank() + "/" + b.nodeSize() + " ");
                    System.out.flush();
                    System.out.print("x".repeat(5000));
                    System.out.println(" all: " + sb.toString().strip());
                    System.err.println("stderr line from " + b.rank());
                    b.barrier();
                }
                case "idle" ->
                {
                    b.barrier();
                    System.out.println("idle pid=" + ProcessHandle.current().pid());
                    System.out.flush();
                    Thread.sleep(600_000); // not in a bootstrap call: the failure policy must end this PE
                }
                case "exit3" ->
                {
                    b.barrier();
                    if (b.rank() == 1)
                    {
                        System.exit(3);
                    }
                    while (true)
                    {
                        b.barrier();
                        Thread.sleep(20);
                    }
                }
                case "globalexit7" ->
                {
                    b.barrier();
                    if (b.rank() == 2)
                    {
                        Thread.sleep(300);
                        b.globalExit(7);
                    }
                    b.barrier(); // blocks until the global exit ends this JVM
                    System.out.println("barrier returned on " + b.rank());
                }
                case "exit0early" ->
                {
                    b.barrier();
                    if (b.rank() == b.size() - 1)
                    {
                        Thread.sleep(200);
                        Runtime.getRuntime().halt(0); // status 0, but without leaving the job
                    }
                    try
                    {
                        while (true)
                        {
                            b.barrier();
                            Thread.sleep(20);
                        }
                    }
                    catch (final JobFailedException ex)
                    {
                        System.err.println("caught: " + ex.getMessage());
                        System.exit(1);
                    }
                }
                case "sigkill" ->
                {
                    b.barrier();
                    if (b.rank() == 2)
                    {
                        Thread.sleep(200);
                        new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        Thread.sleep(10_000);
                    }
                    final long t0 = System.nanoTime();
                    try
                    {
                        while (true)
                        {
                            b.barrier();
                            Thread.sleep(20);
                        }
                    }
                    catch (final JobFailedException ex)
                    {
                        System.err.printf("caught after %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, ex.getMessage());
                        System.exit(1);
                    }
                }
                default -> throw new IllegalArgumentException(mode);
            }
        }
        finally
        {
            b.close();
        }
    }
}
