package io.jshmem.examples;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The first program a newcomer runs ({@code bin/demo}: {@code bin/shmemrun -np 4 --tag-output hello}): the whole
 * library, not just the bootstrap. Every PE starts jshmem ({@link Shmem#init()}), gathers every PE's host name
 * with a collective ({@code fcollect} of a fixed-size slot from the symmetric heap), writes its number into its
 * right neighbour's box (a put), meets the others in a barrier, takes a ticket from a counter on PE 0 (an
 * atomic), and prints one line: who it is (PE, node rank of TEAM_NODE, the launcher the bootstrap detected,
 * the job id), what it got from the left, its ticket, how long init took by step
 * ({@link Shmem#initPhaseNanos()}), and the host of every PE.
 */
public final class Hello
{
    /** Bytes of one PE's host name slot; longer names are cut. */
    private static final int HOST_BYTES = 64;

    private Hello()
    {
    }

    public static void main(final String[] args)
    {
        try (Shmem shmem = Shmem.init())
        {
            final int me = shmem.myPe();
            final int n = shmem.nPes();

            final SymmetricMemory mine = shmem.malloc(HOST_BYTES);      // collective: same object on every PE
            final SymmetricMemory all = shmem.malloc((long)HOST_BYTES * n);
            final byte[] name = hostName().getBytes(StandardCharsets.UTF_8);
            mine.segment().fill((byte)0);
            mine.segment().copyFrom(java.lang.foreign.MemorySegment.ofArray(name).asSlice(0, Math.min(name.length, HOST_BYTES)));
            shmem.teamWorld().fcollect(all, mine, HOST_BYTES);              // every PE's slot, in PE order

            final SymmetricLongs box = shmem.allocateLongs(2);
            shmem.p(box, 0, me, (me + 1) % n);                               // shmem_long_p to the right neighbour
            shmem.barrierAll();                                              // quiet + barrier
            final long fromLeft = box.getLocal(0);
            final long ticket = shmem.atomicFetchInc(box, 1, 0);            // an atomic on PE 0's counter

            final StringBuilder hosts = new StringBuilder();
            for (int pe = 0; pe < n; pe++)
            {
                final byte[] slot = all.segment().asSlice((long)pe * HOST_BYTES, HOST_BYTES).toArray(ValueLayout.JAVA_BYTE);
                int len = 0;
                while (len < slot.length && slot[len] != 0)
                {
                    len++;
                }
                hosts.append(pe == 0 ? "" : ", ").append(pe).append('=').append(new String(slot, 0, len, StandardCharsets.UTF_8));
            }
            System.out.println("Hello from PE " + me + " of " + n + " (node rank " + shmem.teamNode().myPe() + " of "
                + shmem.teamNode().nPes() + ", launcher " + shmem.launcher() + ", job " + shmem.jobId() + "): " + fromLeft
                + " from the left, ticket " + ticket + ", " + initSteps(shmem.initPhaseNanos()) + "; hosts: " + hosts);
            shmem.barrierAll();                                              // everyone has read its tickets and names
            shmem.free(box);
            shmem.free(all);
            shmem.free(mine);
        }
    }

    /** "init 412 ms (bootstrap 120, heap 3, ...)": the init steps in the order they ran, in ms. */
    static String initSteps(final Map<String, Long> steps)
    {
        final long total = steps.values().stream().mapToLong(Long::longValue).sum();
        final StringBuilder s = new StringBuilder("init ").append(total / 1_000_000).append(" ms (");
        steps.forEach((step, ns) -> s.append(s.charAt(s.length() - 1) == '(' ? "" : ", ").append(step).append(' ').append(ns / 1_000_000));
        return s.append(')').toString();
    }

    /** The host's name as its kernel knows it (a test host's UTS namespace gives its own). */
    private static String hostName()
    {
        try
        {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        }
        catch (final IOException | RuntimeException notLinux)
        {
            try
            {
                return InetAddress.getLocalHost().getHostName();
            }
            catch (final IOException ex)
            {
                return "unknown";
            }
        }
    }
}
