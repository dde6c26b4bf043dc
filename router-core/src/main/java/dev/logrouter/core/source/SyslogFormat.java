package dev.logrouter.core.source;

import dev.logrouter.core.event.LogEvent;

/**
 * The {@code format:} option of a source: which syslog header parser its messages get.
 * {@code rfc3164} is syslog-ng's {@code network()} source (BSD syslog only); {@code rfc5424} and
 * {@code auto} are its {@code syslog()} source (RFC 5424, falling back to RFC 3164 when the message
 * does not start with {@code <PRI>1 }). {@code json} is a JSON object as a {@code kafka} sink writes it by default
 * (header, stamp, tags and name-value pairs come back; see {@code JsonEnvelopeParser}), falling back to the syslog
 * parsers for anything else.
 *
 * <p>Threads: immutable.
 */
public enum SyslogFormat {
    auto(LogEvent.FORMAT_AUTO), rfc3164(LogEvent.FORMAT_RFC3164), rfc5424(LogEvent.FORMAT_RFC5424),
    json(LogEvent.FORMAT_JSON);

    private final byte hint;

    SyslogFormat(byte hint) {
        this.hint = hint;
    }

    public byte hint() {
        return hint;
    }
}
