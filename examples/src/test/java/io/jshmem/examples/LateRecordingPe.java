package io.jshmem.examples;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.jfr.Jfr;
import jdk.jfr.Recording;

import java.nio.file.Path;

/**
 * A PE for {@code ObserveIT}: works without JFR (allocations, a put, barriers), then starts a recording as
 * {@code jcmd PID JFR.start} would, works again and dumps it to {@code ARG/peN.jfr}. Prints {@code started before=false}
 * when JFR had not started before its own recording.
 */
public final class LateRecordingPe
{
    private LateRecordingPe()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        try (Shmem shmem = Shmem.init())
        {
            final int me = shmem.myPe();
            work(shmem);
            final boolean before = Jfr.started();
            try (Recording r = new Recording())
            {
                r.enable("jshmem.Collective");
                r.enable("jshmem.Heap");
                r.start();
                work(shmem);
                r.stop();
                r.dump(Path.of(args[0], "pe" + me + ".jfr"));
            }
            System.out.println("pe " + me + " started before=" + before);
        }
    }

    private static void work(final Shmem shmem)
    {
        final SymmetricLongs box = shmem.allocateLongs(4);
        shmem.p(box, 0, shmem.myPe(), (shmem.myPe() + 1) % shmem.nPes());
        shmem.barrierAll();
        shmem.free(box);
        shmem.barrierAll();
    }
}
