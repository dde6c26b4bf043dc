package dev.logrouter.patterndb.radix;

/**
 * A pattern that cannot be inserted (spec 2.10, per-pattern class): an unknown parser, a parser without its
 * mandatory parameter, a PCRE that does not compile, a lone {@code @}. The message uses the reference's
 * wording ({@code Unknown parser type specified}, {@code Key contains '@' without escaping}, ...) so that logs
 * compare with syslog-ng's.
 *
 * <p>Threads: immutable; thrown and caught while a tree is built.
 */
public final class PatternException extends Exception {

    private static final long serialVersionUID = 1L;

    public PatternException(String message) {
        super(message, null, false, false);
    }
}
