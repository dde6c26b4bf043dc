package dev.logrouter.patterndb.ruleset;

/**
 * One {@code <pattern>} exactly as written (not trimmed), with the position the reference reports for it in
 * warnings and errors ({@code location='FILE:LINE:COLUMN'}): where the pattern's text ends, in syslog-ng's
 * numbering (see {@link PdbLoader}). {@code column} is 0 when unknown.
 *
 * <p>Threads: immutable.
 */
public record PatternText(String text, int line, int column) {

    /** A pattern whose column is unknown (e.g. built in code). */
    public PatternText(String text, int line) {
        this(text, line, 0);
    }
}
