package io.jshmem.examples;

import io.jshmem.Shmem;

/** A PE for the launcher tests: PE 1 never reaches the barrier (it sleeps, busy outside jshmem); the others wait in it. */
public final class HangPe
{
    private HangPe()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        try (Shmem shmem = Shmem.init())
        {
            if (shmem.myPe() == 1)
            {
                Thread.sleep(600_000);
            }
            shmem.barrierAll();
        }
    }
}
