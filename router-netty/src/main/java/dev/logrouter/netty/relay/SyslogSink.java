package dev.logrouter.netty.relay;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.template.ByteBuilder;

import java.util.Arrays;

/**
 * The syslog sink with {@code buffer: memory}: each appended event is encoded ({@link SyslogEncoder}) into one batch
 * buffer; a flush hands the whole batch to the {@link SyslogDelivery}, which writes it to one host's connection with
 * one write and flush and returns once the write completed on the socket, so the handler counts the batch
 * {@code written} only then. A failed write sends the batch again to the next live host ({@code resent}); with no
 * live host the flush throws and the handler retries it with backoff, holding the ring: backpressure reaches the
 * sources, and memory stays one batch.
 *
 * <p>What plain TCP cannot promise: a write completes when the kernel took the bytes, not when the peer read them;
 * bytes the kernel accepted before the peer died are lost without an error (RELP closes that gap).
 *
 * <p>Threads: every method but {@link #abort} runs on the sink's thread ({@code sink-<name>}); {@link #abort} from
 * any thread.
 */
final class SyslogSink implements Sink {

    private final SyslogEncoder encoder;
    private final SyslogDelivery delivery;
    private final String target;

    private final ByteBuilder batch = new ByteBuilder(64 * 1024);
    /** End offset in {@link #batch} of each message. */
    private int[] ends = new int[1024];
    private int count;
    private volatile boolean aborted;

    SyslogSink(SyslogEncoder encoder, SyslogDelivery delivery, String target) {
        this.encoder = encoder;
        this.delivery = delivery;
        this.target = target;
    }

    @Override
    public void start() {
        delivery.start();
    }

    @Override
    public long append(LogEvent event) {
        int start = batch.length();
        encoder.encode(event, batch);
        if (count == ends.length) {
            ends = Arrays.copyOf(ends, count * 2);
        }
        ends[count++] = batch.length();
        return batch.length() - start;
    }

    @Override
    public void flush() throws Exception {
        delivery.send(batch.array(), ends, count);
        batch.reset();
        count = 0;
    }

    /** Every message of the pending batch goes to the dead-letter file (target: the hosts); the batch is empty. */
    @Override
    public void deadLetterBatch(DeadLetterFile deadLetters, String reason) {
        int start = 0;
        for (int i = 0; i < count; i++) {
            deadLetters.write(target, reason, null, batch.array(), start, ends[i] - start);
            start = ends[i];
        }
        batch.reset();
        count = 0;
        delivery.forget();
    }

    /** Idle time: failback probes go on while no batch comes. */
    @Override
    public void tick() {
        delivery.tick();
    }

    @Override
    public void abort() {
        aborted = true;
        delivery.abort();
    }

    /**
     * Flushes, then closes the connections and the event loop. A flush that fails leaves everything open for the
     * handler's retry, unless the stop was forced ({@link #abort}).
     */
    @Override
    public void close() throws Exception {
        try {
            flush();
        } catch (Exception e) {
            if (aborted) {
                delivery.close();
            }
            throw e;
        }
        delivery.close();
    }
}
