package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.sink.EncodedSink;
import dev.logrouter.core.template.ByteBuilder;

/**
 * The HDFS sink with {@code buffer: memory}: an {@link EncodedSink} of {@link HdfsEncoder} and {@link HdfsDelivery}
 * without the record between them. Each event's relative path is rendered into a scratch buffer, its part file found
 * (or opened) by the delivery, and its line rendered straight into that file's buffer of pending lines, which a flush
 * writes in one call per file. So a line is copied once (into the Hadoop client's packet) on its way from the
 * template to HDFS. Flushes, batches, retries, dead letters, abort and close are {@link EncodedSink}'s, i.e. the
 * delivery's, as with the record in between.
 *
 * <p>Threads: every method but {@link #abort} on the sink's thread ({@code sink-<name>}); {@link #abort} from any
 * thread.
 */
final class HdfsMemorySink extends EncodedSink {

    private final HdfsEncoder encoder;
    private final HdfsDelivery delivery;
    private final ByteBuilder path = new ByteBuilder(256);

    HdfsMemorySink(HdfsEncoder encoder, HdfsDelivery delivery) {
        super(encoder, delivery);
        this.encoder = encoder;
        this.delivery = delivery;
    }

    /** Renders the line into its file's pending lines; returns the line's length. */
    @Override
    public long append(LogEvent event) throws Exception {
        path.reset();
        encoder.renderPath(event, path);
        ByteBuilder lines = delivery.lineBuffer(path.array(), 0, path.length());
        int before = lines.length();
        try {
            encoder.renderLine(event, lines);
        } catch (RuntimeException | Error e) {
            lines.setLength(before); // no half line in the file: the append is retried or dead-lettered whole
            throw e;
        }
        return lines.length() - before;
    }
}
