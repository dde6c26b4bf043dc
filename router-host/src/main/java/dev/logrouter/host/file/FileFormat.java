package dev.logrouter.host.file;

import dev.logrouter.core.event.LogEvent;

/**
 * The {@code format:} of a file source: {@code raw} lines (syslog-ng's {@code file()} with {@code flags(no-parse)},
 * rsyslog's {@code imfile}) or syslog lines parsed as the network sources parse them.
 *
 * <p>Threads: immutable.
 */
public enum FileFormat {
    raw(LogEvent.FORMAT_RAW), auto(LogEvent.FORMAT_AUTO), rfc3164(LogEvent.FORMAT_RFC3164),
    rfc5424(LogEvent.FORMAT_RFC5424), json(LogEvent.FORMAT_JSON);

    private final byte hint;

    FileFormat(byte hint) {
        this.hint = hint;
    }

    /** The format hint stamped on each event for the parse workers. */
    public byte hint() {
        return hint;
    }
}
