package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;

import java.io.IOException;

/**
 * A destination. The pipeline gives each sink its own thread ({@link SinkHandler}): {@link #append}
 * adds one event to the sink's current batch, {@link #flush} writes the batch out, {@link #close}
 * flushes and releases everything.
 *
 * <p>An event passed to {@code append} is only valid during the call: copy what you need.
 * Throwing from {@code append} or {@code flush} makes the handler retry with backoff (holding the
 * ring, so backpressure reaches the sources); a sink that can never write an item must dead-letter it
 * itself and return normally. An {@code append} that throws must leave the batch as it was (the handler
 * retries it, or, after {@code max-retries}, dead-letters the event). After {@code max-retries} failed
 * flushes the handler calls {@link #deadLetterBatch}: the sink hands its pending items over and starts afresh.
 *
 * <p>Threads: every call but {@link #abort} comes from the sink's own thread, {@code sink-<name>}, so an
 * implementation needs no locking; {@link #abort} may come from any thread (a forced stop).
 */
public interface Sink {

    /** Appends one event to the batch; returns the bytes it added, for {@code batch-bytes}. */
    long append(LogEvent event) throws Exception;

    /** Writes out the batch. After it returns the batch is empty. */
    void flush() throws Exception;

    /**
     * Called on the sink thread about every 100 ms while the ring has nothing for it (only with the
     * {@code backoff} wait strategy), for time-based housekeeping: closing idle files, a due fsync.
     */
    default void tick() throws Exception {
    }

    /**
     * The handler gave up on the pending batch ({@code flush} failed {@code max-retries} + 1 times): write every item
     * appended since the last successful flush that is not known to be written out to {@code deadLetters}, with
     * {@code reason}, and empty the batch, so that the next {@code append} starts a new one. An item whose fate is
     * unknown (sent, no answer) is dead-lettered too: the destination may then hold it as well. The events are no
     * longer in the ring (it was released after their Disruptor batch): only the sink has them. The default
     * cannot: it throws {@link UnsupportedOperationException}, and the handler then retries the flush forever.
     * Called on the sink thread.
     */
    default void deadLetterBatch(DeadLetterFile deadLetters, String reason) throws IOException {
        throw new UnsupportedOperationException("this sink cannot hand its pending batch over");
    }

    /**
     * Closes and reopens what the sink holds open by name (files), after the handler flushed the batch: an operator's
     * reopen (SIGUSR1, JMX {@code reopen}; logrotate's {@code postrotate}) after the files were renamed. Called on the
     * sink thread; the default does nothing (sinks without files).
     */
    default void reopenFiles() throws Exception {
    }

    /** Called once on the sink thread before the first event. */
    default void start() throws Exception {
    }

    /**
     * A forced stop gave up on this sink: a call blocked waiting for a server (e.g. for acknowledgements)
     * should return or throw soon. Called from any thread; the default does nothing.
     */
    default void abort() {
    }

    /**
     * Why this sink has delivered nothing for at least {@code staleNanos} while it has events to deliver (a
     * journaled sink whose destination is down: its backlog grows while the ring moves on), or null when it
     * delivers or has nothing to deliver. For {@code /health}: any thread, cheap (no I/O). The default: null (a
     * sink that cannot take its batch fails its flush, which the handler shows as retrying).
     *
     * @param nowNanos   {@link System#nanoTime()} now
     * @param staleNanos {@code health.stale-after}
     */
    default String stalled(long nowNanos, long staleNanos) {
        return null;
    }

    /** Flushes and releases resources; called once, on the sink thread, when the pipeline stops. */
    void close() throws Exception;
}
