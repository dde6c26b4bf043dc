package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;

/**
 * A destination. The pipeline gives each sink its own thread ({@link SinkHandler}): {@link #append}
 * adds one event to the sink's current batch, {@link #flush} writes the batch out, {@link #close}
 * flushes and releases everything. All calls come from that one thread, so an implementation needs
 * no locking.
 *
 * <p>An event passed to {@code append} is only valid during the call: copy what you need.
 * Throwing from {@code append} or {@code flush} makes the handler retry with backoff (holding the
 * ring, so backpressure reaches the sources); a sink that can never write an item must dead-letter it
 * itself and return normally.
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

    /** Called once on the sink thread before the first event. */
    default void start() throws Exception {
    }

    /**
     * A forced stop gave up on this sink: a call blocked waiting for a server (e.g. for acknowledgements)
     * should return or throw soon. Called from any thread; the default does nothing.
     */
    default void abort() {
    }

    /** Flushes and releases resources; called once, on the sink thread, when the pipeline stops. */
    void close() throws Exception;
}
