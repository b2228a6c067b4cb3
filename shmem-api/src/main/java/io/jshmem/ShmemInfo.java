package io.jshmem;

/** Library constants ({@code SHMEM_MAJOR_VERSION}, {@code SHMEM_VENDOR_STRING}, ...). */
public final class ShmemInfo
{
    /** The OpenSHMEM specification major version implemented. */
    public static final int MAJOR_VERSION = 1;
    /**
     * The OpenSHMEM specification minor version implemented: 1.6 (its routines, re-initialization after
     * the last finalize included).
     */
    public static final int MINOR_VERSION = 6;
    /** Vendor name returned by {@link Shmem#vendorName()}. */
    public static final String VENDOR_STRING = "jshmem 0.1.0";
    /** Longest vendor name. */
    public static final int MAX_NAME_LEN = 256;

    private ShmemInfo()
    {
    }
}
