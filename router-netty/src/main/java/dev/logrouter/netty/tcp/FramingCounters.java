package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;

/**
 * The counters the TCP frame decoders move, shared by all connections of one source.
 *
 * <p>Threads: any event loop adds; JMX reads.
 */
public final class FramingCounters {

    /** Bad octet-count headers and frames over the limit: the connection was closed. */
    final Counter malformed;
    /** LF-framed lines longer than max-message-size, split into several messages as syslog-ng does. */
    final Counter truncated;
    /** Empty lines / zero-length frames, skipped. */
    final Counter empty;
    /** Connections closed in the middle of an octet-counted frame: the partial frame is discarded. */
    final Counter partial;

    public FramingCounters(MetricGroup g) {
        malformed = g.counter("malformed", "Framing errors (bad octet-count header, frame over max-message-size): "
                + "the connection is closed.");
        truncated = g.counter("truncated", "LF-framed lines over max-message-size, split into several messages.");
        empty = g.counter("emptyFrames", "Empty lines or zero-length frames, skipped.");
        partial = g.counter("partialFrames", "Octet-counted frames cut short by the peer closing: discarded.");
    }

    /** Counters that nobody reads (codec tests, benchmarks). */
    public static FramingCounters detached() {
        return new FramingCounters(new MetricGroup("Source", "detached"));
    }
}
