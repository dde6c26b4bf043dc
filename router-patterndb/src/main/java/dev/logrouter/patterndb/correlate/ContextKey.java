package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.patterndb.ruleset.Scope;

import java.nio.charset.StandardCharsets;

/**
 * The key of a correlation context or of a rate-limit bucket (spec 8.1, 8.6): the scope, an id (the context-id, or
 * {@code "ruleid:actionindex"} for a bucket) and the header fields the scope adds ({@code process}: HOST, PROGRAM,
 * PID; {@code program}: HOST, PROGRAM; {@code host}: HOST; {@code global}: none). Fields outside the scope are
 * empty; unset fields read as empty. Strings hold the bytes one char per byte (ISO-8859-1), so any byte sequence
 * round-trips.
 *
 * <p>Threads: immutable.
 */
public record ContextKey(Scope scope, String id, String host, String program, String pid) {

    /** The key for {@code id} in {@code scope}, with the scope's fields read from {@code e}. */
    public static ContextKey of(Scope scope, String id, LogEvent e) {
        String host = "";
        String program = "";
        String pid = "";
        switch (scope) {
            case PROCESS:
                pid = field(e, LogEvent.PID);
                // fall through
            case PROGRAM:
                program = field(e, LogEvent.PROGRAM);
                // fall through
            case HOST:
                host = field(e, LogEvent.HOST);
                break;
            default:
                break;
        }
        return new ContextKey(scope, id, host, program, pid);
    }

    /** Writes the scope's fields of this key into {@code e} (what a generated message gets, spec 8.7 step 2). */
    public void writeScopeFields(LogEvent e) {
        switch (scope) {
            case PROCESS:
                set(e, LogEvent.PID, pid);
                // fall through
            case PROGRAM:
                set(e, LogEvent.PROGRAM, program);
                // fall through
            case HOST:
                set(e, LogEvent.HOST, host);
                break;
            default:
                break;
        }
    }

    static String field(LogEvent e, int f) {
        return new String(e.fieldArray(f), e.fieldOffset(f), e.fieldLength(f), StandardCharsets.ISO_8859_1);
    }

    private static void set(LogEvent e, int f, String v) {
        byte[] b = v.getBytes(StandardCharsets.ISO_8859_1);
        e.setFieldCopy(f, b, 0, b.length);
    }
}
