package io.jshmem.transport.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The part of libucp (UCX 1.13 API) the UCX transport calls, bound with {@code java.lang.foreign}: one
 * downcall handle per function, and the offsets of the few fields of UCX's parameter structs that jshmem
 * sets. Every offset and constant here is checked against the installed headers by {@code UcpLayoutTest}
 * (a C program compiled against {@code ucp.h}), so a mismatch fails the build rather than a job.
 * <p>
 * Loading happens once per process ({@link #load}): before libucp (and with it libucs, whose constructor
 * reads the global options) is opened, {@code UCX_ERROR_SIGNALS} is set empty in the process environment
 * through libc's {@code setenv}: UCX's handlers for SIGSEGV and friends would otherwise catch the JVM's own
 * implicit null checks and kill it (measured: see docs/transports.md). Other {@code UCX_*} variables the
 * user set (UCX_TLS, UCX_NET_DEVICES) are left as they are and read by {@code ucp_config_read}.
 */
final class Ucp
{
    /** The UCP API version this binding is written for; older libraries are refused. */
    static final int API_MAJOR = 1;
    static final int API_MINOR = 13;

    /** The Debian package that ships libucp. */
    static final String PACKAGE = "libucx0";

    // ucp_params_t
    static final long PARAMS_SIZE = 80;
    static final long PARAMS_FEATURES = 8;
    static final long PARAM_FIELD_FEATURES = 1;
    static final long FEATURE_RMA = 2;
    static final long FEATURE_AMO32 = 4;
    static final long FEATURE_AMO64 = 8;
    static final long FEATURE_WAKEUP = 16;
    static final long FEATURE_AM = 64;

    // ucp_am_handler_param_t
    static final long AM_HANDLER_PARAM_SIZE = 32;
    static final long AM_HANDLER_PARAM_ID = 8;
    static final long AM_HANDLER_PARAM_CB = 16;
    static final long AM_HANDLER_PARAM_ARG = 24;
    static final long AM_HANDLER_PARAM_FIELD_ID = 1;
    static final long AM_HANDLER_PARAM_FIELD_CB = 4;
    static final long AM_HANDLER_PARAM_FIELD_ARG = 8;

    // ucp_worker_params_t
    static final long WORKER_PARAMS_SIZE = 200;
    static final long WORKER_PARAMS_THREAD_MODE = 8;
    static final long WORKER_PARAM_FIELD_THREAD_MODE = 1;
    static final int THREAD_MODE_MULTI = 2;

    // ucp_ep_params_t
    static final long EP_PARAMS_SIZE = 104;
    static final long EP_PARAMS_ADDRESS = 8;
    static final long EP_PARAMS_ERR_MODE = 16;
    static final long EP_PARAMS_ERR_HANDLER = 24;
    static final long EP_PARAM_FIELD_REMOTE_ADDRESS = 1;
    static final long EP_PARAM_FIELD_ERR_HANDLING_MODE = 2;
    static final long EP_PARAM_FIELD_ERR_HANDLER = 4;
    static final int ERR_HANDLING_MODE_PEER = 1;
    static final long EP_CLOSE_FLAG_FORCE = 1;

    // ucp_mem_map_params_t
    static final long MEM_MAP_PARAMS_SIZE = 40;
    static final long MEM_MAP_PARAMS_ADDRESS = 8;
    static final long MEM_MAP_PARAMS_LENGTH = 16;
    static final long MEM_MAP_PARAM_FIELD_ADDRESS = 1;
    static final long MEM_MAP_PARAM_FIELD_LENGTH = 2;

    // ucp_request_param_t
    static final long REQUEST_PARAM_SIZE = 72;
    static final long REQUEST_PARAM_FLAGS = 4;
    static final long REQUEST_PARAM_DATATYPE = 24;
    static final long REQUEST_PARAM_REPLY_BUFFER = 40;
    static final int OP_ATTR_FIELD_FLAGS = 16;
    static final int OP_ATTR_FIELD_DATATYPE = 8;
    static final int OP_ATTR_FIELD_REPLY_BUFFER = 32;
    /** Expedite local completion: what OSHMEM's spml ucx passes for its blocking put, get and flush. */
    static final int OP_ATTR_FLAG_FAST_CMPL = 1 << 17;

    // ucp_atomic_op_t
    static final int ATOMIC_OP_ADD = 0;
    static final int ATOMIC_OP_SWAP = 1;
    static final int ATOMIC_OP_CSWAP = 2;
    static final int ATOMIC_OP_AND = 3;
    static final int ATOMIC_OP_OR = 4;
    static final int ATOMIC_OP_XOR = 5;

    // ucs_status_t
    static final int UCS_OK = 0;
    static final int UCS_INPROGRESS = 1;
    static final int UCS_ERR_BUSY = -15;
    static final long UCS_ERR_LAST = -100;

    /** {@code ucp_dt_make_contig(bytes)}. */
    static long contig(final int bytes)
    {
        return (long)bytes << 3;
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Object LOCK = new Object();
    private static final java.util.Map<String, Ucp> INSTANCES = new java.util.HashMap<>();

    final int major;
    final int minor;
    final int release;

    final MethodHandle configRead;
    final MethodHandle configModify;
    final MethodHandle configRelease;
    final MethodHandle initVersion;
    final MethodHandle cleanup;
    final MethodHandle workerCreate;
    final MethodHandle workerDestroy;
    final MethodHandle workerGetAddress;
    final MethodHandle workerReleaseAddress;
    final MethodHandle workerProgress;
    final MethodHandle workerGetEfd;
    final MethodHandle workerArm;
    final MethodHandle workerSignal;
    final MethodHandle workerFence;
    final MethodHandle workerFlushNbx;
    final MethodHandle epCreate;
    final MethodHandle epCloseNbx;
    final MethodHandle epFlushNbx;
    final MethodHandle memMap;
    final MethodHandle memUnmap;
    final MethodHandle rkeyPack;
    final MethodHandle rkeyBufferRelease;
    final MethodHandle epRkeyUnpack;
    final MethodHandle rkeyDestroy;
    final MethodHandle putNbx;
    final MethodHandle getNbx;
    final MethodHandle atomicOpNbx;
    final MethodHandle requestCheckStatus;
    final MethodHandle requestFree;
    final MethodHandle statusString;
    final MethodHandle poll;
    final MethodHandle prctl;
    final MethodHandle workerSetAmRecvHandler;
    final MethodHandle amSendNbx;
    final MethodHandle workerPrintInfo;
    final MethodHandle epPrintInfo;
    final MethodHandle fflush;
    /** libc's {@code stderr} ({@code FILE *}), where UCX's print functions write; NULL when libc has none. */
    final MemorySegment stderr;

    /** The error handler's native signature: {@code void (*)(void *arg, ucp_ep_h ep, ucs_status_t status)}. */
    static final FunctionDescriptor ERR_HANDLER = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT);

    private Ucp(final SymbolLookup ucp, final SymbolLookup libc) throws Throwable
    {
        final MethodHandle version = handle(ucp, "ucp_get_version", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
        try (Arena a = Arena.ofConfined())
        {
            final MemorySegment v = a.allocate(12);
            version.invokeExact(v, v.asSlice(4), v.asSlice(8));
            major = v.get(JAVA_INT, 0);
            minor = v.get(JAVA_INT, 4);
            release = v.get(JAVA_INT, 8);
        }
        configRead = handle(ucp, "ucp_config_read", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        configModify = handle(ucp, "ucp_config_modify", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        configRelease = handle(ucp, "ucp_config_release", FunctionDescriptor.ofVoid(ADDRESS));
        initVersion = handle(ucp, "ucp_init_version", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        cleanup = handle(ucp, "ucp_cleanup", FunctionDescriptor.ofVoid(ADDRESS));
        workerCreate = handle(ucp, "ucp_worker_create", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        workerDestroy = handle(ucp, "ucp_worker_destroy", FunctionDescriptor.ofVoid(ADDRESS));
        workerGetAddress = handle(ucp, "ucp_worker_get_address", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        workerReleaseAddress = handle(ucp, "ucp_worker_release_address", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        workerProgress = handle(ucp, "ucp_worker_progress", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        workerGetEfd = handle(ucp, "ucp_worker_get_efd", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        workerArm = handle(ucp, "ucp_worker_arm", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        workerSignal = handle(ucp, "ucp_worker_signal", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        workerFence = handle(ucp, "ucp_worker_fence", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        workerFlushNbx = handle(ucp, "ucp_worker_flush_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        epCreate = handle(ucp, "ucp_ep_create", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        epCloseNbx = handle(ucp, "ucp_ep_close_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        epFlushNbx = handle(ucp, "ucp_ep_flush_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        memMap = handle(ucp, "ucp_mem_map", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        memUnmap = handle(ucp, "ucp_mem_unmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        rkeyPack = handle(ucp, "ucp_rkey_pack", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        rkeyBufferRelease = handle(ucp, "ucp_rkey_buffer_release", FunctionDescriptor.ofVoid(ADDRESS));
        epRkeyUnpack = handle(ucp, "ucp_ep_rkey_unpack", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        rkeyDestroy = handle(ucp, "ucp_rkey_destroy", FunctionDescriptor.ofVoid(ADDRESS));
        putNbx = handle(ucp, "ucp_put_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
        getNbx = handle(ucp, "ucp_get_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
        atomicOpNbx = handle(ucp, "ucp_atomic_op_nbx",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
        requestCheckStatus = handle(ucp, "ucp_request_check_status", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        requestFree = handle(ucp, "ucp_request_free", FunctionDescriptor.ofVoid(ADDRESS));
        statusString = handle(ucp, "ucs_status_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        poll = handle(libc, "poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        workerSetAmRecvHandler = handle(ucp, "ucp_worker_set_am_recv_handler", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        amSendNbx = handle(ucp, "ucp_am_send_nbx",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
        prctl = handle(libc, "prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        workerPrintInfo = handle(ucp, "ucp_worker_print_info", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        epPrintInfo = handle(ucp, "ucp_ep_print_info", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        fflush = handle(libc, "fflush", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        stderr = libc.find("stderr").map(v -> v.reinterpret(8).get(ADDRESS, 0)).orElse(MemorySegment.NULL);
    }

    /**
     * Prints UCX's own description of the worker (its transports and devices) and of each endpoint given (its lanes) to
     * the process's stderr: the diagnosis of a request that does not complete. Never throws.
     */
    void printInfo(final MemorySegment worker, final MemorySegment... eps)
    {
        if (stderr.equals(MemorySegment.NULL))
        {
            return;
        }
        try
        {
            System.err.flush();
            workerPrintInfo.invokeExact(worker, stderr);
            for (final MemorySegment ep : eps)
            {
                epPrintInfo.invokeExact(ep, stderr);
            }
            final int ignored = (int)fflush.invokeExact(stderr);
        }
        catch (final Throwable t)
        {
            // a diagnosis only
        }
    }

    /**
     * Loads libucp once per process (per library name).
     *
     * @param library the shared object: a name the dynamic linker looks up, or a path ({@code SHMEM_UCX_LIBRARY}).
     * @return the binding.
     * @throws IllegalStateException with one line naming the library, the package and the reason when libucp
     *                               is absent, too old, or cannot be bound.
     */
    static Ucp load(final String library)
    {
        synchronized (LOCK)
        {
            final Ucp loaded = INSTANCES.get(library);
            if (loaded != null)
            {
                return loaded;
            }
            try
            {
                final SymbolLookup libc = LINKER.defaultLookup();
                setenv(libc, "UCX_ERROR_SIGNALS", "");
                final SymbolLookup ucp = SymbolLookup.libraryLookup(library.contains("/") ? Path.of(library).toString() : library, Arena.global());
                final Ucp u = new Ucp(ucp, libc);
                if (u.major != API_MAJOR || u.minor < API_MINOR)
                {
                    throw new IllegalStateException(library + " is UCX " + u.version() + ", older than the " + API_MAJOR + "." + API_MINOR +
                        " this transport is written for; install UCX " + API_MAJOR + "." + API_MINOR + " or newer (Debian: " + PACKAGE + ")");
                }
                INSTANCES.put(library, u);
                return u;
            }
            catch (final IllegalStateException ex)
            {
                throw ex;
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalStateException("cannot load " + library + " (" + ex.getMessage() + "): install the Debian package " + PACKAGE +
                    " (apt-get install " + PACKAGE + "), put UCX's lib directory on LD_LIBRARY_PATH or set SHMEM_UCX_LIBRARY to its path", ex);
            }
            catch (final Throwable t)
            {
                throw new IllegalStateException("cannot bind " + library + ": " + t, t);
            }
        }
    }

    /** @return whether {@code library} can be found without loading it (a path that exists, or a name in a standard directory). */
    static boolean present(final String library)
    {
        if (library.contains("/"))
        {
            return Files.exists(Path.of(library));
        }
        final java.util.List<String> dirs = new java.util.ArrayList<>(java.util.List.of("/usr/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"));
        final String path = System.getenv("LD_LIBRARY_PATH");
        if (path != null)
        {
            dirs.addAll(java.util.Arrays.asList(path.split(":")));
        }
        for (final String dir : dirs)
        {
            if (!dir.isEmpty() && Files.exists(Path.of(dir, library)))
            {
                return true;
            }
        }
        return false;
    }

    /** {@code prctl(PR_SET_TIMERSLACK)}: the calling thread's timer slack, so its short parks end on time. */
    void timerSlack(final long ns)
    {
        try
        {
            final int ignored = (int)prctl.invokeExact(29, ns, 0L, 0L, 0L);
        }
        catch (final Throwable t)
        {
            // the default slack (50 us) only makes parks longer
        }
    }

    /** @return "major.minor.release" of the loaded library. */
    String version()
    {
        return major + "." + minor + "." + release;
    }

    /** @return UCX's text for a status. */
    String status(final int status)
    {
        try
        {
            final MemorySegment s = (MemorySegment)statusString.invokeExact(status);
            return s.reinterpret(256).getString(0) + " (" + status + ")";
        }
        catch (final Throwable t)
        {
            return "status " + status;
        }
    }

    /** @return whether a {@code ucs_status_ptr_t} is an error code rather than a request or NULL. */
    static boolean isError(final MemorySegment ptr)
    {
        final long v = ptr.address();
        return Long.compareUnsigned(v, UCS_ERR_LAST) >= 0;
    }

    /** @return the status a {@code ucs_status_ptr_t} error holds. */
    static int errorOf(final MemorySegment ptr)
    {
        return (int)ptr.address();
    }

    /**
     * The active-message handler's native signature: {@code ucs_status_t (*)(void *arg, const void *header,
     * size_t header_length, void *data, size_t length, const ucp_am_recv_param_t *param)}.
     */
    static final FunctionDescriptor AM_HANDLER = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);

    /** @return an upcall stub calling {@code target} (see {@link #AM_HANDLER}), alive as long as the arena. */
    static MemorySegment amHandler(final MethodHandle target, final Arena arena)
    {
        return LINKER.upcallStub(target, AM_HANDLER, arena);
    }

    /** @return the method type an active-message handler target must have. */
    static MethodType amHandlerType()
    {
        return MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, long.class, MemorySegment.class, long.class,
            MemorySegment.class);
    }

    /** @return an upcall stub calling {@code target} with UCX's error-handler signature, alive as long as the arena. */
    static MemorySegment errorHandler(final MethodHandle target, final Arena arena)
    {
        return LINKER.upcallStub(target, ERR_HANDLER, arena);
    }

    /** @return the method type an error-handler target must have. */
    static MethodType errorHandlerType()
    {
        return MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, int.class);
    }

    private static MethodHandle handle(final SymbolLookup lookup, final String name, final FunctionDescriptor fd)
    {
        final MemorySegment symbol = lookup.find(name).orElseThrow(() -> new IllegalStateException(
            "the UCX library has no symbol " + name + ": install UCX " + API_MAJOR + "." + API_MINOR + " or newer (Debian: " + PACKAGE + ")"));
        return LINKER.downcallHandle(symbol, fd);
    }

    private static void setenv(final SymbolLookup libc, final String name, final String value) throws Throwable
    {
        final MethodHandle setenv = LINKER.downcallHandle(libc.find("setenv").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        try (Arena a = Arena.ofConfined())
        {
            final int rc = (int)setenv.invokeExact(a.allocateFrom(name), a.allocateFrom(value), 1);
            if (rc != 0)
            {
                throw new IllegalStateException("setenv(" + name + ") failed");
            }
        }
    }

}
