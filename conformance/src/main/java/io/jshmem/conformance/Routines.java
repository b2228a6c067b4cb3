package io.jshmem.conformance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The OpenSHMEM 1.5/1.6 routines (generic names; typed, sized and {@code ctx_} variants fold into
 * their routine) and the Java method that provides each, or why Java has none. {@link Program#routines()}
 * names routines from this list; the coverage table of {@code conformance/README.md} joins the two.
 */
public final class Routines
{
    /** Spec routine → Java method (a {@code n/a: ...} value says why Java has no counterpart). */
    public static final Map<String, String> JAVA;

    static
    {
        final Map<String, String> m = new LinkedHashMap<>();
        // Library setup, exit and query
        m.put("shmem_init", "Shmem.init()");
        m.put("shmem_init_thread", "Shmem.init(ThreadLevel)");
        m.put("shmem_finalize", "Shmem.close()");
        m.put("shmem_query_initialized", "Shmem.isInitialized()");
        m.put("shmem_query_thread", "Shmem.threadLevel()");
        m.put("shmem_my_pe", "Shmem.myPe()");
        m.put("shmem_n_pes", "Shmem.nPes()");
        m.put("shmem_pe_accessible", "Shmem.peAccessible(int)");
        m.put("shmem_addr_accessible", "Shmem.addrAccessible(SymmetricArray, int)");
        m.put("shmem_ptr", "Shmem.ptr(SymmetricArray, int)");
        m.put("shmem_team_ptr", "Team.ptr(SymmetricArray, int)");
        m.put("shmem_info_get_version", "Shmem.majorVersion()/minorVersion()");
        m.put("shmem_info_get_name", "Shmem.vendorName()");
        m.put("shmem_global_exit", "Shmem.globalExit(int)");
        m.put("shmem_pcontrol", "Shmem.pcontrol(int)");
        // Memory management
        m.put("shmem_malloc", "Shmem.malloc(long), allocateBytes/Shorts/Chars/Ints/Longs/Floats/Doubles(long)");
        m.put("shmem_calloc", "Shmem.calloc(long, long)");
        m.put("shmem_align", "Shmem.align(long, long)");
        m.put("shmem_realloc", "Shmem.realloc(SymmetricMemory, long)");
        m.put("shmem_malloc_with_hints", "Shmem.mallocWithHints(long, MallocHint...)");
        m.put("shmem_free", "Shmem.free(SymmetricArray)");
        // Teams
        m.put("shmem_team_my_pe", "Team.myPe()");
        m.put("shmem_team_n_pes", "Team.nPes()");
        m.put("shmem_team_get_config", "Team.config()");
        m.put("shmem_team_translate_pe", "Team.translatePe(int, Team)");
        m.put("shmem_team_split_strided", "Team.splitStrided(int, int, int[, TeamConfig])");
        m.put("shmem_team_split_2d", "Team.split2d(int[, TeamConfig, TeamConfig])");
        m.put("shmem_team_destroy", "Team.close()");
        // Contexts
        m.put("shmem_ctx_create", "Shmem.createContext(ContextOption...)");
        m.put("shmem_team_create_ctx", "Team.createContext(ContextOption...)");
        m.put("shmem_ctx_destroy", "ShmemContext.close()");
        m.put("shmem_ctx_get_team", "ShmemContext.team()");
        m.put("shmem_ctx_session_start", "ShmemContext.sessionStart(SessionConfig, SessionOption...)");
        m.put("shmem_ctx_session_stop", "ShmemContext.sessionStop()");
        // RMA
        m.put("shmem_put", "ShmemContext.put(SymmetricArray, long, A, int, int, int)");
        m.put("shmem_p", "ShmemContext.p(SymmetricX, long, x, int)");
        m.put("shmem_iput", "ShmemContext.iput(...)");
        m.put("shmem_ibput", "ShmemContext.ibput(...)");
        m.put("shmem_get", "ShmemContext.get(A, int, SymmetricArray, long, int, int)");
        m.put("shmem_g", "ShmemContext.g(SymmetricX, long, int)");
        m.put("shmem_iget", "ShmemContext.iget(...)");
        m.put("shmem_ibget", "ShmemContext.ibget(...)");
        m.put("shmem_put_nbi", "ShmemContext.putNbi(...)");
        m.put("shmem_get_nbi", "ShmemContext.getNbi(...)");
        m.put("shmem_putmem", "ShmemContext.putmem(SymmetricArray, long, MemorySegment, int)");
        m.put("shmem_getmem", "ShmemContext.getmem(MemorySegment, SymmetricArray, long, int)");
        m.put("shmem_putmem_nbi", "ShmemContext.putmemNbi(...)");
        m.put("shmem_getmem_nbi", "ShmemContext.getmemNbi(...)");
        // AMO
        for (final String op : new String[] {"fetch", "set", "compare_swap", "swap", "fetch_inc", "inc", "fetch_add", "add",
            "fetch_and", "and", "fetch_or", "or", "fetch_xor", "xor"})
        {
            m.put("shmem_atomic_" + op, "ShmemContext.atomic" + camel(op) + "(...)");
        }
        for (final String op : new String[] {"fetch", "compare_swap", "swap", "fetch_inc", "fetch_add", "fetch_and", "fetch_or", "fetch_xor"})
        {
            m.put("shmem_atomic_" + op + "_nbi", "ShmemContext.atomic" + camel(op) + "Nbi(...)");
        }
        // Signaling
        m.put("shmem_put_signal", "ShmemContext.putSignal(...)");
        m.put("shmem_put_signal_nbi", "ShmemContext.putSignalNbi(...)");
        m.put("shmem_signal_fetch", "SymmetricLongs.signalFetch(long)");
        m.put("shmem_signal_add", "ShmemContext.signalAdd(SymmetricLongs, long, long, int)");
        m.put("shmem_signal_set", "ShmemContext.signalSet(SymmetricLongs, long, long, int)");
        // Collectives
        m.put("shmem_barrier_all", "Shmem.barrierAll()");
        m.put("shmem_sync_all", "Shmem.syncAll()");
        m.put("shmem_sync", "Team.sync()");
        m.put("shmem_alltoall", "Team.alltoall(...)");
        m.put("shmem_alltoalls", "Team.alltoalls(...)");
        m.put("shmem_broadcast", "Team.broadcast(...)");
        m.put("shmem_collect", "Team.collect(...)");
        m.put("shmem_fcollect", "Team.fcollect(...)");
        for (final String op : new String[] {"and", "or", "xor", "max", "min", "sum", "prod"})
        {
            m.put("shmem_" + op + "_reduce", "Team.reduce(ReduceOp." + op.toUpperCase(java.util.Locale.ROOT) + ", ...)");
        }
        m.put("shmem_sum_inscan", "Team.sumInscan(...)");
        m.put("shmem_sum_exscan", "Team.sumExscan(...)");
        // Point-to-point synchronization
        m.put("shmem_wait_until", "SymmetricInts/Longs.waitUntil(long, Cmp, long)");
        m.put("shmem_wait_until_all", "waitUntilAll(int[], Cmp, long)");
        m.put("shmem_wait_until_any", "waitUntilAny(int[], Cmp, long)");
        m.put("shmem_wait_until_some", "waitUntilSome(int[], int[], Cmp, long)");
        m.put("shmem_wait_until_all_vector", "waitUntilAllVector(int[], Cmp, long[])");
        m.put("shmem_wait_until_any_vector", "waitUntilAnyVector(int[], Cmp, long[])");
        m.put("shmem_wait_until_some_vector", "waitUntilSomeVector(int[], int[], Cmp, long[])");
        m.put("shmem_test", "SymmetricInts/Longs.test(long, Cmp, long)");
        m.put("shmem_test_all", "testAll(int[], Cmp, long)");
        m.put("shmem_test_any", "testAny(int[], Cmp, long)");
        m.put("shmem_test_some", "testSome(int[], int[], Cmp, long)");
        m.put("shmem_test_all_vector", "testAllVector(int[], Cmp, long[])");
        m.put("shmem_test_any_vector", "testAnyVector(int[], Cmp, long[])");
        m.put("shmem_test_some_vector", "testSomeVector(int[], int[], Cmp, long[])");
        m.put("shmem_signal_wait_until", "SymmetricLongs.signalWaitUntil(long, Cmp, long)");
        // Memory ordering
        m.put("shmem_fence", "ShmemContext.fence()");
        m.put("shmem_quiet", "ShmemContext.quiet()");
        m.put("shmem_pe_quiet", "ShmemContext.peQuiet(int...)");
        // Distributed locking
        m.put("shmem_set_lock", "SymmetricLock.set()");
        m.put("shmem_test_lock", "SymmetricLock.test()");
        m.put("shmem_clear_lock", "SymmetricLock.clear()");
        JAVA = java.util.Collections.unmodifiableMap(m);
    }

    private Routines()
    {
    }

    private static String camel(final String op)
    {
        final StringBuilder sb = new StringBuilder();
        for (final String part : op.split("_"))
        {
            sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb.toString();
    }
}
