/**
 * The ring and its stages: the stage in "source → ring → stage → sink".
 *
 * <pre>
 *  RingBuffer&lt;LogEvent&gt; ─▶ ParseWorker ×n (sequence % n) ─▶ SinkHandler ×sinks (batch, flush, retry)
 * </pre>
 *
 * Threads are named {@code parse-<k>} and {@code sink-<name>}; every ring has a counting exception
 * handler; the default wait strategy backs off to parking and ticks idle stages.
 */
package dev.logrouter.core.pipeline;
