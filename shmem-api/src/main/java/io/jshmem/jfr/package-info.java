/**
 * JDK Flight Recorder events of jshmem ({@code jdk.jfr}, part of every JDK): what a PE did, on a
 * timeline, for JDK Mission Control or {@code jfr print --events jshmem.Collective pe0.jfr}. The runtime
 * emits them; programs only read them from recordings. Each carries the PE (WORLD number) that emitted it.
 * <ul>
 * <li>{@link io.jshmem.jfr.CollectiveEvent} {@code jshmem.Collective}: every collective and barrier, with
 * its team, size in bytes and the algorithm chosen.</li>
 * <li>{@link io.jshmem.jfr.WaitEvent} {@code jshmem.Wait}: waits that block longer than the threshold
 * (default 1 ms): wait_until and its set forms, signal waits, quiet.</li>
 * <li>{@link io.jshmem.jfr.TransferEvent} {@code jshmem.Transfer}: puts and gets of at least
 * {@link io.jshmem.jfr.TransferEvent#MIN_BYTES} bytes, with the target and the transport.</li>
 * <li>{@link io.jshmem.jfr.TransportEvent} {@code jshmem.Transport}: connections made at init, lost
 * peers and dropped strangers.</li>
 * <li>{@link io.jshmem.jfr.HeapEvent} {@code jshmem.Heap}: symmetric allocations, frees and exhaustion.</li>
 * </ul>
 * A disabled event costs nothing measurable: events on per-operation paths are created only past a
 * check the operation makes anyway (a wait that was not satisfied at once, a transfer of at least
 * {@code MIN_BYTES}), and a disabled event's {@code begin}/{@code commit} compile away
 * (benchmarks/README.md has the JMH numbers). Until JFR starts in the JVM, no event is made at all and no event
 * class is loaded: see {@link io.jshmem.jfr.Jfr}.
 */
package io.jshmem.jfr;
