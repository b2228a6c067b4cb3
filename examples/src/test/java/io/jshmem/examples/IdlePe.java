package io.jshmem.examples;

import io.jshmem.Shmem;

/** A PE for the multi-host tests: initializes, syncs, prints its pid, then idles until it is ended. */
public final class IdlePe
{
    private IdlePe()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        try (Shmem shmem = Shmem.init())
        {
            shmem.barrierAll();
            System.out.println("idle pid=" + ProcessHandle.current().pid());
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
