package dev.logrouter.core.sink;

/**
 * When a sink's batch is written out: a pure function of the batch's state and the time, so that tests
 * can drive it with a manual clock. A batch is flushed when it holds {@code batchSize} events, or
 * {@code batchBytes} bytes, or its oldest event has waited {@code flushTimeoutNanos}, or the ring has
 * nothing more for the sink (end of a Disruptor batch).
 *
 * <p>Threads: immutable, any thread.
 *
 * @param batchSize         most events in one batch (syslog-ng flush-lines, Kafka records, ES docs)
 * @param batchBytes        most bytes in one batch
 * @param flushTimeoutNanos longest an appended event waits while more keep arriving
 * @param flushWhenIdle     flush whenever the ring has nothing more for the sink (files: lines reach the file at
 *                          once at low rates). False for a sink whose writes go out on their own and whose flush
 *                          waits for a server's acknowledgement (Kafka): its batches then end only by size or age,
 *                          so that the sink does not wait for a round trip every time the ring runs dry.
 */
public record FlushPolicy(int batchSize, long batchBytes, long flushTimeoutNanos, boolean flushWhenIdle) {

    /** A policy that also flushes whenever the ring has nothing more for the sink. */
    public FlushPolicy(int batchSize, long batchBytes, long flushTimeoutNanos) {
        this(batchSize, batchBytes, flushTimeoutNanos, true);
    }

    public FlushPolicy {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch-size must be >= 1, got " + batchSize);
        }
        if (batchBytes < 1) {
            throw new IllegalArgumentException("batch-bytes must be >= 1, got " + batchBytes);
        }
    }

    /**
     * Whether to flush now.
     *
     * @param events     events in the batch (0 = nothing to flush)
     * @param bytes      bytes in the batch
     * @param firstNanos clock reading when the batch's first event was appended
     * @param nowNanos   clock reading now
     * @param endOfBatch true when the ring has no further event for this sink at the moment
     */
    public boolean shouldFlush(int events, long bytes, long firstNanos, long nowNanos, boolean endOfBatch) {
        if (events == 0) {
            return false;
        }
        return (endOfBatch && flushWhenIdle) || events >= batchSize || bytes >= batchBytes
                || nowNanos - firstNanos >= flushTimeoutNanos;
    }

    /** The clock reading at which a batch started at {@code firstNanos} is due. */
    public long deadline(long firstNanos) {
        return firstNanos + flushTimeoutNanos;
    }
}
