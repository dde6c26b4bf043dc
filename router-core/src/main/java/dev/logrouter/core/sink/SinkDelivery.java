package dev.logrouter.core.sink;

/**
 * The second half of a sink: a batch of encoded records to the destination. {@link #send} returns once the
 * destination took every record of the batch (the sink's own notion: written on the socket, acknowledged), or throws;
 * the caller then sends the same batch again (after a backoff), so a delivery may count the repeat as a resend.
 *
 * <p>Threads: one thread calls every method but {@link #abort} (the sink's thread, or a journaled sink's delivery
 * thread); {@link #abort} may come from any thread.
 */
public interface SinkDelivery {

    /** Prepares connections; called once before the first send (retried when it throws). */
    default void start() throws Exception {
    }

    /**
     * Sends records {@code 0..count-1}: record i is {@code buf[ends[i-1] .. ends[i])} (record 0 starts at 0).
     *
     * @throws Exception when not every record was taken: the same batch comes again
     */
    void send(byte[] buf, int[] ends, int count) throws Exception;

    /** The caller gave the last failed batch up (dead letters): the next send is a new batch, not a resend. */
    default void forget() {
    }

    /** A forced stop: a send waiting for the destination should return or throw soon. Any thread. */
    default void abort() {
    }

    /** Releases connections. */
    void close() throws Exception;
}
