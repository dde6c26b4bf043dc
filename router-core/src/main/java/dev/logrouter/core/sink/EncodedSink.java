package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.template.ByteBuilder;

import java.io.IOException;

/**
 * A sink with {@code buffer: memory}, made of its two halves: each appended event is encoded ({@link SinkEncoder})
 * and handed to the {@link SinkDelivery}; a flush is the delivery's flush, which returns once every record of the
 * batch was taken or dead-lettered, so the handler counts the batch {@code written} (and the ring moves on) only
 * then. A flush that throws leaves the records not taken pending: the handler retries the flush with backoff,
 * holding the ring (backpressure reaches the sources), and after {@code max-retries} hands them to
 * {@link #deadLetterBatch}.
 *
 * <p>A sink whose delivery can take a line rendered straight into its own buffers (HDFS) overrides only
 * {@link #append}; batching, flushes, dead letters, abort and close stay these.
 *
 * <p>Threads: every method but {@link #abort} on the sink's thread ({@code sink-<name>}); {@link #abort} from any
 * thread.
 */
public class EncodedSink implements Sink {

    private final SinkEncoder encoder;
    private final SinkDelivery delivery;
    private final ByteBuilder record = new ByteBuilder(1024);
    private volatile boolean aborted;

    public EncodedSink(SinkEncoder encoder, SinkDelivery delivery) {
        this.encoder = encoder;
        this.delivery = delivery;
    }

    @Override
    public void start() throws Exception {
        delivery.start();
    }

    @Override
    public long append(LogEvent event) throws Exception {
        record.reset();
        encoder.encode(event, record);
        delivery.add(record.array(), 0, record.length());
        return encoder.payloadLength(record.array(), 0, record.length());
    }

    @Override
    public void flush() throws Exception {
        delivery.flush();
    }

    @Override
    public void deadLetterBatch(DeadLetterFile deadLetters, String reason) throws IOException {
        delivery.deadLetterPending(deadLetters, reason);
    }

    @Override
    public void tick() throws Exception {
        delivery.tick();
    }

    @Override
    public void reopenFiles() throws Exception {
        delivery.reopenFiles();
    }

    @Override
    public void abort() {
        aborted = true;
        delivery.abort();
    }

    /**
     * Flushes, then closes the delivery. A flush that fails leaves it open for the handler's retry, unless the stop
     * was forced ({@link #abort}).
     */
    @Override
    public void close() throws Exception {
        try {
            delivery.flush();
        } catch (Exception e) {
            if (aborted) {
                delivery.close();
            }
            throw e;
        }
        delivery.close();
    }
}
