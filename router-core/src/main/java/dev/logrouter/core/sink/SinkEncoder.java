package dev.logrouter.core.sink;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.template.ByteBuilder;

import java.nio.charset.StandardCharsets;
import java.util.Map;

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

    /**
     * A readable account of an encoded record, for {@code logrouter test}: its parts by name, in the order the
     * destination reads them (a path and a line, a topic, key and value, an index, id and document), each as text
     * (UTF-8, malformed bytes replaced). Not on the hot path: allocates. The default: the whole record as
     * {@code record}.
     */
    default Map<String, String> describe(byte[] record, int off, int len) {
        return Map.of("record", new String(record, off, len, StandardCharsets.UTF_8));
    }
}
