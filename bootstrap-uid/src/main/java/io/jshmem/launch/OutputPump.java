package io.jshmem.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * Copies one PE stream to the launcher's stream line by line: each whole line (with its tag) is
 * written and flushed under one lock shared by every pump, so lines of different PEs never
 * interleave; a last line without a newline is completed at end of stream.
 */
final class OutputPump implements Runnable
{
    private final InputStream in;
    private final PrintStream out;
    private final String tag;
    private final Object lock;

    OutputPump(final InputStream in, final PrintStream out, final String tag, final Object lock)
    {
        this.in = in;
        this.out = out;
        this.tag = tag;
        this.lock = lock;
    }

    @Override
    public void run()
    {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()), 8192))
        {
            String line;
            while ((line = r.readLine()) != null)
            {
                final String whole = tag + line + System.lineSeparator();
                synchronized (lock)
                {
                    out.print(whole);
                    out.flush();
                }
            }
        }
        catch (final IOException ex)
        {
            // the PE is gone; nothing more to copy
        }
    }
}
