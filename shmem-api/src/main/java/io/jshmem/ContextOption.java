package io.jshmem;

/**
 * Options of {@code shmem_ctx_create} / {@code shmem_team_create_ctx}. They are promises by the
 * program that let an implementation take shortcuts; they never change what an operation does.
 */
public enum ContextOption
{
    /** {@code SHMEM_CTX_SERIALIZED}: the program never calls the context from two threads at once. */
    SERIALIZED,
    /** {@code SHMEM_CTX_PRIVATE}: only the creating thread uses (and closes) the context; jshmem checks it. */
    PRIVATE,
    /** {@code SHMEM_CTX_NOSTORE}: fence and quiet need not order or complete plain stores (puts). */
    NOSTORE
}
