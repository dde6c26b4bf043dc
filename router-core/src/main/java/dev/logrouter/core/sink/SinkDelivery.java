package dev.logrouter.core.sink;

import java.io.IOException;

/**
 * The second half of a sink: encoded records (the bytes a {@link SinkEncoder} made) to the destination, with an
 * outcome per record. Records are {@link #add added} to a pending batch (a delivery may start sending part of it at
 * once: a Kafka producer, a full bulk request); {@link #flush} returns when every pending record is either taken by
 * the destination (written on the socket, acknowledged by the broker, indexed) or rejected for good and written to
 * the sink's dead-letter file by the delivery itself (a record too large, a mapping error). When some record is
 * neither, {@code flush} throws and keeps it pending: the next {@code flush} sends only what is still pending, so a
 * retry never repeats what the destination already took (a resend after an unclear answer is counted by the
 * delivery).
 *
 * <p>Two callers drive it the same way: {@link EncodedSink} (with {@code buffer: memory}, on the sink's thread) and a
 * journaled sink's delivery thread (records read back from the journal).
 *
 * <p>Threads: one thread calls every method but {@link #abort} (the sink's thread, or a journaled sink's delivery
 * thread); {@link #abort} may come from any thread.
 */
public interface SinkDelivery {

    /** Prepares connections; called once before the first record (called again when it throws). */
    default void start() throws Exception {
    }

    /**
     * Adds one record, {@code record[off .. off+len)}, to the pending batch; the bytes are copied or consumed before
     * it returns. It may send records already; a failure it meets is reported by the next {@link #flush}.
     */
    void add(byte[] record, int off, int len) throws Exception;

    /**
     * Sends what is pending and returns when every pending record was taken or dead-lettered.
     *
     * @throws Exception when some were not: they stay pending for the next call
     */
    void flush() throws Exception;

    /**
     * Gives the pending records up (the caller's retries ran out): each is written to {@code deadLetters} with
     * {@code reason} (one whose fate is unknown, sent without an answer, too: the destination may hold it as well),
     * and the next {@link #add} starts a new batch.
     */
    void deadLetterPending(DeadLetterFile deadLetters, String reason) throws IOException;

    /** Idle time on the calling thread (about every 100 ms while no record comes): probes, housekeeping. */
    default void tick() throws Exception {
    }

    /**
     * Closes what the delivery holds open by name (files); they are opened again by the next record (the operator's
     * reopen after logrotate renamed them). Called with nothing pending. The default does nothing.
     */
    default void reopenFiles() throws Exception {
    }

    /** A forced stop: a flush waiting for the destination should return or throw soon. Any thread. */
    default void abort() {
    }

    /** Releases connections. Pending records are not sent. */
    void close() throws Exception;
}
