package dev.logrouter.core.journal;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.sink.EncodedSink;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.sink.SinkEncoder;

/**
 * The one place a sink's two halves are put together by its {@code buffer} option, and the documentation of the
 * options every journaling sink declares ({@code buffer}, {@code journal}, {@code drain-timeout}, {@code overflow}).
 *
 * <p>Threads: static; called on the thread that builds the pipeline.
 */
public final class SinkBuffers {

    public static final String BUFFER_DOC = "memory: a batch counts as written when the destination took it, and a "
            + "destination that is down holds the ring (and so every source and sink). journal: each message is "
            + "appended to this sink's crash-safe journal and counts as written once committed there; a delivery "
            + "thread sends the journal's backlog, so a destination that is down holds nothing else, and a kill -9 "
            + "loses nothing journaled (docs/journal.md).";
    public static final String JOURNAL_DOC = "With buffer: journal: the journal's directory, segment size, limits and "
            + "sync policy.";
    public static final String DRAIN_TIMEOUT_DOC = "With buffer: journal: at a stop, how long the delivery thread goes "
            + "on working off the backlog; what is left is delivered after the next start.";
    public static final String OVERFLOW_DOC = "With buffer: journal, when the journal is full (journal.max-size, or "
            + "the free-disk reserve): block holds the ring (the sources pause); drop-newest drops the message, counts "
            + "it (overflowDropped) and lets everything else go on; drop-oldest drops the oldest segment's undelivered "
            + "messages to make room (counted in overflowDropped; the batch being sent goes to dead-letter).";

    public static final String MAX_BACKLOG_DOC = "With buffer: journal: the most bytes this sink's journal keeps on "
            + "disk, its backlog of undelivered messages (at least twice journal.segment-size); when it is reached the "
            + "overflow policy acts. Not set: journal.max-size (10GiB).";

    private SinkBuffers() {
    }

    /**
     * The sink: with {@code memory} an {@link EncodedSink}; with {@code journal} a {@link JournaledSink} whose
     * delivery thread sends batches of up to {@code batchSize} records or {@code batchBytes}.
     */
    public static Sink create(Buffer buffer, SinkEncoder encoder, SinkDelivery delivery, JournalConfig journal,
                              int batchSize, long batchBytes, TimeSpan drainTimeout, Overflow overflow,
                              SinkContext ctx) {
        return create(buffer, encoder, delivery, journal, null, batchSize, batchBytes, drainTimeout, overflow, ctx);
    }

    /** As above, with {@code max-backlog} (null: not set) as the journal's {@code max-size}. */
    public static Sink create(Buffer buffer, SinkEncoder encoder, SinkDelivery delivery, JournalConfig journal,
                              ByteSize maxBacklog, int batchSize, long batchBytes, TimeSpan drainTimeout,
                              Overflow overflow, SinkContext ctx) {
        if (maxBacklog != null) {
            try {
                journal = journal.withMaxSize(maxBacklog.bytes());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("max-backlog " + e.getMessage().replace("max-size ", ""), e);
            }
        }
        if (buffer == Buffer.journal) {
            return new JournaledSink(ctx.name(), encoder, delivery, journal, batchSize, batchBytes,
                    drainTimeout.nanos(), overflow, ctx.clock(), ctx.metrics(), ctx.deadLetters(),
                    ctx.journals());
        }
        return new EncodedSink(encoder, delivery);
    }
}
