package dev.logrouter.patterndb;

import dev.logrouter.core.event.LogEvent;

import dev.logrouter.core.parse.syslog.SyslogHeaderParser;

import java.nio.charset.StandardCharsets;

/**
 * Builds stand-alone events the way {@code pdbtool} does for {@code test} and {@code match -P -M}: PROGRAM
 * (left unset when null or empty) and MESSAGE, nothing else; and for {@code match -f}, from one syslog line.
 *
 * <p>Threads: stateless.
 */
public final class PdbEvents {

    private PdbEvents() {
    }

    /** A new event with PROGRAM = {@code program} (unset when null or empty) and MSG = {@code message}. */
    public static LogEvent message(String program, String message) {
        LogEvent e = new LogEvent();
        fill(e, program, message);
        return e;
    }

    /** Clears {@code e} and fills it as {@link #message} does. */
    public static void fill(LogEvent e, String program, String message) {
        e.clear();
        byte[] p = program == null ? new byte[0] : program.getBytes(StandardCharsets.UTF_8);
        byte[] m = message == null ? new byte[0] : message.getBytes(StandardCharsets.UTF_8);
        byte[] raw = new byte[p.length + m.length];
        System.arraycopy(p, 0, raw, 0, p.length);
        System.arraycopy(m, 0, raw, p.length, m.length);
        e.setRaw(raw, 0, raw.length);
        if (p.length > 0) {
            e.setField(LogEvent.PROGRAM, 0, p.length);
        }
        e.setField(LogEvent.MSG, p.length, m.length);
    }

    /**
     * A new event parsed from one syslog line as {@code pdbtool match -f} reads its input (RFC 5424, falling back
     * to RFC 3164), received at {@code receivedMillis}.
     */
    public static LogEvent syslogLine(String line, SyslogHeaderParser parser, long receivedMillis) {
        LogEvent e = new LogEvent();
        fillSyslogLine(e, line, parser, receivedMillis);
        return e;
    }

    /** Clears {@code e} and fills it as {@link #syslogLine} does (pdbtool's loop reuses one event per line). */
    public static void fillSyslogLine(LogEvent e, String line, SyslogHeaderParser parser, long receivedMillis) {
        e.clear();
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        e.setSource(0, new byte[0], LogEvent.FORMAT_AUTO, 0L);
        e.setReceivedMillis(receivedMillis);
        parser.parse(e);
    }
}
