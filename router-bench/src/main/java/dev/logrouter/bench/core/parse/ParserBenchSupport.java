package dev.logrouter.bench.core.parse;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;

/**
 * Setup shared by the message parser benchmarks: an event received from an RFC 5424 frame with its syslog header
 * parsed (so MSG is the payload), a parser step created from its config record as the router creates it, and the
 * check that the payload parses as intended, so that a failure path is never what is measured.
 *
 * <p>Threads: called from JMH {@code @Setup} methods only; stateless.
 */
public final class ParserBenchSupport {

    private ParserBenchSupport() {
    }

    /**
     * Fills {@code event} with the frame {@code <134>1 2024-05-01T12:34:56.789Z <host> app 4242 - - <msg>} (UTF-8)
     * and parses its header.
     */
    public static void receive(LogEvent event, String host, String msg) {
        byte[] raw = ("<134>1 2024-05-01T12:34:56.789Z " + host + " app 4242 - - " + msg)
                .getBytes(StandardCharsets.UTF_8);
        event.setRaw(raw, 0, raw.length);
        new SyslogHeaderParser(ZoneOffset.UTC).parse(event);
    }

    /** The parser step of {@code cfg}, named {@code bench.<type>}, with its own metric group. */
    public static EventParser create(ParserConfig cfg, String type) {
        String name = "bench." + type;
        return cfg.create(new ParseContext(name, type, ZoneOffset.UTC, new MetricGroup("Parser", name)));
    }

    /**
     * Throws unless a parse of {@code event} wrote {@code expected} fields and no tag (no failure tag).
     *
     * @param fields the field count the parse left
     */
    public static void checkParsed(String shape, LogEvent event, int fields, int expected) {
        if (fields != expected || event.tagCount() != 0) {
            throw new IllegalStateException(shape + " (" + event.rawLength() + " bytes) did not parse as intended: "
                    + fields + " fields (expected " + expected + "), " + event.tagCount() + " tags");
        }
    }
}
