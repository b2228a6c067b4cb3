package io.jshmem.examples.isx;

import io.jshmem.Shmem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/** ISx's log file: a run header and the column names when the file is new, then a row per PE and timed iteration. */
final class IsxLog
{
    private IsxLog()
    {
    }

    /** Appends this job's rows, PE by PE in rank order (a barrier between PEs), as ISx does. */
    static void append(final Shmem shmem, final Path file, final IsxParams params, final IsxParams.Layout layout, final Timers timers)
    {
        final int me = shmem.myPe();
        if (me == 0 && !Files.exists(file))
        {
            final StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "SHMEM\tNUM_PES %d\tMax_Key %d\tNum_Iters %d\t",
                layout.pes(), layout.maxKey(), params.iterations()));
            head.append(switch (params.scaling())
            {
                case STRONG -> "Strong Scaling: " + layout.totalKeys() + " total keys\t";
                case WEAK -> "Weak Scaling: " + layout.keysPerPe() + " keys per PE\t";
                case WEAK_ISO -> "Weak Scaling Constant Bucket Width: " + layout.keysPerPe() + "u keys per PE \tConstant Bucket Width: "
                    + layout.bucketWidth() + "\t";
            });
            head.append("Round Robin All2All\t\n");
            for (final Phase ph : Phase.values())
            {
                head.append(ph.name()).append(" (sec)\t");
                if (ph == Phase.ATA_KEYS)
                {
                    head.append("ATA_KEYS_COUNTS\t");
                }
            }
            write(file, head.append('\n').toString(), me);
        }
        for (int pe = 0; pe < shmem.nPes(); pe++)
        {
            shmem.barrierAll();
            if (pe == me)
            {
                final StringBuilder rows = new StringBuilder();
                for (int i = 0; i < params.iterations(); i++)
                {
                    for (final Phase ph : Phase.values())
                    {
                        rows.append(String.format(Locale.ROOT, "%f\t", timers.seconds(ph, i)));
                        if (ph == Phase.ATA_KEYS)
                        {
                            rows.append(timers.sent(i)).append('\t');
                        }
                    }
                    rows.append('\n');
                }
                write(file, rows.toString(), me);
            }
        }
        shmem.barrierAll();
    }

    private static void write(final Path file, final String text, final int me)
    {
        try
        {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("[pe " + me + "] isx: cannot append to the log " + file + ": " + e.getMessage(), e);
        }
    }
}
