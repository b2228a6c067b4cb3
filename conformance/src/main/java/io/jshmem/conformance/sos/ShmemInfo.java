package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** The version and vendor name the library reports equal the constants of {@link io.jshmem.ShmemInfo}. */
public final class ShmemInfo implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmem_info.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_info_get_version", "shmem_info_get_name");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final String name = shmem.vendorName();
        check.isTrue(name != null && name.length() <= io.jshmem.ShmemInfo.MAX_NAME_LEN, "shmem_info_get_name", "name=" + name);
        check.eq("shmem_info_get_version", "major", io.jshmem.ShmemInfo.MAJOR_VERSION, shmem.majorVersion());
        check.eq("shmem_info_get_version", "minor", io.jshmem.ShmemInfo.MINOR_VERSION, shmem.minorVersion());
        check.isTrue(shmem.majorVersion() >= 1, "shmem_info_get_version", "major=" + shmem.majorVersion());
        check.isTrue(shmem.minorVersion() >= 0, "shmem_info_get_version", "minor=" + shmem.minorVersion());
        check.eq("shmem_info_get_name", "name", io.jshmem.ShmemInfo.VENDOR_STRING, name);
    }
}
