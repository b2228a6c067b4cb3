package io.jshmem;

/** Options of {@code shmem_ctx_session_start} (OpenSHMEM 1.6). Hints: they never change semantics. */
public enum SessionOption
{
    /** {@code SHMEM_CTX_SESSION_BATCH}: the session issues a batch of small operations. */
    BATCH
}
