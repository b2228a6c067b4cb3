package io.jshmem.heap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A fresh directory under /dev/shm named for the test, removed with everything in it afterwards. */
final class HeapTestDirectory
{
    private HeapTestDirectory()
    {
    }

    static Path create(final String testName) throws IOException
    {
        final Path base = Files.isDirectory(HeapFile.DEFAULT_DIRECTORY) ?
            HeapFile.DEFAULT_DIRECTORY : Path.of(System.getProperty("java.io.tmpdir"));
        final Path dir = base.resolve("jshmemtest-" + testName + "-" + ProcessHandle.current().pid());
        delete(dir);
        return Files.createDirectory(dir);
    }

    static List<String> list(final Path dir) throws IOException
    {
        try (Stream<Path> s = Files.list(dir))
        {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static void delete(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> s = Files.walk(dir))
        {
            for (final Path p : s.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(p);
            }
        }
    }
}
