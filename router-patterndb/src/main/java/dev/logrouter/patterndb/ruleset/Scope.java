package dev.logrouter.patterndb.ruleset;

import java.util.Locale;

/**
 * A correlation context's scope ({@code context-scope}): which header fields join the context-id in the
 * context key (spec 8.1).
 *
 * <p>Threads: immutable.
 */
public enum Scope {
    /** HOST, PROGRAM and PID (the default). */
    PROCESS,
    /** HOST and PROGRAM. */
    PROGRAM,
    /** HOST. */
    HOST,
    /** Nothing but the context-id. */
    GLOBAL;

    /** Case-insensitive parse of the XML attribute; null when the text names no scope. */
    public static Scope parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "process" -> PROCESS;
            case "program" -> PROGRAM;
            case "host" -> HOST;
            case "global" -> GLOBAL;
            default -> null;
        };
    }
}
