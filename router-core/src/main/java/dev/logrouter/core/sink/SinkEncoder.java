package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.template.ByteBuilder;

/**
 * The first half of a sink: one event to the bytes its destination takes (a framed syslog message, a line, a
 * document). With {@code buffer: journal} these bytes are the journal's records; the {@link SinkDelivery} sends
 * them later.
 *
 * <p>Threads: keeps scratch state; belongs to the sink's thread.
 */
public interface SinkEncoder {

    /** Appends {@code event}'s record to {@code out}. */
    void encode(LogEvent event, ByteBuilder out);

    /**
     * The bytes of an encoded record that reach the destination (the line, the document, the key and value), without
     * the framing that only the delivery reads (a path, an index name): what the sink's {@code bytes} counter and
     * {@code batch-bytes} count. The default: the whole record.
     */
    default int payloadLength(byte[] record, int off, int len) {
        return len;
    }
}
