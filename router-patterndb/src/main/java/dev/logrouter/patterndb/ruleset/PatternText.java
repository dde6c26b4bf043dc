package dev.logrouter.patterndb.ruleset;

/**
 * One {@code <pattern>} exactly as written (not trimmed), with the line it starts on for error messages.
 *
 * <p>Threads: immutable.
 */
public record PatternText(String text, int line) {
}
