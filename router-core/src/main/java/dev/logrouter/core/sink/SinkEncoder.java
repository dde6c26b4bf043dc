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
}
