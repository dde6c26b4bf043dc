package dev.logrouter.patterndb.ruleset;

/**
 * A ruleset file the loader rejects as a whole (spec 2.10, fatal class). The message reads
 * {@code FILE:LINE:COLUMN: what is wrong, and what to do}.
 *
 * <p>Threads: immutable.
 */
public final class PdbLoadException extends Exception {

    private final String source;
    private final int line;
    private final int column;

    public PdbLoadException(String source, int line, int column, String message) {
        super(source + ":" + line + ":" + column + ": " + message);
        this.source = source;
        this.line = line;
        this.column = column;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
