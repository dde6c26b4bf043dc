package dev.logrouter.patterndb;

import dev.logrouter.core.event.LogEvent;

import java.nio.charset.StandardCharsets;

/**
 * Builds stand-alone events the way {@code pdbtool} does for {@code test} and {@code match -P -M}: PROGRAM
 * (left unset when null or empty) and MESSAGE, nothing else.
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
}
